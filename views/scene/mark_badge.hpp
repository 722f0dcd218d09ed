#pragma once
/// The mismatch count badge of the Operand and Tensor Memory views (issue 24 item 6: marks seen at the
/// default zoom): a filled kDiffColour box round "N differ" at the right of the pane's header, growing
/// with the cells so it reads as part of the marks at any zoom.
#include "scene/overlay.hpp"

#include <string>

namespace layoutscope::views {

/// Width in px of the inner outline of a kFlagDiffers cell `cellPx` px on its smaller side (>= 6): 2 px up
/// to 11 px cells, then one more per 8 px of cell, at most 6, so marks stay visible as cells grow
/// (shadeCell and assets/shaders/cells.frag; below 6 px the cell is tinted 80% towards kDiffColour).
[[nodiscard]] float diffOutlinePx(float cellPx);

struct MarkBadge {
    glm::vec2 lo, hi;  ///< the box, px
    glm::vec2 textPos; ///< top-left of the text, px
    std::string text;
    float fontScale = 1.0f; ///< the text's size relative to the 14-px overlay font: it grows with the box
};

/// The badge for `text` in a pane `viewportW` px wide whose cells are `cellPx` px: 18 px high for small
/// cells, `cellPx` for cells of 18-28 px, 28 px beyond, its text scaled by height / 18; right-aligned 8 px
/// from the edge, top at 2 px; never wider than half the pane (the text is shortened with fitLabel).
[[nodiscard]] MarkBadge markBadge(std::string text, float cellPx, float viewportW);

} // namespace layoutscope::views
