#include "path_overlay.hpp"

#include "cell_canvas.hpp"

#include <QEvent>
#include <QPainter>
#include <QPainterPath>
#include <cmath>

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
    m_segments = m_fn ? m_fn() : std::vector<PathSegment>{};
    std::vector<PathPiece> pieces;
    for (const PathSegment& s : m_segments)
        pieces.push_back({{float(s.a.x()), float(s.a.y())},
                          {float(s.b.x()), float(s.b.y())},
                          s.state == PathSegment::State::Done      ? PathPiece::State::Done
                          : s.state == PathSegment::State::Playing ? PathPiece::State::Playing
                                                                   : PathPiece::State::Ahead,
                          s.label.toStdString()});
    QWidget* window = parentWidget();
    for (CellCanvas* c : window->findChildren<CellCanvas*>()) {
        if (!c->usesGl()) continue; // raster canvases sit under this widget, which draws over them
        const QPoint o =
            c->window() == window->window() ? c->mapTo(window, QPoint(0, 0)) : QPoint(-100000, 0);
        c->setPathPieces(pieces, {float(o.x()), float(o.y())}, m_phase);
    }
    setVisible(!m_segments.empty());
    if (!m_segments.empty()) {
        raise();
        update();
    }
}

void PathOverlay::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QColor done(255, 196, 0), ahead(200, 200, 210, 170);
    for (size_t i = 0; i < m_segments.size(); ++i) {
        const PathSegment& s = m_segments[i];
        const bool isAhead = s.state == PathSegment::State::Ahead;
        QPen pen(isAhead ? ahead : done, s.state == PathSegment::State::Playing ? 4.0 : 2.5);
        if (s.state != PathSegment::State::Done) {
            pen.setStyle(Qt::CustomDashLine);
            pen.setDashPattern({4, 3});
            pen.setDashOffset(s.state == PathSegment::State::Playing ? -m_phase : 0);
        }
        p.setPen(QPen(QColor(0, 0, 0, 160), pen.widthF() + 2.5)); // dark halo: readable on any cell colour
        const QPointF mid = (s.a + s.b) / 2 + QPointF(0, -std::abs(s.b.x() - s.a.x()) * 0.15);
        QPainterPath path(s.a);
        path.quadTo(mid, s.b);
        p.drawPath(path);
        p.setPen(pen);
        p.drawPath(path);
        // Arrow head at b, along the curve's last tangent.
        const QPointF d = s.b - mid;
        const double len = std::hypot(d.x(), d.y());
        if (len > 1) {
            const QPointF u = d / len, n(-u.y(), u.x());
            QPolygonF head{s.b, s.b - u * 11 + n * 5, s.b - u * 11 - n * 5};
            p.setPen(Qt::NoPen);
            p.setBrush(isAhead ? ahead : done);
            p.drawPolygon(head);
        }
        p.setBrush(Qt::NoBrush);
        if (!s.label.isEmpty()) {
            const QPointF at =
                path.pointAtPercent(
                    i % 2 ? 0.7 : 0.4) // alternate: segments that share ends keep their labels apart
                + QPointF(6, -6);
            const QRectF r = p.fontMetrics().boundingRect(s.label).toRectF().translated(at);
            p.fillRect(r.adjusted(-3, -1, 3, 1), QColor(18, 19, 24, 220));
            p.setPen(isAhead ? ahead : done);
            p.drawText(at, s.label);
        }
    }
}

} // namespace layoutscope::views
