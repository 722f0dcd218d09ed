#pragma once
/// The operand view's scene (no Qt; issue 12 item 5): one consumer operand (analysis/operand_grid.hpp) as
/// an m x k grid of texels, each coloured by the global element it reads with the shared-memory view's
/// colour map (BoxFrame::colourAt of the producing TMA load), mismatched reads flagged kFlagDiffers, reads
/// of bytes no producer wrote kUntouched; plus its overlay (title, axes, legend with the counts) and the
/// inspector text of a cell.
#include "layoutscope/analysis/operand_grid.hpp"
#include "scene/camera2d.hpp"
#include "scene/overlay.hpp"
#include "scene/smem_scene.hpp"

#include <string>
#include <vector>

namespace layoutscope::views {

struct OperandScene {
    uint32_t w = 0, h = 0;     ///< grid columns (K) and rows (M or N)
    std::vector<Rgba8> texels; ///< row-major, h x w
    size_t total = 0;          ///< reads compared
    size_t mismatched = 0;     ///< kFlagDiffers cells
    size_t unwritten = 0;      ///< reads of bytes no producer the check knows wrote (also mismatched)
};

/// Space around the operand grid for the title, axis labels and legend (left, top, right, bottom), px.
inline constexpr glm::vec4 kOperandMargins{56.0f, 64.0f, 16.0f, 98.0f};

/// The texels of `g`; `producer`: the box frame of the TMA load behind it (nullptr: grey cells).
[[nodiscard]] OperandScene operandSceneOf(const OperandGrid& g, const BoxFrame* producer);

/// Title (operand, instruction line, tensor), k along the top, m/n down the left, and the legend: the
/// colour map, and the matching / differing / unwritten counts of `s`.
[[nodiscard]] OverlayList buildOperandOverlay(const Camera2D& cam, glm::vec2 viewport, const OperandGrid& g,
                                              const OperandScene& s, const BoxFrame* producer,
                                              const std::string& title);

/// Inspector text of cell (x = column, y = row): the element, the bytes it reads, what is there, what
/// should be.
[[nodiscard]] std::string inspectOperandCell(const OperandGrid& g, uint32_t x, uint32_t y);

/// "A[m=1][k=0]: expected (x=0, y=1), reads (x=32, y=0) at 0x0450" (the consumer diagnostic's wording).
[[nodiscard]] std::string operandCellText(const OperandGrid& g, const OperandCell& c);

} // namespace layoutscope::views
