#pragma once
/// The shared-memory view's tile layer (no Qt): swizzle atoms outlined, and the bank-conflict heat
/// map of a chosen warp access pattern over one tile's exact geometry (smem_tiles.hpp), counted
/// the way Nsight Compute counts wavefronts (engine banks.hpp, rule SmemBankWavefronts).
#include "scene/bank_scene.hpp"
#include "scene/overlay.hpp"
#include "scene/smem_tiles.hpp"

#include <optional>
#include <string>
#include <vector>

namespace layoutscope::views {

/// A heat map in the view: which tile, which pattern, where it starts, and its wavefronts.
struct SmemHeat {
    uint32_t instr = 0;
    TileInSmem tile;
    AccessPattern pattern = AccessPattern::ColumnRead;
    uint32_t row0 = 0, col = 0; ///< logical element the pattern starts at
    BankHeat heat;
};

/// bankHeat over `t` from (row0, col); row0/col are clamped into the tile.
[[nodiscard]] Result<SmemHeat> smemHeat(const SmemTile& t, AccessPattern p, uint32_t row0, uint32_t col);

/// Heat colours on the bytes the warp touches; every other written byte keeps its colour at a third
/// of its brightness so the access stands out (flags are kept).
void applyBankHeat(SmemScene& s, const SmemHeat& h);

/// Outlines of the atoms and the atom caption, then (with `heat`) the per-bank heat bar above the
/// grid, thread labels on the touched bytes when zoomed in, and a banner with the wavefront count.
/// `tiles` gives the captions' swizzle modes. `fold`: the rows as the canvas draws them (buildSmemOverlay).
void appendSmemTileOverlay(OverlayList& o, const Camera2D& cam, glm::vec2 viewport, const SmemWindow& w,
                           const std::vector<SwizzleAtom>& atoms, const std::vector<SmemTile>& tiles,
                           const SmemHeat* heat, const RowFold& fold = {});

/// The banner's lines for a pane `viewportWidth` px wide (swizzle-atom caption, heat lines), wrapped
/// to fit; empty when there is no banner.
[[nodiscard]] std::vector<std::string> smemBannerLines(const std::vector<SwizzleAtom>& atoms,
                                                       const std::vector<SmemTile>& tiles,
                                                       const SmemHeat* heat, float viewportWidth);
/// Height of the header strip the banner takes above the grid (0 without a banner): the view's top
/// margin grows by it, so the banner never covers cells (issue 15).
[[nodiscard]] inline float smemBannerHeight(size_t lines) {
    return lines == 0 ? 0.0f : 16.0f * static_cast<float>(lines) + 12.0f;
}
/// Top of the banner strip (under the view's two title lines).
inline constexpr float kSmemBannerTop = 38.0f;

/// The banner's lines (also shown in the status bar and used by tests): e.g.
/// "bank heat: warp reads a column of the tile of instruction 2, (64,64):(64,1) from (0, 0)",
/// "8 wavefronts (ideal 1, 7 excess = Nsight Compute bank conflicts), worst bank 8 words".
[[nodiscard]] std::vector<std::string> smemHeatLines(const SmemHeat& h);

} // namespace layoutscope::views
