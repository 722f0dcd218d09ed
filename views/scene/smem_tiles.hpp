#pragma once
/// Where the boxes of TMA tile copies sit in shared memory, with their exact geometry (no Qt):
/// the input of the shared-memory view's swizzle-atom outlines and bank-conflict heat map.
///
///   box in shared memory, (rows, cols):(pitch, elemBytes) at base, then the swizzle on the
///   absolute address: P = swizzleAddress(mode, base + row*pitch + col*elemBytes) (tma.md §4.1-4.2;
///   rows, cols, pitch from the engine's tileGeometry, the same walk the executor uses).
///   swizzle atom  one repeat period of the mode (SWIZZLE_128B: 1024 B = 8 rows of 128 B), aligned
///                 to the period in the ABSOLUTE address space, clipped to the box's bytes.
#include "scene/bank_scene.hpp"
#include "scene/document.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace layoutscope::views {

struct SmemTile {
    uint32_t instr = 0;
    std::vector<uint32_t> ctas; ///< CTAs whose shared memory holds (load) or gives (store) the box
    TileInSmem tile;            ///< exact geometry of the box
    uint32_t firstStep = 0;     ///< first timeline step of the instruction
    [[nodiscard]] uint32_t bytes() const { return tile.rows * tile.pitch; }
    [[nodiscard]] bool inCta(uint32_t cta) const;
    [[nodiscard]] bool covers(uint32_t cta, uint32_t addr) const {
        return inCta(cta) && addr >= tile.base && addr - tile.base < bytes();
    }
};

/// Tile copies of the trace (tile-mode loads and stores; not interleaved, whole-byte elements),
/// in instruction order. Other copies (im2col, gather4, sub-byte, interleaved) have no
/// (rows, cols):(pitch, elemBytes) box and are left out.
[[nodiscard]] std::vector<SmemTile> smemTiles(const Document& doc);

/// The last tile (in instruction order) of `cta` that starts before `step` and covers `addr`;
/// with no such tile, the first one that covers it; nullptr when none does.
[[nodiscard]] const SmemTile* tileCovering(const std::vector<SmemTile>& tiles, uint32_t cta, uint32_t addr,
                                           uint32_t step);

/// Logical (row, col) of the element whose bytes include physical address `addr` (the swizzle is
/// its own inverse: it XORs low bits with higher bits it leaves alone); nullopt outside the box
/// or in the row padding beyond cols*elemBytes.
[[nodiscard]] std::optional<std::pair<uint32_t, uint32_t>> logicalOf(const TileInSmem& t, uint32_t addr);

struct SwizzleAtom {
    uint32_t lo = 0, hi = 0; ///< absolute shared::cta byte range [lo, hi)
    uint32_t instr = 0;
    uint32_t index = 0; ///< atom number within the box
};

/// Swizzle atoms of the swizzled tiles of `cta`, clipped to [window.base, window.base + size).
/// A tile's atoms are listed once even if several instructions reuse its buffer (first wins).
[[nodiscard]] std::vector<SwizzleAtom> swizzleAtoms(const std::vector<SmemTile>& tiles,
                                                    const SmemWindow& window);

/// "SWIZZLE_128B = Sw<3,4,3> on bytes = Sw<3,3,3> on 2-B elements, atom 1024 B (8 rows x 128 B)".
[[nodiscard]] std::string swizzleAtomCaption(TensorSwizzle mode, uint32_t elemBytes);

/// "(64,64):(64,1)" in elements (rows, cols):(row pitch, 1), pitch in elements.
[[nodiscard]] std::string tileLayoutText(const TileInSmem& t);

} // namespace layoutscope::views
