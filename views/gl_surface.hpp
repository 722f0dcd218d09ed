#pragma once
/// GlSurface: the OpenGL child of a CellCanvas. Transparent for mouse events (the canvas handles
/// them); paints the canvas's cells with CellRenderer and its overlay with Dear ImGui.
#include "cell_renderer.hpp"
#include "imgui_layer.hpp"

#include <QElapsedTimer>
#include <QOpenGLFunctions_3_3_Core>
#include <QOpenGLWidget>
#include <string>

namespace layoutscope::views {

class CellCanvas;

class GlSurface : public QOpenGLWidget, protected QOpenGLFunctions_3_3_Core {
    Q_OBJECT
public:
    explicit GlSurface(CellCanvas* canvas);
    ~GlSurface() override;
    ImGuiLayer& imgui() { return m_imgui; }

protected:
    void initializeGL() override;
    void paintGL() override;

private:
    void releaseGl();
    CellCanvas* m_canvas;
    CellRenderer m_renderer;
    ImGuiLayer m_imgui;
    std::string m_error;
    QElapsedTimer m_clock;
};

} // namespace layoutscope::views
