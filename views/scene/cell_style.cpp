#include "scene/cell_style.hpp"

#include "scene/mark_badge.hpp"

#include <algorithm>
#include <cmath>

namespace layoutscope::views {

Rgba8 hslToRgb(float h, float s, float l) {
    // Standard HSL -> RGB (CSS Color 3, §4.2.4).
    const float c = (1.0f - std::fabs(2.0f * l - 1.0f)) * s;
    const float hp = std::fmod(std::fmod(h, 360.0f) + 360.0f, 360.0f) / 60.0f;
    const float x = c * (1.0f - std::fabs(std::fmod(hp, 2.0f) - 1.0f));
    float r = 0, g = 0, b = 0;
    if (hp < 1) {
        r = c;
        g = x;
    } else if (hp < 2) {
        r = x;
        g = c;
    } else if (hp < 3) {
        g = c;
        b = x;
    } else if (hp < 4) {
        g = x;
        b = c;
    } else if (hp < 5) {
        r = x;
        b = c;
    } else {
        r = c;
        b = x;
    }
    const float m = l - c * 0.5f;
    auto to8 = [](float v) { return static_cast<uint8_t>(std::clamp(std::lround(v * 255.0f), 0L, 255L)); };
    return {to8(r + m), to8(g + m), to8(b + m), 255};
}

Rgba8 colourForCoord(int row, int col, int rows, int cols) {
    const float rf = rows > 1 ? static_cast<float>(row) / static_cast<float>(rows - 1) : 0.0f;
    const float cf = cols > 1 ? static_cast<float>(col) / static_cast<float>(cols - 1) : 0.0f;
    return hslToRgb(300.0f * std::clamp(rf, 0.0f, 1.0f), 0.85f, 0.25f + 0.50f * std::clamp(cf, 0.0f, 1.0f));
}

static glm::vec3 toVec(Rgba8 c) {
    return glm::vec3(c.r, c.g, c.b) / 255.0f;
}

Rgba8 shadeCell(Rgba8 texel, glm::vec2 world, glm::vec2 px, const ShadeParams& p) {
    glm::vec3 c = toVec(texel);
    const int flags = texel.a;
    if (flags & kFlagFill) {
        // Diagonal hatch in screen space, 8 px period: dark stripes 3 px wide.
        const int k = (static_cast<int>(std::floor(px.x)) + static_cast<int>(std::floor(px.y))) & 7;
        if (k < 3) c *= 0.35f;
    }
    if (flags & kFlagCurrent) c = glm::mix(c, glm::vec3(1.0f), 0.55f);
    // Per axis: a Fill camera stretches cells, so one pixel is 1/zoom.x cell across, 1/zoom.y down;
    // the size thresholds (outline at 6 px, grid at 2 px) use the smaller side.
    const glm::vec2 z{p.zoom, p.zoomY > 0.0f ? p.zoomY : p.zoom};
    const float zMin = std::min(z.x, z.y);
    const glm::vec2 f = world - glm::floor(world);
    if (flags & kFlagRead) { // an outline 2 px wide once cells are 6 px, else a tint
        const glm::vec2 w = 2.0f / glm::max(z, glm::vec2(1.0f));
        const glm::vec3 o = toVec(kReadOutline);
        if (zMin < 6.0f)
            c = glm::mix(c, o, 0.6f);
        else if (f.x < w.x || f.y < w.y || f.x > 1.0f - w.x || f.y > 1.0f - w.y)
            return {kReadOutline.r, kReadOutline.g, kReadOutline.b, 255};
    }
    if ((flags & kFlagReshuffled) && !(flags & kFlagDiffers)) // compare: the element elsewhere in pane 1
        c = glm::mix(c, toVec(kReshuffleColour), zMin < 6.0f ? 0.55f : 0.35f);
    if (flags & kFlagDiffers) { // a mismatch: seen at any zoom (issue 24 item 6)
        const glm::vec2 w = diffOutlinePx(zMin) / glm::max(z, glm::vec2(1.0f));
        c = glm::mix(c, toVec(kDiffColour), zMin < 6.0f ? 0.8f : 0.4f);
        if (zMin >= 6.0f && (f.x < w.x || f.y < w.y || f.x > 1.0f - w.x || f.y > 1.0f - w.y))
            return {kDiffColour.r, kDiffColour.g, kDiffColour.b, 255};
    }
    // Cell borders once cells are big enough to see them; stronger every group.
    const glm::vec2 edge = 1.0f / z; // one pixel, in cells
    if (zMin >= 6.0f) {
        const bool onEdge = f.x < edge.x || f.y < edge.y;
        if (onEdge) c *= 0.55f;
    }
    if (zMin >= 2.0f) {
        const int cx = static_cast<int>(std::floor(world.x));
        const int cy = static_cast<int>(std::floor(world.y));
        const bool gx = p.groupX > 0 && (cx % p.groupX) == 0 && f.x < edge.x;
        const bool gy = p.groupY > 0 && (cy % p.groupY) == 0 && f.y < edge.y;
        if (gx || gy) c = glm::vec3(0.08f);
    }
    auto to8 = [](float v) { return static_cast<uint8_t>(std::clamp(std::lround(v * 255.0f), 0L, 255L)); };
    return {to8(c.r), to8(c.g), to8(c.b), 255};
}

} // namespace layoutscope::views
