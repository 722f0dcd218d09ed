#pragma once
// Internal: the non-interleaved tile walk and the per-byte helpers shared by the TMA load and store
// executors (tma_execute.cpp). Interleaved maps use interleavedBoxPlan (tma_box.hpp) instead.
#include "layoutscope/rules.hpp"
#include "layoutscope/tma.hpp"
#include "tma_box.hpp"

#include <array>
#include <cstdint>

namespace layoutscope::detail {

/// The box of a tile copy as 16-byte pieces in traversal order (golden/tma rules 1, 2, 4, 5):
/// rows of innerBytes at the row pitch (swizzle span or inner), a piece split where dimension 0
/// leaves [0, globalDim[0]) at element granularity (loads) or at the 16-byte granule that holds
/// globalDim[0] (stores, rule 5). Dispatches to interleavedBoxPlan for interleaved maps.
[[nodiscard]] BoxPlan tileBoxPlan(const TensorMap& map, const std::array<int32_t, 5>& coords, bool forStore);

/// The swizzle rule applied by mode `s` (TmaBoxTraversal for NONE).
[[nodiscard]] RuleId swizzleRule(TensorSwizzle s);

/// TF32 rounding of one FP32 bit pattern: round to nearest even at bit 13, low 13 bits cleared,
/// no flush of subnormals (tma.md §3.2, golden tile_load_0249).
[[nodiscard]] uint32_t roundToTf32(uint32_t bits);

/// Bytes of one element in shared memory for the byte types (0 for the sub-byte types).
[[nodiscard]] uint32_t tmaElemBytes(const TensorMap& map);

/// Dimension-0 bound a store honours: globalDim[0] rounded up to a whole 16-byte granule of the row
/// (golden/tma rule 5, store_0060/0061), in elements.
[[nodiscard]] uint64_t storeDim0Bound(const TensorMap& map);

} // namespace layoutscope::detail
