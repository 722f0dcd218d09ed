// The scenario prologue of the commands that need a run's final state (diff, infer, export-cuda).
#include "cli/commands.hpp"
#include "layoutscope/analysis/observed.hpp"
#include "layoutscope/core/diagnostic_cap.hpp"

namespace layoutscope::cli {

void printDiagnostics(std::ostream& err, const std::vector<Diagnostic>& ds, const std::string& file) {
    // At most kDiagnosticsPerKind of each rule, then "and N more like this" (issue 25 item 4).
    DiagnosticCap cap;
    for (const Diagnostic& d : ds)
        if (cap.admit(d)) err << formatDiagnostic(d, file) << "\n";
    std::vector<Diagnostic> notes;
    cap.appendNotes(notes);
    for (const Diagnostic& d : notes) err << formatDiagnostic(d, file) << "\n";
}

std::optional<LoadedScenario> loadScenarioForCommand(const std::string& file, std::ostream& err, bool run,
                                                     bool traced) {
    auto text = readScenarioFile(file);
    if (!text) return printDiagnostics(err, text.diagnostics(), file), std::nullopt;
    auto sc = loadScenario(*text, file); // a `kernel` directive runs its kernel (docs/exec.md)
    if (!sc) return printDiagnostics(err, sc.diagnostics(), file), std::nullopt;
    LoadedScenario l{std::move(text).value(), std::move(sc).value(), std::nullopt};
    if (!run) return l;
    RunOptions opts;
    if (!traced) opts.traceBudgetBytes = 0; // only the final state is needed
    auto r = runScenario(l.scenario, opts);
    if (!r) return printDiagnostics(err, r.diagnostics(), file), std::nullopt;
    l.run.emplace(std::move(r).value());
    return l;
}

std::vector<Diagnostic> observeFileErrors(const Scenario& sc, const std::string& file) {
    std::vector<Diagnostic> ds;
    const size_t slash = file.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "" : file.substr(0, slash + 1);
    for (const Observation& o : sc.observations) {
        const std::string path = !o.path.empty() && o.path[0] == '/' ? o.path : dir + o.path;
        auto bytes = readObservedFile(path); // regular files only, bounded (core/file_read.hpp)
        if (bytes) continue;
        Diagnostic d = bytes.error();
        d.span = o.span;
        d.message = "observe file=" + o.path + ": " + d.message;
        ds.push_back(std::move(d));
    }
    return ds;
}

} // namespace layoutscope::cli
