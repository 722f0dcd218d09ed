// Tile-mode box of an interleaved tensor map (CU_TENSOR_MAP_INTERLEAVE_16B / _32B) on sm_90.
//
// No document states this rule; it was measured on an H100 (docs/interleave.md). Evidence: the
// golden records tile_load_0225, 0234, 0237, 0351 and store_0053 (../shared/golden/tma), the tx
// table of that README (tile_load_0227..0237), and 50 probe records in
// scripts/probes/results/run1.jsonl (interleave_probe.cu). scripts/probes/interleave_model.py
// reproduces all of them byte for byte.
//
// With G = 16 (INTERLEAVE_16B) or 32 (INTERLEAVE_32B) bytes, the "slice":
//   * dimension 0 is counted in G-byte slices, not elements: coords[0], globalDim[0] and boxDim[0]
//     are slice counts, slice x0 starts at byte x0*G (globalStrides play no part in dimension 0),
//     elementStrides[0] is honoured (slices c0, c0+E0, ...);
//   * dimension rank-2 is not traversed: it contributes the single position coords[rank-2], which
//     is bounds-checked like any other (its boxDim and elementStrides have no effect);
//   * every other dimension i >= 1 moves ceil(boxDim[i]/E[i]) positions c[i] + k*E[i], byte stride
//     globalStrides[i-1];
//   * shared memory holds the slices densely (pitch G, no swizzle-span padding) in traversal order,
//     dimension 0 fastest; the executor's swizzle of the absolute address applies unchanged;
//   * a slice is in bounds iff every coordinate lies in [0, globalDim[i]); out-of-bounds slices are
//     filled (loads) or skipped (stores) as whole slices, with no 16-byte rounding of the bound;
//   * complete_tx = G * number of slices, fill included.
// unverified: multicast with an interleaved map was not probed; the plan does not depend on the
// destination CTA, so every CTA of the mask gets the same image (Provenance::Assumption there).
// im2col with interleave follows a related, measured rule (docs/interleave.md §4) that is not here.
#include "tma/box.hpp"

#include <cstdint>

namespace layoutscope::detail {
namespace {

constexpr uint32_t kGranule = 16; // BoxPiece never crosses a 16-byte granule of the smem image

// Slice bytes of an interleaved layout (cuda.h: NC/8HWC8 = 16 B, NC/16HWC16 = 32 B).
uint32_t sliceBytes(TensorInterleave il) {
    return il == TensorInterleave::I32B ? 32u : 16u;
}

uint32_t positions(uint32_t box, uint32_t stride) {
    const uint32_t s = stride == 0 ? 1 : stride; // encode rejects 0; stay total for direct callers
    return (box + s - 1) / s;
}

} // namespace

BoxPlan interleavedBoxPlan(const TensorMap& map, const std::array<int32_t, 5>& coords, bool forStore) {
    // The measured rule is the same for loads and stores (golden store_0053, probes G1..G11); the
    // store side simply skips the pieces that are out of bounds.
    (void)forStore;
    const TensorMapTiledParams& p = map.p;
    const int rank = static_cast<int>(p.tensorRank);
    BoxPlan plan;
    if (rank < 3 || rank > kMaxTensorRank) return plan; // encode rejects interleave below rank 3

    const uint32_t g = sliceBytes(p.interleave);
    const int fixedDim = rank - 2; // HardwareSm90: not traversed (probes B1b, B2b, B3b, E3, E5)

    // Traversed dimensions, dimension 0 fastest.
    std::array<int, kMaxTensorRank> dims{};
    std::array<uint32_t, kMaxTensorRank> count{};
    int nDims = 0;
    uint64_t slices = 1;
    for (int d = 0; d < rank; ++d) {
        if (d == fixedDim) continue;
        dims[nDims] = d;
        count[nDims] = positions(p.boxDim[d], p.elementStrides[d]);
        slices *= count[nDims];
        ++nDims;
    }
    if (slices == 0) return plan;
    plan.pieces.reserve(static_cast<size_t>(slices * (g / kGranule)));

    std::array<uint32_t, kMaxTensorRank> k{}; // odometer over the traversed dimensions
    for (uint64_t s = 0; s < slices; ++s) {
        std::array<int64_t, kMaxTensorRank> x{};
        for (int d = 0; d < rank; ++d) x[d] = coords[d];
        for (int t = 0; t < nDims; ++t) {
            const int d = dims[t];
            const uint32_t e = p.elementStrides[d] == 0 ? 1 : p.elementStrides[d];
            x[d] = int64_t(coords[d]) + int64_t(k[t]) * e;
        }
        bool inBounds = true;
        for (int d = 0; d < rank; ++d)
            if (x[d] < 0 || uint64_t(x[d]) >= p.globalDim[d]) inBounds = false;
        // Slice x0 at byte x0*G; dimension i >= 1 at globalStrides[i-1] (the fixed one included).
        int64_t offset = x[0] * int64_t(g);
        for (int d = 1; d < rank; ++d) offset += x[d] * int64_t(p.globalStrides[d - 1]);

        for (uint32_t b = 0; b < g; b += kGranule) {
            BoxPiece piece;
            piece.smemOffset = static_cast<uint32_t>(s * g + b);
            piece.length = kGranule;
            piece.inBounds = inBounds;
            piece.globalAddr = p.globalAddress + static_cast<uint64_t>(offset + b);
            // coord[0] is the slice index (dimension 0 counts slices in an interleaved map).
            for (int d = 0; d < rank; ++d) piece.coord[d] = static_cast<int32_t>(x[d]);
            plan.pieces.push_back(piece);
        }
        for (int t = 0; t < nDims; ++t) { // advance the odometer
            if (++k[t] < count[t]) break;
            k[t] = 0;
        }
    }
    plan.txBytes = slices * g;
    return plan;
}

} // namespace layoutscope::detail
