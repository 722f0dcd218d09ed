#pragma once
/// SVG export of cell views, pure C++ + GLM (no Qt): the cells of one or more panes coloured as
/// views::shadeCell colours them (the C++ mirror of cells.frag), and their OverlayList on top.
///
///   cells    one <rect> per horizontal run of cells of identical colour, in cell units inside
///            <g class="cells" transform="translate(x0 y0) scale(zoom)">: x, y, width in cells,
///            height 1. The pane's most frequent colour is one <rect class="cells-bg"> under the
///            whole grid and its runs are left out (a 228 KiB shared memory stays a few MB).
///            Colour = shadeCell at the cell centre without the OOB hatch: flags such as the
///            current-step highlight included; borders and group lines (banks) are drawn by
///            patterns over the grid, as the shader draws them (1 px at the cell's low edge).
///   hatch    cells with kFlagFill (OOB fill, unallocated TMEM) in <g class="hatch">, merged in
///            runs like the cells, filled with the pattern of the shader's hatch (8 px period,
///            3 px stripes darkened to 35 %), in pixels.
///   overlay  rects (filled, 2-px outline, hatched), lines and cubic beziers as
///            <path d="M ax ay C c1 c2 b"/>, texts as <text> (XML-escaped, top-left anchored,
///            DejaVu Sans Mono 14 px like the canvases).
/// Each pane is clipped to its rectangle. Numbers use '.' whatever the C locale.
#include "scene/camera2d.hpp"
#include "scene/cell_style.hpp"
#include "scene/overlay.hpp"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace layoutscope::views {

/// One view placed in the image.
struct SvgPane {
    glm::vec2 origin{0.0f};               ///< top-left of the pane in the image, pixels
    glm::vec2 size{0.0f};                 ///< pane size, pixels (the pane is clipped to it)
    Camera2D cam;                         ///< pane-local camera (its viewport = size)
    uint32_t w = 0, h = 0;                ///< cells
    std::span<const Rgba8> texels;        ///< w * h, row-major (empty: no cells)
    ShadeParams shade;                    ///< zoom is taken from `cam`
    const OverlayList* overlay = nullptr; ///< pane-local pixels, may be null
};

/// Counts of what writeSvg emitted (for tests and size checks).
struct SvgStats {
    size_t cellRects = 0;  ///< run rects, background rects excluded
    size_t hatchRects = 0; ///< hatched cell runs
    size_t paths = 0;      ///< overlay lines and curves
    size_t texts = 0;
};

/// The SVG document of `panes` on a kBackground canvas of `imageSize` pixels.
[[nodiscard]] std::string writeSvg(glm::vec2 imageSize, std::span<const SvgPane> panes,
                                   SvgStats* stats = nullptr);

/// The colour a cell is filled with: shadeCell at the cell centre, hatch left out (drawn by the
/// pattern), alpha 255.
[[nodiscard]] Rgba8 svgCellColour(Rgba8 texel, const ShadeParams& shade);

/// `s` escaped for XML character data and attribute values (& < > " '); control characters other
/// than tab and newline are dropped and invalid UTF-8 becomes U+FFFD, so any string gives valid XML.
[[nodiscard]] std::string svgEscape(std::string_view s);

/// "#rrggbb".
[[nodiscard]] std::string svgColour(Rgba8 c);

} // namespace layoutscope::views
