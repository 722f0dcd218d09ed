// Loading a lesson (its scenario file), checking its names against the scenario, and where each step
// stands in the trace (docs/lessons.md "Steps").
#include "layoutscope/core/file_read.hpp"
#include "lesson/detail.hpp"

#include <sstream>

namespace layoutscope {
using namespace lesson_detail;

namespace {

// The scenario instruction on scenario line `n` (for an embedded scenario: lesson line n).
std::optional<uint32_t> instrOnLine(const Lesson& l, uint32_t n) {
    if (!l.scenario) return std::nullopt;
    const int line = l.scenarioPath.empty() ? int(n) - l.scenarioLine + 1 : int(n);
    for (size_t i = 0; i < l.scenario->instrs.size(); ++i)
        if (l.scenario->instrs[i].span.line == line) return static_cast<uint32_t>(i);
    return std::nullopt;
}

Status checkSelector(const Scenario& sc, const LessonSelector& s) {
    using K = LessonSelector::Kind;
    if (s.kind == K::Global || s.kind == K::Landed) {
        const ScenarioTensorMap* t = sc.findTensorMap(s.tensor);
        if (!t)
            return diag("lesson.selector", s.span, "no tensor map '" + s.tensor + "' in the scenario",
                        DiagCode::UnknownName);
        if (s.rank != t->map.p.tensorRank)
            return diag("lesson.selector", s.span,
                        "'" + s.tensor + "' has rank " + std::to_string(t->map.p.tensorRank) + ": give " +
                            std::to_string(t->map.p.tensorRank) + " indices",
                        DiagCode::InvalidValue);
    }
    if (s.kind == K::Smem)
        for (const std::string* b : {&s.firstBuf, &s.lastBuf})
            if (!b->empty() && !sc.findBuffer(*b))
                return diag("lesson.selector", s.span, "no shared buffer '" + *b + "' in the scenario",
                            DiagCode::UnknownName);
    if (s.cta && *s.cta >= sc.clusterSize)
        return diag("lesson.selector", s.span,
                    "cta=" + std::to_string(*s.cta) + " is outside the cluster of " +
                        std::to_string(sc.clusterSize),
                    DiagCode::InvalidValue);
    return okStatus();
}

} // namespace

Status checkLessonNames(const Lesson& l) {
    if (!l.scenario) return diag("lesson.scenario", {1, 1, 1}, "the lesson's scenario is not loaded");
    const Scenario& sc = *l.scenario;
    std::vector<Diagnostic> ds;
    auto add = [&](const Status& st) {
        if (!st) ds.insert(ds.end(), st.diagnostics().begin(), st.diagnostics().end());
    };
    for (const LessonStep& s : l.steps) {
        if (s.at.kind == LessonAt::Kind::Instr && s.at.n > sc.instrs.size())
            ds.push_back(diag("lesson.at", s.at.span,
                              "the scenario has " + std::to_string(sc.instrs.size()) + " instructions",
                              DiagCode::InvalidValue));
        if (s.at.kind == LessonAt::Kind::Line && !instrOnLine(l, s.at.n))
            ds.push_back(diag("lesson.at", s.at.span,
                              "no scenario instruction starts on line " + std::to_string(s.at.n),
                              DiagCode::InvalidValue));
        for (const LessonSelector& h : s.highlights) add(checkSelector(sc, h));
        if (!s.question) continue;
        const LessonQuestion& q = *s.question;
        if (q.selector) add(checkSelector(sc, *q.selector));
        const bool numbered = q.kind == LessonQuestion::Kind::Bytes ||
                              (q.kind == LessonQuestion::Kind::Wavefronts && !q.selector);
        if (numbered && q.instr > sc.instrs.size())
            ds.push_back(diag("lesson.question", q.span,
                              "the scenario has " + std::to_string(sc.instrs.size()) + " instructions",
                              DiagCode::InvalidValue));
        else if (numbered && q.kind == LessonQuestion::Kind::Wavefronts && !sc.instrs[q.instr - 1].smemAccess)
            ds.push_back(
                diag("lesson.question", q.span,
                     "instruction " + std::to_string(q.instr) + " is not an ld.shared, st.shared or ldmatrix",
                     DiagCode::InvalidValue));
    }
    if (!ds.empty()) return ds;
    return okStatus();
}

Result<Lesson> loadLesson(const std::string& path) {
    std::string text;
    switch (const FileReadStatus s = readRegularFile(path, kMaxLessonBytes, text)) {
    case FileReadStatus::Ok:
        break;
    case FileReadStatus::CannotOpen:
        return diag("io", {}, "cannot open '" + path + "'", DiagCode::Io);
    case FileReadStatus::TooLarge:
        return diag("lesson.size", {1, 1, 1}, "the lesson is more than 1 MiB (kMaxLessonBytes)",
                    DiagCode::InvalidValue);
    case FileReadStatus::NotRegular:
    case FileReadStatus::ReadError: {
        Diagnostic d = diag("io", {}, "'" + path + "': " + fileReadMessage(s, "the lesson", kMaxLessonBytes),
                            DiagCode::Io);
        d.ruleRef = kFileInputRule;
        return d;
    }
    }
    auto l = parseLesson(text);
    if (!l || l->scenario) return l;
    const size_t slash = path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
    const std::string scn =
        !l->scenarioPath.empty() && l->scenarioPath[0] == '/' ? l->scenarioPath : dir + l->scenarioPath;
    auto scnText = readScenarioFile(scn);
    if (!scnText) {
        Diagnostic d = scnText.error();
        d.message = "scenario '" + l->scenarioPath + "': " + d.message;
        return d;
    }
    auto sc = parseScenario(*scnText);
    if (!sc) {
        std::vector<Diagnostic> ds = sc.diagnostics();
        for (Diagnostic& d : ds)
            d.message = l->scenarioPath + ":" + std::to_string(d.span.line) + ": " + d.message;
        return ds;
    }
    l->scenarioText = std::move(*scnText);
    l->scenario = std::move(*sc);
    if (Status st = checkLessonNames(*l); !st) return st.diagnostics();
    return l;
}

Result<uint32_t> lessonTraceStep(const Lesson& l, const Run& run, size_t stepIndex) {
    if (stepIndex >= l.steps.size())
        return diag("lesson.step", {}, "no step " + std::to_string(stepIndex), DiagCode::InvalidValue);
    uint32_t pos = 0;
    for (size_t i = 0; i <= stepIndex; ++i) {
        const LessonAt& a = l.steps[i].at;
        switch (a.kind) {
        case LessonAt::Kind::Inherit:
            break;
        case LessonAt::Kind::Start:
            pos = 0;
            break;
        case LessonAt::Kind::End:
            pos = run.trace.stepCount;
            break;
        case LessonAt::Kind::Instr:
        case LessonAt::Kind::Line: {
            const auto idx =
                a.kind == LessonAt::Kind::Instr ? std::optional<uint32_t>(a.n - 1) : instrOnLine(l, a.n);
            if (!idx || *idx >= run.trace.instrs.size())
                return diag("lesson.at", a.span, "that instruction did not run", DiagCode::InvalidValue);
            pos = run.trace.instrs[*idx].endStep;
            break;
        }
        case LessonAt::Kind::Step:
            if (a.n > run.trace.stepCount)
                return diag("lesson.at", a.span,
                            "the trace has " + std::to_string(run.trace.stepCount) + " steps",
                            DiagCode::InvalidValue);
            pos = a.n;
            break;
        }
    }
    return pos;
}

std::optional<uint32_t> lessonInstr(const Lesson& l, const Run& run, size_t stepIndex) {
    for (size_t i = stepIndex + 1; i-- > 0;) {
        if (i >= l.steps.size()) continue;
        const LessonAt& a = l.steps[i].at;
        if (a.kind == LessonAt::Kind::Inherit) continue;
        std::optional<uint32_t> idx;
        if (a.kind == LessonAt::Kind::Instr) idx = a.n - 1;
        if (a.kind == LessonAt::Kind::Line) idx = instrOnLine(l, a.n);
        if (idx && *idx < run.trace.instrs.size()) return idx;
        return std::nullopt;
    }
    return std::nullopt;
}

} // namespace layoutscope
