#pragma once
/// Right-click on a canvas: "Export this view as PNG..." / "Export this view as SVG...". The owner
/// tells which view the canvas shows and, when asked, the document, step and settings to export
/// (the whole view, fitted, as the headless `--export F --view V` does).
#include "export_view.hpp"

#include <functional>

class QMenu;
class QWidget;

namespace layoutscope::views {

class CellCanvas;

/// What the canvas shows now; doc == nullptr (or no trace) disables the actions.
struct ViewExportContext {
    const Document* doc = nullptr;
    uint32_t step = 0;
    ViewOptions options;
};
using ViewExportContextFn = std::function<ViewExportContext()>;

/// Set `canvas`'s context menu policy to Qt::CustomContextMenu and show the export menu on
/// customContextMenuRequested. Each action asks for a file name, then writes it with exportView.
void installViewExportMenu(CellCanvas* canvas, ExportView view, ViewExportContextFn context);

/// The menu installViewExportMenu shows (parented to `canvas`; actions named exportViewPng and
/// exportViewSvg). Each action asks for a file (QFileDialog), writes a PNG of the canvas' size (at
/// least 800x450) or an SVG, and reports on the window's status bar or in a message box.
[[nodiscard]] QMenu* makeViewExportMenu(CellCanvas* canvas, ExportView view,
                                        const ViewExportContextFn& context);

} // namespace layoutscope::views
