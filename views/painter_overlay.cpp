#include "painter_overlay.hpp"

#include <algorithm>
#include <cmath>

#include <QFontMetricsF>
#include <QPainterPath>

namespace layoutscope::views {

void paintCellsCpu(QImage& img, QRect pane, const Camera2D& cam, uint32_t w, uint32_t h,
                   const std::vector<Rgba8>& texels, ShadeParams params) {
    pane = pane.intersected(img.rect());
    if (texels.size() != size_t(w) * h) return;
    for (int y = pane.top(); y <= pane.bottom(); ++y) {
        auto* line = reinterpret_cast<QRgb*>(img.scanLine(y));
        for (int x = pane.left(); x <= pane.right(); ++x) {
            const glm::vec2 local(float(x - pane.left()) + 0.5f, float(y - pane.top()) + 0.5f);
            const glm::vec2 world = cam.screenToWorld(local);
            if (world.x < 0 || world.y < 0 || world.x >= float(w) || world.y >= float(h)) continue;
            const Rgba8 t = texels[size_t(world.y) * w + size_t(world.x)];
            const Rgba8 c = shadeCell(t, world, glm::vec2(float(x), float(y)), params);
            line[x] = qRgb(c.r, c.g, c.b);
        }
    }
}

QFont overlayFont() {
    QFont f("DejaVu Sans Mono");
    f.setStyleHint(QFont::Monospace);
    f.setPixelSize(14);
    return f;
}

void paintOverlay(QPainter& p, const OverlayList& o, QPoint origin) {
    p.save();
    p.translate(origin);
    for (const OverlayList::Rect& r : o.rects) {
        const QRectF rect(QPointF(r.lo.x, r.lo.y), QPointF(r.hi.x, r.hi.y));
        const QColor c(r.colour.r, r.colour.g, r.colour.b, r.colour.a);
        if (!r.filled) {
            p.setPen(QPen(c, 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(rect);
            continue;
        }
        p.fillRect(rect, c);
        if (r.hatched) p.fillRect(rect, QBrush(QColor(0, 0, 0, 160), Qt::BDiagPattern));
    }
    p.setBrush(Qt::NoBrush);
    for (const OverlayList::Line& l : o.lines) {
        p.setPen(QPen(QColor(l.colour.r, l.colour.g, l.colour.b, l.colour.a), l.width));
        QPainterPath path(QPointF(l.a.x, l.a.y));
        if (l.bezier)
            path.cubicTo(QPointF(l.c1.x, l.c1.y), QPointF(l.c2.x, l.c2.y), QPointF(l.b.x, l.b.y));
        else
            path.lineTo(QPointF(l.b.x, l.b.y));
        p.drawPath(path);
    }
    const QFont base = overlayFont();
    for (const OverlayList::Text& t : o.texts) {
        QFont f = base;
        if (t.scale != 1.0f) f.setPixelSize(std::max(1, int(std::lround(base.pixelSize() * t.scale))));
        p.setFont(f);
        p.setPen(QColor(t.colour.r, t.colour.g, t.colour.b, t.colour.a));
        p.drawText(QRectF(t.pos.x, t.pos.y, 4000, 20 * t.scale), Qt::AlignLeft | Qt::AlignTop,
                   QString::fromStdString(t.text));
    }
    p.restore();
}

static void box(QPainter& p, QRectF r, const QString& title, const QString& text, QColor titleColour) {
    p.setPen(QPen(QColor(110, 110, 128), 1));
    p.setBrush(QColor(15, 15, 18, 235));
    p.drawRoundedRect(r, 4, 4);
    p.setPen(titleColour);
    p.drawText(r.adjusted(8, 6, -8, -6), Qt::AlignLeft | Qt::AlignTop, title);
    p.setPen(QColor(230, 230, 235));
    p.drawText(r.adjusted(8, 26, -8, -6), Qt::AlignLeft | Qt::AlignTop, text);
}

void paintInspector(QPainter& p, QPointF cursor, QSizeF viewport, const std::string& text) {
    if (text.empty()) return;
    p.save();
    p.setFont(overlayFont());
    const QString t = QString::fromStdString(text);
    const QRectF br =
        QFontMetricsF(p.font()).boundingRect(QRectF(0, 0, 4000, 4000), Qt::AlignLeft | Qt::AlignTop, t);
    QSizeF size(br.width() + 16, br.height() + 34);
    QPointF pos = cursor + QPointF(18, 18);
    if (pos.x() + size.width() > viewport.width()) pos.setX(std::max(0.0, cursor.x() - size.width() - 10));
    if (pos.y() + size.height() > viewport.height()) pos.setY(std::max(0.0, cursor.y() - size.height() - 10));
    box(p, QRectF(pos, size), "Inspector", t, QColor(255, 217, 102));
    p.restore();
}

void paintMessage(QPainter& p, QSizeF viewport, const std::string& title, const std::string& text) {
    if (text.empty()) return;
    p.save();
    p.setFont(overlayFont());
    const QString t = QString::fromStdString(text);
    const double maxW = std::max(240.0, viewport.width() - 60);
    const QRectF br =
        QFontMetricsF(p.font()).boundingRect(QRectF(0, 0, maxW, 4000), Qt::AlignLeft | Qt::TextWordWrap, t);
    const QSizeF size(br.width() + 16, br.height() + 34);
    const QPointF pos((viewport.width() - size.width()) / 2, viewport.height() * 0.4 - size.height() / 2);
    p.setPen(Qt::NoPen);
    box(p, QRectF(pos, size), QString::fromStdString(title), {}, QColor(255, 140, 120));
    p.setPen(QColor(230, 230, 235));
    p.drawText(QRectF(pos + QPointF(8, 26), QSizeF(maxW, br.height() + 4)), Qt::AlignLeft | Qt::TextWordWrap,
               t);
    p.restore();
}

} // namespace layoutscope::views
