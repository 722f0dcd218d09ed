#include "scene/camera2d.hpp"

#include <algorithm>
#include <glm/gtc/matrix_transform.hpp>

namespace layoutscope::views {

void Camera2D::setViewport(glm::vec2 sizePx) {
    m_viewport = glm::max(sizePx, glm::vec2(1.0f));
}

void Camera2D::fit(glm::vec2 lo, glm::vec2 hi, glm::vec4 marginPx, bool alignTop, FitMode mode) {
    const glm::vec2 extent = glm::max(hi - lo, glm::vec2(1e-3f));
    const glm::vec2 avail =
        glm::max(m_viewport - glm::vec2(marginPx.x + marginPx.z, marginPx.y + marginPx.w), glm::vec2(1.0f));
    if (mode == FitMode::Fill)
        m_zoom = glm::clamp(avail / extent, glm::vec2(kMinZoom), glm::vec2(kMaxZoom));
    else
        m_zoom = glm::vec2(std::clamp(std::min(avail.x / extent.x, avail.y / extent.y), kMinZoom, kMaxZoom));
    // Centre the rectangle inside the area left free by the margins.
    const glm::vec2 areaCentre = glm::vec2(marginPx.x, marginPx.y) + avail * 0.5f;
    const glm::vec2 worldCentre = (lo + hi) * 0.5f;
    m_origin = worldCentre - areaCentre / m_zoom;
    if (alignTop) m_origin.y = lo.y - marginPx.y / m_zoom.y;
}

void Camera2D::setView(glm::vec2 origin, float zoom) {
    setView(origin, glm::vec2(zoom));
}

void Camera2D::setView(glm::vec2 origin, glm::vec2 zoom) {
    m_zoom = glm::clamp(zoom, glm::vec2(kMinZoom), glm::vec2(kMaxZoom));
    m_origin = origin;
}

glm::vec2 Camera2D::worldToScreen(glm::vec2 world) const {
    return (world - m_origin) * m_zoom;
}

glm::vec2 Camera2D::screenToWorld(glm::vec2 screen) const {
    return m_origin + screen / m_zoom;
}

void Camera2D::pan(glm::vec2 deltaPx) {
    m_origin -= deltaPx / m_zoom;
}

void Camera2D::zoomAt(glm::vec2 screenPx, float factor) {
    const glm::vec2 anchor = screenToWorld(screenPx);
    // Both axes by the same factor (their ratio kept), stopped where either reaches a bound.
    const float lo = kMinZoom / std::min(m_zoom.x, m_zoom.y), hi = kMaxZoom / std::max(m_zoom.x, m_zoom.y);
    m_zoom *= std::clamp(factor, std::min(lo, 1.0f), std::max(hi, 1.0f));
    m_origin = anchor - screenPx / m_zoom;
}

glm::mat4 Camera2D::viewProjection() const {
    const glm::vec2 lo = m_origin;
    const glm::vec2 hi = m_origin + m_viewport / m_zoom;
    // Screen y grows downwards, so world y maps top (lo.y) to clip +1.
    return glm::ortho(lo.x, hi.x, hi.y, lo.y, -1.0f, 1.0f);
}

} // namespace layoutscope::views
