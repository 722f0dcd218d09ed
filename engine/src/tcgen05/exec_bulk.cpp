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

namespace {

// The rows of a tcgen05.cp as digits r = d0 + 8 d1 + 32 d2 (radices 8, 4, rows / 32; 4x256b: 4): the source
// walk steps evenly within a canonical layout's 8-row core matrices and between them, the lane maps
// within a warp's 32 lanes and between warps.
struct RowDigits {
    std::array<uint32_t, 3> radix{}, weight{};
};
RowDigits rowDigits(uint32_t rows) {
    RowDigits g;
    g.radix = {std::min(rows, 8u), rows > 8 ? std::min(rows / 8, 4u) : 1, rows > 32 ? rows / 32 : 1};
    g.weight = {1, g.radix[0], g.radix[0] * g.radix[1]};
    return g;
}

// The row map of one shape and multicast (cpRowLanesInto): lanes[r * nLanes + rep], and whether it is
// affine in the row digits and rep (strides dLane, dRep read off at the unit points). It depends on the
// form only, so it is tabled once per process, not walked per row per instruction.
struct LaneTable {
    uint32_t nLanes = 0;
    bool regular = true;
    int64_t dRep = 0;
    std::array<int64_t, 3> dLane{};
    std::array<uint32_t, 128 * 4> lanes{};
};

// A regular tcgen05.cp: row r = d0 + w1 d1 + w2 d2 reads chunk q at src0 + d . dSrc + q dq and lands on
// lanes lane0 + d . dLane + k dRep (k < nLanes), relative to the destination's lane and column.
struct CpGrid {
    std::array<uint32_t, 3> radix{};
    int64_t src0 = 0, dq = 0, lane0 = 0, dRep = 0;
    std::array<int64_t, 3> dSrc{}, dLane{};
};

// The copy of a regular tcgen05.cp without decompression, in the grid's move order (lane k fastest, then
// chunk q, then the row): each chunk into its lanes; `Traced`: the cells to `before` and the chunk to
// `after` first. A free function of the grid's terms with the counts fixed where they can be: no address
// table is read between the 16-byte stores, and the compiler keeps everything in registers (through a
// lambda's captures it reloaded them after each store, 3x slower for 128 rows; issue 25 item 10).
template <uint32_t Chunks, uint32_t Lanes, bool Traced>
void copyCpGrid(uint32_t* cells, const uint8_t* smem, const CpGrid& g, uint32_t nLanes, uint8_t* before,
                uint8_t* after) {
    if constexpr (Lanes != 0) nLanes = Lanes;
    const int64_t dq = g.dq, dRep = g.dRep, dSrc0 = g.dSrc[0], dLane0 = g.dLane[0];
    const uint32_t n0 = g.radix[0];
    for (uint32_t d2 = 0; d2 < g.radix[2]; ++d2)
        for (uint32_t d1 = 0; d1 < g.radix[1]; ++d1) {
            int64_t src = g.src0 + d1 * g.dSrc[1] + d2 * g.dSrc[2];
            int64_t lane = g.lane0 + d1 * g.dLane[1] + d2 * g.dLane[2];
            for (uint32_t d0 = 0; d0 < n0; ++d0, src += dSrc0, lane += dLane0)
                for (uint32_t q = 0; q < Chunks; ++q) {
                    const uint8_t* from = smem + (src + q * dq);
                    for (uint32_t k = 0; k < nLanes; ++k) {
                        uint8_t* dst = reinterpret_cast<uint8_t*>(
                            cells + (lane + k * dRep) * int64_t(kTmemLaneStride) + 4 * q);
                        if constexpr (Traced) {
                            std::memcpy(before, dst, 16);
                            std::memcpy(after, from, 16);
                            before += 16, after += 16;
                        }
                        std::memcpy(dst, from, 16);
                    }
                }
        }
}

template <uint32_t Chunks, bool Traced>
void copyCpGridLanes(uint32_t* cells, const uint8_t* smem, const CpGrid& g, uint32_t nLanes, uint8_t* before,
                     uint8_t* after) {
    if (nLanes == 1)
        copyCpGrid<Chunks, 1, Traced>(cells, smem, g, nLanes, before, after);
    else
        copyCpGrid<Chunks, 0, Traced>(cells, smem, g, nLanes, before, after);
}

const LaneTable& laneTable(const CpForm& f) {
    static const std::array<LaneTable, 5 * 4> kTables = [] {
        std::array<LaneTable, 5 * 4> t{};
        for (uint32_t sh = 0; sh < 5; ++sh)
            for (uint32_t mc = 0; mc < 4; ++mc) {
                CpForm g;
                g.shape = CpShape(sh);
                g.multicast = CpMulticast(mc);
                LaneTable& lt = t[sh * 4 + mc];
                const uint32_t rows = cpSourceRows(g.shape);
                std::array<uint32_t, 4> l{};
                for (uint32_t r = 0; r < rows; ++r) {
                    lt.nLanes = cpRowLanesInto(g, r, l);
                    std::copy_n(l.begin(), lt.nLanes, lt.lanes.begin() + size_t(r) * lt.nLanes);
                }
                const RowDigits dg = rowDigits(rows);
                const int64_t lane0 = lt.lanes[0];
                lt.dRep = lt.nLanes > 1 ? int64_t(lt.lanes[1]) - lane0 : 0;
                for (size_t d = 0; d < 3; ++d)
                    if (dg.radix[d] > 1)
                        lt.dLane[d] = int64_t(lt.lanes[size_t(dg.weight[d]) * lt.nLanes]) - lane0;
                for (uint32_t d2 = 0, r = 0; d2 < dg.radix[2]; ++d2)
                    for (uint32_t d1 = 0; d1 < dg.radix[1]; ++d1)
                        for (uint32_t d0 = 0; d0 < dg.radix[0]; ++d0, ++r) {
                            const int64_t lane =
                                lane0 + d0 * lt.dLane[0] + d1 * lt.dLane[1] + d2 * lt.dLane[2];
                            for (uint32_t k = 0; k < lt.nLanes; ++k)
                                lt.regular = lt.regular && lt.lanes[r * lt.nLanes + k] == lane + k * lt.dRep;
                        }
            }
        return t;
    }();
    return kTables[uint32_t(f.shape) * 4 + uint32_t(f.multicast)];
}

} // namespace

bool Tcgen05Executor::cpBulk(TraceBuilder& tb, const CpForm& f, uint32_t cta, TmemAddr a,
                             const uint32_t* saddr, const detail::CpWalk& walk, Transform tr, RuleId rule) {
    // Every shape into one CTA: move (rep, q, r), rep fastest (the lanes a row lands on), one step per row.
    if (!kLittleEndian || !detail::tcgen05FastPath() || f.ctaGroup != 1) return false;
    const uint32_t rows = cpSourceRows(f.shape), rowBytes = cpRowBytes(f.shape), chunks = rowBytes / 16;
    const LaneTable& table = laneTable(f);
    const uint32_t nLanes = table.nLanes;
    const std::array<uint32_t, 128 * 4>& lanes = table.lanes;
    const bool direct = f.decompress == CpDecompress::None && (chunks == 1 || chunks == 2);
    // Without the addresses only an affine walk into a regular row map is copied (by its terms).
    if (!saddr && !(walk.affine && table.regular && direct)) return false;
    // Each digit's strides are read off the walk and the map at its unit point, then every row is checked
    // against them (the map once per process, the walk here unless it is affine by construction: a
    // SWIZZLE_NONE descriptor, detail::cpWalkOf); a row that breaks them: a grid per row.
    const auto [radix, weight] = rowDigits(rows);
    CpGrid g;
    g.radix = radix;
    g.lane0 = lanes[0];
    g.dRep = table.dRep;
    g.dLane = table.dLane;
    auto rowAddr = [&](uint32_t r) { // the affine walk's chunk 0 of row r (cpWalkOf: no wrapping)
        return int64_t(walk.start + (r % 8) * walk.t1 + (r / 8) * walk.t8);
    };
    g.src0 = walk.affine ? rowAddr(0) : int64_t(saddr[0]);
    g.dq = chunks > 1 ? (walk.affine ? int64_t(walk.dq) : int64_t(saddr[1]) - g.src0) : 0;
    for (size_t d = 0; d < 3; ++d)
        if (radix[d] > 1)
            g.dSrc[d] =
                (walk.affine ? rowAddr(weight[d]) : int64_t(saddr[size_t(weight[d]) * chunks])) - g.src0;
    bool regular = table.regular; // the rows counted digit by digit (no division per row)
    for (uint32_t d2 = 0, r = 0; d2 < radix[2] && regular && !walk.affine; ++d2)
        for (uint32_t d1 = 0; d1 < radix[1]; ++d1)
            for (uint32_t d0 = 0; d0 < radix[0] && regular; ++d0, ++r) {
                const int64_t src = g.src0 + d0 * g.dSrc[0] + d1 * g.dSrc[1] + d2 * g.dSrc[2];
                for (uint32_t q = 0; q < chunks; ++q)
                    regular = regular && saddr[r * chunks + q] == src + q * g.dq;
            }
    const uint8_t* smem = m_state.smem[cta].bytes().data();
    // Lane a.lane + l, column a.column: cells + l * kTmemLaneStride (TensorMemory::laneCells).
    uint32_t* cells = m_tmem.ctas[cta].laneCells(a.lane).data() + a.column;
    // Rows [r0, r0 + n) by the address table (irregular walks, decompression): before = the cells, after =
    // the (decompressed) chunks, then the write.
    auto copyRows = [&](uint32_t r0, uint32_t n, const TraceBuilder::GridBytes& gb) {
        uint8_t* before = gb.before;
        uint8_t* after = gb.after;
        const uint32_t* rowLanes = lanes.data() + size_t(r0) * nLanes;
        for (uint32_t r = r0; r < r0 + n; ++r, rowLanes += nLanes)
            for (uint32_t q = 0; q < chunks; ++q) {
                const uint8_t* src = smem + saddr[r * chunks + q];
                std::array<uint8_t, 16> chunk;
                if (f.decompress != CpDecompress::None) {
                    std::memcpy(chunk.data(), src, 16);
                    chunk = decompressChunk(f.decompress, chunk);
                    src = chunk.data();
                }
                for (uint32_t k = 0; k < nLanes; ++k) {
                    uint8_t* dst =
                        reinterpret_cast<uint8_t*>(cells + size_t(rowLanes[k]) * kTmemLaneStride + 4 * q);
                    if (before) {
                        std::memcpy(before, dst, 16);
                        std::memcpy(after, src, 16);
                        before += 16, after += 16;
                    }
                    std::memcpy(dst, src, 16);
                }
            }
    };
    // All rows: by the grid's terms when regular and undecompressed, else by the table.
    auto copyAll = [&](const TraceBuilder::GridBytes& gb) {
        if (!regular || !direct) return copyRows(0, rows, gb);
        auto run = gb.before ? (chunks == 2 ? copyCpGridLanes<2, true> : copyCpGridLanes<1, true>)
                             : (chunks == 2 ? copyCpGridLanes<2, false> : copyCpGridLanes<1, false>);
        run(cells, smem, g, nLanes, gb.before, gb.after);
    };
    if (!tb.tracing()) { // untraced: the builder counts the bytes moved and keeps nothing else (trace.hpp)
        ByteMove m;
        m.length = 16;
        const std::array<uint32_t, 5> n{nLanes, chunks, rows, 1, 1};
        static constexpr std::array<Strides, 5> kUnused{}; // a static: not 440 bytes zeroed a call
        copyAll(tb.moveGridLevels(m, n, kUnused));
        return true;
    }
    auto first = [&](uint32_t r) {
        ByteMove m;
        m.src = MemRef{MemSpace::SharedCta, static_cast<uint8_t>(cta),
                       saddr ? saddr[r * chunks] : uint32_t(rowAddr(r))};
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
    if (!regular) { // saddr is set: an affine walk into a regular map is regular
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
    const std::array<Strides, 5> s{
        repLevel(g.dRep), chunkLevel(g.dq), rowLevel(weight[0], g.dSrc[0], g.dLane[0]),
        rowLevel(weight[1], g.dSrc[1], g.dLane[1]), rowLevel(weight[2], g.dSrc[2], g.dLane[2])};
    copyAll(tb.moveGridLevels(first(0), n, s));
    return true;
}

} // namespace layoutscope
