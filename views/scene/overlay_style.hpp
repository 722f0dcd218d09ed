#pragma once
// Internal to the overlays (overlay.cpp, global_overlay.cpp, tmem_overlay.cpp, tmem_side_overlays.cpp): the
// colours, legends and small drawing helpers they share. In a namespace of their own: other overlays keep
// same-named file-local helpers (operand_scene.cpp), and a unity build may put them in one translation unit.
#include "scene/overlay.hpp"

#include <cstdint>
#include <optional>
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

/// A legend entry at p: a 14 px swatch (hatched: OOB fill) with a black outline, and its label.
inline void legendSwatch(OverlayList& o, glm::vec2 p, Rgba8 c, const std::string& label,
                         bool hatched = false) {
    o.rects.push_back({p, p + glm::vec2(14, 14), c, true, hatched});
    o.rects.push_back({p, p + glm::vec2(14, 14), Rgba8{0, 0, 0, 255}, false});
    o.text(p + glm::vec2(19, 0), label);
}

/// Legend items laid out left to right, wrapping at the right edge of the pane.
struct LegendFlow {
    OverlayList& o;
    float x0, x, y, maxX;
    /// `shortLabel`: said instead where `label` does not fit a whole line (then cut to fit, never
    /// past maxX).
    void item(Rgba8 c, std::string label, bool hatched = false, bool outline = false,
              const std::string& shortLabel = {}) {
        if (19 + approxTextWidth(label) > maxX - x0)
            label = shortLabel.empty() ? fitLabel({label}, maxX - x0 - 19)
                                       : fitLabel({label, shortLabel}, maxX - x0 - 19);
        const float w = 19 + approxTextWidth(label) + 14;
        if (x > x0 && x + w > maxX) {
            x = x0;
            y += 18;
        }
        if (outline) {
            o.rects.push_back({{x, y + 2}, {x + 14, y + 12}, c, false});
            o.text({x + 19, y}, label, kDim);
        } else {
            legendSwatch(o, {x, y}, c, label, hatched);
        }
        x += w;
    }
};

/// Two gradient strips: hue = row (top), lightness = column (bottom), 16 samples each, their captions
/// shortened to end before `maxX` (a narrow dock cut "lightness = box column (dim 0) 0..63").
/// `gatherLo`: gather4/scatter4 rows, whose hue is the tensor row gatherLo + offset (no box of rows).
void coordLegend(OverlayList& o, glm::vec2 p, int rows, int cols, const std::string& rowName,
                 const std::string& colName, float maxX, std::optional<int64_t> gatherLo = {}); // overlay.cpp

} // namespace layoutscope::views::overlay_style
