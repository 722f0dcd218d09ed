// layoutscope-cli sweep F.scn --vary NAME=v1,v2,... [--vary ...] [--format text|md|csv|json]: run every
// combination of the varied values and print the compare table (a column per valid combination);
// invalid combinations are listed with the rule that rejects them.
//   NAME           a `let NAME = value` line: the value is replaced
//   NAME.option    the directive declaring NAME (tensormap, desc, smem): option=value replaced or added
//   MAP.boxes, MAP.loads   structure: the tile MAP's one load covers, in other boxes (sweep_structure.hpp)
#include "cli/commands.hpp"
#include "cli/sweep_structure.hpp"
#include "layoutscope/scenario/scenario.hpp"

#include <sstream>
#include <utility>

namespace layoutscope::cli {
namespace {

struct Vary {
    std::string name, option; ///< option empty: a let
    std::vector<std::string> values;
};

std::vector<std::string> splitLines(const std::string& text) {
    std::vector<std::string> lines;
    std::stringstream ss(text);
    for (std::string l; std::getline(ss, l);) lines.push_back(l);
    return lines;
}

std::vector<std::string> words(const std::string& line) {
    std::stringstream ss(line);
    std::vector<std::string> w;
    for (std::string x; ss >> x;) w.push_back(x);
    return w;
}

// Applies one varied value to the scenario's lines; false (with a message) when nothing declares NAME.
bool apply(std::vector<std::string>& lines, const Vary& v, const std::string& value, std::string& why) {
    for (std::string& l : lines) {
        const auto w = words(l);
        if (w.size() < 2 || w[1] != v.name) continue;
        if (v.option.empty() && w[0] == "let") {
            l = "let " + v.name + " = " + value;
            return true;
        }
        if (!v.option.empty() && (w[0] == "tensormap" || w[0] == "desc" || w[0] == "smem")) {
            const std::string key = " " + v.option + "=";
            const size_t at = l.find(key);
            if (at == std::string::npos) {
                l += key + value;
            } else {
                const size_t end = l.find_first_of(" \t#", at + key.size());
                l.replace(at + key.size(), (end == std::string::npos ? l.size() : end) - at - key.size(),
                          value);
            }
            return true;
        }
    }
    why = v.option.empty() ? "no 'let " + v.name + " = ...' line to vary"
                           : "no tensormap, desc or smem directive named " + v.name;
    return false;
}

} // namespace

int cmdSweep(const Args& args, std::ostream& out, std::ostream& err) {
    std::string file, format = "text";
    std::vector<Vary> vary;
    for (size_t i = 1; i < args.size(); ++i) {
        if (args[i] == "--format" && i + 1 < args.size()) {
            format = args[++i];
        } else if (args[i] == "--vary" && i + 1 < args.size()) {
            const std::string& a = args[++i];
            const size_t eq = a.find('=');
            if (eq == std::string::npos || eq == 0 || eq + 1 == a.size()) {
                err << "sweep: --vary takes NAME=v1,v2,... or NAME.option=v1,v2,... (got '" << a << "')\n";
                return 2;
            }
            Vary v;
            const std::string lhs = a.substr(0, eq);
            const size_t dot = lhs.find('.');
            v.name = lhs.substr(0, dot);
            if (dot != std::string::npos) v.option = lhs.substr(dot + 1);
            // Values split at commas outside brackets: --vary A.box=[64,128],[32,128]
            std::string cur;
            int depth = 0;
            for (char ch : a.substr(eq + 1) + ",") {
                depth += ch == '[' ? 1 : ch == ']' ? -1 : 0;
                if (ch == ',' && depth == 0) {
                    if (!cur.empty()) v.values.push_back(cur);
                    cur.clear();
                } else {
                    cur += ch;
                }
            }
            if (depth != 0 || v.values.empty()) {
                err << "sweep: --vary " << a << ": " << (depth != 0 ? "unbalanced '[' ']'" : "no values")
                    << "\n";
                return kExitUsage;
            }
            vary.push_back(v);
        } else if (file.empty() && args[i].rfind("--", 0) != 0) {
            file = args[i];
        } else {
            err << "sweep: unexpected argument " << args[i] << "\n";
            return 2;
        }
    }
    if (file.empty() || vary.empty() ||
        (format != "text" && format != "md" && format != "csv" && format != "json")) {
        err << usageOf("sweep");
        return kExitUsage;
    }
    auto text = readScenarioFile(file);
    if (!text) {
        printDiagnostics(err, text.diagnostics(), file);
        return 1;
    }
    const std::vector<std::string> base = splitLines(*text);
    size_t combos = 1;
    for (const Vary& v : vary) combos *= v.values.size();
    if (combos == 0 || combos > 256) {
        err << "sweep: " << combos << " combinations (1..256 allowed)\n";
        return 2;
    }
    std::vector<MetricColumn> cols;
    std::vector<std::string> rejected;
    for (size_t c = 0; c < combos; ++c) {
        std::vector<std::string> lines = base;
        std::string label, why, structural;
        size_t k = c;
        std::vector<std::pair<const Vary*, std::string>> later; // structure: after the options it reads
        for (const Vary& v : vary) {
            const std::string& value = v.values[k % v.values.size()];
            k /= v.values.size();
            label +=
                (label.empty() ? "" : " ") + v.name + (v.option.empty() ? "" : "." + v.option) + "=" + value;
            if (isStructuralOption(v.option)) {
                later.push_back({&v, value});
            } else if (!apply(lines, v, value, why)) {
                err << "sweep: " << why << "\n";
                return 2;
            }
        }
        for (const auto& [v, value] : later) // a combination it cannot build is rejected, with the rule
            if (!applyStructure(lines, v->name, v->option, value, structural)) break;
        if (!structural.empty()) {
            rejected.push_back(label + ": " + structural);
            continue;
        }
        std::string joined;
        for (const std::string& l : lines) joined += l + "\n";
        auto sc = parseScenario(joined);
        auto run = sc ? runScenario(*sc) : Result<Run>(sc.diagnostics());
        if (!run) {
            // Line numbers of a structural rewrite are those of the rewritten text (one load became several).
            rejected.push_back(
                label + ": " +
                formatDiagnostic(run.diagnostics()[0], later.empty() ? file : file + " as rewritten"));
            continue;
        }
        cols.push_back({label, scenarioMetrics(*sc, *run)});
    }
    if (!cols.empty()) printMetricsTable(cols, format, out);
    for (const std::string& r : rejected) out << "rejected " << r << "\n";
    return cols.empty() ? 1 : 0;
}

} // namespace layoutscope::cli
