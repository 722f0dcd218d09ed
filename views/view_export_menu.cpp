#include "view_export_menu.hpp"

#include "cell_canvas.hpp"

#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>

namespace layoutscope::views {

namespace {

void exportAs(CellCanvas* canvas, ExportView view, const ViewExportContextFn& context, bool svg) {
    const ViewExportContext ctx = context ? context() : ViewExportContext{};
    if (!ctx.doc) return;
    const QString title =
        QString::fromUtf8(exportViewTitle(view).data(), qsizetype(exportViewTitle(view).size()));
    const QString name =
        QString::fromUtf8(exportViewName(view).data(), qsizetype(exportViewName(view).size()));
    const QString suffix = svg ? ".svg" : ".png";
    QString path =
        QFileDialog::getSaveFileName(canvas, QString("Export %1 as %2").arg(title, svg ? "SVG" : "PNG"),
                                     "layoutscope_" + name + suffix, svg ? "SVG (*.svg)" : "PNG (*.png)");
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty()) path += suffix;
    // The PNG has the canvas' shape, so it looks like the view on screen (fitted), never tiny.
    const QSize size = canvas->size().expandedTo(QSize(800, 450));
    const ExportResult r = exportView(*ctx.doc, view, ctx.step, path, size, ctx.options);
    auto* window = qobject_cast<QMainWindow*>(canvas->window());
    if (!r.ok)
        QMessageBox::warning(canvas, "Export failed", r.message);
    else if (window)
        window->statusBar()->showMessage(r.message, 5000);
}

} // namespace

QMenu* makeViewExportMenu(CellCanvas* canvas, ExportView view, const ViewExportContextFn& context) {
    auto* menu = new QMenu(canvas);
    const ViewExportContext ctx = context ? context() : ViewExportContext{};
    const bool enabled = ctx.doc && ctx.doc->hasTrace();
    QAction* png = menu->addAction("Export this view as PNG...");
    png->setObjectName("exportViewPng");
    png->setEnabled(enabled);
    // Queued: the dialog opens after the menu has closed (and maybe been deleted with its actions).
    QObject::connect(
        png, &QAction::triggered, canvas, [canvas, view, context] { exportAs(canvas, view, context, false); },
        Qt::QueuedConnection);
    QAction* svg = menu->addAction("Export this view as SVG...");
    svg->setObjectName("exportViewSvg");
    svg->setEnabled(enabled);
    QObject::connect(
        svg, &QAction::triggered, canvas, [canvas, view, context] { exportAs(canvas, view, context, true); },
        Qt::QueuedConnection);
    return menu;
}

void installViewExportMenu(CellCanvas* canvas, ExportView view, ViewExportContextFn context) {
    canvas->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(canvas, &QWidget::customContextMenuRequested, canvas,
                     [canvas, view, context = std::move(context)](const QPoint& pos) {
                         QMenu* menu = makeViewExportMenu(canvas, view, context);
                         menu->setAttribute(Qt::WA_DeleteOnClose);
                         menu->popup(canvas->mapToGlobal(pos));
                     });
}

} // namespace layoutscope::views
