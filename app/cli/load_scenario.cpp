// The scenario prologue of the commands that need a run's final state (diff, infer, export-cuda).
#include "cli/commands.hpp"

namespace layoutscope::cli {

void printDiagnostics(std::ostream& err, const std::vector<Diagnostic>& ds, const std::string& file) {
    for (const Diagnostic& d : ds) err << formatDiagnostic(d, file) << "\n";
}

std::optional<LoadedScenario> loadScenarioForCommand(const std::string& file, std::ostream& err, bool run) {
    auto text = readScenarioFile(file);
    if (!text) return printDiagnostics(err, text.diagnostics(), file), std::nullopt;
    auto sc = parseScenario(*text);
    if (!sc) return printDiagnostics(err, sc.diagnostics(), file), std::nullopt;
    LoadedScenario l{std::move(text).value(), std::move(sc).value(), std::nullopt};
    if (!run) return l;
    RunOptions opts;
    opts.traceBudgetBytes = 0; // only the final state is needed
    auto r = runScenario(l.scenario, opts);
    if (!r) return printDiagnostics(err, r.diagnostics(), file), std::nullopt;
    l.run.emplace(std::move(r).value());
    return l;
}

} // namespace layoutscope::cli
