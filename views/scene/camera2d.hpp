#pragma once
/// Camera2D: an orthographic 2-D camera for the cell canvases. World units are cells (one byte of
/// shared memory, one element of a tensor); screen units are device-independent pixels with y down.
/// Pan with drag, zoom around the cursor. Pure GLM, testable without a GPU.
#include <glm/glm.hpp>

namespace layoutscope::views {

class Camera2D {
  public:
    /// Size of the viewport in pixels.
    void setViewport(glm::vec2 sizePx);
    [[nodiscard]] glm::vec2 viewport() const { return m_viewport; }

    /// Show the world rectangle [lo, hi] entirely, keeping square cells; `marginPx` pixels are
    /// kept free on each side (left/top/right/bottom) for axis labels. Centred horizontally;
    /// vertically centred, or against the top margin when `alignTop`.
    void fit(glm::vec2 lo, glm::vec2 hi, glm::vec4 marginPx = glm::vec4(0.0f), bool alignTop = false);

    [[nodiscard]] glm::vec2 worldToScreen(glm::vec2 world) const;
    [[nodiscard]] glm::vec2 screenToWorld(glm::vec2 screen) const;

    /// Move the view by a drag of `deltaPx` pixels (the world point under the cursor follows it).
    void pan(glm::vec2 deltaPx);
    /// Multiply the zoom by `factor` keeping the world point under `screenPx` fixed.
    void zoomAt(glm::vec2 screenPx, float factor);

    /// Show world point `origin` at the top-left pixel with `zoom` pixels per unit (clamped), e.g. to
    /// mirror another canvas' camera (compare mode).
    void setView(glm::vec2 origin, float zoom);

    /// Pixels per world unit.
    [[nodiscard]] float zoom() const { return m_zoom; }
    /// World point shown at the top-left pixel of the viewport.
    [[nodiscard]] glm::vec2 origin() const { return m_origin; }

    /// Orthographic projection world -> clip space (y down on screen), for the cell shader.
    [[nodiscard]] glm::mat4 viewProjection() const;

    static constexpr float kMinZoom = 0.05f;
    static constexpr float kMaxZoom = 400.0f;

  private:
    glm::vec2 m_viewport{1.0f, 1.0f};
    glm::vec2 m_origin{0.0f, 0.0f};
    float m_zoom = 1.0f;
};

} // namespace layoutscope::views
