#include "scene/overlay.hpp"

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

/// Smallest step from {1,2,4,8,16,...} so that labels `pxPerUnit` apart are at least `minPx` apart.
static int thin(float pxPerUnit, float minPx) {
    int k = 1;
    while (pxPerUnit * static_cast<float>(k) < minPx && k < (1 << 20)) k *= 2;
    return k;
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

static constexpr Rgba8 kAxis{235, 235, 240, 255};
static constexpr Rgba8 kDim{150, 152, 160, 255};

static void legendSwatch(OverlayList& o, glm::vec2 p, Rgba8 c, const std::string& label,
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
static void coordLegend(OverlayList& o, glm::vec2 p, int rows, int cols, const std::string& rowName,
                        const std::string& colName, float maxX, std::optional<int64_t> gatherLo = {}) {
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
    LegendFlow f{o, 10, 10, y, maxX};
    f.item(kUntouched, "untouched");
    f.item(Rgba8{200, 120, 60, 255}, "OOB fill", true);
    // Short labels keep the four items on one line in a 420-px pane (a wrapped line pushed the unit
    // line out of the pane at 1280x800); the unit line says what "arrived" and "read" refer to.
    f.item(Rgba8{235, 235, 235, 255}, "arrived");
    f.item(kReadOutline, "read", false, true);
    // An `observe`d dump's marks lead the unit line (an item of their own wrapped the unit line out of
    // the pane at 1280x800).
    LegendFlow u{o, 10, 10, f.y + 20, maxX};
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
    o.text({u.x, u.y}, fitLabel({full, shortLine, unit, tiny}, maxX - u.x), kDim);
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
    o.text({8, 4}, fitLabel({title, shortTitle}, viewport.x - 12), kAxis); // never past the pane's edge
    o.text({8, 20},
           fitLabel({"rows of 128 B = 32 banks x 4 B; bank = (addr / 4) mod 32", "bank = (addr / 4) mod 32"},
                    viewport.x - 12),
           kDim);
    o.text({8, top - 34}, "bank", kDim);
    o.text({8, top - 17}, "byte", kDim);
    // A row fold (row_fold.hpp) draws the rows in bands side by side: each band gets the column header and
    // its rows' addresses, in the gap left of it.
    const uint32_t bands = fold.folded() ? fold.bands : 1, perBand = fold.folded() ? fold.rowsPerBand : rows;
    const float zx = cam.zoomXY().x;
    for (uint32_t k = 0; k < bands; ++k) {
        const float bx = float(fold.folded() ? fold.bandX(k) : 0);
        // Bank numbers at bank centres, thinned to stay readable.
        const int kb = thin(4.0f * zx, 20.0f);
        for (int b = 0; b < 32; b += kb) {
            const glm::vec2 p = cam.worldToScreen({bx + b * 4.0f + 2.0f, 0});
            if (p.x < 40 || p.x > viewport.x - 4) continue;
            const std::string t = std::to_string(b);
            o.text({p.x - approxTextWidth(t) * 0.5f, top - 34}, t, kAxis);
        }
        // Byte-in-row ticks (0, 16, 32, ...) under the bank numbers, thinned so that "+112" (36 px) never
        // meets the next (a tall, narrow grid drew "+0+32+64+96" over each other, issue 24 item 7).
        for (int x = 0; x < 128; x += 16 * thin(16.0f * zx, 40.0f)) {
            const glm::vec2 p = cam.worldToScreen({bx + static_cast<float>(x), 0});
            if (p.x < 40 || p.x > viewport.x - 20) continue;
            o.text({p.x + 2, top - 17}, "+" + std::to_string(x), kDim);
        }
        // Row base addresses on the band's left.
        const int kr = thin(cam.zoomXY().y, 16.0f);
        const float left = cam.worldToScreen({bx, 0}).x;
        for (uint32_t i = 0; i < perBand && k * perBand + i < rows; i += kr) {
            const uint32_t r = k * perBand + i;
            const glm::vec2 p = cam.worldToScreen({bx, static_cast<float>(i) + 0.5f});
            if (p.y < top || p.y > viewport.y - 8) continue;
            const std::string t = hex4(s.window.base + r * 128);
            o.text({std::max(2.0f, left - approxTextWidth(t) - 8), p.y - 7}, t, kAxis);
        }
    }
    // Legend along the bottom: as high as its lines need at this width (smemLegendHeight).
    const float ly = viewport.y - smemLegendHeight(viewport.x, s.observedMarked);
    switch (by) {
    case SmemColourBy::Source:
        if (frame)
            coordLegend(o, {10, ly}, frame->rows(), frame->cols(), im2col ? "W offset" : "box row (dim 1)",
                        im2col ? "channel" : "box column (dim 0)", viewport.x - 8,
                        frame->gathered ? std::optional(frame->lo[1]) : std::nullopt);
        else
            o.text({10, ly},
                   fitLabel({"no TMA box copy: no source coordinates to colour by", "no TMA box copy"},
                            viewport.x - 18),
                   kDim);
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

/// Title lines of the global view: what the copy moves, and which slice is shown.
static void globalTitle(OverlayList& o, const GlobalScene& g) {
    const InstrTile& t = *g.tile;
    const auto& p = t.map.p;
    const uint32_t rank = g.rank();
    auto list = [&](auto get, uint32_t n) {
        std::string s;
        for (uint32_t d = 0; d < n; ++d) s += (d ? ", " : "") + std::to_string(get(d));
        return s;
    };
    std::string line = t.load ? "load from " : "store to ";
    if (t.kind == TileKind::Gather4) {
        line = (t.load ? "gather4 {" : "scatter4 {") + std::to_string(t.coords[0]) + ", " +
               list([&](uint32_t i) { return t.rows[i]; }, 4) + "}: 4 rows x " + std::to_string(p.boxDim[0]);
    } else if (t.kind == TileKind::Im2col) {
        line = "im2col {" + list([&](uint32_t d) { return t.coords[d]; }, rank) + "}";
        if (t.load && t.im2colMode == TmaIm2colMode::Im2col)
            line += " + {" + list([&](uint32_t d) { return t.offsets[d]; }, rank - 2) + "}";
        line +=
            ": " + std::to_string(t.pixels.size()) + " px x " + std::to_string(t.map.channelsPerPixel) + " C";
    } else {
        line += "box [" + list([&](uint32_t d) { return p.boxDim[d]; }, rank) + "] at (" +
                list([&](uint32_t d) { return t.coords[d]; }, rank) + ")";
        bool strided = false;
        for (uint32_t d = 1; d < rank; ++d) strided |= p.elementStrides[d] > 1;
        if (strided)
            line += ", elementStrides [" + list([&](uint32_t d) { return p.elementStrides[d]; }, rank) + "]";
    }
    o.text({8, 4}, line, kAxis);
    std::string slice;
    for (uint32_t d = 0; d < rank; ++d)
        if (int(d) != g.slice.dimX && int(d) != g.slice.dimY)
            slice += (slice.empty() ? "slice " : ", ") + dimName(t, int(d)) + " = " +
                     std::to_string(g.slice.fixed[d]);
    if (slice.empty()) slice = "all of " + dimName(t, g.slice.dimX) + " x " + dimName(t, g.slice.dimY);
    if (t.kind == TileKind::Im2col)
        slice +=
            ": " + std::to_string(g.pixelsInSlice) + " of " + std::to_string(t.pixels.size()) + " pixels";
    o.text({8, 20}, slice, kDim);
}

/// The global legend's items from `y` down, wrapped before `maxX`; returns the bottom of the last line.
static float globalLegendFlow(OverlayList& o, float y, float maxX, const GlobalScene& g) {
    const Rgba8 white{255, 255, 255, 255}, window{150, 235, 130, 255}, pixel{120, 220, 255, 255},
        halo{240, 120, 240, 255}, oobPixel{255, 90, 70, 255}, orange{255, 170, 60, 255};
    const bool im2col = g.tile->kind == TileKind::Im2col;
    LegendFlow f{o, 10, 10, y, maxX};
    f.item(Rgba8{60, 60, 90, 255}, g.tile->load ? "not read yet (dim)" : "not written yet (dim)");
    f.item(Rgba8{235, 235, 235, 255}, g.tile->load ? "read this step" : "written this step");
    f.item(kOutsideBox, im2col ? "not walked" : "outside the box");
    f.item(kOutOfBounds, "outside the tensor", true);
    if (!g.axes[0].dense() || !g.axes[1].dense())
        f.item(kElided, "elided (..): coordinates not touched", false, false, "elided (..)");
    if (g.tile->kind == TileKind::Tile) {
        f.item(Rgba8{74, 74, 80, 255}, "skipped by elementStrides");
        f.item(white, "box", false, true);
    } else if (g.tile->kind == TileKind::Gather4) {
        f.item(white, "the 4 rows", false, true);
    } else {
        f.item(pixel, "pixel read", false, true);
        f.item(oobPixel, "pixel outside: fill", false, true);
        if (g.tile->im2colMode != TmaIm2colMode::Im2col) f.item(halo, "halo pixel", false, true);
        f.item(window, "bounding box + offsets", false, true);
    }
    f.item(orange, "tensor " + cuteShape(g.tile->map) + " (elements)", false, true, "tensor bounds");
    if (g.observedMarked) f.item(kDiffColour, "differs from dump (" + std::to_string(g.observedMarked) + ")");
    return f.y + 16;
}

float globalLegendHeight(float width, const GlobalScene& g) {
    if (!g.tile) return 128.0f;
    OverlayList scratch; // the same layout, measured: 128 px when the items take at most 5 lines
    return std::max(128.0f, globalLegendFlow(scratch, 40.0f, width - 8, g));
}

glm::vec4 globalMargins(float width, const GlobalScene& g) {
    glm::vec4 m = kGlobalMargins;
    m.w += globalLegendHeight(width, g) - 128.0f;
    return m;
}

OverlayList buildGlobalOverlay(const Camera2D& cam, glm::vec2 viewport, const GlobalScene& g) {
    OverlayList o;
    if (!g.tile) return o;
    const float z = cam.zoom();
    const auto& p = g.tile->map.p;
    const bool im2col = g.tile->kind == TileKind::Im2col;
    globalTitle(o, g);
    const glm::vec2 gridLo = cam.worldToScreen({0, 0});
    const float top = std::max(gridLo.y, 40.0f);
    const std::string nameX = dimName(*g.tile, g.slice.dimX), nameY = dimName(*g.tile, g.slice.dimY);
    o.text({8, top - 34}, nameX + (im2col ? "" : " (elements)") + " ->", kDim);
    // Axis labels: coordinates at multiples of the thinning step; an elided gap cell reads "..".
    auto ticks = [&](const GlobalAxis& ax, int k, auto&& put) {
        for (uint32_t i = 0; i < ax.cells; ++i) {
            const auto c = ax.coordOf(i);
            if (!c)
                put(i, std::string(".."));
            else if (((*c % k) + k) % k == 0)
                put(i, std::to_string(*c));
        }
    };
    ticks(g.axes[0], thin(z, 30.0f), [&](uint32_t x, const std::string& t) {
        const glm::vec2 s = cam.worldToScreen({x + 0.5f, 0});
        if (s.x < 40 || s.x > viewport.x - 8) return;
        o.text({s.x - approxTextWidth(t) * 0.5f, top - 17}, t, kAxis);
    });
    ticks(g.axes[1], thin(z, 16.0f), [&](uint32_t y, const std::string& t) {
        const glm::vec2 s = cam.worldToScreen({0, y + 0.5f});
        if (s.y < top || s.y > viewport.y - 8) return;
        o.text({std::max(2.0f, gridLo.x - approxTextWidth(t) - 6), s.y - 7}, t, kAxis);
    });
    o.text({2, top - 17}, nameY, kDim);
    // Slice coordinates -> screen: through the axes, so elided gaps fold to one cell.
    auto cellRect = [&](int64_t x0, int64_t y0, int64_t x1, int64_t y1) {
        return std::pair{cam.worldToScreen({g.axes[0].position(x0), g.axes[1].position(y0)}),
                         cam.worldToScreen({g.axes[0].position(x1), g.axes[1].position(y1)})};
    };
    // Tensor bounds (orange): only the edges that fall inside the window (the tensor goes on elsewhere).
    const Rgba8 orange{255, 170, 60, 255};
    {
        auto extent = [&](int d) { return int64_t(uint32_t(d) < g.rank() ? p.globalDim[d] : 1); };
        const int64_t d0 = extent(g.slice.dimX), d1 = extent(g.slice.dimY);
        const int64_t x0 = std::max<int64_t>(0, g.axes[0].first()), x1 = std::min(d0, g.axes[0].end());
        const int64_t y0 = std::max<int64_t>(0, g.axes[1].first()), y1 = std::min(d1, g.axes[1].end());
        auto hline = [&](int64_t y) { // only an edge next to a shown row
            if ((!g.axes[1].cellOf(y) && !g.axes[1].cellOf(y - 1)) || x0 >= x1) return;
            auto [a, b] = cellRect(x0, y, x1, y);
            o.rects.push_back({a - glm::vec2(0, 1), b + glm::vec2(0, 1), orange, true});
        };
        auto vline = [&](int64_t x) {
            if ((!g.axes[0].cellOf(x) && !g.axes[0].cellOf(x - 1)) || y0 >= y1) return;
            auto [a, b] = cellRect(x, y0, x, y1);
            o.rects.push_back({a - glm::vec2(1, 0), b + glm::vec2(1, 0), orange, true});
        };
        hline(0);
        hline(d1);
        vline(0);
        vline(d0);
    }
    // Box, gather4 rows, im2col window and pixels; pixels off screen are culled.
    const Rgba8 white{255, 255, 255, 255}, window{150, 235, 130, 255}, pixel{120, 220, 255, 255},
        halo{240, 120, 240, 255}, oobPixel{255, 90, 70, 255};
    for (const GlobalOutline& ol : g.outlines) {
        auto [a, b] = cellRect(ol.x0, ol.y0, ol.x1, ol.y1);
        if (b.x < 0 || b.y < 0 || a.x > viewport.x || a.y > viewport.y) continue;
        using K = GlobalOutline::Kind;
        const Rgba8 c = ol.kind == K::Window  ? window
                        : ol.kind == K::Halo  ? halo
                        : ol.kind == K::Pixel ? (ol.oob ? oobPixel : pixel)
                                              : white;
        const glm::vec2 inset = ol.kind == K::Pixel || ol.kind == K::Halo ? glm::vec2(1.5f) : glm::vec2(0);
        o.rects.push_back({a + inset, b - inset, c, false});
    }
    // Legend: as high as its lines need at this width (globalLegendHeight).
    const float ly = viewport.y - globalLegendHeight(viewport.x, g);
    coordLegend(o, {10, ly}, g.colourRows, g.colourCols, im2col ? "W offset" : "box row (dim 1)",
                im2col ? "channel" : "box column (dim 0)", viewport.x - 8,
                g.colourGathered ? std::optional(g.colourRowLo) : std::nullopt);
    const float bottom = globalLegendFlow(o, ly + 40, viewport.x - 8, g);
    o.regions.push_back({"legend", {10, ly}, {viewport.x - 8, bottom}});
    return o;
}

} // namespace layoutscope::views
