#pragma once
/// Export of any one view (shared memory, global tensor, Tensor Memory, registers, decompression,
/// TMA multicast) or of the composite, to PNG or SVG, headless (`layoutscope --export F --view V`)
/// or from a canvas' context menu (view_export_menu.hpp).
///
/// PNG: the view's pane (scene/view_pane.hpp: the same scene and overlay builders as the window),
/// fitted to the image like a canvas' fitView, drawn with OpenGL (QOpenGLContext + QOffscreenSurface
/// + FBO, CellRenderer + the ImGui overlay) when a context can be made, else on the CPU
/// (views::shadeCell + QPainter), exactly as export.hpp's renderDocument. All = renderDocument.
/// SVG: scene/svg_writer.hpp (runs of cells, hatch pattern, overlay), via viewSvg.
#include "export.hpp"
#include "scene/view_pane.hpp"

#include <QSize>
#include <QString>

namespace layoutscope::views {

/// The view `v` at `step` as an image of `size` pixels (not ok, with the reason, when the scenario
/// has no such view).
[[nodiscard]] ExportResult renderView(const Document& doc, ExportView v, uint32_t step,
                                      QSize size = QSize(1600, 900), const ViewOptions& opt = {});

/// Write the view to `path`: SVG when it ends in .svg (size enlarged so cells are >= 8 px, see
/// viewSvg), else an image in the format of the suffix (PNG).
[[nodiscard]] ExportResult exportView(const Document& doc, ExportView v, uint32_t step, const QString& path,
                                      QSize size = QSize(1600, 900), const ViewOptions& opt = {});

} // namespace layoutscope::views
