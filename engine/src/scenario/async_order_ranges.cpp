// The ranges an instruction's trace moves read and wrote, walked run by run (issue 25 item 3): a run's
// level-0 row of contiguous moves is one range, so a 4096-move tcgen05.st gives 32 ranges, not 4096.
//
// Why the result equals merging every move's range: sorting by (space, CTA, begin) and merging ranges that
// touch or overlap yields the maximal contiguous pieces of the union of the ranges (Tensor Memory: per
// lane; columns are < 512, so no move's range crosses a lane). Replacing moves by ranges with the same
// union (per space and CTA, never across a lane) changes nothing. Rows that fit no case below are still
// split move by move (from the run's formula, without rebuilding the ByteMove).
#include "scenario/async_order_ranges.hpp"

#include "layoutscope/tma/tma.hpp"

#include <algorithm>
#include <array>
#include <tuple>

namespace layoutscope::scn {
namespace {

using async::Range;

// MoveTable::Strides order: step, src.cta, src.addr, dst.cta, dst.addr, logicalOffset, coord[5].
constexpr size_t kLogical = 5;

// A swizzle XORs address bits [3,7) with a function of bits [7,10) (tma/swizzle.cpp; the test checks it),
// so a 128-byte aligned block is its own image and an aligned piece of `granule` bytes maps onto one.
// The granule: the lowest bit any swizzle pattern flips (128 for none).
uint64_t swizzleGranule(uint32_t swizzle) {
    uint32_t flips = 0;
    for (uint32_t line = 0; line < 8; ++line)
        flips |= swizzleAddress(TensorSwizzle(swizzle), line << 7) ^ (line << 7);
    return flips == 0 ? 128 : (flips & (~flips + 1));
}

struct RowWalk {
    const MoveTable::RunSpan& v;
    bool derived;  ///< the address is swizzleAddress(base + logicalOffset)
    size_t fc, fa; ///< the CTA and address fields of the side read
    uint64_t len;  ///< a move's extent: bytes, or TMEM columns
    bool tmem;
    int onlyCta;
    std::vector<Range>& rs;

    void push(MemSpace space, uint8_t cta, uint64_t b, uint64_t e) const {
        rs.push_back(Range{space, cta, b, e, {}});
    }
    uint64_t derivedAddr(int64_t logical) const {
        return swizzleAddress(TensorSwizzle(v.derive.swizzle), uint32_t(v.derive.base + uint64_t(logical)));
    }
    // Moves i in [0, cnt) of a row whose move 0 has CTA c, address a and logical offset lg.
    void perMove(MemSpace space, int64_t c, int64_t a, int64_t lg, uint64_t i0, uint64_t cnt) const {
        const MoveTable::Strides& s0 = v.s[0];
        for (uint64_t i = i0; i < cnt; ++i) {
            const uint8_t ci = uint8_t(c + int64_t(i) * s0[fc]);
            if (onlyCta >= 0 && ci != onlyCta) continue;
            const uint64_t ai =
                derived ? derivedAddr(lg + int64_t(i) * s0[kLogical]) : uint64_t(a + int64_t(i) * s0[fa]);
            push(space, ci, ai, ai + len);
        }
    }
    void row(MemSpace space, int64_t c, int64_t a, int64_t lg, uint64_t cnt) const {
        const MoveTable::Strides& s0 = v.s[0];
        if (len == 0 || (s0[fc] != 0 && cnt > 1)) return perMove(space, c, a, lg, 0, cnt);
        if (onlyCta >= 0 && uint8_t(c) != onlyCta) return; // every move of the row is in CTA c
        if (!derived && s0[fa] == int64_t(len)) {          // back to back: one range
            const uint64_t b = uint64_t(a), e = b + cnt * len;
            if (!tmem || (b >> 16) == ((e - 1) >> 16)) return push(space, uint8_t(c), b, e);
        }
        if (derived && (cnt == 1 || s0[kLogical] == int64_t(len))) {
            // Contiguous before the swizzle: each move inside one granule maps onto one range, and the
            // 128-byte blocks the row covers whole are their own image.
            const uint64_t g = swizzleGranule(v.derive.swizzle);
            const uint64_t p = v.derive.base + uint64_t(lg), pe = p + cnt * len;
            const uint64_t b0 = (p + 127) / 128 * 128, b1 = pe / 128 * 128;
            if (g % len == 0 && p % len == 0 && pe <= UINT32_MAX && b0 < b1) {
                const uint64_t head = (b0 - p) / len, tail = (b1 - p) / len;
                perMove(space, c, a, lg, 0, head);
                push(space, uint8_t(c), b0, b1);
                return perMove(space, c, a, lg, tail, cnt);
            }
        }
        perMove(space, c, a, lg, 0, cnt);
    }
};

// Move k's CTA, address and logical offset, as MoveTable::gridMoveLevels computes them.
std::array<int64_t, 3> fieldsAt(const MoveTable::RunSpan& v, const MemRef& r0, size_t fc, size_t fa,
                                uint64_t k) {
    int64_t c = r0.cta, a = int64_t(r0.addr), lg = v.first.logicalOffset;
    uint64_t q = k;
    for (size_t l = 0; l < v.levels; ++l) {
        const uint64_t i = l + 1 < v.levels ? q % v.n[l] : q;
        q /= v.n[l];
        c += int64_t(i) * v.s[l][fc];
        a += int64_t(i) * v.s[l][fa];
        lg += int64_t(i) * v.s[l][kLogical];
    }
    return {c, a, lg};
}

// A level j > 0 whose moves lie back to back while the rows interleave (a tcgen05.ld/st: lanes at level 0,
// columns above): when the span holds whole blocks of it, each block's moves along j are one range.
bool byLevel(const MoveTable::RunSpan& v, const RowWalk& w, const MemRef& r0, std::vector<Range>& rs) {
    if (w.derived || w.len == 0) return false;
    uint64_t below = 1; // moves per step of level j
    for (size_t j = 1; j < v.levels; ++j) {
        below *= v.n[j - 1];
        if (v.s[j][w.fa] != int64_t(w.len) || v.s[j][w.fc] != 0) continue;
        const bool open = j + 1 == v.levels;
        const uint64_t block = open ? v.k1 - v.k0 : below * v.n[j],
                       cnt = open ? (v.k1 - v.k0) / below : v.n[j];
        if (v.k0 % below != 0 || v.k1 % below != 0 || (!open && (v.k0 % block != 0 || v.k1 % block != 0)))
            continue;
        std::vector<Range> got;
        for (uint64_t b = v.k0; b < v.k1; b += block)
            for (uint64_t c = 0; c < below; ++c) {
                const auto f = fieldsAt(v, r0, w.fc, w.fa, b + c);
                if (w.onlyCta >= 0 && uint8_t(f[0]) != w.onlyCta) continue;
                const uint64_t lo = uint64_t(f[1]), hi = lo + cnt * w.len;
                if (w.tmem && (lo >> 16) != ((hi - 1) >> 16)) return false; // never across a lane
                got.push_back(Range{r0.space, uint8_t(f[0]), lo, hi, {}});
            }
        rs.insert(rs.end(), got.begin(), got.end());
        return true;
    }
    return false;
}

void spanRanges(const MoveTable::RunSpan& v, bool dst, int onlyCta, std::vector<Range>& rs) {
    const MemRef& r0 = dst ? v.first.dst : v.first.src; // space and length are the same for the whole run
    if (r0.space != MemSpace::SharedCta && r0.space != MemSpace::TensorMemory &&
        r0.space != MemSpace::Register)
        return;
    const bool tmem = r0.space == MemSpace::TensorMemory;
    const RowWalk w{v,
                    v.derive.side == (dst ? AddrDerivation::Side::Dst : AddrDerivation::Side::Src),
                    size_t(dst ? 3 : 1),
                    size_t(dst ? 4 : 2),
                    tmem ? (uint64_t(v.first.length) + 3) / 4 : v.first.length,
                    tmem,
                    onlyCta,
                    rs};
    if (v.levels > 1 && v.s[0][w.fa] != int64_t(w.len) && byLevel(v, w, r0, rs)) return;
    const uint64_t n0 = v.levels > 1 ? v.n[0] : 0; // moves per level-0 row (0: the whole run is one row)
    for (uint64_t k = v.k0; k < v.k1;) {
        const uint64_t end = n0 ? std::min(v.k1, k - k % n0 + n0) : v.k1;
        const auto f = fieldsAt(v, r0, w.fc, w.fa, k);
        w.row(r0.space, f[0], f[1], f[2], end - k);
        k = end;
    }
}

} // namespace

std::string bufferName(const Scenario& s, uint32_t cta, uint64_t addr) {
    for (const ScenarioBuffer& b : s.buffers)
        if (b.cta == cta && addr >= b.addr && addr < uint64_t(b.addr) + b.size) return b.name;
    return {};
}

std::vector<Range> movesRanges(const Scenario& s, const Trace& tr, uint32_t idx, bool dst, int onlyCta) {
    std::vector<Range> rs;
    const TraceInstr& ti = tr.instrs[idx];
    if (ti.firstMove < ti.endMove)
        for (const MoveTable::RunSpan& v : tr.moves.runSpans(ti.firstMove, ti.endMove))
            spanRanges(v, dst, onlyCta, rs);
    std::sort(rs.begin(), rs.end(), [](const Range& a, const Range& b) {
        return std::tie(a.space, a.cta, a.begin) < std::tie(b.space, b.cta, b.begin);
    });
    std::vector<Range> out;
    for (Range& r : rs) {
        if (!out.empty() && out.back().space == r.space && out.back().cta == r.cta &&
            r.begin <= out.back().end &&
            (r.space != MemSpace::TensorMemory || (r.begin >> 16) == (out.back().begin >> 16)))
            out.back().end = std::max(out.back().end, r.end);
        else
            out.push_back(r);
    }
    for (Range& r : out) {
        if (r.space == MemSpace::SharedCta) r.name = bufferName(s, r.cta, r.begin);
        if (r.space == MemSpace::TensorMemory) r.name = "TMEM";
        if (r.space == MemSpace::Register) r.name = "registers";
    }
    return out;
}

} // namespace layoutscope::scn
