#pragma once
/// Headless OpenGL rendering of cell panes (export.cpp, export_view.cpp): a GL 3.3 core
/// QOpenGLContext on a QOffscreenSurface, one QOpenGLFramebufferObject, CellRenderer for each
/// pane's cells (one draw call) and the ImGui overlay on top, exactly as the window draws them.
#include "scene/camera2d.hpp"
#include "scene/cell_style.hpp"
#include "scene/overlay.hpp"

#include <QImage>
#include <QRect>
#include <QString>
#include <vector>

namespace layoutscope::views {

struct GlPane {
    QRect rect;   ///< where the pane lands in the image
    Camera2D cam; ///< pane-local pixels
    uint32_t w = 0, h = 0;
    const std::vector<Rgba8>* texels = nullptr;
    ShadeParams shade; ///< zoom included
    OverlayList overlay;
};

/// Render `panes` into an image of `size`. False (with the reason in `log`) when no GL 3.3 core
/// context can be made, e.g. Qt's offscreen platform without an X server.
[[nodiscard]] bool renderPanesGl(QSize size, const std::vector<GlPane>& panes, QImage& out, QString& log);

} // namespace layoutscope::views
