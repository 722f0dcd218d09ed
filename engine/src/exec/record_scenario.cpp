// loadScenario (scenario.hpp): a scenario whose `kernel` directive names a real kernel becomes the scenario
// the kernel's run records (issue 22 item 2; exec/record.hpp).
#include "layoutscope/scenario/scenario.hpp"

namespace layoutscope {

Result<Scenario> loadScenario(std::string_view text, const std::string& /*scenarioPath*/) {
    auto s = parseScenario(text);
    if (!s || !s->kernel) return s;
    return Result<Scenario>(Diagnostic{Severity::Error, DiagCode::Unsupported, s->kernel->span,
                                       "the kernel directive is not implemented yet", "docs/exec.md",
                                       Provenance::PtxText});
}

} // namespace layoutscope
