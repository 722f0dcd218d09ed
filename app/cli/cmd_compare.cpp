// layoutscope-cli compare A.scn B.scn [...] [--format text|md|csv|json]: one table of design-review
// figures (metrics.hpp), a column per scenario, the better value of each row marked.
#include "cli/commands.hpp"
#include "layoutscope/analysis/metrics.hpp"
#include "layoutscope/scenario/scenario.hpp"

#include <algorithm>
#include <iomanip>
#include <optional>
#include <sstream>

namespace layoutscope::cli {
namespace {

// Which columns hold the best value of row r (none when the row has no direction or all are equal).
std::vector<bool> best(const std::vector<MetricColumn>& cols, size_t r) {
    std::vector<bool> out(cols.size(), false);
    const MetricValue::Better b = cols[0].values[r].better;
    if (b == MetricValue::Better::None || cols.size() < 2) return out;
    int64_t lo = cols[0].values[r].value, hi = lo;
    for (const MetricColumn& c : cols)
        lo = std::min(lo, c.values[r].value), hi = std::max(hi, c.values[r].value);
    if (lo == hi) return out;
    for (size_t i = 0; i < cols.size(); ++i)
        out[i] = cols[i].values[r].value == (b == MetricValue::Better::Lower ? lo : hi);
    return out;
}

std::string jsonString(const std::string& s) {
    std::string o = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') o += '\\';
        o += c;
    }
    return o + "\"";
}

} // namespace

int printMetricsTable(const std::vector<MetricColumn>& cols, const std::string& format, std::ostream& out) {
    using Column = MetricColumn;
    if (cols.empty()) return 1;
    const std::vector<MetricValue>& rows = cols[0].values;
    if (format == "json") {
        out << "{\"scenarios\": [";
        for (size_t i = 0; i < cols.size(); ++i) out << (i ? ", " : "") << jsonString(cols[i].name);
        out << "],\n \"rows\": [\n";
        for (size_t r = 0; r < rows.size(); ++r) {
            const auto b = best(cols, r);
            out << "  {\"metric\": " << jsonString(rows[r].name) << ", \"better\": \""
                << (rows[r].better == MetricValue::Better::Lower    ? "lower"
                    : rows[r].better == MetricValue::Better::Higher ? "higher"
                                                                    : "none")
                << "\", \"values\": [";
            for (size_t i = 0; i < cols.size(); ++i) out << (i ? ", " : "") << cols[i].values[r].value;
            out << "], \"best\": [";
            for (size_t i = 0; i < cols.size(); ++i) out << (i ? ", " : "") << (b[i] ? "true" : "false");
            out << "]}" << (r + 1 < rows.size() ? "," : "") << "\n";
        }
        out << "]}\n";
        return 0;
    }
    if (format == "csv") {
        out << "metric";
        for (const Column& c : cols) out << "," << c.name;
        out << "\n";
        for (size_t r = 0; r < rows.size(); ++r) {
            out << rows[r].name;
            for (const Column& c : cols) out << "," << c.values[r].value;
            out << "\n";
        }
        return 0;
    }
    // text and Markdown: the better value of a row carries a '*'.
    auto cell = [&](size_t r, size_t i, const std::vector<bool>& b) {
        return std::to_string(cols[i].values[r].value) + (b[i] ? " *" : "");
    };
    if (format == "md") {
        out << "| metric |";
        for (const Column& c : cols) out << " " << c.name << " |";
        out << "\n|---|";
        for (size_t i = 0; i < cols.size(); ++i) out << "---:|";
        out << "\n";
        for (size_t r = 0; r < rows.size(); ++r) {
            const auto b = best(cols, r);
            out << "| " << rows[r].name << " |";
            for (size_t i = 0; i < cols.size(); ++i) out << " " << cell(r, i, b) << " |";
            out << "\n";
        }
        out << "\n`*` the better value of the row (lower is better for footprint, padding, sectors, lines, "
               "OOB "
               "fill, TMEM allocated and check errors).\n";
        return 0;
    }
    size_t w0 = 6;
    for (const MetricValue& m : rows) w0 = std::max(w0, m.name.size());
    std::vector<size_t> w(cols.size());
    for (size_t i = 0; i < cols.size(); ++i) {
        w[i] = cols[i].name.size();
        for (size_t r = 0; r < rows.size(); ++r) w[i] = std::max(w[i], cell(r, i, best(cols, r)).size());
    }
    out << std::left << std::setw(int(w0)) << "metric";
    for (size_t i = 0; i < cols.size(); ++i)
        out << "  " << std::right << std::setw(int(w[i])) << cols[i].name;
    out << "\n";
    for (size_t r = 0; r < rows.size(); ++r) {
        const auto b = best(cols, r);
        out << std::left << std::setw(int(w0)) << rows[r].name;
        for (size_t i = 0; i < cols.size(); ++i)
            out << "  " << std::right << std::setw(int(w[i])) << cell(r, i, b);
        out << "\n";
    }
    out << "(* = the better value of the row)\n";
    return 0;
}

int cmdCompare(const Args& args, std::ostream& out, std::ostream& err) {
    std::string format = "text";
    std::vector<std::string> files;
    for (size_t i = 1; i < args.size(); ++i) {
        if (args[i] == "--format" && i + 1 < args.size()) {
            format = args[++i];
        } else if (args[i].rfind("--", 0) == 0) {
            err << "compare: unknown option " << args[i] << "\n" << usageOf("compare");
            return kExitUsage;
        } else {
            files.push_back(args[i]);
        }
    }
    if (files.empty() || (format != "text" && format != "md" && format != "csv" && format != "json")) {
        err << usageOf("compare");
        return kExitUsage;
    }
    std::vector<MetricColumn> cols;
    for (const std::string& f : files) {
        auto text = readScenarioFile(f);
        auto sc = text ? parseScenario(*text) : Result<Scenario>(text.diagnostics());
        auto run = sc ? runScenario(*sc) : Result<Run>(sc.diagnostics());
        if (!run) {
            for (const Diagnostic& d : run.diagnostics()) err << formatDiagnostic(d, f) << "\n";
            return 1;
        }
        std::string name = f.substr(f.find_last_of('/') + 1);
        cols.push_back({name, scenarioMetrics(*sc, *run)});
    }
    return printMetricsTable(cols, format, out);
}

} // namespace layoutscope::cli
