#pragma once
/// CellRenderer: draws a grid of cells from a data texture (one RGBA8UI texel per cell) with one
/// quad and one draw call, whatever the number of cells. Needs a current OpenGL 3.3 core context.
#include "scene/camera2d.hpp"
#include "scene/cell_style.hpp"

#include <QOpenGLFunctions_3_3_Core>
#include <vector>

namespace layoutscope::views {

class CellRenderer {
  public:
    /// Compile the shaders from :/shaders and create the buffers. False (with `error`) on failure.
    bool init(QOpenGLFunctions_3_3_Core* gl, QString* error = nullptr);
    void destroy();
    [[nodiscard]] bool ready() const { return m_program != 0; }

    /// Upload w x h texels (row-major); reallocates only when the size changes.
    void upload(uint32_t w, uint32_t h, const Rgba8* texels);

    /// Draw the uploaded cells at world [0,w) x [0,h) into the current viewport.
    /// `fbHeightPx`: framebuffer height (device pixels); `dpr`: device pixels per logical pixel.
    void draw(const Camera2D& cam, float fbHeightPx, float dpr, ShadeParams params);

  private:
    QOpenGLFunctions_3_3_Core* m_gl = nullptr;
    GLuint m_program = 0, m_vao = 0, m_vbo = 0, m_tex = 0;
    uint32_t m_w = 0, m_h = 0;
};

} // namespace layoutscope::views
