#pragma once
/// Export of a comparison (compare mode, issue 14 item 5): the panes of every scenario side by side
/// as PNG (OpenGL offscreen, else the CPU fallback, as export.hpp) and SVG (scene/svg_writer.hpp),
/// plus the metrics table as Markdown, the same text as `layoutscope-cli compare --format md`.
/// Headless: `layoutscope --compare A.scn B.scn [...] --export out.png` writes out.png, out.svg, out.md.
#include "export.hpp"
#include "scene/compare_scene.hpp"

#include <QSize>
#include <QString>
#include <QStringList>

namespace layoutscope::views {

/// Where each pane of a comparison lands: one column per scenario, shared memory on top and, when any
/// scenario has Tensor Memory, its TMEM pane under it. Panes of one kind share one camera (the
/// smallest fitted zoom), so the same cell is at the same place in every column.
struct ComparePlacement {
    size_t doc = 0;
    bool tmem = false;
    glm::vec2 origin{0.0f}, size{0.0f};
    Camera2D cam;
};
[[nodiscard]] std::vector<ComparePlacement> compareLayout(const std::vector<ComparePanes>& panes, QSize size);

/// The panes side by side as an image of `size`.
[[nodiscard]] ExportResult renderComparison(const std::vector<ComparePanes>& panes, QSize size);
/// The panes side by side as an SVG document of `size`.
[[nodiscard]] std::string comparisonSvg(const std::vector<ComparePanes>& panes, QSize size);

/// Write `<base>.png`, `<base>.svg` and `<base>.md` for `path` (its suffix, if .png/.svg/.md, is
/// dropped). Not ok (with the reason) when a scenario does not run or a file cannot be written.
[[nodiscard]] ExportResult exportComparison(const CompareSet& set, CompareSync sync, uint32_t pos,
                                            const QString& path, QSize size = QSize(1600, 900));

} // namespace layoutscope::views
