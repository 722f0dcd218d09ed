#pragma once
// Helpers shared by the Qt Test GUI tests: screenshots on request, zooming a canvas around a cell.
#include "cell_canvas.hpp"
#include "window_grab.hpp"

#include <QCoreApplication>
#include <QTest>
#include <QWheelEvent>

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

} // namespace layoutscope::views::test
