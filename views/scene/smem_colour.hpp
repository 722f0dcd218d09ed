#pragma once
/// Colour modes of the shared-memory view (no Qt): the scene's texels are coloured by source
/// coordinate (smemSceneAt); these recolour them by instruction, by byte value or by bank, and
/// optionally at 16-B chunk granularity. The flag bits (alpha: written, fill, current) are kept, so
/// untouched bytes, OOB hatching and the "arrived this step" highlight look the same in every mode.
#include "scene/cell_style.hpp"
#include "scene/smem_scene.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace layoutscope::views {

enum class SmemColourBy {
    Source,      ///< tensor coordinate the byte came from (hue = box row, lightness = box column)
    Instruction, ///< the instruction that last wrote the byte
    Value,       ///< the byte's value 0..255 (dark -> bright)
    Bank,        ///< its bank, (addr / 4) mod 32
};

[[nodiscard]] const char* smemColourByName(SmemColourBy by);

/// Colour of bank b (0..31): 8 hues x 4 lightnesses, neighbouring banks far apart in hue.
[[nodiscard]] Rgba8 bankColour(uint32_t bank);
/// Colour of instruction i: golden-angle hues, so consecutive instructions differ.
[[nodiscard]] Rgba8 instrColour(uint32_t instr);
/// Colour of a byte value: a dark-blue -> yellow ramp (0 darkest, 255 brightest).
[[nodiscard]] Rgba8 valueColour(uint8_t v);

/// Recolour the written bytes of `s` (those with kFlagWritten) by `by`. `bytes`: the window's
/// current contents (bytes[i] = shared byte window.base + i). Source leaves the texels as they are.
void recolourSmem(SmemScene& s, SmemColourBy by, std::span<const uint8_t> bytes, const Trace& trace);

/// 16-B chunk granularity: every byte takes the colour and flags of its chunk's first written byte
/// (a chunk is what one TMA / tcgen05.cp step moves), so each chunk reads as one cell.
void chunkSmem(SmemScene& s);

} // namespace layoutscope::views
