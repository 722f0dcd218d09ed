#pragma once
/// GlSurface: the OpenGL drawing of a CellCanvas, in a native child window (a QOpenGLWindow inside
/// QWidget::createWindowContainer). It paints the canvas's cells with CellRenderer and its overlay
/// with Dear ImGui, and hands every mouse event it receives to the canvas, which owns the
/// interaction.
///
/// Why a QOpenGLWindow and not a QOpenGLWidget: Qt composes every QOpenGLWidget into its top-level
/// window each frame (two full-window textured passes). Under Mesa llvmpipe that alone costs
/// ~20 ms at 1920x1080; a native GL window swaps its own pixels (~6.5 ms). See views/README.md
/// "Benchmarks".
#include "cell_renderer.hpp"
#include "imgui_layer.hpp"

#include <QElapsedTimer>
#include <QImage>
#include <QOpenGLFunctions_3_3_Core>
#include <QOpenGLWindow>
#include <string>

namespace layoutscope::views {

class CellCanvas;

class GlSurface : public QOpenGLWindow, protected QOpenGLFunctions_3_3_Core {
    Q_OBJECT
  public:
    explicit GlSurface(CellCanvas* canvas);
    ~GlSurface() override;
    ImGuiLayer& imgui() { return m_imgui; }
    /// The widget that hosts this window in the canvas.
    [[nodiscard]] QWidget* container() const { return m_container; }
    /// What the window shows now, rendered afresh (for QWidget::grab-style screenshots).
    [[nodiscard]] QImage grabImage();

  protected:
    void initializeGL() override;
    void paintGL() override;
    bool event(QEvent* e) override;

  private:
    void releaseGl();
    CellCanvas* m_canvas;
    QWidget* m_container = nullptr;
    CellRenderer m_renderer;
    ImGuiLayer m_imgui;
    std::string m_error;
    QElapsedTimer m_clock;
};

} // namespace layoutscope::views
