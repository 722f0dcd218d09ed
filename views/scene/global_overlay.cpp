// The global tensor view's overlay (overlay.hpp: buildGlobalOverlay, globalMargins): the copy's title and
// slice, axis labels, box outlines and the legend.
#include "scene/overlay.hpp"
#include "scene/overlay_style.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>

namespace layoutscope::views {

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
    o.text({8, 4}, line, overlay_style::kAxis);
    std::string slice;
    for (uint32_t d = 0; d < rank; ++d)
        if (int(d) != g.slice.dimX && int(d) != g.slice.dimY)
            slice += (slice.empty() ? "slice " : ", ") + dimName(t, int(d)) + " = " +
                     std::to_string(g.slice.fixed[d]);
    if (slice.empty()) slice = "all of " + dimName(t, g.slice.dimX) + " x " + dimName(t, g.slice.dimY);
    if (t.kind == TileKind::Im2col)
        slice +=
            ": " + std::to_string(g.pixelsInSlice) + " of " + std::to_string(t.pixels.size()) + " pixels";
    o.text({8, 20}, slice, overlay_style::kDim);
}

/// The global legend's items from `y` down, wrapped before `maxX`; returns the bottom of the last line.
static float globalLegendFlow(OverlayList& o, float y, float maxX, const GlobalScene& g) {
    const Rgba8 white{255, 255, 255, 255}, window{150, 235, 130, 255}, pixel{120, 220, 255, 255},
        halo{240, 120, 240, 255}, oobPixel{255, 90, 70, 255}, orange{255, 170, 60, 255};
    const bool im2col = g.tile->kind == TileKind::Im2col;
    overlay_style::LegendFlow f{o, 10, 10, y, maxX};
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
    o.text({8, top - 34}, nameX + (im2col ? "" : " (elements)") + " ->", overlay_style::kDim);
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
    ticks(g.axes[0], overlay_style::thin(z, 30.0f), [&](uint32_t x, const std::string& t) {
        const glm::vec2 s = cam.worldToScreen({x + 0.5f, 0});
        if (s.x < 40 || s.x > viewport.x - 8) return;
        o.text({s.x - approxTextWidth(t) * 0.5f, top - 17}, t, overlay_style::kAxis);
    });
    ticks(g.axes[1], overlay_style::thin(z, 16.0f), [&](uint32_t y, const std::string& t) {
        const glm::vec2 s = cam.worldToScreen({0, y + 0.5f});
        if (s.y < top || s.y > viewport.y - 8) return;
        o.text({std::max(2.0f, gridLo.x - approxTextWidth(t) - 6), s.y - 7}, t, overlay_style::kAxis);
    });
    o.text({2, top - 17}, nameY, overlay_style::kDim);
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
    overlay_style::coordLegend(o, {10, ly}, g.colourRows, g.colourCols,
                               im2col ? "W offset" : "box row (dim 1)",
                               im2col ? "channel" : "box column (dim 0)", viewport.x - 8,
                               g.colourGathered ? std::optional(g.colourRowLo) : std::nullopt);
    const float bottom = globalLegendFlow(o, ly + 40, viewport.x - 8, g);
    o.regions.push_back({"legend", {10, ly}, {viewport.x - 8, bottom}});
    return o;
}

} // namespace layoutscope::views
