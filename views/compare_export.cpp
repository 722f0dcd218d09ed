#include "compare_export.hpp"

#include "offscreen_gl.hpp"
#include "painter_overlay.hpp"
#include "scene/svg_writer.hpp"

#include <QFile>
#include <QFileInfo>
#include <QPainter>
#include <cstdlib>
#include <cstring>

namespace layoutscope::views {

namespace {

const ViewPane* paneOf(const std::vector<ComparePanes>& panes, const ComparePlacement& pl) {
    const ComparePanes& cp = panes[pl.doc];
    const auto& p = pl.tmem ? cp.tmem : cp.smem;
    return p ? &*p : nullptr;
}

QRect rectOf(const ComparePlacement& pl) {
    return QRect(int(pl.origin.x), int(pl.origin.y), int(pl.size.x), int(pl.size.y));
}

ShadeParams shadeOf(const ViewPane& p, const Camera2D& cam) {
    ShadeParams sp = p.shade;
    sp.zoom = cam.zoom();
    return sp;
}

bool writeFile(const QString& path, const std::string& text) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
           f.write(text.data(), qint64(text.size())) == qint64(text.size());
}

} // namespace

std::vector<ComparePlacement> compareLayout(const std::vector<ComparePanes>& panes, QSize size) {
    std::vector<ComparePlacement> out;
    if (panes.empty()) return out;
    bool anyTmem = false;
    for (const ComparePanes& cp : panes) anyTmem |= cp.tmem.has_value();
    const float gap = 6.0f;
    const float colW = (float(size.width()) - gap * float(panes.size() - 1)) / float(panes.size());
    const float smemH = anyTmem ? std::floor(float(size.height()) * 0.62f) : float(size.height());
    for (size_t d = 0; d < panes.size(); ++d) {
        const float x = std::floor(float(d) * (colW + gap));
        if (panes[d].smem) out.push_back({d, false, {x, 0.0f}, {std::floor(colW), smemH}, {}});
        if (panes[d].tmem)
            out.push_back(
                {d, true, {x, smemH + gap}, {std::floor(colW), float(size.height()) - smemH - gap}, {}});
    }
    // One camera per kind: the smallest fitted zoom, so a cell sits at the same place in every column.
    for (const bool tmem : {false, true}) {
        std::optional<Camera2D> best;
        for (const ComparePlacement& pl : out) {
            if (pl.tmem != tmem) continue;
            const Camera2D c = fitPaneCamera(*paneOf(panes, pl), pl.size);
            if (!best || c.zoom() < best->zoom()) best = c;
        }
        for (ComparePlacement& pl : out)
            if (pl.tmem == tmem && best) {
                pl.cam.setViewport(pl.size);
                pl.cam.setView(best->origin(), best->zoom());
            }
    }
    return out;
}

ExportResult renderComparison(const std::vector<ComparePanes>& panes, QSize size) {
    ExportResult res;
    const auto layout = compareLayout(panes, size);
    if (layout.empty()) {
        res.message = "no scenario of the comparison has a shared-memory view";
        return res;
    }
    std::vector<OverlayList> overlays;
    for (const ComparePlacement& pl : layout) {
        const ViewPane& p = *paneOf(panes, pl);
        overlays.push_back(p.overlay ? p.overlay(pl.cam, pl.size) : OverlayList{});
    }
    QString glLog;
    const char* forceCpu = std::getenv("LAYOUTSCOPE_EXPORT_CPU");
    if (!forceCpu || std::string(forceCpu) != "1") {
        std::vector<GlPane> gl;
        for (size_t i = 0; i < layout.size(); ++i) {
            const ViewPane& p = *paneOf(panes, layout[i]);
            gl.push_back({rectOf(layout[i]), layout[i].cam, p.w, p.h, &p.texels, shadeOf(p, layout[i].cam),
                          overlays[i]});
        }
        if (renderPanesGl(size, gl, res.image, glLog)) {
            res.ok = res.usedGl = true;
            res.message = glLog;
            return res;
        }
    }
    QImage img(size, QImage::Format_RGB32);
    img.fill(qRgb(kBackground.r, kBackground.g, kBackground.b));
    for (const ComparePlacement& pl : layout) {
        const ViewPane& p = *paneOf(panes, pl);
        paintCellsCpu(img, rectOf(pl), pl.cam, p.w, p.h, p.texels, shadeOf(p, pl.cam));
    }
    QPainter painter(&img);
    painter.setRenderHint(QPainter::TextAntialiasing);
    for (size_t i = 0; i < layout.size(); ++i) {
        painter.setClipRect(rectOf(layout[i]));
        paintOverlay(painter, overlays[i], rectOf(layout[i]).topLeft());
    }
    painter.end();
    res.image = img;
    res.ok = true;
    res.message = "rendered on the CPU (" +
                  (glLog.isEmpty() ? QString("forced by LAYOUTSCOPE_EXPORT_CPU=1") : glLog) + ")";
    return res;
}

std::string comparisonSvg(const std::vector<ComparePanes>& panes, QSize size) {
    const auto layout = compareLayout(panes, size);
    std::vector<OverlayList> overlays(layout.size());
    std::vector<SvgPane> svg;
    for (size_t i = 0; i < layout.size(); ++i) {
        const ViewPane& p = *paneOf(panes, layout[i]);
        if (p.overlay) overlays[i] = p.overlay(layout[i].cam, layout[i].size);
        SvgPane sp;
        sp.origin = layout[i].origin;
        sp.size = layout[i].size;
        sp.cam = layout[i].cam;
        sp.w = p.w;
        sp.h = p.h;
        sp.texels = p.texels;
        sp.shade = p.shade;
        sp.overlay = &overlays[i];
        svg.push_back(sp);
    }
    return writeSvg({float(size.width()), float(size.height())}, svg);
}

ExportResult exportComparison(const CompareSet& set, CompareSync sync, uint32_t pos, const QString& path,
                              QSize size) {
    ExportResult res;
    if (!set.errors.empty()) {
        res.message = "a scenario of the comparison does not run:";
        for (const std::string& e : set.errors) res.message += "\n" + QString::fromStdString(e);
        return res;
    }
    QString base = path;
    for (const char* ext : {".png", ".svg", ".md"})
        if (base.endsWith(ext, Qt::CaseInsensitive)) base.chop(qsizetype(std::strlen(ext)));
    const auto panes = comparePanesAt(set.documents(), set.names, compareFrames(set.documents()), sync, pos);
    res = renderComparison(panes, size);
    if (!res.ok) return res;
    const QString png = base + ".png", svg = base + ".svg", md = base + ".md";
    if (!res.image.save(png)) {
        res.ok = false;
        res.message = "cannot write " + png;
        return res;
    }
    if (!writeFile(svg, comparisonSvg(panes, size))) {
        res.ok = false;
        res.message = "cannot write " + svg;
        return res;
    }
    // The table and the counts by logical element, as `layoutscope-cli compare --format md` prints them (the
    // files run again here, for the export only: the window itself counts from its panes).
    std::vector<std::string> paths;
    for (const auto& d : set.docs) paths.push_back(d->path());
    std::string table = formatMetricsTable(set.columns, "md");
    if (!set.columns.empty())
        if (auto e = compareElements(paths)) table += formatElementComparison(*e, "md");
    if (!writeFile(md, table)) {
        res.ok = false;
        res.message = "cannot write " + md;
        return res;
    }
    size_t differ = 0, reshuffled = 0;
    for (size_t d = 1; d < panes.size(); ++d)
        differ += panes[d].differCount, reshuffled += panes[d].reshuffleCount;
    res.message =
        QString("wrote %1, %2 and %3 (%4 scenarios; against the first, %5 bytes differ, %6 reshuffled; %7)")
            .arg(png, svg, md)
            .arg(panes.size())
            .arg(differ)
            .arg(reshuffled)
            .arg(res.usedGl ? QString("OpenGL") : QString("CPU"));
    return res;
}

} // namespace layoutscope::views
