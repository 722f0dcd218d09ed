#include "export.hpp"

#include "offscreen_gl.hpp"
#include "painter_overlay.hpp"
#include "scene/overlay.hpp"

#include <QPainter>
#include <cstdlib>

namespace layoutscope::views {

namespace {

struct Panes {
    SmemScene smem;
    GlobalScene global;
    std::vector<BoxFrame> frames;
};

Panes buildPanes(const Document& doc, uint32_t step, uint32_t cta) {
    Panes p;
    p.frames = boxFrames(doc);
    p.smem = smemSceneAt(doc, step, p.frames, cta);
    p.global = globalSceneAt(doc, tileInstrAt(doc, step), step, p.frames);
    return p;
}

const BoxFrame* frameOf(const Panes& p) {
    return p.global.tile && p.global.instr < p.frames.size() ? &p.frames[p.global.instr]
                                                             : (p.frames.empty() ? nullptr : &p.frames[0]);
}

constexpr ShadeParams kSmemShade(float zoom) {
    return ShadeParams{zoom, 4, 0};
}
constexpr ShadeParams kGlobalShade(float zoom) {
    return ShadeParams{zoom, 0, 0};
}

bool renderGl(const Panes& panes, const ExportLayout& L, QImage& out, QString& log) {
    const glm::vec2 gsz(L.globalRect.width(), L.globalRect.height());
    const glm::vec2 ssz(L.smemRect.width(), L.smemRect.height());
    std::vector<GlPane> gp(2);
    gp[0] = {L.globalRect,
             L.globalCam,
             panes.global.w,
             panes.global.h,
             &panes.global.texels,
             kGlobalShade(L.globalCam.zoom()),
             buildGlobalOverlay(L.globalCam, gsz, panes.global)};
    gp[1] = {L.smemRect,
             L.smemCam,
             panes.smem.width(),
             panes.smem.height(),
             &panes.smem.texels,
             kSmemShade(L.smemCam.zoom()),
             buildSmemOverlay(L.smemCam, ssz, panes.smem, frameOf(panes))};
    return renderPanesGl(L.size, gp, out, log);
}

} // namespace

ExportLayout exportLayout(const SmemScene& s, const GlobalScene& g, QSize size) {
    ExportLayout L;
    L.size = size;
    const int gw = size.width() * 2 / 5;
    L.globalRect = QRect(0, 0, gw, size.height());
    L.smemRect = QRect(gw, 0, size.width() - gw, size.height());
    L.globalCam.setViewport({float(gw), float(size.height())});
    L.globalCam.fit({0, 0}, {float(std::max(1u, g.w)), float(std::max(1u, g.h))}, kGlobalMargins, true);
    L.smemCam.setViewport({float(L.smemRect.width()), float(size.height())});
    L.smemCam.fit({0, 0}, {128.0f, float(std::max(1u, s.height()))}, kSmemMargins, true);
    return L;
}

ExportResult renderDocument(const Document& doc, uint32_t step, QSize size, uint32_t cta) {
    ExportResult res;
    if (!doc.hasTrace()) {
        res.message = "the scenario has no trace";
        for (const Diagnostic& d : doc.diagnostics())
            res.message += "\n" + QString::fromStdString(formatDiagnostic(d, doc.path()));
        return res;
    }
    if (cta >= doc.ctaCount()) {
        res.message = QString("--cta %1: the cluster has %2 CTA(s)").arg(cta).arg(doc.ctaCount());
        return res;
    }
    const Panes panes = buildPanes(doc, std::min(step, doc.trace().stepCount), cta);
    const ExportLayout L = exportLayout(panes.smem, panes.global, size);
    QString glLog;
    const char* forceCpu = std::getenv("LAYOUTSCOPE_EXPORT_CPU");
    if ((!forceCpu || std::string(forceCpu) != "1") && renderGl(panes, L, res.image, glLog)) {
        res.ok = res.usedGl = true;
        res.message = glLog;
        return res;
    }
    // CPU fallback: the same shading function and overlay primitives.
    QImage img(size, QImage::Format_RGB32);
    img.fill(qRgb(kBackground.r, kBackground.g, kBackground.b));
    paintCellsCpu(img, L.globalRect, L.globalCam, panes.global.w, panes.global.h, panes.global.texels,
                  kGlobalShade(L.globalCam.zoom()));
    paintCellsCpu(img, L.smemRect, L.smemCam, panes.smem.width(), panes.smem.height(), panes.smem.texels,
                  kSmemShade(L.smemCam.zoom()));
    QPainter p(&img);
    p.setRenderHint(QPainter::TextAntialiasing);
    paintOverlay(
        p,
        buildGlobalOverlay(L.globalCam, glm::vec2(L.globalRect.width(), L.globalRect.height()), panes.global),
        L.globalRect.topLeft());
    paintOverlay(p,
                 buildSmemOverlay(L.smemCam, glm::vec2(L.smemRect.width(), L.smemRect.height()), panes.smem,
                                  frameOf(panes)),
                 L.smemRect.topLeft());
    p.end();
    res.image = img;
    res.ok = true;
    res.message = "rendered on the CPU (" +
                  (glLog.isEmpty() ? QString("forced by LAYOUTSCOPE_EXPORT_CPU=1") : glLog) + ")";
    return res;
}

ExportResult exportImage(const Document& doc, uint32_t step, const QString& path, QSize size, uint32_t cta) {
    ExportResult res = renderDocument(doc, step, size, cta);
    if (!res.ok) return res;
    if (!res.image.save(path)) {
        res.ok = false;
        res.message = "cannot write " + path;
    }
    return res;
}

} // namespace layoutscope::views
