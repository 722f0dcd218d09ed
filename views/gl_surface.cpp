#include "gl_surface.hpp"

#include "cell_canvas.hpp"
#include "theme.hpp"

#include <QContextMenuEvent>
#include <QCoreApplication>
#include <QEnterEvent>
#include <QGuiApplication>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QPainter>
#include <QWheelEvent>
#include <imgui.h>

namespace layoutscope::views {

GlSurface::GlSurface(CellCanvas* canvas) : QOpenGLWindow(QOpenGLWindow::NoPartialUpdate), m_canvas(canvas) {
    // The canvas keeps the keyboard focus (timeline shortcuts, the editor); this window only draws
    // and forwards the mouse.
    setFlag(Qt::WindowDoesNotAcceptFocus);
    // Only the container is native: native ancestors or siblings (Qt's default) would be X windows
    // stacked over this one and over the path overlay, hiding them.
    QCoreApplication::setAttribute(Qt::AA_DontCreateNativeWidgetSiblings);
    m_container = QWidget::createWindowContainer(this, canvas);
    m_container->setAttribute(Qt::WA_DontCreateNativeAncestors);
    m_container->setAttribute(Qt::WA_TransparentForMouseEvents); // synthetic widget events reach the canvas
    m_container->setFocusPolicy(Qt::NoFocus);
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
    if (!m_renderer.init(this, &err))
        m_error = err.toStdString();
    else if (!m_imgui.init())
        m_error = "the ImGui OpenGL3 backend failed to initialise";
    m_canvas->m_dirty = true;
    connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &GlSurface::releaseGl,
            Qt::DirectConnection);
}

void GlSurface::paintGL() {
    QElapsedTimer t;
    t.start();
    CellCanvas& c = *m_canvas;
    const float dpr = float(devicePixelRatio());
    const glm::vec2 size{float(width()), float(height())};
    glViewport(0, 0, GLsizei(size.x * dpr), GLsizei(size.y * dpr));
    const QColor bg = canvasTheme() == Theme::Light ? themeColours(Theme::Light).background
                                                    : QColor(kBackground.r, kBackground.g, kBackground.b);
    glClearColor(float(bg.redF()), float(bg.greenF()), float(bg.blueF()), 1.0f); // View > Theme
    glClear(GL_COLOR_BUFFER_BIT);
    if (!m_error.empty()) {
        QPainter p(this);
        p.setPen(Qt::white);
        p.drawText(QRect(0, 0, width(), height()), Qt::AlignCenter, QString::fromStdString(m_error));
        return;
    }
    if (c.m_dirty) {
        m_renderer.upload(c.m_w, c.m_h, c.m_texels.data());
        c.m_dirty = false;
    }
    ShadeParams sp = c.m_params;
    sp.zoom = c.m_cam.zoomXY().x;
    sp.zoomY = c.m_cam.zoomXY().y;
    m_renderer.draw(c.m_cam, size.y * dpr, dpr, sp);

    m_imgui.newFrame(size, dpr, float(m_clock.restart()) / 1000.0f);
    const bool light = canvasTheme() == Theme::Light;
    light ? ImGui::StyleColorsLight() : ImGui::StyleColorsDark(); // inspector and message windows
    if (c.m_w && c.m_h) ImGuiLayer::drawOverlay(c.frameOverlay(size), {0, 0}, light);
    if (!c.m_msgText.empty()) ImGuiLayer::messageWindow(size, c.m_msgTitle, c.m_msgText);
    if (c.m_hover && !c.m_dragging)
        m_imgui.inspectorWindow({float(c.m_hoverPos.x()), float(c.m_hoverPos.y())}, size, c.m_inspectorText);
    m_imgui.render();
    c.m_drawCalls = (c.m_w && c.m_h ? 1 : 0) + m_imgui.lastDrawCmds();
    c.recordFrame(double(t.nsecsElapsed()) / 1e6);
}

QImage GlSurface::grabImage() {
    if (!isExposed()) return {};
    (void)grabFramebuffer(); // ImGui sizes auto-resized windows (the inspector) one frame late
    return grabFramebuffer();
}

bool GlSurface::event(QEvent* e) {
    // The window covers the canvas exactly, so window and canvas coordinates are the same.
    switch (e->type()) {
    case QEvent::Resize: // X drops a resized window's pixels and does not always send an Expose
        update();
        return QOpenGLWindow::event(e);
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonRelease:
    case QEvent::MouseButtonDblClick:
    case QEvent::MouseMove: {
        auto* me = static_cast<QMouseEvent*>(e);
        if (e->type() == QEvent::MouseButtonPress) m_canvas->setFocus(Qt::MouseFocusReason);
        QMouseEvent copy(me->type(), me->position(), me->scenePosition(), me->globalPosition(), me->button(),
                         me->buttons(), me->modifiers(), me->pointingDevice());
        QCoreApplication::sendEvent(m_canvas, &copy);
        if (e->type() == QEvent::MouseButtonPress && me->button() == Qt::RightButton) {
            QContextMenuEvent cm(QContextMenuEvent::Mouse, me->position().toPoint(),
                                 me->globalPosition().toPoint(), me->modifiers());
            QCoreApplication::sendEvent(m_canvas, &cm);
        }
        return true;
    }
    case QEvent::Wheel: {
        auto* we = static_cast<QWheelEvent*>(e);
        QWheelEvent copy(we->position(), we->globalPosition(), we->pixelDelta(), we->angleDelta(),
                         we->buttons(), we->modifiers(), we->phase(), we->inverted(), we->source(),
                         we->pointingDevice());
        QCoreApplication::sendEvent(m_canvas, &copy);
        return true;
    }
    case QEvent::Enter: { // the pointer may arrive without moving (a window mapped under it)
        auto* ee = static_cast<QEnterEvent*>(e);
        QMouseEvent move(QEvent::MouseMove, ee->position(), ee->scenePosition(), ee->globalPosition(),
                         Qt::NoButton, QGuiApplication::mouseButtons(), QGuiApplication::keyboardModifiers());
        QCoreApplication::sendEvent(m_canvas, &move);
        return true;
    }
    case QEvent::Leave: {
        QEvent copy(QEvent::Leave);
        QCoreApplication::sendEvent(m_canvas, &copy);
        return true;
    }
    default:
        return QOpenGLWindow::event(e);
    }
}

} // namespace layoutscope::views
