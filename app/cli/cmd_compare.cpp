// layoutscope-cli compare A.scn B.scn [...] [--format text|md|csv|json]: one table of design-review
// figures (metrics.hpp), a column per scenario, the better value of each row marked.
#include "cli/commands.hpp"
#include "layoutscope/analysis/metrics_table.hpp"
#include "layoutscope/scenario/scenario.hpp"

namespace layoutscope::cli {

int printMetricsTable(const std::vector<MetricColumn>& cols, const std::string& format, std::ostream& out) {
    if (cols.empty()) return 1;
    out << formatMetricsTable(cols, format);
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
        auto col = metricColumnOfFile(f);
        if (!col) {
            printDiagnostics(err, col.diagnostics(), f);
            return 1;
        }
        cols.push_back(std::move(*col));
    }
    return printMetricsTable(cols, format, out);
}

} // namespace layoutscope::cli
