// The value cross-check of the async order model, read from the trace's runs (issue 25 item 3). It used to
// rebuild every move of the instruction for every overlap (MoveTable::operator[]), so a 4096-move
// tcgen05.st checked against 32 one-lane overlaps read 131,072 moves.
//
// Why the answer is the per-move one (tests/engine/async_order_differ_test.cpp keeps that walk as the
// reference):
// - A run's move k has field f = first.f + sum_l i_l * s[l][f] (k = i_0 + n_0 * (i_1 + ...), MoveTable),
//   so the moves below one index of level l have each field inside [x + lo_l, x + hi_l], the sums of
//   min(0, (n_j - 1) * s_j) and max(0, ...) over the levels j < l. A subtree whose box misses `ov` holds no
//   move that overlaps it; the moves left are each tested exactly as the per-move walk does (CTA, space,
//   address, extent) and compare the same bytes. The boxes prune only where the fields are what the moves
//   store: a CTA within [0, 255], an address >= 0, a swizzled address's pre-swizzle offset within [0, 2^32).
// - A swizzled destination is swizzleAddress(base + logicalOffset), which flips only bits [3,7) (the
//   swizzle test in async_order_ranges_test.cpp), so it lies in the 128-byte line of base + logicalOffset:
//   the box is taken on base + logicalOffset with `ov` widened by 128 bytes a side.
// - Move k's bytes are data offsets first.dataOffset + k * length (MoveTable::gridMoveLevels), and
//   Trace::keptBytes gives the same bytes as beforeBytes / afterBytes for the moves there; where it gives
//   none (generated after bytes), the move is rebuilt and read through beforeBytes / afterBytes. A register
//   destination's before bytes are zeros (beforeBytes).
#include "scenario/async_order_differ.hpp"

#include "layoutscope/tma/tma.hpp"

#include <algorithm>
#include <array>

namespace layoutscope::scn {
namespace {

using async::Range;

// MoveTable::Strides order: step, src.cta, src.addr, dst.cta, dst.addr, logicalOffset, coord[5].
constexpr size_t kDstCta = 3, kDstAddr = 4, kLogical = 5;
constexpr int64_t kLine = 128; // a swizzle keeps an address in its 128-byte line

int64_t floorDiv(int64_t a, int64_t b) { // b > 0
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}
int64_t ceilDiv(int64_t a, int64_t b) {
    return -floorDiv(-a, b);
}

bool allZero(std::span<const uint8_t> b) {
    return std::all_of(b.begin(), b.end(), [](uint8_t x) { return x == 0; });
}

// The moves of one run span that overlap `ov`, found level by level, and whether one of them changes a
// byte inside `ov`.
class SpanWalk {
  public:
    SpanWalk(const Trace& tr, const MoveTable::RunSpan& v, const Range& ov)
        : m_tr(tr), m_v(v), m_ov(ov), m_len(v.first.length), m_top(v.levels - 1),
          m_derived(v.derive.side == AddrDerivation::Side::Dst) {
        const bool tmem = v.first.dst.space == MemSpace::TensorMemory;
        m_ext = tmem ? (m_len + 3) / 4 : m_len;
        m_field = {kDstCta, m_derived ? kLogical : kDstAddr};
        m_x0 = {int64_t(v.first.dst.cta),
                m_derived ? int64_t(v.first.logicalOffset) : int64_t(v.first.dst.addr)};
        uint64_t below = 1;
        for (size_t l = 0; l <= m_top; ++l) {
            m_below[l] = below;
            m_count[l] = l < m_top ? v.n[l] : (v.k1 + below - 1) / below; // the top level is open
            for (size_t d = 0; d < 2; ++d) {
                m_lo[d][l + 1] =
                    m_lo[d][l] + std::min<int64_t>(0, int64_t(m_count[l] - 1) * v.s[l][m_field[d]]);
                m_hi[d][l + 1] =
                    m_hi[d][l] + std::max<int64_t>(0, int64_t(m_count[l] - 1) * v.s[l][m_field[d]]);
            }
            below *= m_count[l];
        }
        // The windows a subtree's box must meet, on the fields as stored (a move's extent: 1 CTA, m_ext).
        constexpr int64_t kFar = int64_t(1) << 62;
        const int64_t base = m_derived ? int64_t(v.derive.base) : 0;
        const int64_t slack = m_derived ? kLine : 0;
        m_want[0] = {int64_t(ov.cta), int64_t(ov.cta) + 1};
        m_want[1] = {int64_t(std::min<uint64_t>(ov.begin, kFar)) - slack - base,
                     int64_t(std::min<uint64_t>(ov.end, kFar)) + slack - base};
        const int64_t lo0 = m_x0[0] + m_lo[0][m_top + 1], hi0 = m_x0[0] + m_hi[0][m_top + 1];
        const int64_t lo1 = m_x0[1] + m_lo[1][m_top + 1], hi1 = m_x0[1] + m_hi[1][m_top + 1];
        m_prune[0] = lo0 >= 0 && hi0 <= 255;
        m_prune[1] = ov.end < uint64_t(kFar) &&
                     (m_derived ? base + lo1 >= 0 && base + hi1 < (int64_t(1) << 32) : lo1 >= 0);
    }

    bool any() { return m_len > 0 && visit(m_top, 0, m_x0); }

  private:
    using Fields = std::array<int64_t, 2>;

    // Whether the moves below index `x` of level l (their lower levels' box) can meet the window in dim d.
    bool meets(size_t d, size_t l, int64_t x) const {
        const int64_t ext = d == 0 ? 1 : int64_t(m_ext);
        return !m_prune[d] || (x + m_lo[d][l] < m_want[d][1] && x + m_hi[d][l] + ext > m_want[d][0]);
    }

    // Children i of level l under move index kbase with fields x: those within [k0, k1) whose box meets
    // the windows (an index interval per dimension, widened by one and then checked child by child).
    bool visit(size_t l, uint64_t kbase, Fields x) {
        const uint64_t below = m_below[l];
        if (m_v.k1 <= kbase) return false;
        int64_t iLo = m_v.k0 > kbase ? int64_t((m_v.k0 - kbase) / below) : 0;
        int64_t iHi = std::min<int64_t>(int64_t(m_count[l]), int64_t((m_v.k1 - kbase + below - 1) / below));
        for (size_t d = 0; d < 2 && iLo < iHi; ++d) {
            if (!m_prune[d]) continue;
            const int64_t s = m_v.s[l][m_field[d]], ext = d == 0 ? 1 : int64_t(m_ext);
            const int64_t lo = x[d] + m_lo[d][l], hi = x[d] + m_hi[d][l] + ext; // child 0's box [lo, hi)
            const int64_t wLo = m_want[d][0], wHi = m_want[d][1];
            if (s == 0) {
                if (!(lo < wHi && hi > wLo)) return false;
            } else if (s > 0) { // lo + i s < wHi and hi + i s > wLo
                iLo = std::max(iLo, floorDiv(wLo - hi, s));
                iHi = std::min(iHi, ceilDiv(wHi - lo, s) + 1);
            } else {
                iLo = std::max(iLo, floorDiv(lo - wHi, -s));
                iHi = std::min(iHi, ceilDiv(hi - wLo, -s) + 1);
            }
        }
        for (int64_t i = std::max<int64_t>(iLo, 0); i < iHi; ++i) {
            const Fields c{x[0] + i * m_v.s[l][m_field[0]], x[1] + i * m_v.s[l][m_field[1]]};
            if (!meets(0, l, c[0]) || !meets(1, l, c[1])) continue;
            const uint64_t k = kbase + uint64_t(i) * below;
            if (l == 0 ? (k >= m_v.k0 && k < m_v.k1 && leaf(k, c)) : visit(l - 1, k, c)) return true;
        }
        return false;
    }

    // Move k (fields c): the per-move test and comparison.
    bool leaf(uint64_t k, const Fields& c) {
        if (uint8_t(c[0]) != m_ov.cta) return false;
        const uint64_t addr = m_derived ? swizzleAddress(TensorSwizzle(m_v.derive.swizzle),
                                                         uint32_t(m_v.derive.base + uint64_t(c[1])))
                                        : uint64_t(c[1]);
        const uint64_t end = addr + m_ext;
        if (end <= m_ov.begin || addr >= m_ov.end) return false;
        uint64_t b0 = 0, b1 = m_len; // bytes of the move inside the overlap (TMEM: the whole move)
        if (m_v.first.dst.space != MemSpace::TensorMemory) {
            b0 = std::max(m_ov.begin, addr) - addr;
            b1 = std::min(m_ov.end, end) - addr;
        }
        const uint64_t at = m_v.first.dataOffset + k * m_len;
        const bool reg = m_v.first.dst.space == MemSpace::Register; // before: zeros
        if (!covered(m_after, at) || (!reg && !covered(m_before, at))) {
            const uint64_t spanEnd = m_v.first.dataOffset + m_v.k1 * m_len;
            m_after = {at, m_tr.keptBytes(at, spanEnd - at, true)};
            if (!reg) m_before = {at, m_tr.keptBytes(at, spanEnd - at, false)};
        }
        if (covered(m_after, at) && (reg || covered(m_before, at))) {
            const uint8_t* a = m_after.bytes.data() + (at - m_after.at);
            if (reg) return !allZero({a + b0, a + b1});
            const uint8_t* b = m_before.bytes.data() + (at - m_before.at);
            return !std::equal(b + b0, b + b1, a + b0);
        }
        const ByteMove m = MoveTable::gridMoveLevels(m_v.first, std::span(m_v.n.data(), m_v.levels),
                                                     std::span(m_v.s.data(), m_v.levels), k, m_v.derive);
        const auto before = m_tr.beforeBytes(m), after = m_tr.afterBytes(m);
        return !std::equal(before.begin() + b0, before.begin() + b1, after.begin() + b0);
    }

    struct View {
        uint64_t at = 0; ///< data offset of bytes[0]
        std::span<const uint8_t> bytes;
    };
    bool covered(const View& w, uint64_t at) const {
        return at >= w.at && at - w.at + m_len <= w.bytes.size();
    }

    const Trace& m_tr;
    const MoveTable::RunSpan& m_v;
    const Range& m_ov;
    uint64_t m_len, m_ext = 0;
    size_t m_top;
    bool m_derived;
    std::array<size_t, 2> m_field{}; ///< dimension 0: destination CTA; 1: address, or logical offset
    Fields m_x0{};
    std::array<uint64_t, MoveTable::kMaxLevels> m_below{}, m_count{};
    std::array<std::array<int64_t, MoveTable::kMaxLevels + 1>, 2> m_lo{}, m_hi{}; ///< levels < l
    std::array<Fields, 2> m_want{};
    std::array<bool, 2> m_prune{};
    View m_before, m_after;
};

} // namespace

uint8_t WritesDiffer::changes(uint32_t idx) {
    if (m_changes[idx] != kUnknown) return m_changes[idx];
    const TraceInstr& ti = m_tr.instrs[idx];
    uint8_t r = kNone;
    if (ti.firstMove < ti.endMove)
        for (const MoveTable::RunSpan& v : m_tr.moves.runSpans(ti.firstMove, ti.endMove)) {
            const uint64_t len = v.first.length, end = v.first.dataOffset + v.k1 * len;
            const bool reg = v.first.dst.space == MemSpace::Register;
            for (uint64_t at = v.first.dataOffset + v.k0 * len; at < end && r == kNone;) {
                const auto a = m_tr.keptBytes(at, end - at, true);
                const auto b = reg ? a : m_tr.keptBytes(at, end - at, false);
                const size_t n = std::min(a.size(), b.size());
                if (n == 0 || (reg ? !allZero(a) : !std::equal(a.begin(), a.begin() + n, b.begin())))
                    r = kSome;
                at += n;
            }
            if (r == kSome) break;
        }
    return m_changes[idx] = r;
}

bool WritesDiffer::operator()(uint32_t idx, const Range& ov) {
    if (idx >= m_tr.instrs.size() || changes(idx) == kNone) return false;
    const TraceInstr& ti = m_tr.instrs[idx];
    if (ti.firstMove >= ti.endMove) return false;
    for (const MoveTable::RunSpan& v : m_tr.moves.runSpans(ti.firstMove, ti.endMove))
        if (v.first.dst.space == ov.space && SpanWalk(m_tr, v, ov).any()) return true;
    return false;
}

} // namespace layoutscope::scn
