// Swizzle atoms and the bank-conflict heat map of the shared-memory view (smem_tile_overlay.hpp).
#include "scene/smem_tile_overlay.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace layoutscope::views {

namespace {

constexpr Rgba8 kAtom{110, 215, 255, 235};
constexpr Rgba8 kText{235, 235, 240, 255};
constexpr Rgba8 kBanner{18, 19, 24, 225};

} // namespace

Result<SmemHeat> smemHeat(const SmemTile& t, AccessPattern p, uint32_t row0, uint32_t col) {
    SmemHeat h;
    h.instr = t.instr;
    h.tile = t.tile;
    h.pattern = p;
    h.row0 = std::min(row0, t.tile.rows ? t.tile.rows - 1 : 0);
    h.col = std::min(col, t.tile.cols ? t.tile.cols - 1 : 0);
    auto b = bankHeat(t.tile, p, h.row0, h.col);
    if (!b) return b.diagnostics();
    h.heat = std::move(*b);
    return h;
}

void applyBankHeat(SmemScene& s, const SmemHeat& h) {
    for (Rgba8& c : s.texels) {
        if (!(c.a & kFlagWritten)) continue;
        c.r = static_cast<uint8_t>(c.r / 3);
        c.g = static_cast<uint8_t>(c.g / 3);
        c.b = static_cast<uint8_t>(c.b / 3);
    }
    uint32_t worst = 0;
    for (uint32_t w : h.heat.report.wordsPerBank) worst = std::max(worst, w);
    for (uint32_t t = 0; t < kWarpSize; ++t) {
        if (!((h.heat.access.activeMask >> t) & 1u)) continue;
        for (uint32_t b = 0; b < h.heat.access.widthBytes; ++b) {
            const uint32_t a = h.heat.access.addr[t] + b;
            if (const auto i = s.indexOf(a)) {
                const Rgba8 c = heatColour(h.heat.report.wordsPerBank[smemBank(a)], worst);
                s.texels[*i] = Rgba8{c.r, c.g, c.b, kFlagWritten};
            }
        }
    }
}

std::vector<std::string> smemHeatLines(const SmemHeat& h) {
    uint32_t worst = 0;
    for (uint32_t w : h.heat.report.wordsPerBank) worst = std::max(worst, w);
    char b[256];
    // The box's element in the one coordinate order (core/coord_text.hpp): x = column (dim 0), y = row.
    std::snprintf(b, sizeof b, "bank heat: %s, tile of instruction %u %s, from box element (x=%u, y=%u)",
                  accessPatternName(h.pattern), h.instr, tileLayoutText(h.tile).c_str(), h.col, h.row0);
    std::vector<std::string> lines{b};
    std::snprintf(b, sizeof b,
                  "%u wavefronts (ideal %u, %u excess = bank conflicts as Nsight Compute counts them); "
                  "worst bank: %u words",
                  h.heat.report.wavefronts, h.heat.report.ideal, h.heat.report.excess, worst);
    lines.emplace_back(b);
    lines.emplace_back(
        "green = 1 word per bank ... red = the worst bank; click a byte to start the pattern there");
    return lines;
}

static void atomLayer(OverlayList& o, const Camera2D& cam, glm::vec2 vp, const SmemWindow& w,
                      const std::vector<SwizzleAtom>& atoms, const RowFold& fold) {
    const float z = cam.zoom();
    int labels = 0;
    for (const SwizzleAtom& a : atoms) {
        const float r0 = float(a.lo - w.base) / 128.0f, r1 = float(a.hi - w.base) / 128.0f;
        // An atom whose rows cross from one band of a row fold to the next is outlined in each.
        for (const auto& [dlo, dhi] : fold.drawnRects({0.0f, std::floor(r0)}, {128.0f, std::ceil(r1)})) {
            const glm::vec2 lo = cam.worldToScreen(dlo), hi = cam.worldToScreen(dhi);
            if (hi.y < 0 || lo.y > vp.y || hi.x < 0 || lo.x > vp.x) continue;
            o.rects.push_back({lo, hi, kAtom, false});
            if (hi.y - lo.y >= 20 && z * 128 >= 120 && labels < 64) {
                o.text({lo.x + 4, std::max(lo.y, 40.0f) + 2}, "atom " + std::to_string(a.index), kAtom);
                ++labels;
            }
        }
    }
}

static void heatLayer(OverlayList& o, const Camera2D& cam, glm::vec2 vp, const SmemWindow& w,
                      const SmemHeat& h, const RowFold& fold) {
    uint32_t worst = 0;
    for (uint32_t n : h.heat.report.wordsPerBank) worst = std::max(worst, n);
    const float z = cam.zoom();
    const float top = std::max(cam.worldToScreen({0, 0}).y, 40.0f);
    for (uint32_t k = 0; k < (fold.folded() ? fold.bands : 1u); ++k) { // each band of a row fold
        const float bx = float(fold.folded() ? fold.bandX(k) : 0);
        for (uint32_t b = 0; b < 32; ++b) { // heat bar just above the grid, one segment per bank
            const glm::vec2 a = cam.worldToScreen({bx + b * 4.0f, 0}),
                            c = cam.worldToScreen({bx + b * 4.0f + 4.0f, 0});
            o.rects.push_back(
                {{a.x, top - 5}, {c.x, top - 1}, heatColour(h.heat.report.wordsPerBank[b], worst), true});
        }
    }
    if (z >= 10.0f) { // thread labels on the first byte each thread reads
        for (uint32_t t = 0; t < 32; ++t) {
            const uint32_t addr = h.heat.access.addr[t];
            if (addr < w.base || addr >= w.base + w.size) continue;
            const uint32_t i = addr - w.base;
            const glm::uvec2 d = fold.toDrawn({i % 128, i / 128});
            const glm::vec2 p = cam.worldToScreen(glm::vec2(d));
            if (p.x < 0 || p.y < 0 || p.x > vp.x || p.y > vp.y) continue;
            o.text({p.x + 1, p.y + std::max(0.0f, z * 0.5f - 8.0f)}, "t" + std::to_string(t),
                   Rgba8{0, 0, 0, 255});
        }
    }
}

std::vector<std::string> smemBannerLines(const std::vector<SwizzleAtom>& atoms,
                                         const std::vector<SmemTile>& tiles, const SmemHeat* heat,
                                         float viewportWidth) {
    std::vector<std::string> lines;
    if (!atoms.empty()) {
        for (const SmemTile& t : tiles) {
            if (t.instr != atoms.front().instr) continue;
            lines.push_back("outlined: swizzle atoms, " +
                            swizzleAtomCaption(t.tile.swizzle, t.tile.elemBytes));
            break;
        }
    }
    if (heat)
        for (std::string& l : smemHeatLines(*heat)) lines.push_back(std::move(l));
    // Wrap at ", " / "; " so the banner fits the pane (approxTextWidth: monospace overlay font).
    const float avail = std::max(160.0f, viewportWidth - 40.0f);
    std::vector<std::string> wrapped;
    for (std::string l : lines) {
        while (approxTextWidth(l) > avail) {
            const size_t limit = static_cast<size_t>(avail / 8.4f);
            size_t cut = l.rfind(", ", limit);
            if (cut == std::string::npos || cut < 8) cut = l.rfind("; ", limit);
            if (cut == std::string::npos || cut < 8) { // else at a word: never cut at the pane's edge
                cut = l.rfind(' ', limit);
                if (cut == std::string::npos || cut < 8) break;
                wrapped.push_back(l.substr(0, cut));
                l = "  " + l.substr(cut + 1);
                continue;
            }
            wrapped.push_back(l.substr(0, cut + 1));
            l = "  " + l.substr(cut + 2);
        }
        wrapped.push_back(l);
    }
    return wrapped;
}

void appendSmemTileOverlay(OverlayList& o, const Camera2D& cam, glm::vec2 viewport, const SmemWindow& w,
                           const std::vector<SwizzleAtom>& atoms, const std::vector<SmemTile>& tiles,
                           const SmemHeat* heat, const RowFold& fold) {
    atomLayer(o, cam, viewport, w, atoms, fold);
    if (heat) heatLayer(o, cam, viewport, w, *heat, fold);
    const std::vector<std::string> lines = smemBannerLines(atoms, tiles, heat, viewport.x);
    if (lines.empty()) return;
    // Banner in a header strip under the title lines, above the bank labels: the view's top margin
    // grows by smemBannerHeight (MainWindow), so it never covers cells.
    float width = 0;
    for (const std::string& l : lines) width = std::max(width, approxTextWidth(l));
    const float x0 = 8, x1 = std::min(viewport.x - 8, x0 + width + 12);
    const float y0 = kSmemBannerTop, y1 = y0 + smemBannerHeight(lines.size()) - 4;
    o.rects.push_back({{x0, y0}, {x1, y1}, kBanner, true});
    o.rects.push_back({{x0, y0}, {x1, y1}, heat ? Rgba8{240, 190, 60, 255} : kAtom, false});
    for (size_t i = 0; i < lines.size(); ++i) o.text({x0 + 6, y0 + 4 + 16.0f * float(i)}, lines[i], kText);
    o.regions.push_back({"banner", {x0, y0}, {x1, y1}});
}

} // namespace layoutscope::views
