// lesson: the narrated walk of a lesson, and `lesson --check` (docs/lessons.md "Command line").
#include "cli/commands.hpp"
#include "layoutscope/core/file_read.hpp"
#include "layoutscope/engine.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>

namespace layoutscope::cli {
namespace {

void printDiags(std::ostream& out, const std::vector<Diagnostic>& ds, const std::string& file) {
    printDiagnostics(out, ds, file); // capped per rule (load_scenario.cpp)
}
bool hasError(const std::vector<Diagnostic>& ds) {
    return std::any_of(ds.begin(), ds.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Error; });
}
std::string hex(uint64_t v) {
    char b[24];
    std::snprintf(b, sizeof b, "0x%04llx", static_cast<unsigned long long>(v));
    return b;
}

std::string cellText(const LessonCells& c) {
    const std::string cta = c.cta ? "cta " + std::to_string(c.cta) + " " : "";
    switch (c.space) {
    case MemSpace::Global:
        return "global " + hex(c.addr) + ".." + hex(c.addr + c.bytes - 1) + " (" + std::to_string(c.bytes) +
               " B)";
    case MemSpace::SharedCta:
        return cta + "smem " + hex(c.addr) + ".." + hex(c.addr + c.bytes - 1) + " (" +
               std::to_string(c.bytes) + " B)";
    case MemSpace::TensorMemory:
        return cta + "tmem lanes " + std::to_string(c.lane) + ".." + std::to_string(c.lane + c.lanes - 1) +
               " cols " + std::to_string(c.column) + ".." + std::to_string(c.column + c.columns - 1);
    case MemSpace::Register:
        return cta + "reg t" + std::to_string(c.addr >> 16) + ".r" + std::to_string((c.addr & 0xFFFF) / 4);
    default:
        return "-";
    }
}

std::string cellsSummary(const std::vector<LessonCells>& cs) {
    std::string s;
    const size_t show = std::min<size_t>(cs.size(), 4);
    for (size_t i = 0; i < show; ++i) s += (i ? ", " : "") + cellText(cs[i]);
    if (cs.size() > show) s += ", ... (" + std::to_string(cs.size()) + " ranges)";
    return s;
}

std::string indent(const std::string& text, const std::string& pad) {
    std::string out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out += pad + line + "\n";
    return out;
}

// --ref DIR: every `[ref: FILE.md §S]` / `ref: FILE.md §S` names a file of the pack and a heading "S." or "S
// " in it; "open question N" names entry N of open-questions.md.
std::vector<std::string> badCitations(const Lesson& l, const std::string& dir) {
    std::vector<std::string> bad;
    std::string all = l.intro;
    for (const std::string& r : l.refs) all += "\n[ref: " + r + "]";
    for (const LessonStep& s : l.steps) {
        all += "\n" + s.caption;
        for (const std::string& r : s.refs) all += "\n[ref: " + r + "]";
    }
    auto fileText = [&](const std::string& name) -> std::string {
        std::string text; // a reference page is a few KiB; FIFOs and devices are refused
        return readRegularFile(dir + "/" + name, uint64_t(16) << 20, text) == FileReadStatus::Ok
                   ? text
                   : std::string();
    };
    static const std::regex cite(R"(\[ref: ([^\]]*)\])");
    static const std::regex part(R"(([A-Za-z0-9_-]+\.md)((?:\s*,?\s*§[0-9][0-9.]*)*))");
    static const std::regex sect(R"(§([0-9][0-9.]*[0-9]|[0-9]))");
    for (auto it = std::sregex_iterator(all.begin(), all.end(), cite); it != std::sregex_iterator(); ++it) {
        const std::string body = (*it)[1];
        bool any = false;
        for (auto p = std::sregex_iterator(body.begin(), body.end(), part); p != std::sregex_iterator();
             ++p) {
            any = true;
            const std::string file = (*p)[1], secs = (*p)[2];
            const std::string text = fileText(file);
            if (text.empty()) {
                bad.push_back("[ref: " + body + "]: no file " + file + " in " + dir);
                continue;
            }
            for (auto s = std::sregex_iterator(secs.begin(), secs.end(), sect); s != std::sregex_iterator();
                 ++s) {
                const std::string sec = (*s)[1];
                const std::regex head("(^|\n)#+ " + std::regex_replace(sec, std::regex(R"(\.)"), R"(\.)") +
                                      "[. ]");
                if (!std::regex_search(text, head))
                    bad.push_back("[ref: " + body + "]: " + file + " has no section " + sec);
            }
        }
        if (!any) bad.push_back("[ref: " + body + "]: names no FILE.md of the reference pack");
    }
    static const std::regex oq(R"(open questions? ([0-9]+))");
    const std::string oqText = fileText("open-questions.md");
    for (auto it = std::sregex_iterator(all.begin(), all.end(), oq); it != std::sregex_iterator(); ++it)
        if (!std::regex_search(oqText, std::regex("(^|\n)" + std::string((*it)[1]) + R"(\. )")))
            bad.push_back("'" + std::string((*it)[0]) + "': no such entry in open-questions.md");
    return bad;
}

struct Loaded {
    Lesson lesson;
    Run run;
};

std::optional<Loaded> loadAndRunLesson(const std::string& path, std::ostream& err) {
    auto l = loadLesson(path);
    if (!l) {
        printDiags(err, l.diagnostics(), path);
        return std::nullopt;
    }
    auto run = runScenario(*l->scenario);
    if (!run) {
        printDiags(err, run.diagnostics(), path + " (scenario)");
        return std::nullopt;
    }
    return Loaded{std::move(*l), std::move(*run)};
}

int walk(const std::string& path, std::ostream& out, std::ostream& err) {
    auto ld = loadAndRunLesson(path, err);
    if (!ld) return kExitDiagnostics;
    const Lesson& l = ld->lesson;
    const Run& run = ld->run;
    printDiags(err, run.warnings, path + " (scenario)");
    out << "# " << l.title << "\n";
    if (!l.topic.empty()) out << "topic: " << l.topic << "\n";
    for (const std::string& r : l.refs) out << "ref: " << r << "\n";
    out << "scenario: " << (l.scenarioPath.empty() ? "(embedded)" : l.scenarioPath) << ", "
        << run.trace.instrs.size() << " instructions, " << run.trace.stepCount << " trace steps\n";
    if (!l.intro.empty()) out << "\n" << l.intro << "\n";
    int rc = kExitOk;
    for (size_t i = 0; i < l.steps.size(); ++i) {
        const LessonStep& s = l.steps[i];
        auto step = lessonTraceStep(l, run, i);
        if (!step) {
            printDiags(err, step.diagnostics(), path);
            rc = kExitDiagnostics;
            continue;
        }
        const auto instr = lessonInstr(l, run, i);
        out << "\n## Step " << i + 1 << "/" << l.steps.size() << ": " << s.title << "   [trace step "
            << *step;
        if (instr) out << ", after instr " << *instr + 1 << ": " << run.trace.instrs[*instr].text;
        out << (s.pause ? ", pause" : "") << "]\n";
        if (!s.caption.empty()) out << indent(s.caption, "  ");
        for (const std::string& r : s.refs) out << "  ref: " << r << "\n";
        for (const LessonSelector& h : s.highlights) {
            auto cells = resolveSelector(l, run, h, *step);
            if (!cells) {
                printDiags(err, cells.diagnostics(), path);
                rc = kExitDiagnostics;
                continue;
            }
            out << "  highlight " << h.text << ": " << cellsSummary(*cells) << "\n";
        }
        if (!s.question) continue;
        out << "  question: " << questionPrompt(*s.question) << "\n";
        auto want = expectedAnswer(l, run, i);
        if (!want) {
            printDiags(err, want.diagnostics(), path);
            rc = kExitDiagnostics;
            continue;
        }
        out << "  answer: " << want->display() << (want->unverified ? "  [unverified]" : "") << "\n";
        out << indent(want->explanation, "    ");
    }
    return rc;
}

int checkOne(const std::string& path, const std::string& refDir, std::ostream& out, std::ostream& err) {
    auto ld = loadAndRunLesson(path, err);
    if (!ld) return kExitDiagnostics;
    const Lesson& l = ld->lesson;
    const Run& run = ld->run;
    int rc = kExitOk;
    printDiags(err, run.warnings, path + " (scenario)");
    if (hasError(run.warnings)) rc = kExitDiagnostics;
    for (size_t i = 0; i < l.steps.size(); ++i) {
        const LessonStep& s = l.steps[i];
        auto step = lessonTraceStep(l, run, i);
        if (!step) {
            printDiags(err, step.diagnostics(), path);
            rc = kExitDiagnostics;
            continue;
        }
        for (const LessonSelector& h : s.highlights)
            if (auto cells = resolveSelector(l, run, h, *step); !cells) {
                printDiags(err, cells.diagnostics(), path);
                rc = kExitDiagnostics;
            }
        if (!s.question) continue;
        const LessonQuestion& q = *s.question;
        auto want = expectedAnswer(l, run, i);
        if (!want) {
            printDiags(err, want.diagnostics(), path);
            rc = kExitDiagnostics;
            continue;
        }
        if (!q.answer) continue;
        auto v = checkAnswer(l, run, i, *q.answer);
        if (!v || !v->correct) {
            Diagnostic d;
            d.code = DiagCode::InvalidValue;
            d.span = q.answerSpan;
            d.message = "the lesson says '" + *q.answer + "' but the engine computes " + want->display() +
                        " (" + want->explanation + ")";
            d.ruleRef = "lesson.answer (docs/lessons.md)";
            printDiags(err, {d}, path);
            rc = kExitDiagnostics;
        }
    }
    if (!refDir.empty())
        for (const std::string& b : badCitations(l, refDir)) {
            err << path << ": error: citation " << b << " [lesson.ref (docs/lessons.md)]\n";
            rc = kExitDiagnostics;
        }
    if (rc == kExitOk) out << path << ": ok (" << l.steps.size() << " steps)\n";
    return rc;
}

} // namespace

int cmdLesson(const Args& args, std::ostream& out, std::ostream& err) {
    bool check = false;
    std::string refDir;
    std::vector<std::string> files;
    for (size_t i = 1; i < args.size(); ++i) {
        if (args[i] == "--check") {
            check = true;
        } else if (args[i] == "--ref") {
            if (i + 1 >= args.size()) {
                err << "lesson: --ref needs a directory (the reference pack, e.g. docs/ref)\n"
                    << usageOf("lesson");
                return kExitUsage;
            }
            refDir = args[++i];
        } else if (args[i].rfind("--", 0) == 0) {
            err << "lesson: unknown option '" << args[i] << "'\n" << usageOf("lesson");
            return kExitUsage;
        } else {
            files.push_back(args[i]);
        }
    }
    if (files.empty() || (!check && (files.size() != 1 || !refDir.empty()))) {
        err << usageOf("lesson");
        return kExitUsage;
    }
    if (!check) return walk(files[0], out, err);
    int rc = kExitOk;
    for (const std::string& f : files) rc |= checkOne(f, refDir, out, err);
    return rc;
}

} // namespace layoutscope::cli
