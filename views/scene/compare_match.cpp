// Differences by logical element between compare panes (compare_scene.hpp, issue 24 item 8): the engine's
// classes (layoutscope/analysis/compare_match.hpp) of a pane's shared-memory bytes and Tensor Memory grid
// cells, same place = the same shared::cta address or the same TMEM cell.
#include "scene/compare_scene.hpp"

namespace layoutscope::views {

CellMatches matchCells(const SmemContent& ref, const SmemContent& other) {
    const MatchSide r{ref.keys.size(),
                      [&](size_t j) -> const std::optional<ElementKey>& { return ref.keys[j]; },
                      [&](size_t j) { return uint32_t(ref.bytes[j]); }};
    const MatchSide o{other.keys.size(),
                      [&](size_t i) -> const std::optional<ElementKey>& { return other.keys[i]; },
                      [&](size_t i) { return uint32_t(other.bytes[i]); }};
    return classifyCells(r, o, [&](size_t i) -> std::optional<size_t> {
        const uint64_t addr = uint64_t(other.window.base) + i;
        if (addr < ref.window.base || addr >= uint64_t(ref.window.base) + ref.keys.size())
            return std::nullopt;
        return size_t(addr - ref.window.base);
    });
}

CellMatches matchTmemCells(const TmemContent& ref, const TmemContent& other) {
    const MatchSide r{ref.keys.size(),
                      [&](size_t j) -> const std::optional<ElementKey>& { return ref.keys[j]; },
                      [&](size_t j) { return ref.values[j]; }};
    const MatchSide o{other.keys.size(),
                      [&](size_t i) -> const std::optional<ElementKey>& { return other.keys[i]; },
                      [&](size_t i) { return other.values[i]; }};
    return classifyCells(r, o, [&](size_t i) -> std::optional<size_t> {
        if (!other.cells[i]) return std::nullopt;
        const TmemCellRef c = *other.cells[i];
        // The same TMEM cell in ref's grid (tmem_scene.hpp: CTA k of the pair at x = k * (512 + gap)).
        if (c.cta < ref.firstCta || c.cta >= ref.firstCta + ref.ctaCount) return std::nullopt;
        const size_t j =
            size_t(c.lane) * ref.width + (c.cta - ref.firstCta) * (512 + kTmemPairGap) + c.column;
        if (j >= ref.keys.size() || !ref.cells[j]) return std::nullopt;
        return j;
    });
}

} // namespace layoutscope::views
