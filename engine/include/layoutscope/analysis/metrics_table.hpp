#pragma once
/// The comparison table of design-review figures (issue 14): one column per scenario (or sweep
/// combination), the rows of scenarioMetrics, the better value of each row marked. Shared by
/// `layoutscope-cli compare` / `sweep` and the GUI compare mode, so both print the same table.
#include "layoutscope/analysis/metrics.hpp"
#include "layoutscope/core/result.hpp"

#include <string>
#include <vector>

namespace layoutscope {

/// One column of a comparison table: a scenario (or a sweep combination) and its figures.
struct MetricColumn {
    std::string name;
    std::vector<MetricValue> values;
};

/// Which columns hold the better value of row `r`: none when the row has no direction, there is a
/// single column, or all values are equal.
[[nodiscard]] std::vector<bool> bestOfRow(const std::vector<MetricColumn>& cols, size_t r);

/// True when the columns do not all hold the same value in row `r`.
[[nodiscard]] bool rowDiffers(const std::vector<MetricColumn>& cols, size_t r);

/// True when every column holds 0 in row `r`: the text and Markdown tables and the GUI's metrics dock
/// leave such rows out and name them in a note (issue 24 item 8).
[[nodiscard]] bool rowAllZero(const std::vector<MetricColumn>& cols, size_t r);

/// The table as `format`: "text" (aligned, '*' on the better value), "md" (a Markdown table and the
/// footnote on '*'), "csv" or "json". Empty for an unknown format or no columns.
[[nodiscard]] std::string formatMetricsTable(const std::vector<MetricColumn>& cols,
                                             const std::string& format);

/// Read, parse and run a scenario file and take its figures; the column is named after the file
/// (its name without the folders). The diagnostics of a file that does not read, parse or run.
[[nodiscard]] Result<MetricColumn> metricColumnOfFile(const std::string& path);

} // namespace layoutscope
