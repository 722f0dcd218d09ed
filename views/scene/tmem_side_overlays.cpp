// The overlays of the views beside Tensor Memory (tmem_overlay.hpp): Registers (buildRegOverlay),
// Decompression (buildDecompOverlay) and the TMA multicast fan (buildTmaFanOverlay).
#include "scene/overlay_style.hpp"
#include "scene/tmem_overlay.hpp"

#include "scene/label_layout.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

namespace layoutscope::views {

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
           overlay_style::kAxis);
    const int kx = overlay_style::thin(z, 30.0f);
    for (uint32_t j = 0; j < r.width(); j += uint32_t(kx)) {
        const glm::vec2 p = cam.worldToScreen({float(j) + 0.5f, 0});
        if (p.x < lo.x - 1 || p.x > viewport.x - 10) continue;
        const std::string t = "r" + std::to_string(j);
        o.text({p.x - approxTextWidth(t) * 0.5f, top - 20}, t, overlay_style::kDim);
    }
    o.text({8, top - 20}, "register", overlay_style::kDim);
    const int ky = overlay_style::thin(zy, 16.0f);
    for (uint32_t y = 0; y < r.height(); y += uint32_t(ky)) {
        const glm::vec2 p = cam.worldToScreen({0, float(y) + 0.5f});
        if (p.y < top || p.y > viewport.y - kRegMargins.w) continue;
        const std::string t =
            (y % 32 == 0 ? "w" + std::to_string(r.warps[y / 32]) + " t" : "t") + std::to_string(y % 32);
        o.text({lo.x - approxTextWidth(t) - 6, p.y - 7}, t,
               y % 32 == 0 ? overlay_style::kAxis : overlay_style::kDim);
    }
    if (r.dDiffers > 0) { // wgmma: D registers whose value differs from the product of the tiles
        const std::string n = std::to_string(r.dDiffers) + " of " + std::to_string(r.dRegs);
        glm::vec2 at{8, viewport.y - 44};
        overlay_style::swatch(o, at, Rgba8{kDiffColour.r, kDiffColour.g, kDiffColour.b, 255},
                              fitLabel({n + " D registers differ from the product of the tiles",
                                        n + " D registers differ", n + " differ"},
                                       viewport.x - 40));
    } else if (r.fragmentDiffers > 0) { // `expect fragment`: the registers the epilogue reads as another cell
        const std::string n = std::to_string(r.fragmentDiffers) + " of " + std::to_string(r.fragmentRegs);
        glm::vec2 at{8, viewport.y - 44};
        overlay_style::swatch(
            o, at, Rgba8{kDiffColour.r, kDiffColour.g, kDiffColour.b, 255},
            fitLabel({n + " registers hold another cell than the epilogue's " + r.fragmentShape + " fragment",
                      n + " differ from the " + r.fragmentShape + " fragment", n + " differ"},
                     viewport.x - 40));
    } else {
        o.text({8, viewport.y - 42},
               fitLabel({"rows = %laneid of each warp, columns = register index",
                         "rows = %laneid, columns = reg", "rows lane, cols reg"},
                        viewport.x - 12),
               overlay_style::kDim);
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
        overlay_style::kDim);
    dropOverlappingTexts(o);
    return o;
}

OverlayList buildDecompOverlay(const Camera2D& cam, glm::vec2 viewport, const DecompScene& d,
                               const std::string& title) {
    OverlayList o;
    const float z = cam.zoom();
    o.text({8, 4}, title, overlay_style::kAxis);
    const glm::vec2 a0 = cam.worldToScreen({0, 0}), a7 = cam.worldToScreen({0, 8});
    o.text({a0.x, a0.y - 36},
           d.kind == CpDecompress::B8x16_B6x16_p32
               ? "source: 16 B = sixteen 6-bit fields (96 bits) + 32 bits padding (hatched)"
               : "source: 16 B = sixteen 4-bit fields (64 bits) + 64 bits padding (hatched)",
           overlay_style::kDim);
    for (uint32_t b = 0; b < 16; ++b) { // byte labels above the source row
        const glm::vec2 p = cam.worldToScreen({float(8 * b), 0});
        if (z * 8 >= 40) o.text({p.x + 2, p.y - 18}, "byte " + std::to_string(b), overlay_style::kDim);
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
            o.text({lab.x + 2, lab.y + 4}, code, overlay_style::kAxis);
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
           overlay_style::kDim);
    o.text({8, viewport.y - 20},
           fitLabel({"bit 0 of byte 0 on the left (little-endian); unverified: open questions 3, 28",
                     "unverified: open questions 3, 28"},
                    viewport.x - 12),
           overlay_style::kDim);
    return o;
}

OverlayList buildTmaFanOverlay(const Camera2D& cam, glm::vec2 viewport, const TmaFan& f,
                               const std::string& instrText) {
    OverlayList o;
    if (!f.valid) return o;
    const glm::vec2 lo = cam.worldToScreen({0, 0});
    const float top = std::max(lo.y, kTmaFanMargins.y);
    o.text({8, 4}, ".multicast::cluster: " + instrText, overlay_style::kAxis);
    // Each CTA its own colour: an outline round its strip, a tag above it (the number alone where the
    // strips are narrow) and "CTA n @ address" in that colour on the legend line (2x2 clusters: the
    // labels overlapped and the strips looked alike, issue 15).
    static constexpr Rgba8 kCtaColours[4] = {
        {255, 170, 60, 255}, {90, 200, 255, 255}, {240, 110, 220, 255}, {150, 230, 90, 255}};
    float lx = 8;
    o.text({lx, 22}, "box rows (left strip);", overlay_style::kAxis);
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
    const int ky = overlay_style::thin(cam.zoom(), 16.0f);
    for (uint32_t r = 0; r < f.rows; r += uint32_t(ky)) {
        const glm::vec2 p = cam.worldToScreen({0, float(r) + 0.5f});
        if (p.y < top || p.y > viewport.y - kTmaFanMargins.w) continue;
        const std::string t = std::to_string(r);
        o.text({lo.x - approxTextWidth(t) - 6, p.y - 7}, t, overlay_style::kDim);
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
        overlay_style::kDim);
    o.text({8, viewport.y - 24},
           fitLabel({"CTA strips fill as the rows land; white = this step", "white = this step"},
                    viewport.x - 12),
           overlay_style::kDim);
    return o;
}

} // namespace layoutscope::views
