#pragma once
// Internal: the im2col family of cp.async.bulk.tensor as box plans (docs/im2col.md). The plans are
// executed by the tile executor's shared pieces (deliverLoad / deliverStore in tma_execute.cpp).
//   tma_im2col.cpp       pixel walks and plans (.im2col, interleaved .im2col, .im2col::w / ::w::128)
//   tma_im2col_exec.cpp  faults, restrictions and the executeTmaIm2col* entry points
#include "layoutscope/tma/tma.hpp"
#include "tma/box.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace layoutscope::detail {

/// A pixel position of the walk: full tensor coordinates (dim 0 = the first channel / slice).
using Im2colPixel = std::array<int64_t, kMaxTensorRank>;

/// Inclusive walk range [lo, hi] of spatial corner index s (W = 0, H = 1, D = 2) acting on tensor
/// dimension `dim`: lo = lower[s], hi = int32(globalDim[dim] + upper[s]) - 1 (the driver's 32-bit extent).
struct WalkRange {
    int64_t lo = 0;
    int64_t hi = 0;
};
[[nodiscard]] WalkRange im2colRange(const TensorMap& map, uint32_t corner, uint32_t dim);

/// The first `count` positions of the .im2col walk from `coords` (golden/tma rule 6; tma.md §9): the
/// walked dimensions `walked` (in order, each with its range) step by elementStrides, wrap to lo and
/// carry; past the last one the carry adds elementStrides[rank-1] to dimension rank-1 (N, unbounded).
[[nodiscard]] std::vector<Im2colPixel> im2colWalk(const TensorMap& map, const std::array<int32_t, 5>& coords,
                                                  const std::vector<uint32_t>& walked,
                                                  const std::vector<WalkRange>& ranges, uint32_t count);

/// Non-interleaved .im2col (and .im2col_no_offs with zero offsets): pixelsPerColumn rows of
/// channelsPerPixel elements from coords[0], row pitch = row bytes or the swizzle span; the pixel read is
/// the walk position plus offsets (W, H, D). Loads cut at globalDim[0] per element, stores at the
/// 16-byte granule (storeDim0Bound). txBytes = pixelsPerColumn * channelsPerPixel * elemBytes.
[[nodiscard]] BoxPlan im2colBoxPlan(const TensorMap& map, const std::array<int32_t, 5>& coords,
                                    const std::array<uint16_t, 3>& offsets, bool forStore);

/// Interleaved .im2col (docs/interleave.md §4): walk over dimensions 0..rank-3 (dimension 0 in G-byte
/// slices), dimension rank-2 fixed, one dense G-byte slice per position; txBytes = pixelsPerColumn * G.
[[nodiscard]] BoxPlan im2colInterleavedBoxPlan(const TensorMap& map, const std::array<int32_t, 5>& coords,
                                               const std::array<uint16_t, 3>& offsets);

/// .im2col::w / .im2col::w::128 (unverified, tma.md §9.1, open questions 4, 5): see tma_im2col.cpp.
[[nodiscard]] BoxPlan im2colWideBoxPlan(const TensorMap& map, const std::array<int32_t, 5>& coords,
                                        TmaIm2colMode mode, uint32_t wHalo, uint32_t wOffset);

/// The .im2col offsets the hardware applies (W, H, D): the instruction's values within the PTX ranges; beyond
/// them, as measured on sm_90 (RuleId::TmaIm2colOffsetPacking): .4d keeps 8 bits of each, .5d adds
/// offW + offH*32 + offD*1024, keeps 15 bits and splits that again into 5-bit fields.
[[nodiscard]] std::array<uint16_t, 3> im2colEffectiveOffsets(uint32_t rank,
                                                             const std::array<uint16_t, 3>& offsets);

/// Row pitch of a non-interleaved im2col image: channelsPerPixel * elemBytes, or the swizzle span when
/// larger.
[[nodiscard]] uint32_t im2colRowPitch(const TensorMap& map);

} // namespace layoutscope::detail
