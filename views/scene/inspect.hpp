#pragma once
/// Inspector text for a hovered cell: address, bank, source coordinate, value, rule, provenance.
/// Pure C++, so the text the GUI shows can be tested without a GPU.
#include "scene/smem_scene.hpp"

#include <span>
#include <string>

namespace layoutscope::views {

/// IEEE binary16 / bfloat16 bit patterns to float.
[[nodiscard]] float halfToFloat(uint16_t h);
[[nodiscard]] float bf16ToFloat(uint16_t h);

/// "fp16 1.5", "bf16 -2", "f32 0.25", "u8 7", "i32 -3" ... for little-endian `bytes` of one element.
[[nodiscard]] std::string formatElement(TensorDataType t, std::span<const uint8_t> bytes);

/// "verified on H100 (measured, sm_90)" / "unverified assumption" / "from <source>, not measured".
[[nodiscard]] std::string provenanceSentence(Provenance p);

/// Text for shared-memory byte `addr` of the scene (CTA s.window.cta), reading values from `smem`
/// (that CTA's memory at the scene's step). Empty when addr is outside the window.
[[nodiscard]] std::string inspectSmemByte(const Document& doc, const SmemScene& s,
                                          std::span<const uint8_t> smem, uint32_t addr);

/// Text for the global element at cell (x, y) of the scene; `global` reads global memory.
[[nodiscard]] std::string inspectGlobalCell(const Document& doc, const GlobalScene& g,
                                            const GlobalMemory& global, uint32_t x, uint32_t y);

} // namespace layoutscope::views
