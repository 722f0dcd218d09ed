// The small languages inside a lesson line: selectors (`highlight:`), questions and answers
// (docs/lessons.md "Selectors", "Questions", "Answers").
#include "lesson/syntax.hpp"
#include "lesson/resolve.hpp"

#include "layoutscope/core/coord_text.hpp"

#include <algorithm>

namespace layoutscope {
using namespace lesson_detail;

namespace {

// INT or INT..INT (inclusive).
bool parseRange(Cursor& c, int64_t& lo, int64_t& hi) {
    const auto a = c.integer();
    if (!a) return false;
    lo = hi = *a;
    if (c.eat("..")) {
        const auto b = c.integer();
        if (!b) return false;
        hi = *b;
    }
    return true;
}

// END = INT | NAME | NAME+INT
bool parseSmemEnd(Cursor& c, std::string& buf, int64_t& off) {
    buf = c.word();
    off = 0;
    if (buf.empty()) {
        const auto v = c.integer();
        if (!v) return false;
        off = *v;
        return true;
    }
    if (c.eat("+")) {
        const auto v = c.integer();
        if (!v) return false;
        off = *v;
    }
    return true;
}

// `(x=5, y=3)`: labelled indices, dimension 0 = x first as the Inspector writes them (core/coord_text.hpp);
// any order, each dimension once, x up to the highest named.
std::optional<Diagnostic> parseLabelled(Cursor& c, LessonSelector& s) {
    std::array<int64_t, 5> lo{}, hi{};
    std::array<bool, 5> named{};
    uint32_t n = 0;
    for (;;) {
        const SourceSpan at = c.span();
        const std::string label = c.word();
        uint32_t d = 5;
        for (uint32_t k = 0; k < 5; ++k)
            if (label == dimLabel(k)) d = k;
        if (d == 5 || !c.eat("="))
            return diag("lesson.selector", at,
                        "expected a labelled index x=.., y=.., z=.., d3=.. or d4=.. (x = dimension 0, the "
                        "contiguous one)");
        if (named[d]) return diag("lesson.selector", at, label + " is named twice");
        if (!parseRange(c, lo[d], hi[d]))
            return diag("lesson.selector", c.span(), "expected an index or a range A..B");
        if (hi[d] < lo[d]) return diag("lesson.selector", c.span(), "a range A..B needs A <= B");
        named[d] = true;
        n = std::max(n, d + 1);
        if (c.eat(",")) continue;
        if (c.eat(")")) break;
        return diag("lesson.selector", c.span(), "expected ',' or ')'");
    }
    for (uint32_t d = 0; d < n; ++d)
        if (!named[d])
            return diag("lesson.selector", s.span,
                        "name every dimension from x up to the last one: " + dimLabel(d) + " is missing");
    s.rank = n;
    s.lo = lo;
    s.hi = hi;
    return std::nullopt;
}

std::optional<Diagnostic> parseIndices(Cursor& c, LessonSelector& s) {
    const bool cOrder = c.peek() == '(';
    if (!c.eat("(") && !c.eat("{"))
        return diag("lesson.selector", c.span(),
                    "expected '(x=.., y=..)' (labelled, x = dimension 0), '(' (indices outermost first, as "
                    "A[row][col]) or '{' (PTX coordinates, dimension 0 first) after the tensor name");
    if (cOrder) { // labelled?
        Cursor probe = c;
        if (!probe.word().empty() && probe.eat("=")) return parseLabelled(c, s);
    }
    std::array<int64_t, 5> lo{}, hi{};
    uint32_t n = 0;
    for (;;) {
        if (n == 5) return diag("lesson.selector", c.span(), "a tensor has at most 5 dimensions");
        if (!parseRange(c, lo[n], hi[n]))
            return diag("lesson.selector", c.span(), "expected an index or a range A..B");
        if (hi[n] < lo[n]) return diag("lesson.selector", c.span(), "a range A..B needs A <= B");
        ++n;
        if (c.eat(",")) continue;
        if (c.eat(cOrder ? ")" : "}")) break;
        return diag("lesson.selector", c.span(),
                    std::string("expected ',' or '") + (cOrder ? ")" : "}") + "'");
    }
    s.rank = n;
    for (uint32_t i = 0; i < n; ++i) { // store dimension 0 first
        const uint32_t from = cOrder ? n - 1 - i : i;
        s.lo[i] = lo[from];
        s.hi[i] = hi[from];
    }
    return std::nullopt;
}

// Trailing `key=INT` options the selector kind takes; stops (without error) at an option it does not know.
std::optional<Diagnostic> parseOptions(Cursor& c, LessonSelector& s) {
    for (;;) {
        Cursor save = c;
        const std::string k = c.word();
        if (k.empty() || !c.eat("=")) {
            c = save;
            return std::nullopt;
        }
        const bool regKey = s.kind == LessonSelector::Kind::Reg && (k == "t" || k == "r" || k == "warp");
        if (k != "cta" && !regKey) {
            c = save;
            return std::nullopt;
        }
        const auto v = c.integer();
        if (!v || *v < 0 || *v > 0xFFFF) return diag("lesson.selector", c.span(), k + "= needs a number");
        if (k == "cta") s.cta = static_cast<uint32_t>(*v);
        if (k == "t") s.thread = static_cast<uint32_t>(*v);
        if (k == "r") s.reg = static_cast<uint32_t>(*v);
        if (k == "warp") s.warp = static_cast<uint32_t>(*v);
    }
}

} // namespace

Result<LessonSelector> parseSelector(Cursor& c) {
    using K = LessonSelector::Kind;
    LessonSelector s;
    s.span = c.span();
    const size_t start = c.pos();
    const SourceSpan kindAt = c.span();
    const std::string kind = c.word();
    if (kind == "global" || kind == "landed") {
        s.kind = kind == "global" ? K::Global : K::Landed;
        s.tensor = c.word();
        if (s.tensor.empty()) return diag("lesson.selector", c.span(), "expected a tensor map name");
        if (auto d = parseIndices(c, s)) return *d;
    } else if (kind == "smem") {
        s.kind = K::Smem;
        if (!parseSmemEnd(c, s.firstBuf, s.first))
            return diag("lesson.selector", c.span(), "expected a shared address, a buffer or BUFFER+OFFSET");
        if (c.eat("..")) {
            if (!parseSmemEnd(c, s.lastBuf, s.last))
                return diag("lesson.selector", c.span(), "expected the last byte after '..'");
        } else if (!s.firstBuf.empty() && s.first == 0) {
            s.wholeBuffer = true;
        } else {
            s.lastBuf = s.firstBuf;
            s.last = s.first;
        }
    } else if (kind == "tmem") {
        s.kind = K::Tmem;
        int64_t a = 0, b = 0, x = 0, y = 0;
        if (c.word() != "lane" || !parseRange(c, a, b))
            return diag("lesson.selector", c.span(), "expected 'lane L' or 'lane L0..L1'");
        if (c.word() != "col" || !parseRange(c, x, y))
            return diag("lesson.selector", c.span(), "expected 'col C' or 'col C0..C1'");
        if (a < 0 || b >= kTmemLanes || a > b)
            return diag("lesson.selector", s.span, "TMEM lanes are 0..127 (tcgen05.md §2)",
                        DiagCode::InvalidValue);
        if (x < 0 || y >= kTmemColumns || x > y)
            return diag("lesson.selector", s.span, "TMEM columns are 0..511 (tcgen05.md §2)",
                        DiagCode::InvalidValue);
        s.laneLo = uint32_t(a), s.laneHi = uint32_t(b), s.colLo = uint32_t(x), s.colHi = uint32_t(y);
    } else if (kind == "reg") {
        s.kind = K::Reg;
    } else if (!kind.empty() && (c.peek() == '(' || c.peek() == '{')) { // `A (3,5)`: a global element
        s.kind = K::Global;
        s.tensor = kind;
        if (auto d = parseIndices(c, s)) return *d;
    } else {
        return diag(
            "lesson.selector", kindAt,
            "expected a selector: global NAME (i,j), landed NAME (i,j), smem A..B, tmem lane L col C, "
            "or reg t=T r=R" +
                (kind.empty() ? std::string() : ", not '" + kind + "'"));
    }
    if (auto d = parseOptions(c, s)) return *d;
    if (s.kind == K::Reg && (s.thread >= 32 || s.reg >= 128 || s.warp >= 32))
        return diag("lesson.selector", s.span, "reg needs t=0..31 r=0..127 (warp=0..31)",
                    DiagCode::InvalidValue);
    s.span.length = static_cast<int>(c.pos() - start);
    if (s.kind == K::Global || s.kind == K::Landed) { // the documented caps (docs/lessons.md "Selectors")
        const uint64_t cap = s.kind == K::Global ? kMaxSelectorElements : kMaxLandedElements;
        uint64_t n = 1;
        for (uint32_t d = 0; d < s.rank && n <= cap; ++d) {
            const uint64_t w = uint64_t(s.hi[d]) - uint64_t(s.lo[d]); // hi >= lo (parseIndices); no overflow
            n = w >= cap ? cap + 1 : n * (w + 1);                     // n <= cap and w < cap: below 2^34
        }
        if (n > cap)
            return diag("lesson.selector", s.span,
                        std::string(s.kind == K::Global ? "global" : "landed") +
                            " selector covers more than " + std::to_string(cap) +
                            " elements (docs/lessons.md caps it there)",
                        DiagCode::InvalidValue);
    }
    return s;
}

Result<LessonSelector> parseLessonSelector(std::string_view text, SourceSpan at) {
    Cursor c(text, at);
    auto s = parseSelector(c);
    if (!s) return s;
    if (!c.done()) return diag("lesson.selector", c.span(), "unexpected '" + std::string(c.rest()) + "'");
    s->text = std::string(trim(text));
    return s;
}

Result<LessonQuestion> parseQuestion(std::string_view text, SourceSpan at) {
    using K = LessonQuestion::Kind;
    LessonQuestion q;
    q.text = std::string(trim(text));
    q.span = at;
    Cursor c(text, at);
    const std::string kind = c.word();
    auto instrNumber = [&]() -> std::optional<Diagnostic> {
        if (c.word() != "instr") return diag("lesson.question", c.span(), "expected 'instr N'");
        const auto n = c.integer();
        if (!n || *n < 1 || *n > 1000000)
            return diag("lesson.question", c.span(),
                        "instructions are numbered from 1, as `run` prints them");
        q.instr = static_cast<uint32_t>(*n);
        return std::nullopt;
    };
    auto selector = [&]() -> std::optional<Diagnostic> {
        const size_t from = c.pos();
        auto s = parseSelector(c);
        if (!s) return s.error();
        s->text = std::string(trim(text.substr(from, c.pos() - from)));
        q.selector = std::move(*s);
        return std::nullopt;
    };
    if (kind == "where") {
        q.kind = K::Where;
        if (auto d = selector()) return *d;
        const auto k = q.selector->kind;
        if (k == LessonSelector::Kind::Landed)
            return diag("lesson.question", at,
                        "where asks about one global element, register, shared byte or TMEM cell");
        if (c.eat("in")) {
            const std::string sp = c.word();
            if (sp != "smem" && sp != "tmem")
                return diag("lesson.question", c.span(), "expected 'in smem' or 'in tmem'");
            q.in = sp == "smem" ? MemSpace::SharedCta : MemSpace::TensorMemory;
        }
    } else if (kind == "wavefronts") {
        q.kind = K::Wavefronts;
        Cursor save = c;
        const std::string sub = c.word();
        c = save;
        if (sub == "instr") {
            if (auto d = instrNumber()) return *d;
        } else if (sub == "read") {
            (void)c.word();
            if (auto d = selector()) return *d;
            if (q.selector->kind != LessonSelector::Kind::Global)
                return diag("lesson.question", at,
                            "wavefronts read needs global elements: read A (0..31, 5)");
            if (c.eat("width=")) {
                const auto w = c.integer();
                if (!w || (*w != 1 && *w != 2 && *w != 4 && *w != 8 && *w != 16))
                    return diag("lesson.question", c.span(), "width= is 1, 2, 4, 8 or 16 bytes (banks.hpp)");
                q.width = static_cast<uint32_t>(*w);
            }
        } else {
            return diag("lesson.question", c.span(),
                        "expected 'wavefronts instr N' or 'wavefronts read SEL'");
        }
    } else if (kind == "bytes") {
        q.kind = K::Bytes;
        if (auto d = instrNumber()) return *d;
    } else if (kind == "metric") {
        q.kind = K::Metric;
        q.metric = std::string(c.rest());
        if (q.metric.empty())
            return diag("lesson.question", c.span(), "expected a metric name (docs/lessons.md)");
        return q;
    } else if (kind == "value") {
        q.kind = K::Value;
        if (auto d = selector()) return *d;
        const auto k = q.selector->kind;
        if (k != LessonSelector::Kind::Smem && k != LessonSelector::Kind::Tmem)
            return diag("lesson.question", at, "value reads 'smem ADDR' or 'tmem lane L col C'");
        if (c.eat("bytes=")) {
            const auto b = c.integer();
            if (!b || (*b != 1 && *b != 2 && *b != 4 && *b != 8))
                return diag("lesson.question", c.span(), "bytes= is 1, 2, 4 or 8");
            q.valueBytes = static_cast<uint32_t>(*b);
        }
    } else if (kind == "lanes") {
        q.kind = K::Lanes;
        // -1: missing (value_or, not an optional through ?:, which GCC 12 reports as maybe-uninitialized)
        const int64_t n = c.word() == "warp" ? c.integer().value_or(-1) : -1;
        if (n < 0 || n > 31) return diag("lesson.question", c.span(), "expected 'lanes warp W' (W 0..31)");
        q.warp = static_cast<uint32_t>(n);
    } else if (kind == "fact") {
        q.kind = K::Fact;
        q.metric = std::string(c.rest());
        if (q.metric.empty()) return diag("lesson.question", c.span(), "expected the fact asked about");
        return q;
    } else {
        return diag("lesson.question", at,
                    "unknown question '" + kind +
                        "' (where, wavefronts, bytes, metric, value, lanes, fact: docs/lessons.md)");
    }
    if (!c.done()) return diag("lesson.question", c.span(), "unexpected '" + std::string(c.rest()) + "'");
    return q;
}

Result<LessonAnswer> parseLessonAnswer(std::string_view text) {
    using K = LessonAnswer::Kind;
    LessonAnswer a;
    const std::string_view t = trim(text);
    Cursor c(t, {});
    LessonPlace p;
    bool place = false;
    if (c.eat("cta")) {
        const auto n = c.integer();
        if (!n || *n < 0 || *n >= kMaxClusterCtas) return diag("lesson.answer", {}, "cta N needs N in 0..15");
        p.cta = static_cast<uint32_t>(*n);
    }
    Cursor save = c;
    const std::string w = c.word();
    if (w == "smem" || w == "global") {
        const auto v = c.integer();
        if (!v || *v < 0) return diag("lesson.answer", {}, "expected an address after '" + w + "'");
        p.space = w == "smem" ? MemSpace::SharedCta : MemSpace::Global;
        p.addr = static_cast<uint64_t>(*v);
        place = true;
    } else if (w == "reg") {
        int64_t t = -1, r = -1, warp = 0;
        for (;;) {
            Cursor keep = c;
            const std::string k = c.word();
            if (k.empty() || !c.eat("=")) {
                c = keep;
                break;
            }
            const auto v = c.integer();
            if (!v) return diag("lesson.answer", {}, k + "= needs a number");
            if (k == "t")
                t = *v;
            else if (k == "r")
                r = *v;
            else if (k == "warp")
                warp = *v;
            else {
                c = keep;
                break;
            }
        }
        if (t < 0 || t > 31 || r < 0 || r > 127 || warp < 0 || warp > 31)
            return diag("lesson.answer", {}, "expected 'reg t=T r=R' (t 0..31, r 0..127, warp=0..31)");
        p.space = MemSpace::Register;
        p.addr = (uint64_t(warp * 32 + t) << 16) | uint64_t(r * 4);
        place = true;
    } else if (w == "tmem") {
        const int64_t lane = c.word() == "lane" ? c.integer().value_or(-1) : -1; // -1: missing
        const int64_t col = lane >= 0 && c.word() == "col" ? c.integer().value_or(-1) : -1;
        if (lane < 0 || lane >= kTmemLanes || col < 0 || col >= kTmemColumns)
            return diag("lesson.answer", {}, "expected 'tmem lane L col C' (lanes 0..127, columns 0..511)");
        p.space = MemSpace::TensorMemory;
        p.addr = tmemAddress(uint32_t(lane), uint32_t(col));
        if (c.eat("byte")) {
            const auto b = c.integer();
            if (!b || *b < 0 || *b > 3) return diag("lesson.answer", {}, "byte is 0..3 inside a 32-bit cell");
            p.byte = static_cast<uint32_t>(*b);
        }
        place = true;
    } else {
        c = save;
    }
    if (place) {
        if (c.eat("cta=")) {
            const auto n = c.integer();
            if (!n || *n < 0 || *n >= kMaxClusterCtas) return diag("lesson.answer", {}, "cta= needs 0..15");
            p.cta = static_cast<uint32_t>(*n);
        }
        if (!c.done()) return diag("lesson.answer", {}, "unexpected '" + std::string(c.rest()) + "'");
        a.kind = K::Places;
        a.places.push_back(p);
        return a;
    }
    if (auto n = c.integer()) {
        a.number = *n;
        if (c.eat("..")) {
            const auto m = c.integer();
            if (!m) return diag("lesson.answer", {}, "expected the end of the range A..B");
            a.kind = K::Range;
            a.last = *m;
        } else {
            a.kind = K::Number;
        }
        if (c.done()) return a;
    }
    if (t.empty()) return diag("lesson.answer", {}, "the answer is empty");
    a = LessonAnswer{};
    a.kind = K::Text;
    a.text = std::string(t);
    return a;
}

} // namespace layoutscope
