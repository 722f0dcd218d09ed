// Bulk path of tcgen05.cp into one CTA, every shape (.128x256b, .128x128b, .4x256b, .64x128b.warpx2::02_13
// and ::01_23, .32x128b.warpx4; issue 11 and issue 25 item 10, engine speed; tcgen05.st / ld are in
// exec_ldst_bulk.cpp). It records its moves as one grid of up to five nested counts
// (MoveTable::appendGridLevels) and copies 16-byte chunks into each lane, instead of a batch of ByteMoves
// per step; the trace and TMEM are exactly those of the per-move path in exec_cp.cpp, which
// tests/engine/tcgen05_fast_test.cpp runs side by side. .cta_group::2 (two CTAs, two rules in a row's
// moves) stays on the per-move path.
#include "layoutscope/tcgen05/exec.hpp"
#include "tcgen05/exec_detail.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>

namespace layoutscope {
namespace {

std::atomic<bool> g_fastPath{true};

// Cells and registers are copied as host uint32_t: their bytes are the trace's little-endian bytes.
constexpr bool kLittleEndian = std::endian::native == std::endian::little;

using Strides = MoveTable::Strides;
constexpr int64_t kLaneStep = int64_t(1) << 16; // TMEM lane in MemRef addresses

} // namespace

namespace detail {
void setTcgen05FastPath(bool enabled) {
    g_fastPath = enabled;
}
bool tcgen05FastPath() {
    return g_fastPath;
}
} // namespace detail

bool Tcgen05Executor::cpBulk(TraceBuilder& tb, const CpForm& f, uint32_t cta, TmemAddr a,
                             const uint32_t* saddr, Transform tr, RuleId rule) {
    // Every shape into one CTA: move (rep, q, r), rep fastest (the lanes a row lands on), one step per row.
    if (!kLittleEndian || !detail::tcgen05FastPath() || f.ctaGroup != 1) return false;
    const uint32_t rows = cpSourceRows(f.shape), rowBytes = cpRowBytes(f.shape), chunks = rowBytes / 16;
    // lanes[r * nLanes + rep]: the row map (cpRowLanesInto) depends on the shape and multicast only, so it is
    // tabled once per process for each of them, not called per row per instruction.
    struct LaneTable {
        uint32_t nLanes = 0;
        std::array<uint32_t, 128 * 4> lanes{};
    };
    static const std::array<LaneTable, 5 * 4> kTables = [] {
        std::array<LaneTable, 5 * 4> t{};
        for (uint32_t sh = 0; sh < 5; ++sh)
            for (uint32_t mc = 0; mc < 4; ++mc) {
                CpForm g;
                g.shape = CpShape(sh);
                g.multicast = CpMulticast(mc);
                LaneTable& lt = t[sh * 4 + mc];
                std::array<uint32_t, 4> l{};
                for (uint32_t r = 0; r < cpSourceRows(g.shape); ++r) {
                    lt.nLanes = cpRowLanesInto(g, r, l);
                    std::copy_n(l.begin(), lt.nLanes, lt.lanes.begin() + size_t(r) * lt.nLanes);
                }
            }
        return t;
    }();
    const LaneTable& table = kTables[uint32_t(f.shape) * 4 + uint32_t(f.multicast)];
    const uint32_t nLanes = table.nLanes;
    const std::array<uint32_t, 128 * 4>& lanes = table.lanes;
    // The rows as digits r = d0 + 8 d1 + 32 d2 (radices 8, 4, rows / 32; 4x256b: 4): the source walk
    // steps evenly within a canonical layout's 8-row core matrices and between them, the lane maps within
    // a warp's 32 lanes and between warps. Each digit's strides are read off the walk and the map at its
    // unit point, then every row is checked against them; a row that breaks them: a grid per row.
    const std::array<uint32_t, 3> radix{std::min(rows, 8u), rows > 8 ? std::min(rows / 8, 4u) : 1,
                                        rows > 32 ? rows / 32 : 1};
    const std::array<uint32_t, 3> weight{1, radix[0], radix[0] * radix[1]};
    const int64_t s0 = saddr[0], lane0 = lanes[0];
    const int64_t dq = chunks > 1 ? int64_t(saddr[1]) - s0 : 0;
    const int64_t dRep = nLanes > 1 ? int64_t(lanes[1]) - lane0 : 0;
    std::array<int64_t, 3> dSrc{}, dLane{};
    for (size_t d = 0; d < 3; ++d)
        if (radix[d] > 1) {
            dSrc[d] = int64_t(saddr[size_t(weight[d]) * chunks]) - s0;
            dLane[d] = int64_t(lanes[size_t(weight[d]) * nLanes]) - lane0;
        }
    bool regular = true; // the rows counted digit by digit (no division per row)
    for (uint32_t d2 = 0, r = 0; d2 < radix[2]; ++d2)
        for (uint32_t d1 = 0; d1 < radix[1]; ++d1)
            for (uint32_t d0 = 0; d0 < radix[0] && regular; ++d0, ++r) {
                const int64_t src = s0 + d0 * dSrc[0] + d1 * dSrc[1] + d2 * dSrc[2];
                const int64_t lane = lane0 + d0 * dLane[0] + d1 * dLane[1] + d2 * dLane[2];
                for (uint32_t q = 0; q < chunks; ++q)
                    regular = regular && saddr[r * chunks + q] == src + q * dq;
                for (uint32_t k = 0; k < nLanes; ++k)
                    regular = regular && lanes[r * nLanes + k] == lane + k * dRep;
            }
    const uint8_t* smem = m_state.smem[cta].bytes().data();
    TensorMemory& tm = m_tmem.ctas[cta];
    auto first = [&](uint32_t r) {
        ByteMove m;
        m.src = MemRef{MemSpace::SharedCta, static_cast<uint8_t>(cta), saddr[r * chunks]};
        m.dst = detail::tmemRef(cta, a.lane + lanes[size_t(r) * nLanes], a.column);
        m.length = 16;
        m.transform = tr;
        m.rule = rule;
        m.logicalOffset = r * rowBytes;
        m.coord = {static_cast<int32_t>(r), 0, 0, 0, 0};
        return m;
    };
    // Strides: step, src.cta, src.addr, dst.cta, dst.addr, logicalOffset, coord[0..4].
    auto repLevel = [&](int64_t laneStep) {
        return Strides{0, 0, 0, 0, laneStep * kLaneStep, 0, 0, 0, 1, 0, 0};
    };
    auto chunkLevel = [&](int64_t srcStep) { return Strides{0, 0, srcStep, 0, 4, 16, 0, 1, 0, 0, 0}; };
    auto rowLevel = [&](int64_t k, int64_t srcStep, int64_t laneStep) { // k rows on
        return Strides{k, 0, srcStep, 0, laneStep * kLaneStep, k * rowBytes, k, 0, 0, 0, 0};
    };
    // Rows [r0, r0 + n): before = the cells, after = the (decompressed) chunks, then the write.
    auto copyRows = [&](uint32_t r0, uint32_t n, const TraceBuilder::GridBytes& gb) {
        uint8_t* before = gb.before;
        uint8_t* after = gb.after;
        for (uint32_t r = r0; r < r0 + n; ++r)
            for (uint32_t q = 0; q < chunks; ++q) {
                const uint8_t* src = smem + saddr[r * chunks + q];
                std::array<uint8_t, 16> chunk;
                if (f.decompress != CpDecompress::None) {
                    std::memcpy(chunk.data(), src, 16);
                    chunk = decompressChunk(f.decompress, chunk);
                    src = chunk.data();
                }
                for (uint32_t k = 0; k < nLanes; ++k) {
                    uint8_t* cells = reinterpret_cast<uint8_t*>(
                        tm.laneCells(a.lane + lanes[size_t(r) * nLanes + k]).data() + a.column + 4 * q);
                    if (before) {
                        std::memcpy(before, cells, 16);
                        std::memcpy(after, src, 16);
                        before += 16, after += 16;
                    }
                    std::memcpy(cells, src, 16);
                }
            }
    };
    if (!regular) {
        for (uint32_t r = 0; r < rows; ++r) {
            const int64_t rdq = chunks > 1 ? int64_t(saddr[r * chunks + 1]) - int64_t(saddr[r * chunks]) : 0;
            const int64_t rRep = nLanes > 1 ? int64_t(lanes[r * nLanes + 1]) - int64_t(lanes[r * nLanes]) : 0;
            const std::array<uint32_t, 2> n{nLanes, chunks};
            const std::array<Strides, 2> s{repLevel(rRep), chunkLevel(rdq)};
            copyRows(r, 1, tb.moveGridLevels(first(r), n, s));
        }
        return true;
    }
    const std::array<uint32_t, 5> n{nLanes, chunks, radix[0], radix[1], radix[2]};
    const std::array<Strides, 5> s{repLevel(dRep), chunkLevel(dq), rowLevel(weight[0], dSrc[0], dLane[0]),
                                   rowLevel(weight[1], dSrc[1], dLane[1]),
                                   rowLevel(weight[2], dSrc[2], dLane[2])};
    copyRows(0, rows, tb.moveGridLevels(first(0), n, s));
    return true;
}

} // namespace layoutscope
