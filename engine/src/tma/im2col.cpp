// im2col-family box plans for cp.async.bulk.tensor (PTX ISA 9.2 §5.5.4 "im2col mode", §5.5.5
// "im2col::w and im2col::w::128 modes"). docs/im2col.md explains the rules and their evidence.
//
// .im2col, measured on an H100 (golden/tma README rule 6; tma.md §9), rank r = 3..5, tensor {C, W, H, D, N}:
//   spatial dims s = W, H, D (tensor dims 1..r-2) walk over [lower[s], globalDim-1+upper[s]] in steps of
//   elementStrides; past hi a coordinate wraps to lower and carries; past D (or the last spatial dim)
//   N = coords[r-1] advances by elementStrides[r-1] without bound. pixelsPerColumn positions in all.
//   Pixel p reads (walk position + offsets) in the spatial dims; channels coords[0] .. +channelsPerPixel-1
//   (elementStrides[0] ignored). Anything outside the tensor is OOB fill. Pixel rows are
//   channelsPerPixel*elemBytes apart, or the swizzle span when that is larger.
// Interleaved maps shift the walk down one dimension (docs/interleave.md §4, measured).
// .im2col::w / ::w::128 were not measurable on sm_90: see im2colWideBoxPlan (unverified, oq 4, 5).
#include "tma/im2col.hpp"
#include "tma/plan.hpp"

#include <algorithm>

namespace layoutscope::detail {
namespace {

constexpr uint32_t kGranule = 16; // BoxPiece never crosses a 16-byte granule of the smem image

int64_t strideOf(const TensorMap& map, uint32_t dim) {
    const uint32_t e = map.p.elementStrides[dim];
    return e == 0 ? 1 : e; // encode rejects 0; stay total for direct callers
}

// One pixel row of a non-interleaved image at smem offset `rowOffset`: channels c0 .. c0+cpp-1 of the
// pixel at `x` (x[0] ignored), cut into pieces at 16-byte granules and at the dimension-0 bound.
void emitPixelRow(const TensorMap& map, BoxPlan& plan, uint32_t rowOffset, int64_t c0, const Im2colPixel& x,
                  uint64_t dim0Bound) {
    const TensorMapTiledParams& p = map.p;
    const uint32_t rank = p.tensorRank;
    const int64_t eb = tmaElemBytes(map);
    const int64_t inner = int64_t(map.channelsPerPixel) * eb;
    bool pixelIn = true;
    uint64_t rowAddr = p.globalAddress + uint64_t(c0 * eb);
    for (uint32_t i = 1; i < rank; ++i) {
        if (x[i] < 0 || uint64_t(x[i]) >= p.globalDim[i]) pixelIn = false;
        rowAddr += uint64_t(x[i]) * p.globalStrides[i - 1]; // wraps for OOB pixels; unused there
    }
    // In-bounds bytes of the row: channels in [0, dim0Bound).
    const int64_t lo = std::clamp(-c0 * eb, int64_t(0), inner);
    const int64_t hi = std::clamp((int64_t(dim0Bound) - c0) * eb, int64_t(0), inner);
    int64_t from = 0;
    while (from < inner) {
        const int64_t granuleEnd = (int64_t(rowOffset) + from) / kGranule * kGranule + kGranule - rowOffset;
        int64_t to = std::min(inner, granuleEnd);
        for (int64_t cut : {lo, hi})
            if (cut > from && cut < to) to = cut;
        BoxPiece piece;
        piece.smemOffset = uint32_t(rowOffset + from);
        piece.length = uint32_t(to - from);
        piece.inBounds = pixelIn && from >= lo && to <= hi;
        piece.globalAddr = rowAddr + uint64_t(from);
        piece.coord[0] = int32_t(c0 + from / eb);
        for (uint32_t i = 1; i < rank; ++i) piece.coord[i] = int32_t(x[i]);
        plan.pieces.push_back(piece);
        from = to;
    }
}

} // namespace

WalkRange im2colRange(const TensorMap& map, uint32_t corner, uint32_t dim) {
    // The driver's extent arithmetic is 32-bit (tensor_map.cpp bounding-box rule): int32(globalDim + upper).
    const int32_t end = int32_t(uint32_t(map.p.globalDim[dim]) + uint32_t(map.pixelBoxUpperCorner[corner]));
    return {map.pixelBoxLowerCorner[corner], int64_t(end) - 1};
}

std::vector<Im2colPixel> im2colWalk(const TensorMap& map, const std::array<int32_t, 5>& coords,
                                    const std::vector<uint32_t>& walked, const std::vector<WalkRange>& ranges,
                                    uint32_t count) {
    const uint32_t rank = map.p.tensorRank;
    std::vector<Im2colPixel> out;
    out.reserve(count);
    Im2colPixel x{};
    for (uint32_t i = 0; i < rank; ++i) x[i] = coords[i];
    for (uint32_t k = 0; k < count; ++k) {
        out.push_back(x);
        bool carry = true;
        for (size_t j = 0; j < walked.size() && carry; ++j) {
            const uint32_t d = walked[j];
            x[d] += strideOf(map, d);
            carry = x[d] > ranges[j].hi; // wrap to exactly lo, not to a stride-aligned value (tma.md §9)
            if (carry) x[d] = ranges[j].lo;
        }
        if (carry) x[rank - 1] += strideOf(map, rank - 1); // N: not bounded by the box (golden rule 6)
    }
    return out;
}

std::array<uint16_t, 3> im2colEffectiveOffsets(uint32_t rank, const std::array<uint16_t, 3>& o) {
    if (rank == 3) return {o[0], 0, 0}; // 16 bits: every value is in range
    if (rank == 4)
        return {uint16_t(o[0] & 0xFF), uint16_t(o[1] & 0xFF), 0}; // probes L5, L6: 256 -> 0, 257 -> 1
    // probes L7, L8, M1-M5: the three offsets are ADDED as offW + offH*32 + offD*1024 and cut to 15 bits
    // (M1: {32, 1, 0} reads H + 2, so not OR; M3: D = 33 acts as 1; M5: 0x7fff = {31, 31, 31}).
    const uint32_t packed = (uint32_t(o[0]) + (uint32_t(o[1]) << 5) + (uint32_t(o[2]) << 10)) & 0x7FFF;
    return {uint16_t(packed & 31), uint16_t(packed >> 5 & 31), uint16_t(packed >> 10 & 31)};
}

uint32_t im2colRowPitch(const TensorMap& map) {
    const uint32_t inner = map.channelsPerPixel * tmaElemBytes(map);
    const uint32_t span = swizzleSpan(map.p.swizzle);
    return span != 0 ? std::max(span, inner) : inner; // golden rule 2 / 6: rows padded to the swizzle span
}

BoxPlan im2colBoxPlan(const TensorMap& map, const std::array<int32_t, 5>& coords,
                      const std::array<uint16_t, 3>& offsets, bool forStore) {
    BoxPlan plan;
    const uint32_t rank = map.p.tensorRank;
    const uint32_t eb = tmaElemBytes(map);
    if (rank < 3 || rank > kMaxTensorRank || eb == 0) return plan;
    std::vector<uint32_t> walked;
    std::vector<WalkRange> ranges;
    for (uint32_t s = 0; s + 2 < rank; ++s) { // W, H, D = tensor dims 1 .. rank-2
        walked.push_back(s + 1);
        ranges.push_back(im2colRange(map, s, s + 1));
    }
    const uint32_t pitch = im2colRowPitch(map);
    const uint64_t dim0Bound = forStore ? storeDim0Bound(map) : map.p.globalDim[0];
    const std::vector<Im2colPixel> pixels = im2colWalk(map, coords, walked, ranges, map.pixelsPerColumn);
    plan.pieces.reserve(pixels.size() * (pitch / kGranule + 2));
    for (size_t k = 0; k < pixels.size(); ++k) {
        Im2colPixel x = pixels[k];
        for (uint32_t s = 0; s + 2 < rank; ++s) x[s + 1] += offsets[s]; // offsets W, H, D (golden rule 6)
        emitPixelRow(map, plan, uint32_t(k * pitch), coords[0], x, dim0Bound);
    }
    plan.txBytes = uint64_t(map.pixelsPerColumn) * map.channelsPerPixel * eb; // tma.md §6, measured
    return plan;
}

BoxPlan im2colInterleavedBoxPlan(const TensorMap& map, const std::array<int32_t, 5>& coords,
                                 const std::array<uint16_t, 3>& offsets) {
    BoxPlan plan;
    const TensorMapTiledParams& p = map.p;
    const uint32_t rank = p.tensorRank;
    if (rank < 3 || rank > kMaxTensorRank) return plan;
    const uint32_t g = p.interleave == TensorInterleave::I32B ? 32u : 16u; // slice bytes
    // Corner / offset index i acts on tensor dimension i: dims 0 .. rank-3 walk; rank-2 stays fixed.
    std::vector<uint32_t> walked;
    std::vector<WalkRange> ranges;
    for (uint32_t d = 0; d + 2 < rank; ++d) {
        walked.push_back(d);
        ranges.push_back(im2colRange(map, d, d));
    }
    const std::vector<Im2colPixel> pixels = im2colWalk(map, coords, walked, ranges, map.pixelsPerColumn);
    plan.pieces.reserve(pixels.size() * (g / kGranule));
    for (size_t k = 0; k < pixels.size(); ++k) {
        Im2colPixel x = pixels[k];
        for (uint32_t d = 0; d + 2 < rank; ++d) x[d] += offsets[d];
        bool in = true;
        for (uint32_t d = 0; d < rank; ++d)
            if (x[d] < 0 || uint64_t(x[d]) >= p.globalDim[d]) in = false;
        int64_t offset = x[0] * int64_t(g); // slice x0 at byte x0*G; globalStrides play no part in dim 0
        for (uint32_t d = 1; d < rank; ++d) offset += x[d] * int64_t(p.globalStrides[d - 1]);
        for (uint32_t b = 0; b < g; b += kGranule) {
            BoxPiece piece;
            piece.smemOffset = uint32_t(k * g + b);
            piece.length = kGranule;
            piece.inBounds = in;
            piece.globalAddr = p.globalAddress + uint64_t(offset + b);
            for (uint32_t d = 0; d < rank; ++d) piece.coord[d] = int32_t(x[d]);
            plan.pieces.push_back(piece);
        }
    }
    plan.txBytes = uint64_t(map.pixelsPerColumn) * g; // channelsPerPixel has no visible effect (measured)
    return plan;
}

// unverified (open questions 4, 5; tma.md §9.1): nothing of .im2col::w / ::w::128 could be measured on
// sm_90. Working assumptions, following the PTX text and figures 16-17:
//   * only W is walked: w starts at coords[1] + wOffset and steps by elementStrides[1]; H, D and N stay at
//     their coordinates; the W range is [lower + wOffset, globalDim[1]-1+upper + wOffset]; past its end w
//     wraps to the lower end and N advances by elementStrides[rank-1] (the .im2col carry with an H/D box of
//     1);
//   * main pixels: pixelsPerColumn (::w) or 128 (::w::128, pixelsPerColumn ignored);
//   * halo pixels are the next wHalo positions of the same walk: ::w puts them after all main pixels;
//     ::w::128 puts, after each group of 32 main pixels, the wHalo positions that follow that group;
//   * every pixel row is channelsPerPixel elements from coords[0] (pitch as .im2col); complete_tx counts
//     main and halo rows.
BoxPlan im2colWideBoxPlan(const TensorMap& map, const std::array<int32_t, 5>& coords, TmaIm2colMode mode,
                          uint32_t wHalo, uint32_t wOffset) {
    BoxPlan plan;
    const uint32_t rank = map.p.tensorRank;
    const uint32_t eb = tmaElemBytes(map);
    if (rank < 3 || rank > kMaxTensorRank || eb == 0) return plan;
    const bool w128 = mode == TmaIm2colMode::W128;
    const uint32_t main = w128 ? 128u : map.pixelsPerColumn;
    WalkRange r = im2colRange(map, 0, 1);
    r.lo += wOffset;
    r.hi += wOffset;
    std::array<int32_t, 5> start = coords;
    start[1] = int32_t(int64_t(coords[1]) + wOffset);
    const std::vector<Im2colPixel> walk = im2colWalk(map, start, {1u}, {r}, main + wHalo);

    std::vector<size_t> order; // walk index of each smem row
    if (w128) {
        for (uint32_t grp = 0; grp < main / 32; ++grp) {
            for (uint32_t k = 0; k < 32; ++k) order.push_back(grp * 32 + k);
            for (uint32_t h = 0; h < wHalo; ++h) order.push_back((grp + 1) * 32 + h);
        }
    } else {
        for (size_t k = 0; k < walk.size(); ++k) order.push_back(k);
    }
    const uint32_t pitch = im2colRowPitch(map);
    plan.pieces.reserve(order.size() * (pitch / kGranule + 2));
    for (size_t row = 0; row < order.size(); ++row)
        emitPixelRow(map, plan, uint32_t(row * pitch), coords[0], walk[order[row]], map.p.globalDim[0]);
    plan.txBytes = uint64_t(order.size()) * map.channelsPerPixel * eb;
    return plan;
}

} // namespace layoutscope::detail
