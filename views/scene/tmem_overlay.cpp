// The Tensor Memory view's overlay (tmem_overlay.hpp: buildTmemOverlay): column and lane labels, lane
// quarters and their warps, allocations, CTA titles, the multicast fan and the legend. The overlays of the
// views beside it are tmem_side_overlays.cpp.
#include "scene/tmem_overlay.hpp"
#include "scene/overlay_style.hpp"

#include "scene/label_layout.hpp"
#include "scene/mark_badge.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace layoutscope::views {

OverlayList buildTmemOverlay(const Camera2D& cam, glm::vec2 viewport, const TmemScene& s,
                             const MulticastFans* fans, const TmemValueFn& cellValue) {
    OverlayList o;
    const float z = cam.zoomXY().x, zy = cam.zoomXY().y; // a fit to the allocation stretches cells
    const glm::vec2 lo = cam.worldToScreen({0, 0});
    const float top = std::max(lo.y, kTmemMargins.y);
    const float left = std::max(lo.x, kTmemMargins.x); // labels stay in the margin when panned
    if (cellValue && z >= 72.0f && zy >= 16.0f) {      // cell values, only the visible cells
        const glm::vec2 w0 = cam.screenToWorld({left, top}),
                        w1 = cam.screenToWorld({viewport.x, viewport.y - kTmemMargins.w});
        const uint32_t x0 = uint32_t(std::max(0.0f, w0.x)), y0 = uint32_t(std::max(0.0f, w0.y));
        const uint32_t x1 = std::min(s.width(), uint32_t(std::max(0.0f, w1.x)) + 1),
                       y1 = std::min(128u, uint32_t(std::max(0.0f, w1.y)) + 1);
        for (uint32_t y = y0; y < y1; ++y)
            for (uint32_t x = x0; x < x1; ++x) {
                const auto v = cellValue(x, y);
                if (!v) continue;
                const glm::vec2 c = cam.worldToScreen({float(x) + 0.5f, float(y) + 0.5f});
                if (c.x - 38 < left || c.y - 8 < top || c.x + 38 > viewport.x ||
                    c.y + 8 > viewport.y - kTmemMargins.w)
                    continue;
                char t[16];
                std::snprintf(t, sizeof t, "%08x", *v);
                const Rgba8 px = s.texels[size_t(y) * s.width() + x];
                const bool light = int(px.r) + px.g + px.b > 380 || (px.a & kFlagCurrent);
                o.text({c.x - approxTextWidth(t) * 0.5f, c.y - 7}, t,
                       light ? Rgba8{0, 0, 0, 255} : Rgba8{240, 240, 240, 255});
            }
    }
    // Frame: the margins are opaque so labels stay readable over a zoomed grid.
    o.rects.push_back({{0, 0}, {viewport.x, top - 1}, kBackground, true});
    o.rects.push_back({{0, 0}, {left - 1, viewport.y}, kBackground, true});
    o.rects.push_back({{0, viewport.y - kTmemMargins.w + 4}, viewport, kBackground, true});
    // The mismatch count as a badge at the header's right (issue 24 item 6), sized with the cells.
    float titleRoom = viewport.x - 12;
    size_t marked = 0; // cells flagged (a cell both observed and expected wrong counts once)
    if (s.observedMarked + s.expectedMarked + s.dValueMarked > 0)
        for (const Rgba8& t : s.texels) marked += (t.a & kFlagDiffers) ? 1 : 0;
    if (marked > 0) {
        const MarkBadge b = markBadge(std::to_string(marked) + " cells differ", std::min(z, zy), viewport.x);
        o.rects.push_back({b.lo, b.hi, kDiffColour, true});
        o.text(b.textPos, b.text, Rgba8{255, 255, 255, 255}, b.fontScale);
        o.regions.push_back({"badge", b.lo, b.hi});
        titleRoom = b.lo.x - 14;
    }
    o.text({8, 4},
           fitLabel(
               {"Tensor Memory: 128 lanes x 512 columns of 32-bit cells per CTA; address = lane<<16 | column",
                "Tensor Memory: 128 lanes x 512 columns per CTA", "Tensor Memory"},
               titleRoom),
           overlay_style::kAxis);
    for (uint32_t k = 0; k < s.ctaCount; ++k) {
        const glm::vec2 p = cam.worldToScreen({float(s.originOf(s.firstCta + k)), 0});
        const glm::vec2 q = cam.worldToScreen({float(s.originOf(s.firstCta + k) + s.slot), 0});
        if (q.x > left && p.x < viewport.x) { // a narrow CTA (a fitted pair) gets the short label, not none
            const std::string cta = "CTA " + std::to_string(s.firstCta + k);
            o.text({std::max(p.x, left), top - 40},
                   fitLabel({cta + " (%cluster_ctarank)", cta}, q.x - std::max(p.x, left) - 4),
                   overlay_style::kAxis);
        }
    }
    // Column numbers, thinned.
    const int kc = std::max(overlay_style::thin(z, 44.0f), 1);
    for (uint32_t k = 0; k < s.ctaCount; ++k)
        for (int c = 0; c < int(s.slot); c += kc) {
            const glm::vec2 p = cam.worldToScreen({float(s.originOf(s.firstCta + k) + c), 0});
            if (p.x < left - 1 || p.x > viewport.x - 20) continue;
            o.text({p.x + 2, top - 20}, std::to_string(c), overlay_style::kDim);
        }
    o.text({8, top - 20}, "column", overlay_style::kDim);
    o.text({left - 40, top - 20}, "lane", overlay_style::kDim);
    // Lane numbers and lane quarters (warp id % 4) on the left.
    const int kl = overlay_style::thin(zy, 16.0f);
    for (int l = 0; l < 128; l += std::max(kl, 1)) {
        const glm::vec2 p = cam.worldToScreen({0, float(l) + 0.5f});
        if (p.y < top || p.y > viewport.y - kTmemMargins.w) continue;
        const std::string t = std::to_string(l);
        o.text({left - approxTextWidth(t) - 6, p.y - 7}, t, overlay_style::kDim);
    }
    const float bottom = viewport.y - kTmemMargins.w;
    for (uint32_t q = 0; q < 4; ++q) { // lane quarter q: warps with warp id % 4 == q
        const glm::vec2 a = cam.worldToScreen({0, float(32 * q)}),
                        b = cam.worldToScreen({0, float(32 * q + 32)});
        const float y0 = std::max(a.y, top), y1 = std::min(b.y, bottom);
        if (y1 - y0 < 16) continue;
        o.rects.push_back({{4, y0 + 1}, {8, y1 - 1}, hslToRgb(90.0f * q, 0.6f, 0.6f), true});
        o.text({12, y0 + 1}, "lanes " + std::to_string(32 * q) + "-" + std::to_string(32 * q + 31),
               overlay_style::kAxis);
        if (y1 - y0 > 34) o.text({12, y0 + 17}, "warp%4=" + std::to_string(q), overlay_style::kDim);
        if (y1 - y0 > 52)
            o.text({12, y0 + 33}, "(w" + std::to_string(q) + ",w" + std::to_string(q + 4) + ",..)",
                   overlay_style::kDim);
    }
    // Allocations.
    for (const TmemAllocBox& a : s.allocs) {
        if (a.cta < s.firstCta || a.cta >= s.firstCta + s.ctaCount || a.column >= s.slot) continue;
        const float x0 = float(s.originOf(a.cta) + a.column),
                    x1 = x0 + float(std::min(a.nCols, s.slot - a.column));
        glm::vec2 p = cam.worldToScreen({x0, 0}), q = cam.worldToScreen({x1, 128});
        if (q.x < left) continue;
        p = glm::max(p, glm::vec2(left, top)); // clipped to the grid area (the margins hold labels)
        q.y = std::min(q.y, viewport.y - kTmemMargins.w);
        o.rects.push_back({p - glm::vec2(1), q + glm::vec2(1), overlay_style::kAlloc, false});
        char t[96];
        std::snprintf(t, sizeof t, "alloc %u cols @ col %u (taddr 0x%08x)", a.nCols, a.column, a.taddr);
        if (q.x - p.x > approxTextWidth(t))
            o.text({p.x + 4, q.y + 4}, t, overlay_style::kAlloc);
        else
            o.text({p.x + 4, q.y + 4}, "alloc " + std::to_string(a.nCols), overlay_style::kAlloc);
    }
    // Multicast fan: a strip of source rows to the right of the destination block, one bezier per edge.
    if (fans && fans->valid && !fans->edges.empty()) {
        uint32_t maxCol = 0;
        for (const FanEdge& e : fans->edges) maxCol = std::max(maxCol, e.column + 4);
        const uint32_t cta0 = fans->edges.front().cta;
        if (cta0 >= s.firstCta && cta0 < s.firstCta + s.ctaCount) {
            const float sx = float(s.originOf(cta0) + maxCol) + std::max(6.0f, 60.0f / z);
            const float rowH = 128.0f / float(std::max(1u, fans->srcRows));
            const glm::vec2 sa = cam.worldToScreen({sx, 0});
            const float sw = 18.0f;
            for (uint32_t blk = 0; blk * 32 < fans->srcRows; ++blk) {
                const glm::vec2 a = cam.worldToScreen({sx, rowH * float(32 * blk)});
                const glm::vec2 b =
                    cam.worldToScreen({sx, rowH * float(std::min(fans->srcRows, 32 * blk + 32))});
                o.rects.push_back(
                    {a, {a.x + sw, b.y}, colourForCoord(int(32 * blk + 16), 1, int(fans->srcRows), 4), true});
                o.text({a.x + sw + 4, (a.y + b.y) * 0.5f - 7},
                       "rows " + std::to_string(32 * blk) + "-" +
                           std::to_string(std::min(fans->srcRows, 32 * blk + 32) - 1),
                       overlay_style::kAxis);
            }
            // Its caption right of the strip's top, unless a block label is there (the pass below drops it);
            // at the grid's bottom it was drawn over the last block's strip.
            o.text({sa.x + sw + 4, std::max(sa.y, top) + 2}, "source rows (smem)", overlay_style::kAxis);
            for (const FanEdge& e : fans->edges) {
                if (e.cta < s.firstCta || e.cta >= s.firstCta + s.ctaCount) continue;
                const glm::vec2 from = cam.worldToScreen({sx, rowH * 0.5f * float(e.rowLo + e.rowHi)});
                const glm::vec2 to = cam.worldToScreen(
                    {float(s.originOf(e.cta) + e.column + 4), 0.5f * float(e.laneLo + e.laneHi)});
                const Rgba8 c = colourForCoord(int(e.rowLo + 16), 1, int(fans->srcRows), 4);
                const float dx = (from.x - to.x) * 0.5f;
                o.lines.push_back({from, to, Rgba8{c.r, c.g, c.b, 220}, 3.0f, true, from - glm::vec2(dx, 0),
                                   to + glm::vec2(dx, 0)});
            }
            // Between the allocation's caption (grid bottom + 4) and the legend (bottom - 46).
            o.text({8, viewport.y - 64}, fitLabel({fans->label}, viewport.x - 12), overlay_style::kAxis);
        }
    }
    // Legend: the long labels where they fit on one line, else the short ones; nothing past the edge.
    struct Item {
        Rgba8 c;
        std::string label, shortLabel;
        bool hatched = false, outline = false;
    };
    std::vector<Item> items;
    if (s.dValueMarked)
        items.push_back(
            {kDiffColour,
             "D differs from the product of the tiles (" + std::to_string(s.dValueMarked) + " cells)",
             "wrong D (" + std::to_string(s.dValueMarked) + ")"});
    if (s.observedMarked)
        items.push_back({kDiffColour, "differs from dump (" + std::to_string(s.observedMarked) + " cells)",
                         "differs (" + std::to_string(s.observedMarked) + ")"});
    // The tcgen05.cp consumer check's count: 16-byte chunks, each 4 cells or more. Past the cps the marks
    // check (tmemExpectations' maxCps), the legend says how many went unchecked rather than imply "none".
    const std::string unchecked =
        s.expectedUnchecked ? "; " + std::to_string(s.expectedUnchecked) + " later tcgen05.cp not checked"
                            : "";
    if (s.expectedChunks || s.expectedUnchecked)
        items.push_back(
            {kDiffColour,
             "holds another element than the tile (" + std::to_string(s.expectedChunks) + " chunks, " +
                 std::to_string(s.expectedMarked) + " cells" + unchecked + ")",
             "wrong element (" + std::to_string(s.expectedChunks) + " chunks" + // the badge counts cells
                 (s.expectedUnchecked ? ", +" + std::to_string(s.expectedUnchecked) + " unchecked" : "") +
                 ")"});
    // The mismatch items first: in a narrow pane they are the ones the line keeps (issue 24 item 6).
    for (const Item& it : std::vector<Item>{{kUntouched, "never written", "unwritten"},
                                            {Rgba8{90, 90, 96, 255}, "not allocated", "no alloc", true},
                                            {Rgba8{235, 235, 235, 255}, "moved this step", "moved"},
                                            {overlay_style::kAlloc, "allocation", "alloc", false, true}})
        items.push_back(it);
    float longW = 8;
    for (const Item& it : items) longW += 19 + approxTextWidth(it.label) + 16;
    const bool useLong = longW - 16 <= viewport.x - 4;
    glm::vec2 p{8, viewport.y - 46};
    for (const Item& it : items) {
        const std::string label = fitLabel({useLong ? it.label : it.shortLabel}, viewport.x - 4 - p.x - 19);
        if (label.size() < 3) break; // no room left on the line
        if (it.outline) {
            o.rects.push_back({p, p + glm::vec2(14, 14), it.c, false});
            o.text(p + glm::vec2(19, 0), label);
            p.x += 19 + approxTextWidth(label) + 16;
        } else {
            overlay_style::swatch(o, p, it.c, label, it.hatched);
        }
    }
    const float lineW = viewport.x - 12;
    char range[96];
    std::snprintf(range, sizeof range, "%.4g (blue) .. %.4g (yellow)", s.dMin, s.dMax);
    const std::string colourLine =
        s.dByValue
            ? fitLabel(
                  {"colour: tcgen05.mma accumulator by D's value, " + std::string(range) +
                       " (hover: value, expected, error); from registers hue = thread; smem its SMEM colour",
                   "colour: mma D by value " + std::string(range), "colour: mma D by value"},
                  lineW)
        : s.mmaShown
            ? fitLabel(
                  {"colour = provenance: tcgen05.mma accumulator hue = D row (lane), lightness = D column "
                   "(hover: D's value); from registers hue = thread, lightness = register; from smem its "
                   "SMEM colour",
                   "colour: mma D hue = row, light = column (hover: value); registers hue = thread; smem its "
                   "SMEM colour",
                   "colour: mma D hue = row, light = column (hover: value)", "colour = provenance"},
                  lineW)
            : fitLabel(
                  {"colour = provenance: from registers hue = thread, lightness = register; from smem = the "
                   "byte's colour in the SMEM view (else hue = source row)",
                   "colour: from registers hue = thread, light = register; from smem its SMEM colour",
                   "colour = where the bytes came from (hover a cell)", "colour = provenance"},
                  lineW);
    o.text({8, viewport.y - 24}, colourLine, overlay_style::kDim);
    dropOverlappingTexts(o); // the first-placed (axes, allocation, fan) win over later captions
    return o;
}

} // namespace layoutscope::views
