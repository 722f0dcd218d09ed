#include "path_overlay.hpp"

#include "cell_canvas.hpp"
#include "painter_overlay.hpp"

#include <QEvent>
#include <QPainter>

namespace layoutscope::views {

PathOverlay::PathOverlay(QWidget* window, SegmentsFn fn) : QWidget(window), m_fn(std::move(fn)) {
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    setAttribute(Qt::WA_TranslucentBackground);
    setObjectName("pathOverlay");
    window->installEventFilter(this);
    setGeometry(window->rect());
    hide();
}

bool PathOverlay::eventFilter(QObject* o, QEvent* e) {
    if (o == parentWidget() && e->type() == QEvent::Resize) setGeometry(parentWidget()->rect());
    return QWidget::eventFilter(o, e);
}

void PathOverlay::refresh() {
    m_segments = m_fn ? m_fn() : std::vector<PathPiece>{};
    QWidget* window = parentWidget();
    for (CellCanvas* c : window->findChildren<CellCanvas*>()) {
        if (!c->usesGl()) continue;            // raster canvases sit under this widget, which draws over them
        if (c->window() != window->window()) { // a floating dock: the path stays in the main window
            c->setPathPieces({}, {0, 0}, 0);
            continue;
        }
        const QPoint o = c->mapTo(window, QPoint(0, 0));
        c->setPathPieces(m_segments, {float(o.x()), float(o.y())}, m_phase);
    }
    setVisible(!m_segments.empty());
    if (!m_segments.empty()) {
        raise();
        update();
    }
}

void PathOverlay::paintEvent(QPaintEvent*) {
    OverlayList o;
    // Labels that start over a GL canvas are that canvas's (it draws them above this widget).
    std::vector<QRect> gl;
    for (CellCanvas* c : parentWidget()->findChildren<CellCanvas*>())
        if (c->usesGl() && c->isVisible() && c->window() == parentWidget()->window())
            gl.push_back(QRect(c->mapTo(parentWidget(), QPoint(0, 0)), c->size()));
    appendPathPrimitives(o, m_segments, {0, 0}, m_phase, [&gl](glm::vec2 p) {
        for (const QRect& r : gl)
            if (r.contains(QPoint(int(p.x), int(p.y)))) return false;
        return true;
    });
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    paintOverlay(p, o);
}

} // namespace layoutscope::views
