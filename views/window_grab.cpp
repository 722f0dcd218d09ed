#include "window_grab.hpp"

#include "cell_canvas.hpp"

#include <QPainter>
#include <QPixmap>
#include <QWidget>

namespace layoutscope::views {

QImage grabWithCanvases(QWidget& window) {
    QImage img = window.grab().toImage();
    QPainter p(&img);
    for (CellCanvas* c : window.findChildren<CellCanvas*>()) {
        if (!c->usesGl() || !c->isVisible() || c->window() != window.window() || c->visibleRegion().isEmpty())
            continue;
        const QImage gl = c->grabGl();
        if (gl.isNull()) continue;
        // Clip to what is visible of the canvas (a dock may be partly covered or scrolled).
        p.save();
        p.translate(c->mapTo(&window, QPoint(0, 0)));
        p.setClipRegion(c->visibleRegion());
        p.drawImage(QRect(0, 0, c->width(), c->height()), gl);
        p.restore();
    }
    p.end();
    return img;
}

} // namespace layoutscope::views
