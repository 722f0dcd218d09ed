// Tile-mode box geometry and the non-interleaved walk (golden/tma README "Observed semantics" 1, 2,
// 4, 5; tma.md §3, §4.1). Every rule here was measured on an H100 (Provenance::HardwareSm90).
//
//   box in shared memory, (rows, bytes):(pitch, 1)
//     row  = k[1] + n[1]*(k[2] + n[2]*(k[3] + ...))     k[i] < n[i] = ceil(boxDim[i]/elementStrides[i])
//     byte = k[0]*elemBytes                              k[0] < boxDim[0] (elementStrides[0] ignored)
//     pitch = swizzle span (32/64/128) when swizzled, else boxDim[0]*elemBytes; tail untouched
#include "tma/plan.hpp"

#include <algorithm>

namespace layoutscope {
namespace {

constexpr uint32_t kGranule = 16; // bytes: TMA moves 16-byte chunks; pieces never cross one

uint32_t entries(uint32_t box, uint32_t stride) {
    return (box + (stride == 0 ? 1 : stride) - 1) / (stride == 0 ? 1 : stride);
}

} // namespace

TileGeometry tileGeometry(const TensorMap& map) {
    TileGeometry g;
    const TensorMapTiledParams& p = map.p;
    const uint32_t rank = std::min<uint32_t>(p.tensorRank, kMaxTensorRank);
    g.elemBytes = detail::tmaElemBytes(map);
    // Interleaved maps count dimension 0 in elementStrides[0] steps (README box_bytes formula); the
    // exact interleaved footprint is interleavedBoxPlan's (tma_interleave.cpp).
    g.count[0] =
        p.interleave == TensorInterleave::NONE ? p.boxDim[0] : entries(p.boxDim[0], p.elementStrides[0]);
    g.rows = 1;
    for (uint32_t i = 1; i < rank; ++i) {
        g.count[i] = entries(p.boxDim[i], p.elementStrides[i]);
        g.rows *= g.count[i];
    }
    g.innerBytes = isSubByteType(p.dataType) ? detail::subByteRowBytes(map) : g.count[0] * g.elemBytes;
    const uint32_t span = swizzleSpan(p.swizzle);
    g.rowPitch =
        span != 0 && p.interleave == TensorInterleave::NONE ? std::max(span, g.innerBytes) : g.innerBytes;
    g.boxBytes = uint64_t(g.innerBytes) * g.rows;
    // Sub-byte types (tma.md §7): the transaction counts packed global bytes, not the padded image.
    if (isSubByteType(p.dataType)) g.boxBytes = uint64_t(p.boxDim[0]) * elementBits(p.dataType) / 8 * g.rows;
    return g;
}

namespace detail {

uint32_t tmaElemBytes(const TensorMap& map) {
    const uint32_t bits = elementBits(map.p.dataType);
    return bits >= 8 ? bits / 8 : 0;
}

uint64_t storeDim0Bound(const TensorMap& map) {
    const uint32_t eb = tmaElemBytes(map);
    if (eb == 0) return map.p.globalDim[0];
    const uint64_t bytes = (map.p.globalDim[0] * eb + kGranule - 1) / kGranule * kGranule;
    return bytes / eb;
}

BoxPlan tileBoxPlan(const TensorMap& map, const std::array<int32_t, 5>& coords, bool forStore) {
    if (isSubByteType(map.p.dataType)) return subByteBoxPlan(map, coords, forStore); // tma_subbyte.cpp
    if (map.p.interleave != TensorInterleave::NONE) return interleavedBoxPlan(map, coords, forStore);
    const TensorMapTiledParams& p = map.p;
    const TileGeometry g = tileGeometry(map);
    const uint32_t rank = std::min<uint32_t>(p.tensorRank, kMaxTensorRank);
    BoxPlan plan;
    plan.txBytes = g.boxBytes;
    if (g.elemBytes == 0 || g.boxBytes == 0) return plan;
    plan.pieces.reserve(size_t(g.rows) * ((g.innerBytes + kGranule - 1) / kGranule + 1));

    const int64_t eb = g.elemBytes;
    const int64_t c0 = coords[0];
    const int64_t dim0 = int64_t(forStore ? storeDim0Bound(map) : p.globalDim[0]);
    // In-bounds bytes of every row: [lo, hi) of the row's inner bytes (rule 4 / rule 5).
    const int64_t inner = g.innerBytes;
    const int64_t lo = std::clamp(-c0 * eb, int64_t(0), inner);
    const int64_t hi = std::clamp((dim0 - c0) * eb, int64_t(0), inner);

    std::array<uint32_t, kMaxTensorRank> k{}; // odometer over dimensions 1..rank-1
    for (uint32_t row = 0; row < g.rows; ++row) {
        std::array<int64_t, kMaxTensorRank> x{};
        x[0] = c0;
        bool rowIn = true;
        uint64_t rowAddr = p.globalAddress + uint64_t(c0 * eb);
        for (uint32_t i = 1; i < rank; ++i) {
            const uint32_t e = p.elementStrides[i] == 0 ? 1 : p.elementStrides[i];
            x[i] = int64_t(coords[i]) + int64_t(k[i]) * e;
            if (x[i] < 0 || uint64_t(x[i]) >= p.globalDim[i]) rowIn = false;
            rowAddr += uint64_t(x[i]) * p.globalStrides[i - 1]; // wraps for OOB rows; unused there
        }
        for (int64_t b = 0; b < inner; b += kGranule) {
            const int64_t end = std::min<int64_t>(b + kGranule, inner);
            int64_t cuts[4] = {b, end, end, end};
            int n = 1;
            for (int64_t c : {lo, hi})
                if (c > b && c < end && c != cuts[n - 1]) cuts[n++] = c;
            cuts[n] = end;
            for (int s = 0; s < n; ++s) {
                const int64_t from = cuts[s], to = cuts[s + 1];
                if (to <= from) continue;
                detail::BoxPiece piece;
                piece.smemOffset = uint32_t(row * g.rowPitch + from);
                piece.length = uint32_t(to - from);
                piece.inBounds = rowIn && from >= lo && to <= hi;
                piece.globalAddr = rowAddr + uint64_t(from);
                piece.coord[0] = int32_t(c0 + from / eb);
                for (uint32_t i = 1; i < rank; ++i) piece.coord[i] = int32_t(x[i]);
                plan.pieces.push_back(piece);
            }
        }
        for (uint32_t i = 1; i < rank; ++i) { // advance the odometer, dimension 1 fastest
            if (++k[i] < g.count[i]) break;
            k[i] = 0;
        }
    }
    return plan;
}

} // namespace detail
} // namespace layoutscope
