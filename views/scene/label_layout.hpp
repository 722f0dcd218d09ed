#pragma once
/// Overlapping overlay labels (issue 24 item 7: the warpx2 fan-out's "rows 0-31" / "rows 32-63" and the
/// allocation and fan captions were drawn over each other in a short Tensor Memory pane). Labels are
/// placed by the overlay builders in order of importance; this pass keeps each text whose box meets no
/// text kept before it, so what is drawn never overlaps and the first-placed labels win.
#include "scene/overlay.hpp"

#include <cstddef>

namespace layoutscope::views {

/// Height of one overlay text line's box, px (the 14-px overlay font and its leading).
inline constexpr float kLabelHeight = 16.0f;

/// The box of text `t`: from its top-left position, approxTextWidth wide and kLabelHeight high.
[[nodiscard]] inline bool textsOverlap(const OverlayList::Text& a, const OverlayList::Text& b) {
    const float aw = approxTextWidth(a.text) * a.scale, bw = approxTextWidth(b.text) * b.scale;
    // Touching edges (a legend's items side by side, lines 16 px apart) are not an overlap.
    return a.pos.x < b.pos.x + bw - 0.5f && b.pos.x < a.pos.x + aw - 0.5f &&
           a.pos.y < b.pos.y + kLabelHeight * b.scale - 0.5f &&
           b.pos.y < a.pos.y + kLabelHeight * a.scale - 0.5f;
}

/// Removes from `o.texts[from..]` each text that overlaps a text kept before it (texts before `from` are
/// all kept, and checked against). Empty texts are removed. Returns how many were removed. Quadratic in
/// the number of texts, which the builders bound by the viewport (thinned labels), not by the cells.
size_t dropOverlappingTexts(OverlayList& o, size_t from = 0);

/// Pairs (i, j), i < j, of texts of `o` that overlap (tests).
[[nodiscard]] std::vector<std::pair<size_t, size_t>> overlappingTexts(const OverlayList& o);

} // namespace layoutscope::views
