// Lessons against a run: where a step stands in the trace, which cells a selector covers, and where a byte
// went (following the trace's moves from its source). docs/lessons.md "Selectors".
#include "lesson/resolve.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace layoutscope {
using namespace lesson_detail;

namespace {

// One linear index per space: TMEM cells hold 4 bytes, so lane << 16 | column becomes (addr * 4 + byte).
uint64_t linear(const LessonPlace& p) {
    return p.space == MemSpace::TensorMemory ? p.addr * 4 + p.byte : p.addr;
}
LessonPlace fromLinear(MemSpace space, uint32_t cta, uint64_t lin) {
    LessonPlace p;
    p.space = space;
    p.cta = space == MemSpace::Global ? 0 : cta;
    if (space == MemSpace::TensorMemory) {
        p.addr = lin / 4;
        p.byte = static_cast<uint32_t>(lin % 4);
    } else {
        p.addr = lin;
    }
    return p;
}
bool followable(MemSpace s) {
    return s == MemSpace::Global || s == MemSpace::SharedCta || s == MemSpace::TensorMemory ||
           s == MemSpace::Register;
}

// Where the first bit of place `p` goes under move `m`, if `m` reads it.
std::optional<LessonPlace> through(const ByteMove& m, const LessonPlace& p) {
    if (p.space != m.src.space || (p.space != MemSpace::Global && p.cta != m.src.cta)) return std::nullopt;
    const MemRef srcRef = m.src;
    const uint64_t s0 = srcRef.space == MemSpace::TensorMemory ? srcRef.addr * 4 : srcRef.addr;
    const uint64_t d0 = m.dst.space == MemSpace::TensorMemory ? m.dst.addr * 4 : m.dst.addr;
    const uint64_t at = linear(p);
    if (at < s0) return std::nullopt;
    const uint64_t off = at - s0;
    LessonPlace q;
    switch (m.transform) {
    case Transform::Decompress4to8: { // element e in bits [4e+3:4e] -> byte e, bits [5:2] (tcgen05.md §5.3)
        const uint64_t bit = off * 8 + p.bit;
        if (off >= 8) return std::nullopt;
        q = fromLinear(m.dst.space, m.dst.cta, d0 + bit / 4);
        q.bit = 2, q.bits = 4;
        return q;
    }
    case Transform::Decompress6to8: { // element e in bits [6e+5:6e] -> byte e, bits [5:0]
        const uint64_t bit = off * 8 + p.bit;
        if (off >= 12) return std::nullopt;
        q = fromLinear(m.dst.space, m.dst.cta, d0 + bit / 6);
        q.bit = 0, q.bits = 6;
        return q;
    }
    case Transform::Pack8to6:
        return std::nullopt; // a packing store: the bit positions change (not followed)
    default:
        if (off >= m.length) return std::nullopt;
        q = fromLinear(m.dst.space, m.dst.cta, d0 + off);
        q.bit = p.bit, q.bits = p.bits;
        return q;
    }
}

} // namespace

Followed followPlaces(const Run& run, const std::vector<LessonPlace>& start, uint32_t stepLimit) {
    // Places held so far, ordered by (space, cta, linear address, bit): the places a move reads are one
    // lower_bound away, so a pass costs O(moves log places), whatever the number of start places.
    using Key = std::tuple<uint8_t, uint32_t, uint64_t, uint32_t>;
    auto keyOf = [](const LessonPlace& p) {
        return Key{static_cast<uint8_t>(p.space), p.space == MemSpace::Global ? 0u : p.cta, linear(p), p.bit};
    };
    std::map<Key, LessonPlace> held;
    Followed f;
    for (const LessonPlace& p : start)
        if (held.emplace(keyOf(p), p).second) f.all.push_back(p);
    uint32_t lastStep = 0;
    bool any = false;
    std::vector<LessonPlace> found;
    for (auto it = run.trace.moves.begin(); it != run.trace.moves.end(); ++it) {
        const ByteMove m = *it;
        if (m.step >= stepLimit) break;
        if (!followable(m.src.space) || !followable(m.dst.space)) continue;
        const uint32_t srcCta = m.src.space == MemSpace::Global ? 0u : m.src.cta;
        const uint64_t s0 = m.src.space == MemSpace::TensorMemory ? m.src.addr * 4 : m.src.addr;
        found.clear();
        for (auto h = held.lower_bound(Key{static_cast<uint8_t>(m.src.space), srcCta, s0, 0});
             h != held.end() && std::get<0>(h->first) == static_cast<uint8_t>(m.src.space) &&
             std::get<1>(h->first) == srcCta && std::get<2>(h->first) < s0 + m.length;
             ++h)
            if (const auto q = through(m, h->second)) found.push_back(*q);
        for (const LessonPlace& q : found) {
            if (!held.emplace(keyOf(q), q).second) continue;
            f.all.push_back(q);
            f.steps.push_back({q, m.step, m.instr, m.rule});
            if (std::find(f.rules.begin(), f.rules.end(), m.rule) == f.rules.end()) f.rules.push_back(m.rule);
            lastStep = m.step;
            any = true;
        }
    }
    if (any)
        for (const Hop& h : f.steps)
            if (h.step == lastStep) f.last.push_back(h.place);
    return f;
}

Result<ElementStart> elementStart(const Lesson& l, const Run& run, const LessonSelector& s,
                                  const std::array<int64_t, 5>& x, uint32_t stepLimit) {
    const Scenario& sc = *l.scenario;
    const ScenarioTensorMap* t = sc.findTensorMap(s.tensor);
    if (!t)
        return diag("lesson.selector", s.span, "no tensor map '" + s.tensor + "' in the scenario",
                    DiagCode::UnknownName);
    const TensorMapTiledParams& p = t->map.p;
    ElementStart e;
    e.elementBits = t->map.elemBits;
    bool inBounds = true;
    uint64_t bit = 0;
    for (uint32_t i = 0; i < p.tensorRank; ++i) {
        if (x[i] < 0 || uint64_t(x[i]) >= p.globalDim[i]) inBounds = false;
        if (i == 0)
            bit += uint64_t(std::max<int64_t>(x[0], 0)) * e.elementBits;
        else
            bit += uint64_t(std::max<int64_t>(x[i], 0)) * p.globalStrides[i - 1] * 8;
    }
    if (inBounds) {
        LessonPlace g;
        g.space = MemSpace::Global;
        g.addr = p.globalAddress + bit / 8;
        g.bit = static_cast<uint32_t>(bit % 8);
        g.bits = std::min<uint32_t>(e.elementBits, 8 - g.bit);
        e.places.push_back(g);
        e.global = g;
        return e;
    }
    // Out of bounds: the fill moves of loads of this map whose box holds the element (tma.md §3.1).
    const uint32_t es = std::max<uint32_t>(1, e.elementBits / 8);
    for (auto it = run.trace.moves.begin(); it != run.trace.moves.end(); ++it) {
        const ByteMove m = *it;
        if (m.step >= stepLimit) break;
        if (m.src.space != MemSpace::Fill || m.instr >= sc.instrs.size()) continue;
        const auto* ld = std::get_if<TmaTileLoad>(&sc.instrs[m.instr].op);
        if (!ld || ld->map.p.globalAddress != p.globalAddress) continue;
        bool same = true;
        for (uint32_t i = 1; i < p.tensorRank; ++i) same = same && m.coord[i] == x[i];
        const int64_t k = x[0] - m.coord[0];
        if (!same || k < 0 || uint64_t(k) * es >= m.length) continue;
        LessonPlace q = fromLinear(m.dst.space, m.dst.cta,
                                   (m.dst.space == MemSpace::TensorMemory ? m.dst.addr * 4 : m.dst.addr) +
                                       uint64_t(k) * es);
        if (std::find(e.filled.begin(), e.filled.end(), q) == e.filled.end()) e.filled.push_back(q);
        e.fillRule = m.rule;
    }
    return e;
}

std::vector<std::array<int64_t, 5>> selectorElements(const LessonSelector& s, size_t cap) {
    std::vector<std::array<int64_t, 5>> out;
    std::array<int64_t, 5> x = s.lo;
    if (s.rank == 0) return out;
    for (;;) {
        out.push_back(x);
        if (out.size() >= cap) return out;
        uint32_t d = 0;
        while (d < s.rank) {
            if (x[d] < s.hi[d]) {
                ++x[d];
                break;
            }
            x[d] = s.lo[d];
            ++d;
        }
        if (d == s.rank) return out;
    }
}

namespace {

void addRange(std::vector<LessonCells>& out, const LessonCells& r) {
    out.push_back(r); // merged() sorts, drops duplicates and joins adjacent bytes
}

std::vector<LessonCells> merged(std::vector<LessonCells> v) {
    std::sort(v.begin(), v.end(), [](const LessonCells& a, const LessonCells& b) {
        return std::tie(a.space, a.cta, a.addr, a.lane, a.column, a.bytes, a.lanes, a.columns) <
               std::tie(b.space, b.cta, b.addr, b.lane, b.column, b.bytes, b.lanes, b.columns);
    });
    v.erase(std::unique(v.begin(), v.end()), v.end());
    std::vector<LessonCells> out;
    for (const LessonCells& r : v) {
        if (!out.empty() && r.space != MemSpace::TensorMemory && out.back().space == r.space &&
            out.back().cta == r.cta && out.back().addr + out.back().bytes >= r.addr) {
            out.back().bytes = std::max(out.back().bytes, r.addr + r.bytes - out.back().addr);
            continue;
        }
        out.push_back(r);
    }
    return out;
}

LessonCells cellOf(const LessonPlace& p, uint32_t bytes) {
    LessonCells r;
    r.space = p.space;
    r.cta = p.cta;
    if (p.space == MemSpace::TensorMemory) {
        const TmemAddr a = decodeTmemAddress(static_cast<uint32_t>(p.addr));
        r.lane = a.lane, r.lanes = 1, r.column = a.column,
        r.columns = std::max<uint32_t>(1, (p.byte + bytes + 3) / 4);
    } else {
        r.addr = p.addr;
        r.bytes = bytes;
    }
    return r;
}

} // namespace

Result<std::vector<LessonCells>> resolveSelector(const Lesson& l, const Run& run, const LessonSelector& s,
                                                 uint32_t traceStep) {
    using K = LessonSelector::Kind;
    if (!l.scenario) return diag("lesson.scenario", s.span, "the lesson's scenario is not loaded");
    const Scenario& sc = *l.scenario;
    std::vector<LessonCells> out;
    if (s.kind == K::Global || s.kind == K::Landed) {
        // Landed: one pass over the trace for all elements; an out-of-bounds element costs a scan of the
        // trace's fill moves, so landed selectors stop at kMaxLandedElements.
        std::vector<LessonPlace> starts;
        uint32_t bytes = 1;
        for (const auto& x :
             selectorElements(s, s.kind == K::Global ? kMaxSelectorElements : kMaxLandedElements)) {
            auto e = elementStart(l, run, s, x, traceStep);
            if (!e) return e.diagnostics();
            bytes = std::max<uint32_t>(1, e->elementBits / 8);
            if (s.kind == K::Global) {
                if (e->global) addRange(out, cellOf(*e->global, bytes));
                continue;
            }
            const auto& from = e->places.empty() ? e->filled : e->places;
            starts.insert(starts.end(), from.begin(), from.end());
        }
        if (s.kind == K::Landed)
            for (const LessonPlace& p : followPlaces(run, starts, traceStep).all)
                if (p.space != MemSpace::Global) addRange(out, cellOf(p, bytes));
    } else if (s.kind == K::Smem) {
        auto addrOf = [&](const std::string& buf, int64_t off, uint32_t& cta) -> std::optional<int64_t> {
            if (buf.empty()) return off;
            const ScenarioBuffer* b = sc.findBuffer(buf);
            if (!b) return std::nullopt;
            cta = b->cta;
            return int64_t(b->addr) + off;
        };
        uint32_t cta = 0;
        const auto a = addrOf(s.firstBuf, s.first, cta);
        const auto b = s.wholeBuffer ? a : addrOf(s.lastBuf, s.last, cta);
        if (!a || !b)
            return diag("lesson.selector", s.span, "no shared buffer of that name", DiagCode::UnknownName);
        int64_t last = *b;
        if (s.wholeBuffer) last = *a + int64_t(sc.findBuffer(s.firstBuf)->size) - 1;
        if (*a < 0 || last < *a || uint64_t(last) >= kSmemBytesPerCta)
            return diag("lesson.selector", s.span, "the shared range must be first..last inside 0..228 KiB",
                        DiagCode::InvalidValue);
        addRange(out, LessonCells{MemSpace::SharedCta, s.cta.value_or(cta), uint64_t(*a),
                                  uint64_t(last - *a + 1)});
    } else if (s.kind == K::Tmem) {
        LessonCells r;
        r.space = MemSpace::TensorMemory;
        r.cta = s.cta.value_or(0);
        r.lane = s.laneLo, r.lanes = s.laneHi - s.laneLo + 1, r.column = s.colLo,
        r.columns = s.colHi - s.colLo + 1;
        addRange(out, r);
    } else {
        addRange(out, LessonCells{MemSpace::Register, s.cta.value_or(0),
                                  (uint64_t(s.warp * 32 + s.thread) << 16) | (s.reg * 4), 4});
    }
    if (s.cta && *s.cta >= sc.clusterSize)
        return diag("lesson.selector", s.span, "cta=" + std::to_string(*s.cta) + " is outside the cluster",
                    DiagCode::InvalidValue);
    if (out.empty())
        return diag("lesson.selector", s.span,
                    "'" + s.text + "' covers no cell at this step (out of bounds, or nothing landed yet)",
                    DiagCode::InvalidValue);
    return merged(std::move(out));
}

Result<std::vector<LessonCells>> resolveStepHighlights(const Lesson& l, const Run& run, size_t stepIndex) {
    auto step = lessonTraceStep(l, run, stepIndex);
    if (!step) return step.diagnostics();
    std::vector<LessonCells> all;
    for (const LessonSelector& h : l.steps[stepIndex].highlights) {
        auto cells = resolveSelector(l, run, h, *step);
        if (!cells) return cells.diagnostics();
        all.insert(all.end(), cells->begin(), cells->end());
    }
    return all;
}

} // namespace layoutscope
