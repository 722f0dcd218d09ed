// The engine's answers to lesson questions and the check of a learner's answer (docs/lessons.md
// "Questions"). Every answer carries how it was computed: the rules used with reference and provenance.
#include "layoutscope/analysis/banks.hpp"
#include "layoutscope/analysis/metrics.hpp"
#include "lesson/resolve.hpp"
#include "lesson/syntax.hpp"

#include <algorithm>
#include <cstdio>

namespace layoutscope {
using namespace lesson_detail;

namespace {

std::string hex(uint64_t v) {
    char b[24];
    std::snprintf(b, sizeof b, "0x%04llx", static_cast<unsigned long long>(v));
    return b;
}

std::string ruleText(RuleId r) {
    const RuleInfo& i = ruleInfo(r);
    const std::string tag = provenanceTag(i.provenance);
    const bool says = tag.find("unverified") != std::string::npos || tag.find("assum") != std::string::npos;
    return std::string("[") + i.name + ": " + i.reference + "; " + tag +
           (isVerified(i.provenance) || says ? "" : ", unverified") + "]";
}

std::string selectorName(const LessonSelector& s) {
    return s.text.empty() ? std::string("the element") : s.text;
}

Result<LessonAnswer> whereAnswer(const Lesson& l, const Run& run, const LessonQuestion& q, uint32_t step) {
    const LessonSelector& s = *q.selector;
    LessonAnswer a;
    a.kind = LessonAnswer::Kind::Places;
    std::vector<LessonPlace> start;
    std::string from;
    if (s.kind == LessonSelector::Kind::Global) {
        auto e = elementStart(l, run, s, s.lo, step);
        if (!e) return e.diagnostics();
        a.elementBytes = std::max<uint32_t>(1, e->elementBits / 8);
        if (e->global) {
            start = e->places;
            from = "global " + hex(e->global->addr);
        } else {
            start = e->filled;
            from = "out of bounds: filled " + ruleText(e->fillRule);
            if (start.empty())
                return diag("lesson.question", q.span,
                            selectorName(s) + " is out of bounds and no load filled it",
                            DiagCode::InvalidValue);
        }
    } else if (s.kind == LessonSelector::Kind::Reg) {
        LessonPlace p;
        p.space = MemSpace::Register;
        p.cta = s.cta.value_or(0);
        p.addr = (uint64_t(s.warp * 32 + s.thread) << 16) | (s.reg * 4);
        start = {p};
        a.elementBytes = 4;
        from = placeText(p);
    } else if (s.kind == LessonSelector::Kind::Tmem) {
        LessonPlace p;
        p.space = MemSpace::TensorMemory;
        p.cta = s.cta.value_or(0);
        p.addr = tmemAddress(s.laneLo, s.colLo);
        start = {p};
        a.elementBytes = 4;
        from = placeText(p);
    } else {
        auto cells = resolveSelector(l, run, s, step);
        if (!cells) return cells.diagnostics();
        LessonPlace p;
        p.space = MemSpace::SharedCta;
        p.cta = cells->front().cta;
        p.addr = cells->front().addr;
        start = {p};
        from = placeText(p);
    }
    const Followed f = followPlaces(run, start, step);
    for (const Hop& h : f.steps)
        if (q.in != MemSpace::None && h.place.space == q.in) a.places.push_back(h.place);
    if (q.in == MemSpace::None) a.places = f.last;
    if (a.places.empty() && s.kind == LessonSelector::Kind::Global && start != std::vector<LessonPlace>{} &&
        start.front().space != MemSpace::Global && (q.in == MemSpace::None || q.in == start.front().space))
        a.places = start; // an OOB element that was only filled
    if (a.places.empty())
        return diag("lesson.question", q.span,
                    selectorName(s) + " has not landed " +
                        (q.in == MemSpace::SharedCta      ? "in shared memory "
                         : q.in == MemSpace::TensorMemory ? "in Tensor Memory "
                                                          : "anywhere ") +
                        "by this step",
                    DiagCode::InvalidValue);
    a.explanation = selectorName(s) + " (" + from + ")";
    for (const Hop& h : f.steps) {
        if (std::find(a.places.begin(), a.places.end(), h.place) == a.places.end() &&
            h.place.space != MemSpace::SharedCta && h.place.space != MemSpace::TensorMemory)
            continue;
        a.explanation += " -> " + placeText(h.place) + " by instr " + std::to_string(h.instr + 1);
    }
    for (RuleId r : f.rules) {
        a.explanation += " " + ruleText(r);
        a.unverified = a.unverified || !isVerified(ruleInfo(r).provenance);
    }
    return a;
}

Result<LessonAnswer> wavefrontAnswer(const Lesson& l, const Run& run, const LessonQuestion& q,
                                     uint32_t step) {
    LessonAnswer a;
    Result<BankReport> r = Diagnostic{};
    if (!q.selector) {
        r = smemAccessWavefronts(*l.scenario->instrs[q.instr - 1].smemAccess);
        a.explanation =
            "instr " + std::to_string(q.instr) + " '" + l.scenario->instrs[q.instr - 1].text + "'";
    } else {
        const LessonSelector& s = *q.selector;
        const auto elems = selectorElements(s, kWarpSize + 1);
        if (elems.size() > kWarpSize)
            return diag("lesson.question", q.span, "a warp reads at most 32 elements (one per thread)",
                        DiagCode::InvalidValue);
        WarpSmemAccess acc;
        acc.activeMask = elems.size() == 32 ? 0xFFFFFFFFu : (1u << elems.size()) - 1;
        for (size_t t = 0; t < elems.size(); ++t) {
            auto e = elementStart(l, run, s, elems[t], step);
            if (!e) return e.diagnostics();
            acc.widthBytes = q.width ? q.width : std::max<uint32_t>(1, e->elementBits / 8);
            const Followed f = followPlaces(run, e->global ? e->places : e->filled, step);
            const auto smem = std::find_if(f.all.begin(), f.all.end(), [](const LessonPlace& p) {
                return p.space == MemSpace::SharedCta;
            });
            if (smem == f.all.end())
                return diag("lesson.question", q.span,
                            "element " + std::to_string(t) +
                                " of the read is not in shared memory at this step",
                            DiagCode::InvalidValue);
            acc.addr[t] = static_cast<uint32_t>(smem->addr);
        }
        r = countBankWavefronts(acc);
        a.explanation = "a warp whose thread t reads element t of " + s.text + " (" +
                        std::to_string(acc.widthBytes) + " B each, where it landed: thread 0 at smem " +
                        hex(acc.addr[0]) + ")";
    }
    if (!r) return r.diagnostics();
    a.number = r->wavefronts;
    std::string banks;
    uint32_t worst = 0;
    for (uint32_t b = 0; b < kSmemBanks; ++b) worst = std::max(worst, r->wordsPerBank[b]);
    a.explanation += ": " + std::to_string(r->wavefronts) + " wavefronts (ideal " + std::to_string(r->ideal) +
                     ", " + std::to_string(r->excess) + " excess; busiest bank holds " +
                     std::to_string(worst) + " distinct words) " + ruleText(r->rule);
    a.unverified = !isVerified(ruleInfo(r->rule).provenance);
    return a;
}

bool placeMatches(const LessonPlace& want, uint32_t bytes, const LessonPlace& got) {
    if (want.space != got.space || (want.space != MemSpace::Global && want.cta != got.cta)) return false;
    if (want.space == MemSpace::TensorMemory) { // a click names a cell: right when the cell holds part of it
        const uint64_t lo = want.addr * 4 + want.byte, hi = lo + bytes - 1;
        return got.addr >= lo / 4 && got.addr <= hi / 4 && (got.addr >> 16) == (want.addr >> 16);
    }
    if (want.space == MemSpace::Register) // a register: right when it names the same thread and register
        return (got.addr >> 2) == (want.addr >> 2);
    return got.addr >= want.addr && got.addr < want.addr + bytes;
}

} // namespace

std::string placeText(const LessonPlace& p) {
    std::string s = p.cta != 0 && p.space != MemSpace::Global ? "cta " + std::to_string(p.cta) + " " : "";
    switch (p.space) {
    case MemSpace::Global:
        s += "global " + hex(p.addr);
        break;
    case MemSpace::SharedCta:
        s += "smem " + hex(p.addr);
        break;
    case MemSpace::TensorMemory: {
        const TmemAddr a = decodeTmemAddress(static_cast<uint32_t>(p.addr));
        s += "tmem lane " + std::to_string(a.lane) + " col " + std::to_string(a.column);
        if (p.byte != 0 || p.bits != 8) s += " byte " + std::to_string(p.byte);
        break;
    }
    case MemSpace::Register: {
        const uint64_t tid = p.addr >> 16; // thread in the CTA
        s += "reg t=" + std::to_string(tid % 32) + " r=" + std::to_string((p.addr & 0xFFFF) / 4) +
             (tid >= 32 ? " warp=" + std::to_string(tid / 32) : std::string()) +
             ((p.addr & 3) ? " byte " + std::to_string(p.addr & 3) : std::string());
        break;
    }
    default:
        s += "-";
    }
    if (p.bits != 8) s += " bits [" + std::to_string(p.bit + p.bits - 1) + ":" + std::to_string(p.bit) + "]";
    return s;
}

std::string LessonAnswer::display() const {
    switch (kind) {
    case Kind::Number:
        return std::to_string(number);
    case Kind::Range:
        return std::to_string(number) + ".." + std::to_string(last);
    case Kind::Text:
        return text;
    case Kind::Places: {
        std::string s;
        for (const LessonPlace& p : places) s += (s.empty() ? "" : ", ") + placeText(p);
        return s;
    }
    }
    return {};
}

std::string questionPrompt(const LessonQuestion& q) {
    using K = LessonQuestion::Kind;
    const std::string sel = q.selector ? q.selector->text : std::string();
    switch (q.kind) {
    case K::Where:
        return "Where does " + sel + " land" +
               (q.in == MemSpace::SharedCta      ? " in shared memory"
                : q.in == MemSpace::TensorMemory ? " in Tensor Memory"
                                                 : "") +
               "? (click the cell, or type e.g. 'smem 0x0400', 'tmem lane 0 col 0' or 'reg t=0 r=0')";
    case K::Wavefronts:
        return q.selector ? "How many shared-memory wavefronts does a warp need to read " + sel + "?"
                          : "How many shared-memory wavefronts does instruction " + std::to_string(q.instr) +
                                " need?";
    case K::Bytes:
        return "How many bytes does instruction " + std::to_string(q.instr) + " move?";
    case K::Metric:
        return "What is the run's '" + q.metric + "'?";
    case K::Value:
        return "What value does " + sel + " hold now?";
    case K::Lanes:
        return "Which TMEM lanes may warp " + std::to_string(q.warp) +
               " reach with tcgen05.ld/st? (type A..B)";
    case K::Fact:
        return q.metric + "?";
    }
    return {};
}

Result<LessonAnswer> expectedAnswer(const Lesson& l, const Run& run, size_t stepIndex) {
    using K = LessonQuestion::Kind;
    if (!l.scenario) return diag("lesson.scenario", {}, "the lesson's scenario is not loaded");
    if (stepIndex >= l.steps.size() || !l.steps[stepIndex].question)
        return diag("lesson.question", {}, "step " + std::to_string(stepIndex + 1) + " asks no question",
                    DiagCode::InvalidValue);
    const LessonStep& st = l.steps[stepIndex];
    const LessonQuestion& q = *st.question;
    auto step = lessonTraceStep(l, run, stepIndex);
    if (!step) return step.diagnostics();
    LessonAnswer a;
    switch (q.kind) {
    case K::Where:
        return whereAnswer(l, run, q, *step);
    case K::Wavefronts:
        return wavefrontAnswer(l, run, q, *step);
    case K::Bytes: {
        if (q.instr > run.trace.instrs.size())
            return diag("lesson.question", q.span, "that instruction did not run", DiagCode::InvalidValue);
        const TraceInstr& in = run.trace.instrs[q.instr - 1];
        a.number = static_cast<int64_t>(in.bytesMoved);
        a.explanation = "instr " + std::to_string(q.instr) + ": " + in.summary;
        return a;
    }
    case K::Metric: {
        for (const MetricValue& m : scenarioMetrics(*l.scenario, run))
            if (lower(m.name) == lower(q.metric)) {
                a.number = m.value;
                a.explanation = "'" + m.name + "' of the whole run (analysis/metrics.hpp)";
                return a;
            }
        return diag("lesson.question", q.span,
                    "no metric '" + q.metric + "' (`layoutscope-cli compare` lists them)",
                    DiagCode::UnknownName);
    }
    case K::Value: {
        auto cells = resolveSelector(l, run, *q.selector, *step);
        if (!cells) return cells.diagnostics();
        const LessonCells& c = cells->front();
        if (c.space == MemSpace::TensorMemory) {
            TmemReplay r(run.trace, run.tmemInitial);
            r.seek(*step);
            a.number = r.state().ctas.at(c.cta).cell(c.lane, c.column);
            a.explanation = "32-bit cell lane " + std::to_string(c.lane) + " col " +
                            std::to_string(c.column) + " after trace step " + std::to_string(*step);
        } else {
            Replay r(run.trace, run.initial);
            r.seek(*step);
            const auto bytes = r.state().smem.at(c.cta).bytes();
            uint64_t v = 0;
            for (uint32_t b = 0; b < q.valueBytes && c.addr + b < bytes.size(); ++b)
                v |= uint64_t(bytes[c.addr + b]) << (8 * b);
            a.number = static_cast<int64_t>(v);
            a.explanation = std::to_string(q.valueBytes) + "-byte little-endian value at smem " +
                            hex(c.addr) + " after trace step " + std::to_string(*step);
        }
        return a;
    }
    case K::Lanes: {
        const uint32_t qq = laneQuarterOfWarp(q.warp);
        a.kind = LessonAnswer::Kind::Range;
        a.number = 32 * qq;
        a.last = 32 * qq + 31;
        a.explanation = "warp " + std::to_string(q.warp) + " % 4 = " + std::to_string(qq) + " " +
                        ruleText(RuleId::TmemLaneQuarter);
        a.unverified = !isVerified(ruleInfo(RuleId::TmemLaneQuarter).provenance);
        return a;
    }
    case K::Fact: {
        auto given = parseLessonAnswer(q.answer.value_or(""));
        if (!given) return given.diagnostics();
        a = *given;
        std::string refs;
        for (const std::string& r : st.refs) refs += (refs.empty() ? "" : "; ") + r;
        a.explanation =
            "stated by the lesson from the reference pack [ref: " + refs + "]; not computed by the engine";
        return a;
    }
    }
    return a;
}

namespace {
Result<LessonVerdict> checkAnswerValue(const Lesson& l, const Run& run, size_t stepIndex,
                                       const LessonAnswer& given) {
    auto want = expectedAnswer(l, run, stepIndex);
    if (!want) return want.diagnostics();
    LessonVerdict v;
    v.expected = *want;
    using K = LessonAnswer::Kind;
    switch (want->kind) {
    case K::Places:
        for (const LessonPlace& p : want->places) {
            if (given.kind == K::Places && !given.places.empty())
                v.correct = v.correct || placeMatches(p, want->elementBytes, given.places.front());
            if (given.kind == K::Number && given.number >= 0 && p.space != MemSpace::TensorMemory) {
                LessonPlace g = p;
                g.addr = static_cast<uint64_t>(given.number);
                v.correct = v.correct || placeMatches(p, want->elementBytes, g);
            }
        }
        break;
    case K::Number:
        v.correct = given.kind == K::Number && given.number == want->number;
        break;
    case K::Range:
        v.correct = given.kind == K::Range && given.number == want->number && given.last == want->last;
        break;
    case K::Text:
        v.correct = lower(given.kind == K::Text ? given.text : given.display()) == lower(want->text);
        break;
    }
    v.explanation = (v.correct ? "right: " : "not quite: the answer is ") + want->display() + ". " +
                    want->explanation + (want->unverified ? " (unverified rule on the way)" : "");
    return v;
}
} // namespace

Result<LessonVerdict> checkAnswer(const Lesson& l, const Run& run, size_t stepIndex,
                                  std::string_view answer) {
    auto given = parseLessonAnswer(answer);
    if (!given) return given.diagnostics();
    return checkAnswerValue(l, run, stepIndex, *given);
}

Result<LessonVerdict> checkAnswer(const Lesson& l, const Run& run, size_t stepIndex,
                                  const LessonPlace& clicked) {
    LessonAnswer given;
    given.kind = LessonAnswer::Kind::Places;
    given.places.push_back(clicked);
    return checkAnswerValue(l, run, stepIndex, given);
}

} // namespace layoutscope
