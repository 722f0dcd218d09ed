#pragma once
/// Headless export: render the global-tensor and shared-memory views of a document at a step into
/// an image, without showing a window.
///
/// Path 1 (GL): QOpenGLContext + QOffscreenSurface + QOpenGLFramebufferObject, the same
/// CellRenderer and ImGui overlay as the window. Needs a GL 3.3 core context: with
/// QT_QPA_PLATFORM=offscreen, Qt 6.4's offscreen platform creates one only through GLX, i.e. when
/// an X server is reachable (e.g. under `xvfb-run`, Mesa llvmpipe).
/// Path 2 (CPU): when no GL context can be made (offscreen without DISPLAY), the cells are shaded
/// with views::shadeCell (the C++ mirror of cells.frag) and the overlay drawn with QPainter.
/// LAYOUTSCOPE_EXPORT_CPU=1 forces path 2.
#include "scene/camera2d.hpp"
#include "scene/document.hpp"
#include "scene/smem_scene.hpp"

#include <QImage>
#include <QRect>
#include <QString>

namespace layoutscope::views {

/// Where each view lands in an exported image, and its camera (pane-local pixels).
struct ExportLayout {
    QSize size;
    QRect globalRect, smemRect;
    Camera2D globalCam, smemCam;
};
[[nodiscard]] ExportLayout exportLayout(const SmemScene& s, const GlobalScene& g, QSize size);

struct ExportResult {
    bool ok = false;
    bool usedGl = false;
    QString message; ///< what was done, or why it failed
    QImage image;
};

/// Render the document at `step` (clamped to the trace) into an image of `size` pixels.
/// `cta`: whose shared memory the right pane shows (%cluster_ctarank).
[[nodiscard]] ExportResult renderDocument(const Document& doc, uint32_t step, QSize size = QSize(1600, 900),
                                          uint32_t cta = 0);

/// renderDocument then save as PNG (or any format Qt knows from the suffix).
[[nodiscard]] ExportResult exportImage(const Document& doc, uint32_t step, const QString& path,
                                       QSize size = QSize(1600, 900), uint32_t cta = 0);

} // namespace layoutscope::views
