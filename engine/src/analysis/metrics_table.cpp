// The comparison table (metrics_table.hpp), moved here from the CLI's compare command so that the GUI's
// compare mode prints exactly the same Markdown.
#include "layoutscope/analysis/metrics_table.hpp"

#include "layoutscope/scenario/scenario.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace layoutscope {
namespace {

std::string jsonString(const std::string& s) {
    std::string o = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') o += '\\';
        o += c;
    }
    return o + "\"";
}

void writeJson(const std::vector<MetricColumn>& cols, std::ostream& out) {
    const std::vector<MetricValue>& rows = cols[0].values;
    out << "{\"scenarios\": [";
    for (size_t i = 0; i < cols.size(); ++i) out << (i ? ", " : "") << jsonString(cols[i].name);
    out << "],\n \"rows\": [\n";
    for (size_t r = 0; r < rows.size(); ++r) {
        const auto b = bestOfRow(cols, r);
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
}

} // namespace

std::vector<bool> bestOfRow(const std::vector<MetricColumn>& cols, size_t r) {
    std::vector<bool> out(cols.size(), false);
    if (cols.size() < 2 || r >= cols[0].values.size()) return out;
    const MetricValue::Better b = cols[0].values[r].better;
    if (b == MetricValue::Better::None) return out;
    int64_t lo = cols[0].values[r].value, hi = lo;
    for (const MetricColumn& c : cols)
        lo = std::min(lo, c.values[r].value), hi = std::max(hi, c.values[r].value);
    if (lo == hi) return out;
    for (size_t i = 0; i < cols.size(); ++i)
        out[i] = cols[i].values[r].value == (b == MetricValue::Better::Lower ? lo : hi);
    return out;
}

bool rowDiffers(const std::vector<MetricColumn>& cols, size_t r) {
    for (const MetricColumn& c : cols)
        if (c.values[r].value != cols[0].values[r].value) return true;
    return false;
}

bool rowAllZero(const std::vector<MetricColumn>& cols, size_t r) {
    for (const MetricColumn& c : cols)
        if (r >= c.values.size() || c.values[r].value != 0) return false;
    return !cols.empty();
}

std::string formatMetricsTable(const std::vector<MetricColumn>& cols, const std::string& format) {
    if (cols.empty()) return {};
    std::ostringstream out;
    const std::vector<MetricValue>& rows = cols[0].values;
    // Text and Markdown leave out the rows every scenario has at 0 (issue 24 item 8), and say which.
    std::vector<size_t> shown;
    std::string hidden;
    for (size_t r = 0; r < rows.size(); ++r) {
        if (rowAllZero(cols, r) && format != "json" && format != "csv")
            hidden += (hidden.empty() ? "" : ", ") + rows[r].name;
        else
            shown.push_back(r);
    }
    const std::string hiddenNote = hidden.empty() ? "" : "(0 in every scenario, not shown: " + hidden + ")\n";
    if (format == "json") {
        writeJson(cols, out);
        return out.str();
    }
    if (format == "csv") {
        out << "metric";
        for (const MetricColumn& c : cols) out << "," << c.name;
        out << "\n";
        for (size_t r = 0; r < rows.size(); ++r) {
            out << rows[r].name;
            for (const MetricColumn& c : cols) out << "," << c.values[r].value;
            out << "\n";
        }
        return out.str();
    }
    // text and Markdown: the better value of a row carries a '*'.
    auto cell = [&](size_t r, size_t i, const std::vector<bool>& b) {
        return std::to_string(cols[i].values[r].value) + (b[i] ? " *" : "");
    };
    if (format == "md") {
        out << "| metric |";
        for (const MetricColumn& c : cols) out << " " << c.name << " |";
        out << "\n|---|";
        for (size_t i = 0; i < cols.size(); ++i) out << "---:|";
        out << "\n";
        for (size_t r : shown) {
            const auto b = bestOfRow(cols, r);
            out << "| " << rows[r].name << " |";
            for (size_t i = 0; i < cols.size(); ++i) out << " " << cell(r, i, b) << " |";
            out << "\n";
        }
        out << "\n`*` the better value of the row (lower is better for footprint, padding, sectors, lines, "
               "OOB "
               "fill, TMEM allocated and check errors).\n"
            << (hiddenNote.empty() ? "" : "\n") << hiddenNote;
        return out.str();
    }
    if (format != "text") return {};
    size_t w0 = 6;
    for (size_t r : shown) w0 = std::max(w0, rows[r].name.size());
    std::vector<size_t> w(cols.size());
    for (size_t i = 0; i < cols.size(); ++i) {
        w[i] = cols[i].name.size();
        for (size_t r : shown) w[i] = std::max(w[i], cell(r, i, bestOfRow(cols, r)).size());
    }
    out << std::left << std::setw(int(w0)) << "metric";
    for (size_t i = 0; i < cols.size(); ++i)
        out << "  " << std::right << std::setw(int(w[i])) << cols[i].name;
    out << "\n";
    for (size_t r : shown) {
        const auto b = bestOfRow(cols, r);
        out << std::left << std::setw(int(w0)) << rows[r].name;
        for (size_t i = 0; i < cols.size(); ++i)
            out << "  " << std::right << std::setw(int(w[i])) << cell(r, i, b);
        out << "\n";
    }
    out << "(* = the better value of the row)\n" << hiddenNote;
    return out.str();
}

Result<MetricColumn> metricColumnOfFile(const std::string& path) {
    auto text = readScenarioFile(path);
    if (!text) return Result<MetricColumn>(text.diagnostics());
    auto sc = parseScenario(*text);
    if (!sc) return Result<MetricColumn>(sc.diagnostics());
    auto run = runScenario(*sc);
    if (!run) return Result<MetricColumn>(run.diagnostics());
    return MetricColumn{path.substr(path.find_last_of('/') + 1), scenarioMetrics(*sc, *run)};
}

} // namespace layoutscope
