// layoutscope-cli compare A.scn B.scn [...] [--format text|md|csv|json]: one table of design-review
// figures (metrics.hpp), a column per scenario, the better value of each row marked; then each
// scenario's final shared memory (and Tensor Memory) by logical element against the first: same,
// reshuffled, different (analysis/compare_match.hpp, the compare window's classes; issue 24 item 8).
#include "cli/commands.hpp"
#include "layoutscope/analysis/compare_match.hpp"
#include "layoutscope/analysis/metrics_table.hpp"
#include "layoutscope/scenario/scenario.hpp"

namespace layoutscope::cli {

int printMetricsTable(const std::vector<MetricColumn>& cols, const std::string& format, std::ostream& out) {
    if (cols.empty()) return 1;
    out << formatMetricsTable(cols, format);
    return 0;
}

namespace {

/// The metrics table with the element counts: after it (text, md), as more rows (csv) or as the key
/// "elements" of the same JSON object.
std::string withElements(std::string table, const ElementComparison& c, const std::string& format) {
    const std::string elements = formatElementComparison(c, format);
    if (elements.empty()) return table;
    if (format != "json") return table + elements;
    const size_t close = table.find_last_of('}');
    if (close == std::string::npos) return table;
    return table.substr(0, close) + ",\n \"elements\": " + elements.substr(0, elements.size() - 1) + "}\n";
}

} // namespace

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
        auto col = metricColumnOfFile(f);
        if (!col) {
            printDiagnostics(err, col.diagnostics(), f);
            return 1;
        }
        cols.push_back(std::move(*col));
    }
    if (cols.empty()) return 1;
    std::string failed;
    auto elements = compareElements(files, &failed);
    if (!elements) { // every file ran above (a `kernel` scenario's run may still fail here)
        printDiagnostics(err, elements.diagnostics(), failed);
        return 1;
    }
    out << withElements(formatMetricsTable(cols, format), *elements, format);
    return 0;
}

} // namespace layoutscope::cli
