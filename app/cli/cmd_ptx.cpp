// PTX modules on the command line (docs/ptx-modules.md): `check FILE.ptx` validates every
// TMA/tcgen05/mbarrier instruction of a module nvcc wrote; `scaffold FILE.ptx [--entry NAME]` writes a
// scenario to fill in from one kernel.
#include "cli/commands.hpp"
#include "layoutscope/ptx/module.hpp"
#include "layoutscope/scenario/scaffold.hpp"

#include <algorithm>
#include <fstream>

namespace layoutscope::cli {

namespace {

bool endsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void printDiags(std::ostream& out, const std::vector<Diagnostic>& ds, const std::string& file) {
    printDiagnostics(out, ds, file); // capped per rule (load_scenario.cpp)
}

} // namespace

bool isPtxModulePath(const std::string& path) {
    return endsWith(path, ".ptx");
}

int checkModule(const std::string& f, const std::string& text, std::ostream& out, std::ostream& err) {
    auto mod = readPtxModule(text);
    if (!mod) {
        printDiags(err, mod.diagnostics(), f);
        return 1;
    }
    const std::vector<Diagnostic> ds = checkPtxModule(*mod);
    printDiags(err, ds, f);
    size_t errors = 0, checked = 0, others = 0;
    // Data-movement instructions without a rule table, by family (first-seen order) with their lines.
    std::vector<std::pair<std::string, std::vector<int>>> skipped;
    size_t nSkipped = 0;
    for (const auto& d : ds) errors += d.severity == Severity::Error;
    for (const auto& fn : mod->functions) {
        for (const auto& mi : fn.instrs) checked += mi.modelled;
        others += fn.otherInstructions;
        for (const PtxUnmodelled& u : fn.unmodelled) {
            auto it = std::find_if(skipped.begin(), skipped.end(),
                                   [&](const auto& s) { return s.first == u.family; });
            if (it == skipped.end()) it = skipped.insert(skipped.end(), {u.family, {}});
            it->second.push_back(u.span.line);
            ++nSkipped;
        }
    }
    const auto plural = [](size_t n, const char* word) {
        return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
    };
    std::ostream& summary = errors ? err : out;
    const std::string module =
        "PTX module, .target " + mod->target.sm + ", .version " + std::to_string(mod->target.ptxMajor) + "." +
        std::to_string(mod->target.ptxMinor) + ": " + plural(mod->functions.size(), "function");
    // "ok" only when every data-movement instruction was validated; otherwise the first line says how
    // many were checked and how many were passed over (listed below), and no "ok".
    if (!errors && !nSkipped)
        out << f << ": ok (" << module << ", " << plural(checked, "instruction") << " checked, "
            << plural(others, "other") << " not checked)\n";
    else if (!errors)
        out << f << ": " << plural(checked, "instruction") << " checked, "
            << plural(nSkipped, "data-movement instruction") << " not modelled (listed below) (" << module
            << ", " << plural(others - nSkipped, "other") << " not checked)\n";
    // Never a bare "ok" over data movement that was passed over: name each family and its lines.
    for (const auto& [family, lines] : skipped) {
        summary << f << ": not validated (no rule table for " << family
                << "): " << plural(lines.size(), "instruction") << ", line"
                << (lines.size() == 1 ? " " : "s ");
        for (size_t i = 0; i < lines.size(); ++i) summary << (i ? ", " : "") << lines[i];
        summary << "\n";
    }
    return errors ? 1 : 0;
}

int checkModuleFile(const std::string& f, std::ostream& out, std::ostream& err) {
    auto text = readPtxModuleFile(f);
    if (!text) {
        printDiags(err, text.diagnostics(), f);
        return 1;
    }
    return checkModule(f, *text, out, err);
}

int cmdScaffold(const Args& args, std::ostream& out, std::ostream& err) {
    // scaffold FILE.ptx [--entry NAME] [-o OUT.scn]
    std::string file, output;
    ScaffoldOptions opt;
    for (size_t i = 1; i < args.size(); ++i) {
        if ((args[i] == "--entry" || args[i] == "-o") && i + 1 < args.size()) {
            (args[i] == "-o" ? output : opt.entry) = args[i + 1];
            ++i;
        } else if (args[i].rfind("-", 0) == 0) {
            err << "scaffold: "
                << (args[i] == "--entry" || args[i] == "-o" ? "missing value for" : "unknown option") << " '"
                << args[i] << "'\n"
                << usageOf("scaffold");
            return kExitUsage;
        } else if (file.empty()) {
            file = args[i];
        } else {
            err << "scaffold: one PTX file at a time ('" << args[i] << "' is a second)\n"
                << usageOf("scaffold");
            return kExitUsage;
        }
    }
    if (file.empty()) {
        err << usageOf("scaffold");
        return kExitUsage;
    }
    auto text = readPtxModuleFile(file);
    if (!text) {
        printDiags(err, text.diagnostics(), file);
        return 1;
    }
    auto mod = readPtxModule(*text);
    if (!mod) {
        printDiags(err, mod.diagnostics(), file);
        return 1;
    }
    // A scenario of invalid instructions would not parse: report them as check does, and stop.
    const std::vector<Diagnostic> problems = checkPtxModule(*mod);
    printDiags(err, problems, file);
    for (const Diagnostic& d : problems)
        if (d.severity == Severity::Error) {
            err << file
                << ": error: the module has errors (above); scaffold needs a module that checks clean\n";
            return 1;
        }
    const std::string base =
        file.substr(file.find_last_of('/') == std::string::npos ? 0 : file.find_last_of('/') + 1);
    opt.sourceName = base;
    auto scn = scaffoldScenario(*mod, opt);
    if (!scn) {
        printDiags(err, scn.diagnostics(), file);
        return 1;
    }
    if (output.empty()) {
        out << *scn;
        return 0;
    }
    std::ofstream o(output, std::ios::binary);
    o << *scn;
    o.close(); // a full disk shows only when the buffer is written out
    if (!o) {
        err << output << ": error: cannot write the scenario [io]\n";
        return 1;
    }
    out << output << ": scenario for " << (opt.entry.empty() ? "the module's kernel" : opt.entry)
        << " written\n";
    return 0;
}

} // namespace layoutscope::cli
