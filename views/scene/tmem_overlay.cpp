#include "scene/tmem_overlay.hpp"

#include "scene/label_layout.hpp"
#include "scene/mark_badge.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace layoutscope::views {

static constexpr Rgba8 kAxis{235, 235, 240, 255};
static constexpr Rgba8 kDim{150, 152, 160, 255};
static constexpr Rgba8 kAlloc{255, 210, 80, 255};

static int thin(float pxPerUnit, float minPx) {
    int k = 1;
    while (pxPerUnit * static_cast<float>(k) < minPx && k < (1 << 20)) k *= 2;
    return k;
}

static void swatch(OverlayList& o, glm::vec2& p, Rgba8 c, const std::string& label, bool hatched = false) {
    o.rects.push_back({p, p + glm::vec2(14, 14), c, true, hatched});
    o.text(p + glm::vec2(19, 0), label);
    p.x += 19 + approxTextWidth(label) + 16;
}

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
           kAxis);
    for (uint32_t k = 0; k < s.ctaCount; ++k) {
        const glm::vec2 p = cam.worldToScreen({float(s.originOf(s.firstCta + k)), 0});
        const glm::vec2 q = cam.worldToScreen({float(s.originOf(s.firstCta + k) + s.slot), 0});
        if (q.x > left && p.x < viewport.x) { // a narrow CTA (a fitted pair) gets the short label, not none
            const std::string cta = "CTA " + std::to_string(s.firstCta + k);
            o.text({std::max(p.x, left), top - 40},
                   fitLabel({cta + " (%cluster_ctarank)", cta}, q.x - std::max(p.x, left) - 4), kAxis);
        }
    }
    // Column numbers, thinned.
    const int kc = std::max(thin(z, 44.0f), 1);
    for (uint32_t k = 0; k < s.ctaCount; ++k)
        for (int c = 0; c < int(s.slot); c += kc) {
            const glm::vec2 p = cam.worldToScreen({float(s.originOf(s.firstCta + k) + c), 0});
            if (p.x < left - 1 || p.x > viewport.x - 20) continue;
            o.text({p.x + 2, top - 20}, std::to_string(c), kDim);
        }
    o.text({8, top - 20}, "column", kDim);
    o.text({left - 40, top - 20}, "lane", kDim);
    // Lane numbers and lane quarters (warp id % 4) on the left.
    const int kl = thin(zy, 16.0f);
    for (int l = 0; l < 128; l += std::max(kl, 1)) {
        const glm::vec2 p = cam.worldToScreen({0, float(l) + 0.5f});
        if (p.y < top || p.y > viewport.y - kTmemMargins.w) continue;
        const std::string t = std::to_string(l);
        o.text({left - approxTextWidth(t) - 6, p.y - 7}, t, kDim);
    }
    const float bottom = viewport.y - kTmemMargins.w;
    for (uint32_t q = 0; q < 4; ++q) { // lane quarter q: warps with warp id % 4 == q
        const glm::vec2 a = cam.worldToScreen({0, float(32 * q)}),
                        b = cam.worldToScreen({0, float(32 * q + 32)});
        const float y0 = std::max(a.y, top), y1 = std::min(b.y, bottom);
        if (y1 - y0 < 16) continue;
        o.rects.push_back({{4, y0 + 1}, {8, y1 - 1}, hslToRgb(90.0f * q, 0.6f, 0.6f), true});
        o.text({12, y0 + 1}, "lanes " + std::to_string(32 * q) + "-" + std::to_string(32 * q + 31), kAxis);
        if (y1 - y0 > 34) o.text({12, y0 + 17}, "warp%4=" + std::to_string(q), kDim);
        if (y1 - y0 > 52)
            o.text({12, y0 + 33}, "(w" + std::to_string(q) + ",w" + std::to_string(q + 4) + ",..)", kDim);
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
        o.rects.push_back({p - glm::vec2(1), q + glm::vec2(1), kAlloc, false});
        char t[96];
        std::snprintf(t, sizeof t, "alloc %u cols @ col %u (taddr 0x%08x)", a.nCols, a.column, a.taddr);
        if (q.x - p.x > approxTextWidth(t))
            o.text({p.x + 4, q.y + 4}, t, kAlloc);
        else
            o.text({p.x + 4, q.y + 4}, "alloc " + std::to_string(a.nCols), kAlloc);
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
                       kAxis);
            }
            // Its caption right of the strip's top, unless a block label is there (the pass below drops it);
            // at the grid's bottom it was drawn over the last block's strip.
            o.text({sa.x + sw + 4, std::max(sa.y, top) + 2}, "source rows (smem)", kAxis);
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
            o.text({8, viewport.y - 64}, fitLabel({fans->label}, viewport.x - 12), kAxis);
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
                                            {kAlloc, "allocation", "alloc", false, true}})
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
            swatch(o, p, it.c, label, it.hatched);
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
    o.text({8, viewport.y - 24}, colourLine, kDim);
    dropOverlappingTexts(o); // the first-placed (axes, allocation, fan) win over later captions
    return o;
}

OverlayList buildRegOverlay(const Camera2D& cam, glm::vec2 viewport, const RegScene& r,
                            const std::string& instrText) {
    OverlayList o;
    if (!r.valid) return o;
    const float z = cam.zoomXY().x, zy = cam.zoomXY().y;
    const glm::vec2 lo0 = cam.worldToScreen({0, 0});
    const float top = std::max(lo0.y, kRegMargins.y);
    const glm::vec2 lo{std::max(lo0.x, kRegMargins.x), lo0.y}; // labels stay in the margin when panned
    o.rects.push_back({{0, 0}, {viewport.x, top - 1}, kBackground, true});
    o.rects.push_back({{0, 0}, {lo.x - 1, viewport.y}, kBackground, true});
    o.rects.push_back({{0, viewport.y - kRegMargins.w + 4}, viewport, kBackground, true});
    o.text({8, 4},
           std::string(r.wgmma   ? "wgmma D -> registers: "
                       : r.store ? "Registers -> TMEM: "
                                 : "TMEM -> registers: ") +
               instrText,
           kAxis);
    const int kx = thin(z, 30.0f);
    for (uint32_t j = 0; j < r.width(); j += uint32_t(kx)) {
        const glm::vec2 p = cam.worldToScreen({float(j) + 0.5f, 0});
        if (p.x < lo.x - 1 || p.x > viewport.x - 10) continue;
        const std::string t = "r" + std::to_string(j);
        o.text({p.x - approxTextWidth(t) * 0.5f, top - 20}, t, kDim);
    }
    o.text({8, top - 20}, "register", kDim);
    const int ky = thin(zy, 16.0f);
    for (uint32_t y = 0; y < r.height(); y += uint32_t(ky)) {
        const glm::vec2 p = cam.worldToScreen({0, float(y) + 0.5f});
        if (p.y < top || p.y > viewport.y - kRegMargins.w) continue;
        const std::string t =
            (y % 32 == 0 ? "w" + std::to_string(r.warps[y / 32]) + " t" : "t") + std::to_string(y % 32);
        o.text({lo.x - approxTextWidth(t) - 6, p.y - 7}, t, y % 32 == 0 ? kAxis : kDim);
    }
    if (r.dDiffers > 0) { // wgmma: D registers whose value differs from the product of the tiles
        const std::string n = std::to_string(r.dDiffers) + " of " + std::to_string(r.dRegs);
        glm::vec2 at{8, viewport.y - 44};
        swatch(o, at, Rgba8{kDiffColour.r, kDiffColour.g, kDiffColour.b, 255},
               fitLabel({n + " D registers differ from the product of the tiles", n + " D registers differ",
                         n + " differ"},
                        viewport.x - 40));
    } else if (r.fragmentDiffers > 0) { // `expect fragment`: the registers the epilogue reads as another cell
        const std::string n = std::to_string(r.fragmentDiffers) + " of " + std::to_string(r.fragmentRegs);
        glm::vec2 at{8, viewport.y - 44};
        swatch(
            o, at, Rgba8{kDiffColour.r, kDiffColour.g, kDiffColour.b, 255},
            fitLabel({n + " registers hold another cell than the epilogue's " + r.fragmentShape + " fragment",
                      n + " differ from the " + r.fragmentShape + " fragment", n + " differ"},
                     viewport.x - 40));
    } else {
        o.text({8, viewport.y - 42},
               fitLabel({"rows = %laneid of each warp, columns = register index",
                         "rows = %laneid, columns = reg", "rows lane, cols reg"},
                        viewport.x - 12),
               kDim);
    }
    o.text(
        {8, viewport.y - 24},
        r.wgmma
            ? fitLabel({"colour = D's (row, column) it holds; dim = not written yet; hover for the value",
                        "colour = D's (row, column); dim = not written yet", "colour = D's (row, col)"},
                       viewport.x - 12)
            : fitLabel({"colour = the TMEM cell it maps to; dim = not moved yet; hover links the TMEM cell",
                        "colour = its TMEM cell; dim = not moved yet", "colour = its TMEM cell"},
                       viewport.x - 12),
        kDim);
    dropOverlappingTexts(o);
    return o;
}

OverlayList buildDecompOverlay(const Camera2D& cam, glm::vec2 viewport, const DecompScene& d,
                               const std::string& title) {
    OverlayList o;
    const float z = cam.zoom();
    o.text({8, 4}, title, kAxis);
    const glm::vec2 a0 = cam.worldToScreen({0, 0}), a7 = cam.worldToScreen({0, 8});
    o.text({a0.x, a0.y - 36},
           d.kind == CpDecompress::B8x16_B6x16_p32
               ? "source: 16 B = sixteen 6-bit fields (96 bits) + 32 bits padding (hatched)"
               : "source: 16 B = sixteen 4-bit fields (64 bits) + 64 bits padding (hatched)",
           kDim);
    for (uint32_t b = 0; b < 16; ++b) { // byte labels above the source row
        const glm::vec2 p = cam.worldToScreen({float(8 * b), 0});
        if (z * 8 >= 40) o.text({p.x + 2, p.y - 18}, "byte " + std::to_string(b), kDim);
    }
    // Bit values when cells are big enough.
    if (z >= 9) {
        for (uint32_t i = 0; i < 128; ++i) {
            const glm::vec2 s = cam.worldToScreen({float(i) + 0.5f, 0.5f}),
                            t = cam.worldToScreen({float(i) + 0.5f, 7.5f});
            o.text({s.x - 4, s.y - 7}, std::to_string((d.src[i / 8] >> (i % 8)) & 1), Rgba8{0, 0, 0, 255});
            o.text({t.x - 4, t.y - 7}, std::to_string((d.containers[i / 8] >> (i % 8)) & 1),
                   Rgba8{0, 0, 0, 255});
        }
    }
    // Fan: field e (source bits) -> container e's value bits.
    const uint32_t fb = d.fieldBits(), sh = d.containerShift();
    for (uint32_t e = 0; e < 16; ++e) {
        const glm::vec2 from = cam.worldToScreen({float(fb * e) + 0.5f * float(fb), 1.0f});
        const glm::vec2 to = cam.worldToScreen({float(8 * e + sh) + 0.5f * float(fb), 7.0f});
        const Rgba8 c = hslToRgb(300.0f * float(e) / 15.0f, 0.8f, 0.6f);
        const float dy = (to.y - from.y) * 0.5f;
        o.lines.push_back({from, to, c, 2.0f, true, from + glm::vec2(0, dy), to - glm::vec2(0, dy)});
        const glm::vec2 lab = cam.worldToScreen({float(8 * e), 8.0f});
        char code[16];
        std::snprintf(code, sizeof code, "c%u=0x%02x", e, d.containers[e]);
        if (z * 8 >= 56) {
            o.text({lab.x + 2, lab.y + 4}, code, kAxis);
            const std::string v = decompFieldText(d, e);
            const size_t eq = v.find('=');
            o.text({lab.x + 2, lab.y + 20}, v.substr(eq + 2, v.find(' ', eq + 2) - eq - 2), c);
        }
    }
    o.text({a7.x, a7.y + 40},
           d.kind == CpDecompress::B8x16_B6x16_p32
               ? fitLabel({"containers: value in bits [5:0], bits [7:6] zero (top: e2m3 value; e3m2 in the "
                           "inspector)",
                           "containers: value in bits [5:0], bits [7:6] zero"},
                          viewport.x - a7.x - 4)
               : fitLabel({"containers: e2m1 value in bits [5:2], bits [7:6] and [1:0] zero",
                           "containers: e2m1 in bits [5:2]"},
                          viewport.x - a7.x - 4),
           kDim);
    o.text({8, viewport.y - 20},
           fitLabel({"bit 0 of byte 0 on the left (little-endian); unverified: open questions 3, 28",
                     "unverified: open questions 3, 28"},
                    viewport.x - 12),
           kDim);
    return o;
}

OverlayList buildTmaFanOverlay(const Camera2D& cam, glm::vec2 viewport, const TmaFan& f,
                               const std::string& instrText) {
    OverlayList o;
    if (!f.valid) return o;
    const glm::vec2 lo = cam.worldToScreen({0, 0});
    const float top = std::max(lo.y, kTmaFanMargins.y);
    o.text({8, 4}, ".multicast::cluster: " + instrText, kAxis);
    // Each CTA its own colour: an outline round its strip, a tag above it (the number alone where the
    // strips are narrow) and "CTA n @ address" in that colour on the legend line (2x2 clusters: the
    // labels overlapped and the strips looked alike, issue 15).
    static constexpr Rgba8 kCtaColours[4] = {
        {255, 170, 60, 255}, {90, 200, 255, 255}, {240, 110, 220, 255}, {150, 230, 90, 255}};
    float lx = 8;
    o.text({lx, 22}, "box rows (left strip);", kAxis);
    lx += approxTextWidth("box rows (left strip);") + 10;
    const float pitch =
        (cam.worldToScreen({float(TmaFan::ctaX(1)), 0}).x - cam.worldToScreen({float(TmaFan::ctaX(0)), 0}).x);
    for (size_t k = 0; k < f.ctas.size(); ++k) {
        const Rgba8 c = kCtaColours[f.ctas[k] % 4]; // by %cluster_ctarank: the same CTA, the same colour
        const glm::vec2 p = cam.worldToScreen({float(TmaFan::ctaX(k)), 0}),
                        q = cam.worldToScreen({float(TmaFan::ctaX(k) + 8), float(f.rows)});
        o.rects.push_back({p - glm::vec2(2), q + glm::vec2(2), c, false});
        const std::string tag = "CTA " + std::to_string(f.ctas[k]);
        o.text({p.x, top - 22}, approxTextWidth(tag) + 6 <= pitch ? tag : std::to_string(f.ctas[k]), c);
        char t[64];
        std::snprintf(t, sizeof t, "CTA %u @ 0x%04x", f.ctas[k], f.smemAddr[k]);
        o.text({lx, 22}, t, c);
        lx += approxTextWidth(t) + 14;
    }
    const int ky = thin(cam.zoom(), 16.0f);
    for (uint32_t r = 0; r < f.rows; r += uint32_t(ky)) {
        const glm::vec2 p = cam.worldToScreen({0, float(r) + 0.5f});
        if (p.y < top || p.y > viewport.y - kTmaFanMargins.w) continue;
        const std::string t = std::to_string(r);
        o.text({lo.x - approxTextWidth(t) - 6, p.y - 7}, t, kDim);
    }
    for (const FanEdge& e : f.edges) {
        const glm::vec2 a = cam.worldToScreen({8.0f, 0.5f * float(e.rowLo + e.rowHi)});
        const glm::vec2 b = cam.worldToScreen({float(e.column), 0.5f * float(e.laneLo + e.laneHi)});
        const Rgba8 c = colourForCoord(int(e.rowLo), 4, int(f.rows), 8);
        const float dx = (b.x - a.x) * 0.5f;
        // Curves to later CTAs arc upwards over the earlier strips, so each CTA's fan stays visible.
        const size_t k = size_t(std::find(f.ctas.begin(), f.ctas.end(), e.cta) - f.ctas.begin());
        const glm::vec2 lift(0, -22.0f * float(k));
        o.lines.push_back({a, b, Rgba8{c.r, c.g, c.b, 200}, 2.0f, true, a + glm::vec2(dx, 0) + lift,
                           b - glm::vec2(dx, 0) + lift});
    }
    // The pane spans the centre only (MainWindow::applyDockCorners): captions give way to shorter ones.
    o.text(
        {8, viewport.y - 42},
        fitLabel({"each curve: a block of box rows and the CTA it is multicast to (same CTA-relative offset)",
                  "each curve: a block of box rows -> the CTA it is multicast to", "curve: box rows -> CTA"},
                 viewport.x - 12),
        kDim);
    o.text({8, viewport.y - 24},
           fitLabel({"CTA strips fill as the rows land; white = this step", "white = this step"},
                    viewport.x - 12),
           kDim);
    return o;
}

} // namespace layoutscope::views
