#include "offscreen_gl.hpp"

#include "cell_renderer.hpp"
#include "imgui_layer.hpp"

#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QOpenGLVersionFunctionsFactory>

namespace layoutscope::views {

bool renderPanesGl(QSize size, const std::vector<GlPane>& panes, QImage& out, QString& log) {
    QSurfaceFormat fmt;
    fmt.setVersion(3, 3);
    fmt.setProfile(QSurfaceFormat::CoreProfile);
    QOpenGLContext ctx;
    ctx.setFormat(fmt);
    if (!ctx.create()) {
        log = "no OpenGL context (QOpenGLContext::create failed)";
        return false;
    }
    QOffscreenSurface surface;
    surface.setFormat(ctx.format());
    surface.create();
    if (!surface.isValid() || !ctx.makeCurrent(&surface)) {
        log = "no OpenGL context (makeCurrent on an offscreen surface failed)";
        return false;
    }
    auto* gl = QOpenGLVersionFunctionsFactory::get<QOpenGLFunctions_3_3_Core>(&ctx);
    if (!gl || !gl->initializeOpenGLFunctions()) {
        log = "OpenGL 3.3 core functions unavailable";
        ctx.doneCurrent();
        return false;
    }
    bool ok = false;
    {
        QOpenGLFramebufferObject fbo(size, QOpenGLFramebufferObject::CombinedDepthStencil);
        fbo.bind();
        const int H = size.height();
        gl->glViewport(0, 0, size.width(), H);
        gl->glClearColor(kBackground.r / 255.0f, kBackground.g / 255.0f, kBackground.b / 255.0f, 1.0f);
        gl->glClear(GL_COLOR_BUFFER_BIT);
        CellRenderer r;
        QString err;
        if (r.init(gl, &err)) {
            gl->glEnable(GL_SCISSOR_TEST);
            for (const GlPane& p : panes) { // cells: one draw call per pane
                if (!p.w || !p.h || !p.texels) continue;
                const QRect& rc = p.rect;
                gl->glViewport(rc.x(), H - rc.y() - rc.height(), rc.width(), rc.height());
                gl->glScissor(rc.x(), H - rc.y() - rc.height(), rc.width(), rc.height());
                r.upload(p.w, p.h, p.texels->data());
                r.draw(p.cam, float(H), 1.0f, p.shade);
            }
            gl->glDisable(GL_SCISSOR_TEST);
            gl->glViewport(0, 0, size.width(), H);
            ImGuiLayer imgui;
            if (imgui.init()) {
                imgui.newFrame({float(size.width()), float(H)}, 1.0f, 1.0f / 60.0f);
                for (const GlPane& p : panes)
                    ImGuiLayer::drawOverlay(p.overlay, {float(p.rect.x()), float(p.rect.y())});
                imgui.render();
                imgui.shutdown();
            }
            r.destroy();
            gl->glFinish();
            out = fbo.toImage().convertToFormat(QImage::Format_RGB32);
            ok = true;
            log = QString("rendered with OpenGL: %1")
                      .arg(reinterpret_cast<const char*>(gl->glGetString(GL_RENDERER)));
        } else {
            log = err;
        }
        fbo.release();
    }
    ctx.doneCurrent();
    return ok;
}

} // namespace layoutscope::views
