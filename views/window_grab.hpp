#pragma once
/// Screenshots of a window whose canvases draw in native GL windows (GlSurface). QWidget::grab()
/// renders widgets only: a native GL window's pixels never reach the widget backing store, so the
/// canvases would come out blank. grabWithCanvases() grabs the widgets, then paints each visible
/// GL canvas's framebuffer over its place, so the picture is what the screen shows.
#include <QImage>

class QWidget;

namespace layoutscope::views {

[[nodiscard]] QImage grabWithCanvases(QWidget& window);

} // namespace layoutscope::views
