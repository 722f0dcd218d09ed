// libFuzzer target: arbitrary bytes through the PTX front end and the scenario parser. Nothing may
// crash, hang or trip a sanitizer; every input must come back as a value or as diagnostics.
//   parseInstruction -> validateInstruction (every modelled target, both operand environments)
//   each line -> parseInstruction -> validateKernel
//   parseScenario -> runScenario (1 MiB trace budget: a run may execute untraced past it, never abort)
//   readPtxModule -> checkPtxModule -> scaffoldScenario (each entry) -> parseScenario (docs/ptx-modules.md)
//   parseLesson -> (embedded scenario) runScenario -> every step's selectors and expected answer
#include "layoutscope/lesson/lesson.hpp"
#include "layoutscope/ptx/module.hpp"
#include "layoutscope/ptx/validate.hpp"
#include "layoutscope/scenario/scaffold.hpp"
#include "layoutscope/scenario/scenario.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

using namespace layoutscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    static const PtxEnvironment wrapper = ptxasWrapperEnvironment();
    static const PtxEnvironment open{};
    static const std::vector<std::string> targets = knownPtxTargets();

    if (auto p = parseInstruction(text, 1, 1)) {
        for (const auto& sm : targets)
            for (int minor : {5, 6, 8, 0}) {
                const PtxTarget t{sm, minor == 0 ? 9 : 8, minor};
                (void)validateInstruction(*p, t, wrapper);
                (void)validateInstruction(*p, t, open);
            }
        (void)validateInstruction(*p, PtxTarget{"sm_999z", 12, 34}); // unknown target and version
    }

    std::vector<ParsedInstr> kernel;
    size_t start = 0;
    int line = 1;
    while (start <= text.size()) {
        const size_t nl = text.find('\n', start);
        const std::string_view one =
            text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
        if (auto p = parseInstruction(one, line, 1)) kernel.push_back(std::move(p.value()));
        if (nl == std::string_view::npos) break;
        start = nl + 1;
        ++line;
    }
    (void)validateKernel(kernel, PtxTarget{"sm_100a", 9, 0}, wrapper);

    if (auto sc = parseScenario(text)) (void)runScenario(*sc, RunOptions{uint64_t(1) << 20});

    (void)looksLikePtxModule(text);
    if (auto m = readPtxModule(text)) {
        (void)checkPtxModule(*m);
        for (const PtxFunction* f : m->entries())
            if (auto scn = scaffoldScenario(*m, ScaffoldOptions{f->name, "fuzz.ptx"}))
                (void)parseScenario(*scn);
    }
    if (auto l = parseLesson(text); l && l->scenario) {
        if (auto run = runScenario(*l->scenario, RunOptions{uint64_t(1) << 20})) {
            for (size_t i = 0; i < l->steps.size(); ++i) {
                const auto step = lessonTraceStep(*l, *run, i);
                if (!step) continue;
                for (const LessonSelector& h : l->steps[i].highlights)
                    (void)resolveSelector(*l, *run, h, *step);
                (void)expectedAnswer(*l, *run, i);
                (void)checkAnswer(*l, *run, i, std::string_view("smem 0x400"));
            }
        }
    }
    return 0;
}
