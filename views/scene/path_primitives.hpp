#pragma once
/// The linked selection's path (global -> shared memory -> Tensor Memory -> registers) as overlay
/// primitives, for the canvases to draw over themselves. The canvases are native GL windows, which
/// X stacks above the window's own widgets, so the PathOverlay widget can only show the parts of
/// the path between canvases; each canvas draws the part over it from these primitives.
/// Pure C++ + GLM: the geometry is tested without a GPU.
#include "scene/overlay.hpp"

#include <functional>
#include <string>
#include <vector>

namespace layoutscope::views {

struct PathPiece {
    glm::vec2 a{0}, b{0}; ///< window coordinates
    enum class State { Done, Playing, Ahead } state = State::Ahead;
    std::string label;
    bool operator==(const PathPiece&) const = default;
};

inline constexpr Rgba8 kPathDone{255, 196, 0, 255};
inline constexpr Rgba8 kPathAhead{200, 200, 210, 170};

/// Control point of the quadratic curve from a to b (bowed upwards by 15% of the x distance).
[[nodiscard]] glm::vec2 pathControl(const PathPiece& p);
/// Point at t in [0, 1] on the piece's curve.
[[nodiscard]] glm::vec2 pathPoint(const PathPiece& p, float t);

/// Append the pieces, shifted by -origin (the canvas's top-left in window coordinates): a dark halo
/// under each curve; Done pieces solid, Playing ones thick and dashed (dashes 4 px on, 3 px off,
/// shifted by `phase` px), Ahead ones thin, grey and dashed; an arrow head at b; the label on a
/// dark box at 40% / 70% of the curve (alternating, so pieces that share an end keep labels apart).
/// `ownsLabel(p)` (window coordinates of a label's top-left): whether this drawer draws that label.
/// Each label must be drawn by one drawer only (the canvas it starts in, else the window's overlay):
/// two renderers with different fonts side by side read as a label written twice (issue 15).
using LabelOwnerFn = std::function<bool(glm::vec2 windowPos)>;
void appendPathPrimitives(OverlayList& o, const std::vector<PathPiece>& pieces, glm::vec2 origin, int phase,
                          const LabelOwnerFn& ownsLabel = {});
/// Where piece `i`'s label starts, window coordinates.
[[nodiscard]] glm::vec2 pathLabelPos(const PathPiece& p, size_t i);

} // namespace layoutscope::views
