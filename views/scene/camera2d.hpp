#pragma once
/// Camera2D: an orthographic 2-D camera for the cell canvases. World units are cells (one byte of
/// shared memory, one element of a tensor); screen units are device-independent pixels with y down.
/// Pan with drag, zoom around the cursor. Pure GLM, testable without a GPU.
/// Cells are square unless a fit with `FitMode::Fill` stretched them: then x and y have their own
/// zoom (pixels per unit), kept in that ratio by pan and zoomAt.
#include <algorithm>
#include <glm/glm.hpp>

namespace layoutscope::views {

class Camera2D {
  public:
    /// Size of the viewport in pixels.
    void setViewport(glm::vec2 sizePx);
    [[nodiscard]] glm::vec2 viewport() const { return m_viewport; }

    /// How fit scales: Square keeps square cells (the rectangle may leave room on one axis); Fill
    /// zooms x and y separately so the rectangle fills the area exactly (non-square cells).
    enum class FitMode { Square, Fill };
    /// Show the world rectangle [lo, hi] entirely; `marginPx` pixels are kept free on each side
    /// (left/top/right/bottom) for axis labels. Square: centred horizontally, vertically centred or
    /// against the top margin when `alignTop`. Fill: the rectangle covers the free area.
    void fit(glm::vec2 lo, glm::vec2 hi, glm::vec4 marginPx = glm::vec4(0.0f), bool alignTop = false,
             FitMode mode = FitMode::Square);

    [[nodiscard]] glm::vec2 worldToScreen(glm::vec2 world) const;
    [[nodiscard]] glm::vec2 screenToWorld(glm::vec2 screen) const;

    /// Move the view by a drag of `deltaPx` pixels (the world point under the cursor follows it).
    void pan(glm::vec2 deltaPx);
    /// Multiply the zoom by `factor` keeping the world point under `screenPx` fixed.
    void zoomAt(glm::vec2 screenPx, float factor);

    /// Show world point `origin` at the top-left pixel with `zoom` pixels per unit (clamped), e.g. to
    /// mirror another canvas' camera (compare mode).
    void setView(glm::vec2 origin, float zoom);
    /// The same with a zoom per axis (x, y), e.g. to mirror a camera whose cells are not square.
    void setView(glm::vec2 origin, glm::vec2 zoom);

    /// Pixels per world unit: the smaller of the two axes (equal unless a Fill fit stretched the
    /// cells), so "cells are at least N px" tests hold on both axes.
    [[nodiscard]] float zoom() const { return std::min(m_zoom.x, m_zoom.y); }
    /// Pixels per world unit along x and along y.
    [[nodiscard]] glm::vec2 zoomXY() const { return m_zoom; }
    /// World point shown at the top-left pixel of the viewport.
    [[nodiscard]] glm::vec2 origin() const { return m_origin; }

    /// Orthographic projection world -> clip space (y down on screen), for the cell shader.
    [[nodiscard]] glm::mat4 viewProjection() const;

    static constexpr float kMinZoom = 0.05f;
    static constexpr float kMaxZoom = 400.0f;

  private:
    glm::vec2 m_viewport{1.0f, 1.0f};
    glm::vec2 m_origin{0.0f, 0.0f};
    glm::vec2 m_zoom{1.0f, 1.0f};
};

} // namespace layoutscope::views
