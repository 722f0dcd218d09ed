#include "export_view.hpp"

#include "offscreen_gl.hpp"
#include "painter_overlay.hpp"

#include <QFile>
#include <QPainter>
#include <cstdlib>

namespace layoutscope::views {

namespace {

/// A pane fitted into the whole image (the only layout a single view needs).
struct Placed {
    const ViewPane* pane;
    QRect rect;
    Camera2D cam;
    OverlayList overlay;
    ShadeParams shade() const {
        ShadeParams sp = pane->shade;
        sp.zoom = cam.zoom();
        return sp;
    }
};

bool renderGl(const Placed& pl, QSize size, QImage& out, QString& log) {
    return renderPanesGl(
        size, {GlPane{pl.rect, pl.cam, pl.pane->w, pl.pane->h, &pl.pane->texels, pl.shade(), pl.overlay}},
        out, log);
}

ExportResult renderPane(const ViewPane& pane, QSize size) {
    Placed pl{&pane,
              QRect(QPoint(0, 0), size),
              fitPaneCamera(pane, {float(size.width()), float(size.height())}),
              {}};
    if (pane.overlay) pl.overlay = pane.overlay(pl.cam, {float(size.width()), float(size.height())});
    ExportResult res;
    QString glLog;
    const char* forceCpu = std::getenv("LAYOUTSCOPE_EXPORT_CPU");
    if ((!forceCpu || std::string(forceCpu) != "1") && renderGl(pl, size, res.image, glLog)) {
        res.ok = res.usedGl = true;
        res.message = glLog;
        return res;
    }
    // CPU fallback: the same shading function and overlay primitives.
    QImage img(size, QImage::Format_RGB32);
    img.fill(qRgb(kBackground.r, kBackground.g, kBackground.b));
    paintCellsCpu(img, pl.rect, pl.cam, pane.w, pane.h, pane.texels, pl.shade());
    QPainter p(&img);
    p.setRenderHint(QPainter::TextAntialiasing);
    paintOverlay(p, pl.overlay, pl.rect.topLeft());
    p.end();
    res.image = img;
    res.ok = true;
    res.message = "rendered on the CPU (" +
                  (glLog.isEmpty() ? QString("forced by LAYOUTSCOPE_EXPORT_CPU=1") : glLog) + ")";
    return res;
}

QString viewLabel(ExportView v) {
    return QString::fromUtf8(exportViewTitle(v).data(), qsizetype(exportViewTitle(v).size()));
}

} // namespace

ExportResult renderView(const Document& doc, ExportView v, uint32_t step, QSize size,
                        const ViewOptions& opt) {
    if (v == ExportView::All) return renderDocument(doc, step, size, opt.cta);
    ExportResult res;
    if (size.width() < 1 || size.height() < 1) {
        res.message = "empty image size";
        return res;
    }
    ViewPaneResult r = buildViewPane(doc, v, step, opt);
    if (!r.pane) {
        res.message = QString::fromStdString(r.error);
        return res;
    }
    res = renderPane(*r.pane, size);
    res.message = viewLabel(v) + ": " + res.message;
    return res;
}

ExportResult exportView(const Document& doc, ExportView v, uint32_t step, const QString& path, QSize size,
                        const ViewOptions& opt) {
    if (path.endsWith(".svg", Qt::CaseInsensitive)) {
        ExportResult res;
        const ViewSvg svg = viewSvg(doc, v, step, {float(size.width()), float(size.height())}, opt);
        if (!svg.ok) {
            res.message = QString::fromStdString(svg.error);
            return res;
        }
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
            f.write(svg.svg.data(), qint64(svg.svg.size())) != qint64(svg.svg.size())) {
            res.message = "cannot write " + path;
            return res;
        }
        res.ok = true;
        res.message =
            QString("wrote SVG of %1 to %2 (%3 KiB)").arg(viewLabel(v), path).arg(svg.svg.size() / 1024);
        return res;
    }
    ExportResult res = renderView(doc, v, step, size, opt);
    if (res.ok && !res.image.save(path)) {
        res.ok = false;
        res.message = "cannot write " + path;
    }
    return res;
}

} // namespace layoutscope::views
