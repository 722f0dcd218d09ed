#pragma once
// Internal to the overlays (tmem_overlay.cpp, tmem_side_overlays.cpp): the colours and the small drawing
// helpers they share. In a namespace of their own: other overlays keep
// same-named file-local helpers (operand_scene.cpp), and a unity build may put them in one translation unit.
#include "scene/overlay.hpp"

#include <string>

namespace layoutscope::views::overlay_style {

inline constexpr Rgba8 kAxis{235, 235, 240, 255};
inline constexpr Rgba8 kDim{150, 152, 160, 255};
inline constexpr Rgba8 kAlloc{255, 210, 80, 255};

/// The smallest power-of-two label step k for which k units span at least minPx.
inline int thin(float pxPerUnit, float minPx) {
    int k = 1;
    while (pxPerUnit * static_cast<float>(k) < minPx && k < (1 << 20)) k *= 2;
    return k;
}

/// A legend entry at p (a 14 px swatch and its label); p moves past it.
inline void swatch(OverlayList& o, glm::vec2& p, Rgba8 c, const std::string& label, bool hatched = false) {
    o.rects.push_back({p, p + glm::vec2(14, 14), c, true, hatched});
    o.text(p + glm::vec2(19, 0), label);
    p.x += 19 + approxTextWidth(label) + 16;
}

} // namespace layoutscope::views::overlay_style
