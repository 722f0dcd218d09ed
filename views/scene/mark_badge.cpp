#include "scene/mark_badge.hpp"

#include <algorithm>
#include <cmath>

namespace layoutscope::views {

float diffOutlinePx(float cellPx) {
    return std::clamp(std::floor(cellPx / 8.0f + 0.5f) + 1.0f, 2.0f, 6.0f);
}

MarkBadge markBadge(std::string text, float cellPx, float viewportW) {
    MarkBadge b;
    const float h = std::clamp(cellPx, 18.0f, 28.0f), pad = 4.0f + (h - 18.0f) * 0.5f;
    b.fontScale = h / 18.0f;
    b.text = fitLabel({text}, std::max(24.0f, (viewportW * 0.5f - 2 * pad) / b.fontScale));
    const float w = approxTextWidth(b.text) * b.fontScale + 2 * pad;
    b.hi = {viewportW - 8.0f, 2.0f + h};
    b.lo = {b.hi.x - w, 2.0f};
    b.textPos = {b.lo.x + pad, b.lo.y + (h - 16.0f * b.fontScale) * 0.5f};
    return b;
}

} // namespace layoutscope::views
