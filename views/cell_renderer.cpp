#include "cell_renderer.hpp"

#include <QFile>
#include <glm/gtc/type_ptr.hpp>

static void initViewsResources() {
    Q_INIT_RESOURCE(layoutscope);
}

namespace layoutscope::views {

static QByteArray readResource(const char* path) {
    initViewsResources();
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.readAll();
}

static GLuint compile(QOpenGLFunctions_3_3_Core* gl, GLenum type, const QByteArray& src, QString* error) {
    const GLuint s = gl->glCreateShader(type);
    const char* p = src.constData();
    gl->glShaderSource(s, 1, &p, nullptr);
    gl->glCompileShader(s);
    GLint ok = 0;
    gl->glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048] = {};
        gl->glGetShaderInfoLog(s, sizeof log, nullptr, log);
        if (error) *error = QString("shader compile failed: %1").arg(log);
        gl->glDeleteShader(s);
        return 0;
    }
    return s;
}

bool CellRenderer::init(QOpenGLFunctions_3_3_Core* gl, QString* error) {
    m_gl = gl;
    const QByteArray vs = readResource(":/shaders/cells.vert"), fs = readResource(":/shaders/cells.frag");
    if (vs.isEmpty() || fs.isEmpty()) {
        if (error) *error = "cell shaders missing from the resources (:/shaders/cells.*)";
        return false;
    }
    const GLuint v = compile(gl, GL_VERTEX_SHADER, vs, error), f = compile(gl, GL_FRAGMENT_SHADER, fs, error);
    if (!v || !f) return false;
    m_program = gl->glCreateProgram();
    gl->glAttachShader(m_program, v);
    gl->glAttachShader(m_program, f);
    gl->glLinkProgram(m_program);
    gl->glDeleteShader(v);
    gl->glDeleteShader(f);
    GLint ok = 0;
    gl->glGetProgramiv(m_program, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048] = {};
        gl->glGetProgramInfoLog(m_program, sizeof log, nullptr, log);
        if (error) *error = QString("shader link failed: %1").arg(log);
        gl->glDeleteProgram(m_program);
        m_program = 0;
        return false;
    }
    static const float corners[] = {0, 0, 1, 0, 0, 1, 1, 1};
    gl->glGenVertexArrays(1, &m_vao);
    gl->glBindVertexArray(m_vao);
    gl->glGenBuffers(1, &m_vbo);
    gl->glBindBuffer(GL_ARRAY_BUFFER, m_vbo);
    gl->glBufferData(GL_ARRAY_BUFFER, sizeof corners, corners, GL_STATIC_DRAW);
    gl->glEnableVertexAttribArray(0);
    gl->glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
    gl->glBindVertexArray(0);
    gl->glGenTextures(1, &m_tex);
    gl->glBindTexture(GL_TEXTURE_2D, m_tex);
    gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    return true;
}

void CellRenderer::destroy() {
    if (!m_gl) return;
    if (m_tex) m_gl->glDeleteTextures(1, &m_tex);
    if (m_vbo) m_gl->glDeleteBuffers(1, &m_vbo);
    if (m_vao) m_gl->glDeleteVertexArrays(1, &m_vao);
    if (m_program) m_gl->glDeleteProgram(m_program);
    m_tex = m_vbo = m_vao = m_program = 0;
    m_w = m_h = 0;
}

void CellRenderer::upload(uint32_t w, uint32_t h, const Rgba8* texels) {
    if (!m_program) return;
    m_gl->glBindTexture(GL_TEXTURE_2D, m_tex);
    m_gl->glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    if (w != m_w || h != m_h) {
        m_gl->glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8UI, static_cast<GLsizei>(w), static_cast<GLsizei>(h), 0,
                           GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, texels);
        m_w = w;
        m_h = h;
    } else if (w && h) {
        m_gl->glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, static_cast<GLsizei>(w), static_cast<GLsizei>(h),
                              GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, texels);
    }
}

void CellRenderer::draw(const Camera2D& cam, float fbHeightPx, float dpr, ShadeParams params) {
    if (!m_program || !m_w || !m_h) return;
    QOpenGLFunctions_3_3_Core* gl = m_gl;
    gl->glUseProgram(m_program);
    const glm::mat4 vp = cam.viewProjection();
    gl->glUniformMatrix4fv(gl->glGetUniformLocation(m_program, "uViewProj"), 1, GL_FALSE, glm::value_ptr(vp));
    gl->glUniform4f(gl->glGetUniformLocation(m_program, "uRect"), 0, 0, float(m_w), float(m_h));
    gl->glUniform2f(gl->glGetUniformLocation(m_program, "uOrigin"), 0, 0);
    gl->glUniform2f(gl->glGetUniformLocation(m_program, "uZoom"), cam.zoomXY().x * dpr, cam.zoomXY().y * dpr);
    gl->glUniform2i(gl->glGetUniformLocation(m_program, "uGroup"), params.groupX, params.groupY);
    gl->glUniform1f(gl->glGetUniformLocation(m_program, "uViewportH"), fbHeightPx);
    gl->glUniform1i(gl->glGetUniformLocation(m_program, "uCells"), 0);
    gl->glActiveTexture(GL_TEXTURE0);
    gl->glBindTexture(GL_TEXTURE_2D, m_tex);
    gl->glBindVertexArray(m_vao);
    gl->glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    gl->glBindVertexArray(0);
    gl->glUseProgram(0);
}

} // namespace layoutscope::views
