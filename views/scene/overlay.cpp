// The shared-memory view's overlay (overlay.hpp: buildSmemOverlay, smemMargins): title, bank and byte
// headers, row addresses and the colour legend; fitLabel, and the coordinate legend both views draw
// (overlay_style.hpp). The global tensor's overlay is global_overlay.cpp.
#include "scene/overlay.hpp"
#include "scene/overlay_style.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

namespace layoutscope::views {

static std::string hex4(uint32_t v) {
    char b[16];
    std::snprintf(b, sizeof b, "0x%04x", v);
    return b;
}

std::string fitLabel(std::initializer_list<std::string> candidates, float widthPx) {
    std::string last;
    for (const std::string& c : candidates) {
        if (approxTextWidth(c) <= widthPx) return c;
        last = c;
    }
    const auto n = static_cast<size_t>(std::max(0.0f, std::floor(widthPx / approxTextWidth("x"))));
    if (last.size() <= n) return last;
    return n >= 3 ? last.substr(0, n - 2) + ".." : last.substr(0, n);
}

namespace overlay_style {

// The coordinate legend (overlay_style.hpp), in the shared-memory and global views.
void coordLegend(OverlayList& o, glm::vec2 p, int rows, int cols, const std::string& rowName,
                 const std::string& colName, float maxX, std::optional<int64_t> gatherLo) {
    const int n = 16;
    const float w = maxX - p.x < 300.0f ? 5.0f : 9.0f; // narrow: thinner strips leave the captions room
    for (int i = 0; i < n; ++i) {
        const int r = rows > 1 ? i * (rows - 1) / (n - 1) : 0;
        const int c = cols > 1 ? i * (cols - 1) / (n - 1) : 0;
        const glm::vec2 a = p + glm::vec2(w * i, 0), b = p + glm::vec2(w * i, 18);
        o.rects.push_back({a, a + glm::vec2(w, 14), colourForCoord(r, cols / 2, rows, cols), true});
        o.rects.push_back({b, b + glm::vec2(w, 14), colourForCoord(rows / 2, c, rows, cols), true});
    }
    const float room = maxX - (p.x + w * n + 6);
    const std::string rowRange = " 0.." + std::to_string(std::max(rows - 1, 0)),
                      colRange = " 0.." + std::to_string(std::max(cols - 1, 0));
    // "box row (dim 1)" -> "box row" -> "row": the words before a '(' or the last word.
    auto shortName = [](const std::string& name) {
        const size_t paren = name.find(" (");
        return paren == std::string::npos ? name : name.substr(0, paren);
    };
    auto lastWord = [&](const std::string& name) {
        const std::string s = shortName(name);
        const size_t sp = s.rfind(' ');
        return sp == std::string::npos ? s : s.substr(sp + 1);
    };
    if (gatherLo) { // four separate rows: the hue is their tensor row, over the span they cover
        const std::string r =
            " " + std::to_string(*gatherLo) + ".." + std::to_string(*gatherLo + std::max(rows - 1, 0));
        o.text(p + glm::vec2(w * n + 6, 0),
               fitLabel({"hue = tensor row (dim 1)" + r + " (4 rows gathered)",
                         "hue = tensor row (dim 1)" + r, "hue = tensor row" + r, "row" + r},
                        room));
    } else
        o.text(p + glm::vec2(w * n + 6, 0),
               fitLabel({"hue = " + rowName + rowRange, "hue = " + shortName(rowName) + rowRange,
                         "hue = " + lastWord(rowName) + rowRange, lastWord(rowName) + rowRange},
                        room));
    o.text(p + glm::vec2(w * n + 6, 18),
           fitLabel({"lightness = " + colName + colRange, "lightness = " + shortName(colName) + colRange,
                     "lightness = " + lastWord(colName) + colRange, "light = " + lastWord(colName) + colRange,
                     lastWord(colName) + colRange},
                    room));
}

} // namespace overlay_style

/// A strip of `n` swatches from `colour(i)` with a caption: the legend of the non-source colour modes.
template <class F>
static void strip(OverlayList& o, glm::vec2 p, int n, F colour, const std::string& caption,
                  const std::string& shortCaption, float maxX) {
    const float w = std::min(9.0f, 144.0f / static_cast<float>(n));
    for (int i = 0; i < n; ++i) {
        const glm::vec2 a = p + glm::vec2(w * static_cast<float>(i), 0);
        o.rects.push_back({a, a + glm::vec2(w, 14), colour(i), true});
    }
    const float x = p.x + w * static_cast<float>(n) + 6;
    o.text({x, p.y}, fitLabel({caption, shortCaption}, maxX - x));
}

/// The SMEM legend's item lines and unit line from `y` down, wrapped before `maxX`; returns the bottom
/// of the last line.
static float smemLegendFlow(OverlayList& o, float y, float maxX, uint32_t observedMarked, bool chunks) {
    overlay_style::LegendFlow f{o, 10, 10, y, maxX};
    f.item(kUntouched, "untouched");
    f.item(Rgba8{200, 120, 60, 255}, "OOB fill", true);
    // Short labels keep the four items on one line in a 420-px pane (a wrapped line pushed the unit
    // line out of the pane at 1280x800); the unit line says what "arrived" and "read" refer to.
    f.item(Rgba8{235, 235, 235, 255}, "arrived");
    f.item(kReadOutline, "read", false, true);
    // An `observe`d dump's marks lead the unit line (an item of their own wrapped the unit line out of
    // the pane at 1280x800).
    overlay_style::LegendFlow u{o, 10, 10, f.y + 20, maxX};
    if (observedMarked) u.item(kDiffColour, "differs from dump (" + std::to_string(observedMarked) + " B)");
    const std::string unit = chunks ? "1 colour = 16-B chunk (its first byte)" : "1 cell = 1 byte";
    const std::string tiny = chunks ? "1 colour = 16 B" : "1 cell = 1 B";
    // The long line only where it fits (it was cut at the right edge of 760-830 px panes).
    const std::string full =
        unit + "; arrived / read: in the step just played. Hover: details. Drag: pan. Wheel: zoom.";
    const std::string shortLine = unit + "; arrived / read: this step";
    if (u.x > u.x0 && u.x + approxTextWidth(tiny) > maxX) { // no room after the dump item: next line
        u.x = u.x0;
        u.y += 18;
    }
    o.text({u.x, u.y}, fitLabel({full, shortLine, unit, tiny}, maxX - u.x), overlay_style::kDim);
    return u.y + 16;
}

float smemLegendHeight(float width, uint32_t observedMarked) {
    OverlayList scratch; // the same layout, measured: 84 px when the items take one line
    return std::max(84.0f, smemLegendFlow(scratch, 42.0f, width - 8, observedMarked, false) + 6.0f);
}

glm::vec4 smemMargins(float width, uint32_t observedMarked) {
    glm::vec4 m = kSmemMargins;
    m.w += smemLegendHeight(width, observedMarked) - 84.0f;
    return m;
}

OverlayList buildSmemOverlay(const Camera2D& cam, glm::vec2 viewport, const SmemScene& s,
                             const BoxFrame* frame, SmemColourBy by, bool chunks, bool im2col,
                             const RowFold& fold) {
    OverlayList o;
    const uint32_t rows = s.window.rows();
    const glm::vec2 gridLo = cam.worldToScreen({0, 0});
    const float top = std::max(gridLo.y, 40.0f);
    // Title.
    char title[128];
    std::snprintf(title, sizeof title, "shared::cta of CTA %u: [0x%04x, 0x%04x), %u B", s.window.cta,
                  s.window.base, s.window.base + s.window.size, s.window.size);
    char shortTitle[64];
    std::snprintf(shortTitle, sizeof shortTitle, "CTA %u smem [0x%04x, 0x%04x)", s.window.cta, s.window.base,
                  s.window.base + s.window.size);
    o.text({8, 4}, fitLabel({title, shortTitle}, viewport.x - 12),
           overlay_style::kAxis); // never past the pane's edge
    o.text({8, 20},
           fitLabel({"rows of 128 B = 32 banks x 4 B; bank = (addr / 4) mod 32", "bank = (addr / 4) mod 32"},
                    viewport.x - 12),
           overlay_style::kDim);
    o.text({8, top - 34}, "bank", overlay_style::kDim);
    o.text({8, top - 17}, "byte", overlay_style::kDim);
    // A row fold (row_fold.hpp) draws the rows in bands side by side: each band gets the column header and
    // its rows' addresses, in the gap left of it.
    const uint32_t bands = fold.folded() ? fold.bands : 1, perBand = fold.folded() ? fold.rowsPerBand : rows;
    const float zx = cam.zoomXY().x;
    for (uint32_t k = 0; k < bands; ++k) {
        const float bx = float(fold.folded() ? fold.bandX(k) : 0);
        // Bank numbers at bank centres, thinned to stay readable.
        const int kb = overlay_style::thin(4.0f * zx, 20.0f);
        for (int b = 0; b < 32; b += kb) {
            const glm::vec2 p = cam.worldToScreen({bx + b * 4.0f + 2.0f, 0});
            if (p.x < 40 || p.x > viewport.x - 4) continue;
            const std::string t = std::to_string(b);
            o.text({p.x - approxTextWidth(t) * 0.5f, top - 34}, t, overlay_style::kAxis);
        }
        // Byte-in-row ticks (0, 16, 32, ...) under the bank numbers, thinned so that "+112" (36 px) never
        // meets the next (a tall, narrow grid drew "+0+32+64+96" over each other, issue 24 item 7).
        for (int x = 0; x < 128; x += 16 * overlay_style::thin(16.0f * zx, 40.0f)) {
            const glm::vec2 p = cam.worldToScreen({bx + static_cast<float>(x), 0});
            if (p.x < 40 || p.x > viewport.x - 20) continue;
            o.text({p.x + 2, top - 17}, "+" + std::to_string(x), overlay_style::kDim);
        }
        // Row base addresses on the band's left.
        const int kr = overlay_style::thin(cam.zoomXY().y, 16.0f);
        const float left = cam.worldToScreen({bx, 0}).x;
        for (uint32_t i = 0; i < perBand && k * perBand + i < rows; i += kr) {
            const uint32_t r = k * perBand + i;
            const glm::vec2 p = cam.worldToScreen({bx, static_cast<float>(i) + 0.5f});
            if (p.y < top || p.y > viewport.y - 8) continue;
            const std::string t = hex4(s.window.base + r * 128);
            o.text({std::max(2.0f, left - approxTextWidth(t) - 8), p.y - 7}, t, overlay_style::kAxis);
        }
    }
    // Legend along the bottom: as high as its lines need at this width (smemLegendHeight).
    const float ly = viewport.y - smemLegendHeight(viewport.x, s.observedMarked);
    switch (by) {
    case SmemColourBy::Source:
        if (frame)
            overlay_style::coordLegend(o, {10, ly}, frame->rows(), frame->cols(),
                                       im2col ? "W offset" : "box row (dim 1)",
                                       im2col ? "channel" : "box column (dim 0)", viewport.x - 8,
                                       frame->gathered ? std::optional(frame->lo[1]) : std::nullopt);
        else
            o.text({10, ly},
                   fitLabel({"no TMA box copy: no source coordinates to colour by", "no TMA box copy"},
                            viewport.x - 18),
                   overlay_style::kDim);
        break;
    case SmemColourBy::Instruction:
        strip(
            o, {10, ly}, 8, [](int i) { return instrColour(uint32_t(i)); },
            "colour = instruction that last wrote the byte (0, 1, 2, ...)", "= last writer (instr 0, 1, ..)",
            viewport.x - 8);
        break;
    case SmemColourBy::Value:
        strip(
            o, {10, ly}, 16, [](int i) { return valueColour(uint8_t(i * 17)); },
            "colour = byte value 0x00..0xff", "= value 0x00..0xff", viewport.x - 8);
        break;
    case SmemColourBy::Bank:
        strip(
            o, {10, ly}, 32, [](int i) { return bankColour(uint32_t(i)); },
            "colour = bank 0..31, (addr / 4) mod 32", "= bank 0..31", viewport.x - 8);
        break;
    }
    const float bottom = smemLegendFlow(o, ly + 42, viewport.x - 8, s.observedMarked, chunks);
    o.regions.push_back({"legend", {10, ly}, {viewport.x - 8, bottom}});
    return o;
}

} // namespace layoutscope::views
