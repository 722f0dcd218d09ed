#include "cell_canvas.hpp"

#include "gl_surface.hpp"
#include "painter_overlay.hpp"

#include <QGuiApplication>
#include <QImage>
#include <QMouseEvent>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QPainter>
#include <QWheelEvent>
#include <cmath>

namespace layoutscope::views {

namespace {
/// Drawn cells of a row fold that show no grid cell (the gaps, past the last row): the clear colour, no
/// flags (as Tensor Memory's pair gap).
constexpr Rgba8 kFoldEmpty{kBackground.r, kBackground.g, kBackground.b, 0};
} // namespace

bool glWidgetsSupported() {
    static const bool supported = [] {
        if (qEnvironmentVariableIntValue("LAYOUTSCOPE_NO_GL") == 1) return false;
        // Qt 6.4's offscreen and minimal platforms have no RasterGLSurface: QOpenGLWidget is
        // "not supported" there and crashes in QPlatformBackingStore::rhiFlush.
        const QString p = QGuiApplication::platformName();
        if (p == "offscreen" || p == "minimal" || p == "vnc" || p == "linuxfb") return false;
        QOpenGLContext ctx;
        QSurfaceFormat fmt;
        fmt.setVersion(3, 3);
        fmt.setProfile(QSurfaceFormat::CoreProfile);
        ctx.setFormat(fmt);
        if (!ctx.create()) return false;
        const QSurfaceFormat got = ctx.format();
        return got.majorVersion() > 3 || (got.majorVersion() == 3 && got.minorVersion() >= 3);
    }();
    return supported;
}

CellCanvas::CellCanvas(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setMinimumSize(200, 160);
    setFocusPolicy(Qt::ClickFocus); // clicking a view takes the keys away from the editor
    // The GL window is made on the first show (showEvent), once the canvas sits in its final
    // parent: a native child made earlier and reparented with the canvas into a dock stayed blank.
    m_useGl = glWidgetsSupported();
    if (!m_useGl) setAttribute(Qt::WA_OpaquePaintEvent);
}

void CellCanvas::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    if (m_useGl && !m_gl) {
        m_gl = new GlSurface(this);
        m_gl->container()->setGeometry(rect());
        m_gl->container()->show();
    }
}

CellCanvas::~CellCanvas() = default;

void CellCanvas::repaintView() {
    if (m_gl)
        m_gl->update();
    else
        update();
}

QImage CellCanvas::grabGl() {
    return m_gl ? m_gl->grabImage() : QImage();
}

void CellCanvas::recordFrame(double ms) {
    m_frameMs = m_frameMs == 0.0 ? ms : m_frameMs * 0.9 + ms * 0.1;
    emit framePainted(ms);
}

void CellCanvas::setCells(uint32_t w, uint32_t h, std::vector<Rgba8> texels, ShadeParams params) {
    if (w != m_srcW || h != m_srcH) m_userCamera = false;
    const bool keepFold = m_fold.folded() && m_fold.cols == w && m_fold.rows == h;
    m_srcW = w;
    m_srcH = h;
    m_params = params;
    if (keepFold) { // the same grid size keeps the fold it is shown with (a new size gets its own at the fit)
        m_srcTexels = std::move(texels);
        m_texels = m_fold.foldTexels(m_srcTexels, kFoldEmpty);
    } else {
        m_fold = RowFold{w, h, 1, h, 0};
        m_srcTexels.clear();
        m_texels = std::move(texels);
        m_w = w;
        m_h = h;
    }
    m_dirty = true;
    if (!m_userCamera) fitView();
    refreshInspector();
    repaintView();
}

void CellCanvas::setRowFolding(float gapPx) {
    m_foldGapPx = std::max(0.0f, gapPx);
    if (m_foldGapPx == 0.0f) applyFold(RowFold{m_srcW, m_srcH, 1, m_srcH, 0});
}

void CellCanvas::applyFold(RowFold fold) {
    if (fold == m_fold) return;
    // The grid's own texels: m_srcTexels while folded, else m_texels (no copy of an unfolded grid).
    if (!m_fold.folded()) m_srcTexels = std::move(m_texels);
    m_fold = fold;
    if (fold.folded()) {
        m_texels = fold.foldTexels(m_srcTexels, kFoldEmpty);
    } else {
        m_texels = std::move(m_srcTexels);
        m_srcTexels.clear();
    }
    const glm::uvec2 d = fold.drawnSize();
    m_w = d.x;
    m_h = d.y;
    m_dirty = true;
}

void CellCanvas::setMessage(std::string title, std::string text) {
    m_msgTitle = std::move(title);
    m_msgText = std::move(text);
    repaintView();
}

void CellCanvas::fitView() {
    m_cam.setViewport({float(width()), float(height())});
    if (m_marginsFn) m_margins = m_marginsFn({float(width()), float(height())});
    if (m_foldGapPx > 0.0f && m_srcW && m_srcH) { // a tall grid in a wide, short pane: bands side by side
        const glm::vec2 avail{float(width()) - m_margins.x - m_margins.z,
                              float(height()) - m_margins.y - m_margins.w};
        const RowFold f = m_fitRegion ? RowFold{m_srcW, m_srcH, 1, m_srcH, 0}
                                      : chooseRowFold(m_srcW, m_srcH, avail, m_foldGapPx);
        applyFold(f);
    }
    if (m_w && m_h) {
        if (m_fitRegion)
            m_cam.fit(m_fitRegion->first, m_fitRegion->second, m_margins, true, m_fitMode);
        else
            m_cam.fit({0, 0}, {float(m_w), float(m_h)}, m_margins, true);
        // A tall grid in a short pane (setMinGridWidth): stretched across rather than a narrow column.
        const float availX = float(width()) - m_margins.x - m_margins.z;
        if (!m_fitRegion && m_minGridWidth > 0.0f &&
            m_cam.zoomXY().x * float(m_w) < std::min(m_minGridWidth, availX) - 0.5f)
            m_cam.fit({0, 0}, {float(m_w), float(m_h)}, m_margins, true, Camera2D::FitMode::Fill);
        // A short grid in a tall pane (setMaxRowStretch): taller rows, up to the stretch, instead of an empty
        // band.
        const glm::vec2 z = m_cam.zoomXY();
        const float availY = float(height()) - m_margins.y - m_margins.w;
        if (!m_fitRegion && m_maxRowStretch > 1.0f && z.x == z.y && z.y * float(m_h) < availY - 0.5f) {
            const float zy = std::min(availY / float(m_h), z.x * m_maxRowStretch);
            m_cam.setView({m_cam.origin().x, -m_margins.y / zy}, glm::vec2(z.x, zy));
        }
    }
    m_userCamera = false;
    repaintView();
}

void CellCanvas::setFitRegion(std::optional<std::pair<glm::vec2, glm::vec2>> region, Camera2D::FitMode mode) {
    if (!region) mode = Camera2D::FitMode::Square;
    if (region == m_fitRegion && mode == m_fitMode) return;
    m_fitRegion = region;
    m_fitMode = mode;
    if (!m_userCamera) fitView();
}

void CellCanvas::setView(glm::vec2 origin, float zoom) {
    m_cam.setViewport({float(width()), float(height())});
    m_cam.setView(origin, zoom);
    m_userCamera = true;
    repaintView();
}

void CellCanvas::setMarker(std::optional<std::pair<glm::uvec2, glm::uvec2>> cells) {
    if (cells == m_marker) return;
    m_marker = cells;
    repaintView();
}

void CellCanvas::setSelection(std::vector<std::pair<glm::uvec2, glm::uvec2>> ranges) {
    if (ranges == m_selection) return;
    m_selection = std::move(ranges);
    repaintView();
}

void CellCanvas::setHighlights(std::vector<std::pair<glm::uvec2, glm::uvec2>> ranges) {
    if (ranges == m_highlights) return;
    m_highlights = std::move(ranges);
    repaintView();
}

void CellCanvas::setPathPieces(std::vector<PathPiece> pieces, glm::vec2 origin, int phase) {
    if (pieces == m_path && (pieces.empty() || (origin == m_pathOrigin && phase == m_pathPhase))) return;
    m_path = std::move(pieces);
    m_pathOrigin = origin;
    m_pathPhase = phase;
    repaintView();
}

OverlayList CellCanvas::frameOverlay(glm::vec2 viewport) const {
    OverlayList o = m_overlayFn ? m_overlayFn(m_cam, viewport) : OverlayList{};
    // Grid cells [lo, hi) outlined where they are drawn (a rectangle per band of a row fold).
    auto outline = [&](glm::uvec2 lo, glm::uvec2 hi, Rgba8 c) {
        for (const auto& [dlo, dhi] : drawnRects(lo, hi)) {
            const glm::vec2 a = m_cam.worldToScreen(dlo), b = m_cam.worldToScreen(dhi);
            o.rects.push_back({a - glm::vec2(1), b + glm::vec2(1), c, false});
        }
    };
    size_t lit = 0; // lesson highlight: under the selection, same bound
    for (const auto& [lo, hi] : m_highlights)
        for (const auto& [dlo, dhi] : drawnRects(lo, hi)) {
            const glm::vec2 a = m_cam.worldToScreen(dlo), b = m_cam.worldToScreen(dhi);
            if (b.x < 0 || b.y < 0 || a.x > viewport.x || a.y > viewport.y) continue;
            if (++lit > kMaxSelectionRects) break;
            o.rects.push_back({a - glm::vec2(1), b + glm::vec2(1), kLessonHighlightColour, false});
        }
    if (!m_highlights.empty()) { // legend entry: bottom right, else top right, where no label is
        const glm::vec2 size{20.0f + approxTextWidth("lesson highlight"), 16.0f};
        auto free = [&](glm::vec2 at) {
            for (const OverlayList::Text& t : o.texts) {
                const glm::vec2 lo = t.pos, hi = t.pos + glm::vec2(approxTextWidth(t.text), 16.0f);
                if (lo.x < at.x + size.x && hi.x > at.x && lo.y < at.y + size.y && hi.y > at.y) return false;
            }
            return true;
        };
        for (const glm::vec2 at : {viewport - size - glm::vec2(6, 4), glm::vec2(viewport.x - size.x - 6, 4)})
            if (free(at)) {
                o.rects.push_back(
                    {at + glm::vec2(0, 2), at + glm::vec2(14, 14), kLessonHighlightColour, false});
                o.text(at + glm::vec2(20, 0), "lesson highlight", kLessonHighlightColour);
                break;
            }
    }
    size_t shown = 0;
    for (const auto& [lo, hi] : m_selection) // culled to the viewport, bounded
        for (const auto& [dlo, dhi] : drawnRects(lo, hi)) {
            const glm::vec2 a = m_cam.worldToScreen(dlo), b = m_cam.worldToScreen(dhi);
            if (b.x < 0 || b.y < 0 || a.x > viewport.x || a.y > viewport.y) continue;
            if (++shown > kMaxSelectionRects) break;
            o.rects.push_back({a - glm::vec2(2), b + glm::vec2(2), Rgba8{0, 0, 0, 255}, false});
            o.rects.push_back({a - glm::vec2(1), b + glm::vec2(1), kSelectionColour, false});
        }
    if (m_marker) outline(m_marker->first, m_marker->second, Rgba8{0, 230, 255, 255});
    if (m_hover) outline(*m_hover, *m_hover + glm::uvec2(1), Rgba8{255, 255, 255, 255});
    // This canvas draws the labels that start over it; the others and the window overlay skip them.
    appendPathPrimitives(o, m_path, m_pathOrigin, m_pathPhase, [this, viewport](glm::vec2 p) {
        const glm::vec2 l = p - m_pathOrigin;
        return l.x >= 0 && l.y >= 0 && l.x < viewport.x && l.y < viewport.y;
    });
    return o;
}

std::optional<glm::uvec2> CellCanvas::cellAt(QPointF pos) const {
    const glm::vec2 w = m_cam.screenToWorld({float(pos.x()), float(pos.y())});
    if (w.x < 0 || w.y < 0 || w.x >= float(m_w) || w.y >= float(m_h)) return std::nullopt;
    return m_fold.toGrid(glm::uvec2(static_cast<uint32_t>(w.x), static_cast<uint32_t>(w.y)));
}

QPointF CellCanvas::cellCentre(uint32_t x, uint32_t y) const {
    const glm::uvec2 d = m_fold.toDrawn({x, y});
    const glm::vec2 s = m_cam.worldToScreen({d.x + 0.5f, d.y + 0.5f});
    return {s.x, s.y};
}

void CellCanvas::refreshInspector() {
    if (m_hover && m_inspectFn && m_hover->x < m_srcW && m_hover->y < m_srcH)
        m_inspectorText = m_inspectFn(m_hover->x, m_hover->y);
    else
        m_inspectorText.clear();
}

void CellCanvas::updateHover(QPointF pos) {
    m_hoverPos = pos;
    if (m_gl) m_gl->imgui().mouseMove({float(pos.x()), float(pos.y())});
    const auto cell = cellAt(pos);
    const bool changed = cell != m_hover;
    m_hover = cell;
    if (changed) {
        refreshInspector();
        emit hoveredCell(cell ? int(cell->x) : -1, cell ? int(cell->y) : -1);
    }
    repaintView();
}

void CellCanvas::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    if (m_gl) m_gl->container()->setGeometry(rect());
    const glm::vec2 before = m_cam.viewport();
    const glm::vec2 centre = m_cam.screenToWorld(before * 0.5f);
    m_cam.setViewport({float(width()), float(height())});
    if (!m_userCamera) {
        fitView();
    } else { // keep the world point at the centre of the view where it was
        m_cam.pan((m_cam.worldToScreen(centre) - m_cam.viewport() * 0.5f) * -1.0f);
    }
}

void CellCanvas::paintEvent(QPaintEvent*) {
    if (m_useGl) return; // the GL window covers the canvas
    // Raster fallback: the cells shaded on the CPU with the shader's C++ mirror into one image
    // (cost per pixel, not per cell), then the overlay with QPainter.
    QElapsedTimer t;
    t.start();
    QImage img(size(), QImage::Format_RGB32);
    img.fill(qRgb(kBackground.r, kBackground.g, kBackground.b));
    ShadeParams sp = m_params;
    sp.zoom = m_cam.zoomXY().x;
    sp.zoomY = m_cam.zoomXY().y;
    paintCellsCpu(img, img.rect(), m_cam, m_w, m_h, m_texels, sp);
    QPainter p(this);
    p.drawImage(0, 0, img);
    if (m_w && m_h) paintOverlay(p, frameOverlay({float(width()), float(height())}));
    paintMessage(p, QSizeF(size()), m_msgTitle, m_msgText);
    if (m_hover && !m_dragging) paintInspector(p, m_hoverPos, QSizeF(size()), m_inspectorText);
    recordFrame(double(t.nsecsElapsed()) / 1e6);
}

void CellCanvas::mousePressEvent(QMouseEvent* e) {
    if (m_gl) m_gl->imgui().mouseMove({float(e->position().x()), float(e->position().y())});
    if (e->button() == Qt::LeftButton) {
        m_dragging = true;
        m_lastPos = m_pressPos = e->position();
        setCursor(Qt::ClosedHandCursor);
    }
}

void CellCanvas::mouseReleaseEvent(QMouseEvent* e) {
    if (e->button() == Qt::LeftButton) {
        m_dragging = false;
        unsetCursor();
        const QPointF d = e->position() - m_pressPos;
        if (std::abs(d.x()) <= 4 && std::abs(d.y()) <= 4) {
            const auto cell = cellAt(e->position());
            emit cellClicked(cell ? int(cell->x) : -1, cell ? int(cell->y) : -1);
        }
    }
    updateHover(e->position());
}

void CellCanvas::mouseMoveEvent(QMouseEvent* e) {
    if (m_dragging) {
        const QPointF d = e->position() - m_lastPos;
        m_lastPos = e->position();
        m_cam.pan({float(d.x()), float(d.y())});
        m_userCamera = true;
        emit cameraChanged();
    }
    updateHover(e->position());
}

void CellCanvas::mouseDoubleClickEvent(QMouseEvent*) {
    fitView();
    emit cameraChanged();
}

void CellCanvas::wheelEvent(QWheelEvent* e) {
    const float steps = float(e->angleDelta().y()) / 120.0f;
    if (steps == 0.0f) return;
    m_cam.zoomAt({float(e->position().x()), float(e->position().y())}, std::pow(1.2f, steps));
    m_userCamera = true;
    emit cameraChanged();
    updateHover(e->position());
    e->accept();
}

void CellCanvas::leaveEvent(QEvent* e) {
    QWidget::leaveEvent(e);
    if (m_gl) m_gl->imgui().mouseLeave();
    m_hover.reset();
    m_inspectorText.clear();
    emit hoveredCell(-1, -1);
    repaintView();
}

} // namespace layoutscope::views
