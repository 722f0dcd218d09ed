#pragma once
// Internal: the box of a tile-mode TMA copy as a list of contiguous pieces, in traversal order.
// The non-interleaved walk is in tma_geometry.cpp / tma_execute.cpp; interleaved layouts
// (INTERLEAVE_16B / 32B) are in tma_interleave.cpp. The executor turns pieces into byte moves.
#include "layoutscope/tma/tensor_map.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace layoutscope::detail {

/// A run of bytes that is contiguous in the dense (pre-swizzle) shared-memory image and, unless it
/// is fill, contiguous in global memory. Pieces never cross a 16-byte granule of the smem image,
/// and a piece is either wholly in bounds or wholly out of bounds.
struct BoxPiece {
    uint32_t smemOffset = 0;        ///< logical byte offset from dstMem/srcMem, before swizzle
    uint32_t length = 0;            ///< bytes
    bool inBounds = true;           ///< false: out-of-bounds fill (loads) / skipped (stores)
    uint64_t globalAddr = 0;        ///< address of the first byte when inBounds
    std::array<int32_t, 5> coord{}; ///< tensor coordinate of the first element
};

struct BoxPlan {
    std::vector<BoxPiece> pieces; ///< in traversal order (16-byte chunks of the box)
    uint64_t txBytes = 0;         ///< complete_tx bytes credited for a load
};

/// Interleaved layouts (tma_interleave.cpp). Precondition: map.p.interleave != NONE.
/// `forStore` selects the store variant of the rule where it differs.
[[nodiscard]] BoxPlan interleavedBoxPlan(const TensorMap& map, const std::array<int32_t, 5>& coords,
                                         bool forStore);

} // namespace layoutscope::detail
