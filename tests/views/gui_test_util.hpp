#pragma once
// Helpers shared by the Qt Test GUI tests: screenshots on request, zooming a canvas around a cell.
#include "cell_canvas.hpp"
#include "window_grab.hpp"

#include <QCoreApplication>
#include <QTest>
#include <QWheelEvent>
#include <string>
#include <utility>
#include <vector>

namespace layoutscope::views::test {

/// With LAYOUTSCOPE_SCREENSHOT_DIR set, save what the window shows (for looking at it by eye).
inline void screenshot(QWidget& w, const char* name) {
    const QString dir = qEnvironmentVariable("LAYOUTSCOPE_SCREENSHOT_DIR");
    if (dir.isEmpty()) return;
    QTest::qWait(300);
    grabWithCanvases(w).save(dir + "/" + name);
}

/// Hover `p` on canvas `c` the way a user does: QTest::mouseMove warps the X pointer and the motion
/// reaches the canvas's GL window asynchronously, so wait until the canvas has seen the pointer at
/// `p` (stray Enter events from a window mapped under the old pointer position come first).
inline bool hover(CellCanvas* c, QPoint p) {
    // A pointer already at `p` (left there by an earlier test in the same process) moves nowhere and sends
    // no event: step off it first.
    QTest::mouseMove(c, p + QPoint(p.x() > 0 ? -1 : 1, 0));
    QTest::mouseMove(c, p);
    return QTest::qWaitFor([&] { return c->hoverPos().toPoint() == p; }, 3000);
}

/// Zoom in around `cell` until a cell is at least `minZoom` px (wheel notches keep it under the cursor).
inline void zoomAround(CellCanvas* c, glm::uvec2 cell, float minZoom) {
    QCoreApplication::processEvents();
    for (int i = 0; i < 10 && c->camera().zoom() < minZoom; ++i) {
        const QPointF p = c->cellCentre(cell.x, cell.y);
        QWheelEvent e(p, c->mapToGlobal(p), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(c, &e);
    }
}

/// Click the centre of `cell`, zoomed in first so the click hits that one cell.
inline void clickCell(CellCanvas* c, glm::uvec2 cell) {
    zoomAround(c, cell, 12.0f);
    QTest::mouseClick(c, Qt::LeftButton, Qt::NoModifier, c->cellCentre(cell.x, cell.y).toPoint());
    QCoreApplication::processEvents();
}

/// Whether cell `c` lies in one of the half-open ranges [lo, hi) (a canvas's marks, outlines).
inline bool rangesContain(const std::vector<std::pair<glm::uvec2, glm::uvec2>>& r, glm::uvec2 c) {
    for (const auto& [lo, hi] : r)
        if (c.x >= lo.x && c.y >= lo.y && c.x < hi.x && c.y < hi.y) return true;
    return false;
}

/// Overlay text lines of `c` below its cell grid (legends) that the canvas cuts: past the right or the
/// bottom edge (approxTextWidth is the overlay font's advance). "text @x,y" for each, empty when none.
inline std::vector<std::string> cutLegendLines(const CellCanvas* c) {
    std::vector<std::string> cut;
    const glm::uvec2 n = c->cellCount();
    if (n.x == 0 || n.y == 0) return cut;
    const glm::vec2 vp(float(c->width()), float(c->height()));
    const float gridBottom = c->camera().worldToScreen(glm::vec2(n)).y;
    for (const OverlayList::Text& t : c->frameOverlay(vp).texts) {
        if (t.pos.y < gridBottom) continue; // axis labels, titles, cell values
        if (t.pos.x + approxTextWidth(t.text) > vp.x + 0.5f || t.pos.y + 16.0f > vp.y + 0.5f)
            cut.push_back(t.text + " @" + std::to_string(int(t.pos.x)) + "," + std::to_string(int(t.pos.y)) +
                          " in " + std::to_string(int(vp.x)) + "x" + std::to_string(int(vp.y)));
    }
    return cut;
}

} // namespace layoutscope::views::test
