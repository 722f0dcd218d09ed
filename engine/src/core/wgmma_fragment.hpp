#pragma once
// Internal: the wgmma accumulator fragment, shared by the kernel executor (exec/mma_math.cpp wgmmaD) and the
// scenario run (scenario/wgmma_d.cpp). PTX ISA 9.2 §9.7.15.5.1.1, "Matrix fragments for wgmma .m64nNk16",
// accumulator D: warp w of the warpgroup holds rows 16w..16w+15; in each 16 x 8 block lane l holds rows
// l/4 and l/4 + 8, columns 2(l%4) and 2(l%4) + 1; the blocks repeat every 8 columns of N:
//   row = 16 w + l/4 + 8 ((i/2) % 2),  col = 2 (l%4) + (i%2) + 8 (i/4),  i = 0 .. N/2 - 1.
// CuTe states the same layout independently (mma_traits_sm90_gmma.hpp CLayout_64xN).
#include <cstdint>

namespace layoutscope {

/// Where element i of a thread's D fragment lives: register `reg` of the vector operand (0-based), bits
/// [shift, shift + dBits) of it, and the D element (row m, column n) it holds.
struct WgmmaDSlot {
    uint32_t reg = 0, shift = 0;
    uint32_t row = 0, col = 0;
};

/// Element i (0 .. N/2 - 1) of the D fragment of lane `lane` of warp `warpInGroup` (0..3) of the warpgroup;
/// `dBits` 32 (.f32 / .s32: one element a register) or 16 (.f16: two a register, element i in bits
/// [16 (i%2), 16 (i%2) + 16) of register i/2).
[[nodiscard]] constexpr WgmmaDSlot wgmmaDSlot(uint32_t warpInGroup, uint32_t lane, uint32_t i,
                                              uint32_t dBits) {
    const uint32_t perReg = dBits >= 32 ? 1 : 32 / dBits;
    WgmmaDSlot s;
    s.reg = i / perReg;
    s.shift = (i % perReg) * dBits;
    s.row = 16 * warpInGroup + lane / 4 + 8 * ((i / 2) % 2);
    s.col = 2 * (lane % 4) + i % 2 + 8 * (i / 4);
    return s;
}

} // namespace layoutscope
