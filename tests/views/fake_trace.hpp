#pragma once
/// Hand-built fixture: a fake TMA tile load of a 64x64 FLOAT16 box with SWIZZLE_128B into shared
/// memory at 0x400, written move by move with TraceBuilder (one 16-B chunk per step), independent
/// of the engine's executor. Tensor: globalDim = [64, 100], box at coords {0, 48}, so box rows
/// 52..63 (coordinates 100..111) are out of bounds and zero-filled.
#include "scene/document.hpp"

#include <memory>

namespace layoutscope::views::test {

inline constexpr uint32_t kSmemBase = 0x400;
inline constexpr int32_t kBoxRow0 = 48; ///< coords[1] of the box
inline constexpr uint64_t kRows = 100;  ///< globalDim[1]
inline constexpr uint64_t kGlobalBase = 0x10000;

/// Physical address of logical shared address `a` under SWIZZLE_128B (tma.md §4.2: Sw<3,4,3>).
inline uint32_t swizzle128(uint32_t a) {
    return a ^ (((a >> 7) & 7u) << 4);
}
/// Raw fp16 bit pattern stored at tensor element (c0, c1).
inline uint16_t elementBits(int32_t c0, int32_t c1) {
    return static_cast<uint16_t>((c1 << 6) | c0);
}

std::unique_ptr<Document> makeFakeSw128Document();

} // namespace layoutscope::views::test
