#include "scene/operand_scene.hpp"

#include "layoutscope/core/coord_text.hpp"
#include "scene/mark_badge.hpp"

#include <algorithm>
#include <cstdio>

namespace layoutscope::views {

namespace {

constexpr Rgba8 kAxis{235, 235, 240, 255};
constexpr Rgba8 kDim{150, 152, 160, 255};

std::string coordText(const std::array<int64_t, 2>& c) {
    return elementCoordText(c); // "(x=0, y=1)", dimension 0 first (core/coord_text.hpp)
}

std::string hex(uint32_t v) {
    char b[16];
    std::snprintf(b, sizeof b, "0x%04x", v);
    return b;
}

int thin(float pxPerUnit, float minPx) {
    int k = 1;
    while (pxPerUnit * float(k) < minPx && k < (1 << 20)) k *= 2;
    return k;
}

void swatch(OverlayList& o, glm::vec2 p, Rgba8 c, const std::string& label, bool outline = false) {
    if (outline) { // as the shader draws kFlagDiffers: a tint towards kDiffColour and an outline in it
        const auto mix = [](uint8_t a, uint8_t b) { return uint8_t((a * 6 + b * 4) / 10); };
        o.rects.push_back(
            {p, p + glm::vec2(14, 14),
             Rgba8{mix(c.r, kDiffColour.r), mix(c.g, kDiffColour.g), mix(c.b, kDiffColour.b), 255}, true});
        o.rects.push_back({p, p + glm::vec2(14, 14), kDiffColour, false});
    } else {
        o.rects.push_back({p, p + glm::vec2(14, 14), c, true});
        o.rects.push_back({p, p + glm::vec2(14, 14), Rgba8{0, 0, 0, 255}, false});
    }
    o.text(p + glm::vec2(19, 0), label);
}

} // namespace

OperandScene operandSceneOf(const OperandGrid& g, const BoxFrame* producer) {
    OperandScene s;
    s.w = g.cols;
    s.h = g.rows;
    s.texels.assign(g.cells.size(), kUntouched);
    for (size_t i = 0; i < g.cells.size(); ++i) {
        const OperandCell& c = g.cells[i];
        if (c.bytes == 0) continue; // a hole in the grid (no read)
        ++s.total;
        Rgba8 t = kUntouched;
        if (c.actual && producer) t = producer->colourAt((*c.actual)[0], (*c.actual)[1]);
        t.a = kFlagWritten;
        if (!c.actual && g.checked) ++s.unwritten;
        if (c.mismatch) {
            t.a |= kFlagDiffers;
            ++s.mismatched;
        }
        s.texels[i] = t;
    }
    return s;
}

OverlayList buildOperandOverlay(const Camera2D& cam, glm::vec2 viewport, const OperandGrid& g,
                                const OperandScene& s, const BoxFrame* producer, const std::string& title) {
    OverlayList o;
    // Text cut to the pane (the dock is narrow: a tab beside the scenario editor).
    const auto put = [&](glm::vec2 p, std::string t, Rgba8 c, float right = -1.0f) {
        const float room = (right < 0 ? viewport.x : right) - 6 - p.x;
        if (approxTextWidth(t) > room) t = t.substr(0, size_t(std::max(0.0f, room / 8.4f - 2))) + "..";
        o.text(p, t, c);
    };
    const float z = cam.zoom();
    const glm::vec2 lo = cam.worldToScreen({0, 0});
    // The margins are opaque: a zoomed grid never shows under the title, axes or legend (issue 24 item 6:
    // zooming painted the cells over the header).
    const float top = std::max(lo.y, kOperandMargins.y), left = std::max(lo.x, kOperandMargins.x);
    o.rects.push_back({{0, 0}, {viewport.x, top - 1}, kBackground, true});
    o.rects.push_back({{0, 0}, {left - 1, viewport.y}, kBackground, true});
    o.rects.push_back({{0, viewport.y - kOperandMargins.w + 4}, viewport, kBackground, true});
    // The mismatch count as a badge at the header's right, its size following the cells'.
    float titleRoom = viewport.x;
    if (s.mismatched) {
        const MarkBadge b = markBadge(std::to_string(s.mismatched) + " differ", z, viewport.x);
        o.rects.push_back({b.lo, b.hi, kDiffColour, true});
        o.text(b.textPos, b.text, Rgba8{255, 255, 255, 255}, b.fontScale);
        o.regions.push_back({"badge", b.lo, b.hi});
        titleRoom = b.lo.x - 6;
    }
    put({8, 4}, title, kAxis, titleRoom);
    put({8, 20},
        g.checked ? std::to_string(g.rows) + " " + g.indexName + " x " + std::to_string(g.cols) +
                        (g.what == "tcgen05.cp" ? " 16-B chunks" : " k") + " of " + g.tensor +
                        "; colour = element read"
                  : "not checked: " + g.note,
        kDim);
    // k (or 16-B chunk) along the top, m / n down the left, thinned to the zoom.
    const std::string kName = g.what == "tcgen05.cp" ? "chunk" : "k";
    o.text({8, top - 18}, kName, kDim);
    for (uint32_t x = 0; x < g.cols; x += uint32_t(thin(z, 22.0f))) {
        const glm::vec2 p = cam.worldToScreen({float(x) + 0.5f, 0});
        if (p.x < left - 1 || p.x > viewport.x - 8) continue;
        const std::string t = std::to_string(x);
        o.text({p.x - approxTextWidth(t) * 0.5f, top - 18}, t, kAxis);
    }
    for (uint32_t y = 0; y < g.rows; y += uint32_t(thin(z, 16.0f))) {
        const glm::vec2 p = cam.worldToScreen({0, float(y) + 0.5f});
        if (p.y < top || p.y > viewport.y - kOperandMargins.w) continue;
        const std::string t = g.indexName + std::to_string(g.rowBase + y); // a pair half: the operand's row
        o.text({std::max(2.0f, left - approxTextWidth(t) - 6), p.y - 7}, t, kAxis);
    }
    // Legend, four lines: the colour map (the shared-memory view's), then the counts.
    const float ly = viewport.y - kOperandMargins.w + 14;
    if (producer) {
        const int n = 16;
        const float w = 6.0f;
        const int rows = producer->rows(), cols = producer->cols();
        for (int i = 0; i < n; ++i) {
            const int r = rows > 1 ? i * (rows - 1) / (n - 1) : 0,
                      c = cols > 1 ? i * (cols - 1) / (n - 1) : 0;
            const glm::vec2 a{10 + w * float(i), ly}, b{10 + w * float(i), ly + 18};
            o.rects.push_back({a, a + glm::vec2(w, 14), colourForCoord(r, cols / 2, rows, cols), true});
            o.rects.push_back({b, b + glm::vec2(w, 14), colourForCoord(rows / 2, c, rows, cols), true});
        }
        put({10 + w * n + 6, ly},
            "hue = dim 1, " + std::to_string(producer->lo[1]) + ".." +
                std::to_string(producer->lo[1] + std::max(rows - 1, 0)),
            kAxis);
        put({10 + w * n + 6, ly + 18},
            "lightness = dim 0, " + std::to_string(producer->lo[0]) + ".." +
                std::to_string(producer->lo[0] + std::max(cols - 1, 0)),
            kAxis);
    } else {
        put({10, ly}, "no TMA tile behind the descriptor:", kDim);
        put({10, ly + 18}, "nothing to colour by", kDim);
    }
    const Rgba8 plain = producer ? colourForCoord(producer->rows() / 2, producer->cols() / 2,
                                                  producer->rows(), producer->cols())
                                 : kUntouched;
    swatch(o, {10, ly + 40}, plain, "reads its element: " + std::to_string(s.total - s.mismatched));
    swatch(o, {10, ly + 60}, plain,
           "reads another: " + std::to_string(s.mismatched) + " of " + std::to_string(s.total) +
               (s.unwritten ? " (" + std::to_string(s.unwritten) + " unwritten)" : std::string()),
           true);
    o.regions.push_back({"legend", {10, ly}, {viewport.x - 8, ly + 76}});
    return o;
}

std::string operandCellText(const OperandGrid& g, const OperandCell& c) {
    std::string t = (g.tensor.empty() ? std::string("operand") : g.tensor) + "[" + g.indexName + "=" +
                    std::to_string(g.rowBase + c.m) + "][k=" + std::to_string(c.k) + "]: expected " +
                    coordText(c.expected) + ", reads " +
                    (c.actual ? coordText(*c.actual) : std::string("bytes no TMA load wrote"));
    return t + " at " + hex(c.addr);
}

std::string inspectOperandCell(const OperandGrid& g, uint32_t x, uint32_t y) {
    if (x >= g.cols || y >= g.rows) return {};
    const OperandCell& c = g.cells[size_t(y) * g.cols + x];
    if (c.bytes == 0) return {};
    std::string t =
        g.what + " " + g.indexName + "=" + std::to_string(g.rowBase + c.m) + ", k=" + std::to_string(c.k);
    if (g.what == "tcgen05.cp") t += " (16-B chunk " + std::to_string(c.col) + ")";
    t += "\nreads shared::cta [" + hex(c.addr) + ", " + hex(c.addr + c.bytes) + ") of CTA " +
         std::to_string(g.cta) + "\n";
    if (!g.checked) return t + "not checked: " + g.note + "\n";
    t +=
        "holds:    " + (c.actual ? g.tensor + coordText(*c.actual) : std::string("bytes no TMA load wrote")) +
        "\n";
    t += "expected: " + g.tensor + coordText(c.expected) + "\n";
    t += c.mismatch ? "MISMATCH: the consumer reads another element than the tile it should\n"
                    : "matches the producer's tile\n";
    return t;
}

} // namespace layoutscope::views
