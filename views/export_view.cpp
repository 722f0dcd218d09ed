#include "export_view.hpp"

#include "offscreen_gl.hpp"
#include "painter_overlay.hpp"

#include <QFile>
#include <QFontMetrics>
#include <QPainter>
#include <algorithm>
#include <cstdlib>

namespace layoutscope::views {

namespace {

constexpr size_t kBandDiagnostics = 6; ///< diagnostics listed in the band (the count says the rest)
constexpr int kBandLine = 18;          ///< px per line
const QColor kBandError(58, 18, 18);   ///< band fill when there are errors
const QColor kBandWarning(52, 42, 14); ///< band fill with warnings only

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

/// The diagnosis band under a headless export of all views (issue 24 item 6: an export of a bug showed no
/// diagnosis): a header line and the first diagnostics, errors in red. Its height (0: no diagnostics).
int diagnosisBandHeight(const Document& doc, QSize size) {
    if (doc.diagnostics().empty()) return 0;
    const int lines = 1 + int(std::min<size_t>(doc.diagnostics().size(), kBandDiagnostics));
    return std::min(size.height() / 3, lines * kBandLine + 8);
}

void paintDiagnosisBand(QImage& img, const Document& doc, int band) {
    int errors = 0, warnings = 0;
    for (const Diagnostic& d : doc.diagnostics()) {
        errors += d.severity == Severity::Error ? 1 : 0;
        warnings += d.severity == Severity::Warning ? 1 : 0;
    }
    const int notes = int(doc.diagnostics().size()) - errors - warnings; // explanations, not findings
    QPainter p(&img);
    p.setRenderHint(QPainter::TextAntialiasing);
    const QRect r(0, img.height() - band, img.width(), band);
    p.fillRect(r, errors ? kBandError : kBandWarning);
    QFont f = p.font();
    f.setPixelSize(13);
    p.setFont(f);
    const QFontMetrics fm(f);
    const std::string file = doc.path().substr(doc.path().find_last_of('/') + 1);
    int y = r.top() + 4 + fm.ascent();
    p.setPen(QColor(235, 235, 235));
    p.drawText(
        8, y,
        QString("Diagnosis: %1 error(s), %2 warning(s), %3 note(s)").arg(errors).arg(warnings).arg(notes));
    for (size_t i = 0; i < doc.diagnostics().size() && i < kBandDiagnostics; ++i) {
        y += kBandLine;
        if (y > img.height() - 2) break;
        const Diagnostic& d = doc.diagnostics()[i];
        p.setPen(d.severity == Severity::Error ? QColor(255, 110, 100) : QColor(240, 190, 80));
        p.drawText(8, y,
                   fm.elidedText(QString::fromStdString(formatDiagnostic(d, file)), Qt::ElideRight,
                                 img.width() - 16));
    }
}

QString viewLabel(ExportView v) {
    return QString::fromUtf8(exportViewTitle(v).data(), qsizetype(exportViewTitle(v).size()));
}

} // namespace

ExportResult renderView(const Document& doc, ExportView v, uint32_t step, QSize size,
                        const ViewOptions& opt) {
    if (v == ExportView::All) { // the views above, the diagnosis band below
        const int band = diagnosisBandHeight(doc, size);
        ExportResult r = renderDocument(doc, step, QSize(size.width(), size.height() - band), opt.cta);
        if (!r.ok || band == 0) return r;
        QImage img(size, QImage::Format_RGB32);
        img.fill(Qt::black);
        QPainter(&img).drawImage(0, 0, r.image);
        paintDiagnosisBand(img, doc, band);
        r.image = img;
        return r;
    }
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
    // One view, the diagnosis band below it too (issue 24 item 6: a Tensor Memory or register bug exported
    // alone names its diagnosis, as the composite does).
    const int band = diagnosisBandHeight(doc, size);
    res = renderPane(*r.pane, QSize(size.width(), size.height() - band));
    res.message = viewLabel(v) + ": " + res.message;
    if (!res.ok || band == 0) return res;
    QImage img(size, QImage::Format_RGB32);
    img.fill(Qt::black);
    QPainter(&img).drawImage(0, 0, res.image);
    paintDiagnosisBand(img, doc, band);
    res.image = img;
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
