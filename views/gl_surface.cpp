#include "gl_surface.hpp"

#include "cell_canvas.hpp"

#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QPainter>

namespace layoutscope::views {

GlSurface::GlSurface(CellCanvas* canvas) : QOpenGLWidget(canvas), m_canvas(canvas) {
    setAttribute(Qt::WA_TransparentForMouseEvents);
    m_clock.start();
}

GlSurface::~GlSurface() {
    if (context()) disconnect(context(), nullptr, this, nullptr); // its destruction comes after ours
    releaseGl();
}

void GlSurface::releaseGl() {
    if (!context()) return;
    makeCurrent();
    m_renderer.destroy();
    m_imgui.shutdown();
    doneCurrent();
}

void GlSurface::initializeGL() {
    if (!initializeOpenGLFunctions()) {
        m_error = "OpenGL 3.3 core is not available";
        return;
    }
    QString err;
    if (!m_renderer.init(this, &err)) m_error = err.toStdString();
    else if (!m_imgui.init()) m_error = "the ImGui OpenGL3 backend failed to initialise";
    m_canvas->m_dirty = true;
    connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &GlSurface::releaseGl, Qt::DirectConnection);
}

void GlSurface::paintGL() {
    QElapsedTimer t;
    t.start();
    CellCanvas& c = *m_canvas;
    const float dpr = float(devicePixelRatioF());
    const glm::vec2 size{float(width()), float(height())};
    glViewport(0, 0, GLsizei(size.x * dpr), GLsizei(size.y * dpr));
    glClearColor(kBackground.r / 255.0f, kBackground.g / 255.0f, kBackground.b / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    if (!m_error.empty()) {
        QPainter p(this);
        p.setPen(Qt::white);
        p.drawText(rect(), Qt::AlignCenter, QString::fromStdString(m_error));
        return;
    }
    if (c.m_dirty) {
        m_renderer.upload(c.m_w, c.m_h, c.m_texels.data());
        c.m_dirty = false;
    }
    ShadeParams sp = c.m_params;
    sp.zoom = c.m_cam.zoom();
    m_renderer.draw(c.m_cam, size.y * dpr, dpr, sp);

    m_imgui.newFrame(size, dpr, float(m_clock.restart()) / 1000.0f);
    if (c.m_w && c.m_h) ImGuiLayer::drawOverlay(c.frameOverlay(size));
    if (!c.m_msgText.empty()) ImGuiLayer::messageWindow(size, c.m_msgTitle, c.m_msgText);
    if (c.m_hover && !c.m_dragging)
        m_imgui.inspectorWindow({float(c.m_hoverPos.x()), float(c.m_hoverPos.y())}, size, c.m_inspectorText);
    m_imgui.render();
    c.m_drawCalls = (c.m_w && c.m_h ? 1 : 0) + m_imgui.lastDrawCmds();
    c.recordFrame(double(t.nsecsElapsed()) / 1e6);
}

} // namespace layoutscope::views
