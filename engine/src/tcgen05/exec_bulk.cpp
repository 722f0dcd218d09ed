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

// Rows of a tcgen05.cp without decompression, from row r0 (`saddr`, `lanes`: that row's): each chunk of
// `Chunks` into every lane of the row; `Traced`: the cells to `before` and the chunk to `after` first.
// A free function with every pointer a parameter and the counts fixed where they can be: the compiler
// keeps the pointers in registers across the 16-byte stores (a lambda reloaded its captures after each,
// 3x slower for 128 rows; issue 25 item 10).
template <uint32_t Chunks, uint32_t Lanes, bool Traced>
void copyCpRows(uint32_t* cells, const uint8_t* smem, const uint32_t* saddr, const uint32_t* lanes,
                uint32_t nRows, uint32_t nLanes, uint8_t* before, uint8_t* after) {
    if constexpr (Lanes != 0) nLanes = Lanes;
    for (uint32_t r = 0; r < nRows; ++r, saddr += Chunks, lanes += nLanes)
        for (uint32_t k = 0; k < nLanes; ++k) {
            uint8_t* dst = reinterpret_cast<uint8_t*>(cells + size_t(lanes[k]) * kTmemLaneStride);
            for (uint32_t q = 0; q < Chunks; ++q) {
                const uint8_t* src = smem + saddr[q];
                if constexpr (Traced) {
                    std::memcpy(before, dst + 16 * q, 16);
                    std::memcpy(after, src, 16);
                    before += 16, after += 16;
                }
                std::memcpy(dst + 16 * q, src, 16);
            }
        }
}

template <uint32_t Chunks, bool Traced>
void copyCpRowsLanes(uint32_t* cells, const uint8_t* smem, const uint32_t* saddr, const uint32_t* lanes,
                     uint32_t nRows, uint32_t nLanes, uint8_t* before, uint8_t* after) {
    if (nLanes == 1)
        copyCpRows<Chunks, 1, Traced>(cells, smem, saddr, lanes, nRows, nLanes, before, after);
    else
        copyCpRows<Chunks, 0, Traced>(cells, smem, saddr, lanes, nRows, nLanes, before, after);
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
                             const uint32_t* saddr, bool walkAffine, Transform tr, RuleId rule) {
    // Every shape into one CTA: move (rep, q, r), rep fastest (the lanes a row lands on), one step per row.
    if (!kLittleEndian || !detail::tcgen05FastPath() || f.ctaGroup != 1) return false;
    const uint32_t rows = cpSourceRows(f.shape), rowBytes = cpRowBytes(f.shape), chunks = rowBytes / 16;
    const LaneTable& table = laneTable(f);
    const uint32_t nLanes = table.nLanes;
    const std::array<uint32_t, 128 * 4>& lanes = table.lanes;
    // Each digit's strides are read off the walk and the map at its unit point, then every row is checked
    // against them (the map once per process, the walk here unless it is affine by construction: a
    // SWIZZLE_NONE descriptor, detail::cpSourceAddresses); a row that breaks them: a grid per row.
    const auto [radix, weight] = rowDigits(rows);
    const int64_t s0 = saddr[0];
    const int64_t dq = chunks > 1 ? int64_t(saddr[1]) - s0 : 0;
    std::array<int64_t, 3> dSrc{};
    for (size_t d = 0; d < 3; ++d)
        if (radix[d] > 1) dSrc[d] = int64_t(saddr[size_t(weight[d]) * chunks]) - s0;
    bool regular = table.regular; // the rows counted digit by digit (no division per row)
    for (uint32_t d2 = 0, r = 0; d2 < radix[2] && regular && !walkAffine; ++d2)
        for (uint32_t d1 = 0; d1 < radix[1]; ++d1)
            for (uint32_t d0 = 0; d0 < radix[0] && regular; ++d0, ++r) {
                const int64_t src = s0 + d0 * dSrc[0] + d1 * dSrc[1] + d2 * dSrc[2];
                for (uint32_t q = 0; q < chunks; ++q)
                    regular = regular && saddr[r * chunks + q] == src + q * dq;
            }
    const uint8_t* smem = m_state.smem[cta].bytes().data();
    // Lane a.lane + l, column a.column: cells + l * kTmemLaneStride (TensorMemory::laneCells).
    uint32_t* cells = m_tmem.ctas[cta].laneCells(a.lane).data() + a.column;
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
        const uint32_t* rowLanes = lanes.data() + size_t(r0) * nLanes;
        const uint32_t* rowSrc = saddr + size_t(r0) * chunks;
        if (f.decompress == CpDecompress::None && (chunks == 1 || chunks == 2)) {
            auto run = gb.before ? (chunks == 2 ? copyCpRowsLanes<2, true> : copyCpRowsLanes<1, true>)
                                 : (chunks == 2 ? copyCpRowsLanes<2, false> : copyCpRowsLanes<1, false>);
            return run(cells, smem, rowSrc, rowLanes, n, nLanes, gb.before, gb.after);
        }
        uint8_t* before = gb.before;
        uint8_t* after = gb.after;
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
    if (!tb.tracing()) { // untraced: the builder counts the bytes moved and keeps nothing else (trace.hpp)
        ByteMove m;
        m.length = 16;
        const std::array<uint32_t, 5> n{nLanes, chunks, rows, 1, 1};
        static constexpr std::array<Strides, 5> kUnused{}; // a static: not 440 bytes zeroed a call
        copyRows(0, rows, tb.moveGridLevels(m, n, kUnused));
        return true;
    }
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
    const std::array<Strides, 5> s{
        repLevel(table.dRep), chunkLevel(dq), rowLevel(weight[0], dSrc[0], table.dLane[0]),
        rowLevel(weight[1], dSrc[1], table.dLane[1]), rowLevel(weight[2], dSrc[2], table.dLane[2])};
    copyRows(0, rows, tb.moveGridLevels(first(0), n, s));
    return true;
}

} // namespace layoutscope
