#pragma once
/// Overlay draw lists: axis labels, box outlines and legends of the cell views, built as plain
/// primitives (pure C++ + GLM, testable) and drawn either with Dear ImGui (GL canvases, GL export)
/// or with QPainter (CPU export fallback). Labels are culled to the viewport and thinned so their
/// number depends on the viewport size, never on the number of cells.
#include "scene/camera2d.hpp"
#include "scene/cell_style.hpp"
#include "scene/row_fold.hpp"
#include "scene/smem_colour.hpp"
#include "scene/smem_scene.hpp"

#include <initializer_list>
#include <string>
#include <vector>

namespace layoutscope::views {

struct OverlayList {
    struct Text {
        glm::vec2 pos; ///< top-left, pixels
        std::string text;
        Rgba8 colour{220, 220, 225, 255};
        float scale = 1.0f; ///< font size relative to the overlay font's 14 px (the mismatch badge grows)
    };
    struct Rect {
        glm::vec2 lo, hi; ///< pixels
        Rgba8 colour;
        bool filled = true; ///< false: 2-px outline
        bool hatched = false;
    };
    /// A straight line, or a cubic bezier through control points c1, c2 (multicast fans).
    struct Line {
        glm::vec2 a, b; ///< pixels
        Rgba8 colour;
        float width = 2.0f;
        bool bezier = false;
        glm::vec2 c1{0}, c2{0};
        bool operator==(const Line&) const = default;
    };
    std::vector<Rect> rects; ///< drawn first
    std::vector<Line> lines; ///< drawn after the rects
    std::vector<Text> texts;
    /// Where the text blocks that must not cover cells went (legend, banner), in pixels: tests check
    /// them against the cell grid's rectangle. Nothing is drawn from these.
    struct Region {
        std::string name; ///< "legend", "banner"
        glm::vec2 lo, hi;
    };
    std::vector<Region> regions;
    void text(glm::vec2 p, std::string s, Rgba8 c = {220, 220, 225, 255}, float scale = 1.0f) {
        texts.push_back({p, std::move(s), c, scale});
    }
};

/// Space kept free around the cell grids for labels and legends (left, top, right, bottom), px.
inline constexpr glm::vec4 kSmemMargins{74.0f, 76.0f, 16.0f, 92.0f};
/// Pixels between two bands of a folded shared-memory grid (row_fold.hpp): a band's row addresses
/// ("0x6000", 50 px) and 8 px on each side.
inline constexpr float kSmemFoldGapPx = 66.0f;
inline constexpr glm::vec4 kGlobalMargins{58.0f, 76.0f, 16.0f, 136.0f};
/// Smallest canvas sizes that still leave a usable cell grid inside those margins (the docks and the
/// centre view never shrink below them, so no view collapses to 0 px; issue 15).
inline constexpr glm::vec2 kSmemMinSize{300.0f, 76.0f + 92.0f + 40.0f};
inline constexpr glm::vec2 kGlobalMinSize{260.0f, 76.0f + 136.0f + 44.0f};

/// Approximate text width of the overlay font (DejaVu Sans Mono 14 px: 8.4 px per character), used for label
/// spacing.
inline float approxTextWidth(const std::string& s) {
    return 8.4f * static_cast<float>(s.size());
}

/// The first of `candidates` (longest first) whose approxTextWidth fits `widthPx`; when none does,
/// the last one cut to fit with a trailing "..". Legend lines use it so no line is cut at the pane's
/// edge (issue 15: the global view's lightness line in a narrow dock).
[[nodiscard]] std::string fitLabel(std::initializer_list<std::string> candidates, float widthPx);

/// Height of the shared-memory legend (from its top to the pane's bottom) in a pane `width` px wide:
/// 84 px, more where its items wrap to another line (4 columns of the compare window at 1280x800).
[[nodiscard]] float smemLegendHeight(float width, uint32_t observedMarked = 0);
/// kSmemMargins with the bottom grown by what smemLegendHeight needs beyond 84 px at `width`.
[[nodiscard]] glm::vec4 smemMargins(float width, uint32_t observedMarked = 0);

/// The same for the global view's legend: 128 px, more where its items wrap past 5 lines.
[[nodiscard]] float globalLegendHeight(float width, const GlobalScene& g);
[[nodiscard]] glm::vec4 globalMargins(float width, const GlobalScene& g);

/// Bank numbers (top), row byte addresses (left), axis titles and the colour legend of the
/// shared-memory view. `viewport` is the pane size in pixels.
/// `by` / `chunks`: the colour mode and granularity of the cells (the legend follows them).
/// `im2col`: the frame is an im2col load's (the legend names W offset / channel, as the global view).
/// No `frame` (no TMA box copy): no coordinate legend, which would read "0..0".
/// `fold`: the rows as the canvas draws them (CellCanvas::rowFold; `cam` is in drawn cells): each band
/// gets its column header and row addresses. The default is no fold.
[[nodiscard]] OverlayList buildSmemOverlay(const Camera2D& cam, glm::vec2 viewport, const SmemScene& s,
                                           const BoxFrame* frame, SmemColourBy by = SmemColourBy::Source,
                                           bool chunks = false, bool im2col = false,
                                           const RowFold& fold = {});

/// Coordinates along the slice's dims (named: "dim 2", or C/W/H/D/N for im2col), the box /
/// gather4 rows / im2col pixels and window, tensor-bound outlines, and the legend (with the
/// tensor's shape in CuTe notation) of the global tensor view.
[[nodiscard]] OverlayList buildGlobalOverlay(const Camera2D& cam, glm::vec2 viewport, const GlobalScene& g);

} // namespace layoutscope::views
