#pragma once
/// Decompression scene: one 16-byte tcgen05.cp source chunk, bit by bit, and the sixteen 8-bit
/// containers it expands into (PTX ISA 9.2 §9.7.16.9.1 tcgen05.cp decompression, formats.md §3).
/// Pure C++ (no Qt, no GL).
///
/// Cells: 128 x 8. Row 0: source bits 0..127 (bit i = bit i%8 of byte i/8, little-endian, bit 0 on
/// the left). Row 7: destination bits 0..127 (container e = byte e, bit k at x = 8e + k). Rows 1-6 are
/// empty (the fan of field -> container lines is drawn there by the overlay).
///   .b8x16.b4x16_p64: field e = source bits [4e, 4e+4) -> container bits [2, 6); bits 64..127 padding
///   .b8x16.b6x16_p32: field e = source bits [6e, 6e+6) -> container bits [0, 6); bits 96..127 padding
/// (unverified: open questions 3 and 28: packed order and zero container padding.)
#include "layoutscope/tcgen05/tcgen05.hpp"
#include "scene/cell_style.hpp"
#include "scene/document.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace layoutscope::views {

struct DecompScene {
    CpDecompress kind = CpDecompress::B8x16_B4x16_p64;
    std::array<uint8_t, 16> src{};
    std::array<uint8_t, 16> containers{};
    std::array<int, 128> srcField{};  ///< field e (0..15) of each source bit, -1 = padding
    std::array<int, 128> dstSrcBit{}; ///< source bit of each destination bit, -1 = zero padding
    std::array<uint32_t, 16> codes{}; ///< the 4- or 6-bit code of each field
    std::vector<Rgba8> texels;        ///< 128 x 8
    [[nodiscard]] uint32_t fieldBits() const { return kind == CpDecompress::B8x16_B6x16_p32 ? 6 : 4; }
    /// Container bit of the field's lowest bit: 2 for E2M1 (bits [5:2]), 0 for the 6-bit types.
    [[nodiscard]] uint32_t containerShift() const { return kind == CpDecompress::B8x16_B6x16_p32 ? 0 : 2; }
    static constexpr uint32_t width() { return 128; }
    static constexpr uint32_t height() { return 8; }
};

/// Bits and containers of one chunk (kind None is treated as .b4x16_p64).
[[nodiscard]] DecompScene decompScene(CpDecompress kind, const std::array<uint8_t, 16>& src);

/// "e2m1 0x3 = 1.5" / "e2m3 0x22 = -0.25 | e3m2 = -0.125" for field e.
[[nodiscard]] std::string decompFieldText(const DecompScene& s, uint32_t e);

/// The decompressing tcgen05.cp move the view shows at `step`: the last such move of steps < step,
/// else the first one in the trace; nullopt when there is none.
[[nodiscard]] std::optional<uint32_t> decompMoveAt(const Document& doc, uint32_t step);

} // namespace layoutscope::views
