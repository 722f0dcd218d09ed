// The tcgen05.mma value check in the Tensor Memory view (tmem_dvalues.hpp).
#include "scene/tmem_dvalues.hpp"

#include "scene/cell_style.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <utility>

namespace layoutscope::views {
namespace {

// Grid cell k's last writer is trace instruction `instr` (the MMA a check is about has written it).
bool writtenBy(const Document& doc, const TmemScene& s, size_t k, size_t instr) {
    return k < s.moveOf.size() && s.moveOf[k] >= 0 && doc.trace().moves[size_t(s.moveOf[k])].instr == instr;
}

// The grid cell of a checked element, when its MMA has written it there.
std::optional<size_t> cellOf(const Document& doc, const TmemScene& s, const MmaDCheck& c,
                             const MmaDValue& v) {
    const auto g = s.gridOf(TmemCellRef{c.cta, v.lane, v.column});
    if (!g) return std::nullopt;
    const size_t k = size_t(g->y) * s.width() + g->x;
    return writtenBy(doc, s, k, c.instr) ? std::optional<size_t>(k) : std::nullopt;
}

// The checked element held by grid cell k, when its last writer is the MMA of that check.
const MmaDValue* valueAt(const Document& doc, const std::vector<MmaDCheck>& checks, const TmemScene& s,
                         size_t k) {
    const auto cell = s.cellAt(uint32_t(k % s.width()), uint32_t(k / s.width()));
    if (!cell) return nullptr;
    for (const MmaDCheck& c : checks) {
        if (!c.skipped.empty() || c.cta != cell->cta || !writtenBy(doc, s, k, c.instr)) continue;
        for (const MmaDValue& v : c.cells)
            if (v.lane == cell->lane && v.column == cell->column) return &v;
    }
    return nullptr;
}

std::string num(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.7g", v);
    return b;
}

} // namespace

void markMmaDValues(const Document& doc, const std::vector<MmaDCheck>& checks, TmemScene& s) {
    s.dValueMarked = 0;
    if (!doc.hasTrace() || s.moveOf.size() != s.texels.size()) return;
    // Each wrong element's cell, looked up from the check (M x N cells), not every cell from the scene.
    for (const MmaDCheck& c : checks) {
        if (!c.skipped.empty() || c.wrong == 0) continue;
        for (const MmaDValue& v : c.cells)
            if (const auto k = v.ok() ? std::nullopt : cellOf(doc, s, c, v)) {
                if (!(s.texels[*k].a & kFlagDiffers)) ++s.dValueMarked;
                s.texels[*k].a |= kFlagDiffers;
            }
    }
}

Rgba8 valueColour(double t) { // t in [0, 1]: blue (0.2, 0.3, 0.9) -> teal -> yellow (1, 0.9, 0.2)
    t = std::clamp(t, 0.0, 1.0);
    const double r = 0.2 + 0.8 * t, g = 0.3 + 0.6 * t, b = 0.9 - 0.7 * t;
    return Rgba8{uint8_t(r * 255), uint8_t(g * 255), uint8_t(b * 255), 0};
}

void colourMmaDByValue(const Document& doc, const std::vector<MmaDCheck>& checks, TmemScene& s) {
    s.dByValue = false;
    if (!doc.hasTrace() || s.moveOf.size() != s.texels.size()) return;
    std::vector<std::pair<size_t, double>> cells; // (grid cell, D's value) of the written checked cells
    for (const MmaDCheck& c : checks) {
        if (!c.skipped.empty()) continue;
        for (const MmaDValue& v : c.cells)
            if (const auto k = std::isfinite(v.actual) ? cellOf(doc, s, c, v) : std::nullopt)
                cells.emplace_back(*k, v.actual);
    }
    if (cells.empty()) return;
    s.dByValue = true;
    s.dMin = s.dMax = cells.front().second;
    for (const auto& [k, v] : cells) s.dMin = std::min(s.dMin, v), s.dMax = std::max(s.dMax, v);
    const double span = s.dMax > s.dMin ? s.dMax - s.dMin : 1.0;
    for (const auto& [k, v] : cells) {
        Rgba8 c = valueColour(s.dMax > s.dMin ? (v - s.dMin) / span : 0.5);
        c.a = s.texels[k].a; // written / current / differs flags stay
        s.texels[k] = c;
    }
}

std::string mmaDValueText(const Document& doc, const std::vector<MmaDCheck>& checks, const TmemScene& s,
                          uint32_t x, uint32_t y) {
    if (x >= s.width() || y >= s.height()) return {};
    const MmaDValue* v = valueAt(doc, checks, s, size_t(y) * s.width() + x);
    if (!v) return {};
    return "D[m=" + std::to_string(v->m) + "][n=" + std::to_string(v->n) + "]: holds " + num(v->actual) +
           ", the product of the tiles gives " + num(v->expected) + " (error " + num(v->error()) +
           ", tolerance " + num(v->tolerance) + (v->ok() ? ": ok)" : ": WRONG)");
}

} // namespace layoutscope::views
