#pragma once
/// Global-tensor scene: a 2-D slice of an N-D tensor around what one TMA copy reads (loads) or
/// writes (stores). Pure C++ (no Qt, no GL).
///
/// Slice: cell (x, y) = tensor coordinate c with c[dimX] = lo[0] + x, c[dimY] = lo[1] + y and
/// c[d] = fixed[d] for every other dim d (dims >= tensorRank are 0).
/// Footprint by kind (tma.md §3, §8, §9):
///   tile     the box: c[d] = coords[d] + k*E[d], 0 <= k < ceil(boxDim[d] / E[d]) (E[0] = 1)
///   gather4  four rows: c[0] in [col, col + boxDim[0]), c[1] = rows[i]
///   im2col   one run of channelsPerPixel channels per pixel walked (InstrTile::pixels)
#include "scene/cell_style.hpp"
#include "scene/document.hpp"
#include "scene/global_axis.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace layoutscope::views {

struct BoxFrame; // smem_scene.hpp

/// Which 2-D slice of the tensor the global view shows.
struct GlobalSlice {
    int dimX = 0, dimY = 1;                      ///< tensor dims across and down (distinct, < rank)
    std::array<int32_t, kMaxTensorRank> fixed{}; ///< coordinate of every other dim (dimX/dimY entries unused)
    bool operator==(const GlobalSlice&) const = default;
};

/// The slice the view opens on: dims 0 across, 1 down (im2col: C across, W down) at the box's
/// first coordinate (im2col: the first pixel read inside the tensor, else the first pixel; gather4: row 0).
[[nodiscard]] GlobalSlice defaultSlice(const InstrTile& tile);

/// Name of tensor dim `d`: "dim 2", or for im2col maps "C", "W", "H", "D", "N" (rank 3: C W N, 4: C W H N).
[[nodiscard]] std::string dimName(const InstrTile& tile, int d);

/// The tensor's shape in CuTe notation, elements: "(64,32,4):(1,64,2048)".
[[nodiscard]] std::string cuteShape(const TensorMap& map);

/// An outline the overlay draws, in slice coordinates: [x0, x1) along dimX, [y0, y1) along dimY.
struct GlobalOutline {
    enum class Kind : uint8_t { Box, Row, Pixel, Halo, Window };
    Kind kind = Kind::Box;
    int64_t x0 = 0, y0 = 0, x1 = 0, y1 = 0; ///< int64: a box at INT32_MAX ends past it
    int32_t index = -1; ///< gather4 row / im2col pixel row (shared-memory row), -1 for the box
    bool oob = false;   ///< an im2col pixel outside the tensor (zero/NaN fill)
};

/// The instruction whose tile the global view shows at `step`: the last TMA copy that has moved
/// bytes before `step`, else the first one of the trace; 0 if none.
[[nodiscard]] uint32_t tileInstrAt(const Document& doc, uint32_t step);

struct GlobalScene {
    const InstrTile* tile = nullptr;
    uint32_t instr = 0;
    uint32_t step = 0;
    GlobalSlice slice;
    /// Slice coordinates of the cells along dimX (axes[0]) and dimY (axes[1]): dense around a small
    /// footprint, sparse with elided gap cells around a huge one (global_axis.hpp).
    std::array<GlobalAxis, 2> axes;
    uint32_t w = 0, h = 0; ///< cells (axes[0].cells, axes[1].cells)
    /// Footprint span [lo, hi) along dimX, dimY (over all slices, so the frame stays put).
    std::array<int64_t, 2> boxLo{0, 0}, boxHi{0, 0};
    std::vector<GlobalOutline> outlines; ///< box / rows / pixels / window in this slice
    uint32_t pixelsInSlice = 0;          ///< im2col: pixel rows of the walk that this slice shows
    /// Colour frame (the SMEM view's): hue = dim-1 offset of colourRows, lightness = dim-0 offset of
    /// colourCols.
    int32_t colourRows = 1, colourCols = 1;
    /// gather4/scatter4 (BoxFrame::gathered): the hue is the tensor row colourRowLo + offset.
    bool colourGathered = false;
    int64_t colourRowLo = 0;
    std::vector<int32_t> moveOf; ///< per cell: move that read/wrote it so far, -1 none
    /// Per cell: box row (dim 1 fastest) / gather4 row / im2col pixel row, -1 outside the footprint.
    std::vector<int32_t> rowOf;
    std::vector<Rgba8> texels;
    size_t observedMarked =
        0; ///< cells marked kFlagDiffers: their bytes differ from an `observe global` dump
    [[nodiscard]] uint32_t rank() const;
    /// Full tensor coordinate of cell (x, y); for a gap cell the first coordinate it elides.
    [[nodiscard]] std::array<int32_t, kMaxTensorRank> coordAt(uint32_t x, uint32_t y) const;
    /// Whether cell (x, y) is an elided gap (its row or column stands for coordinates not shown).
    [[nodiscard]] bool isGap(uint32_t x, uint32_t y) const;
    /// Cell of tensor coordinate `c`, or nullopt when it is not in this slice or outside the window.
    [[nodiscard]] std::optional<std::array<uint32_t, 2>>
    cellOf(const std::array<int32_t, kMaxTensorRank>& c) const;
    [[nodiscard]] bool inTensor(const std::array<int32_t, kMaxTensorRank>& c) const;
};

/// Slice `slice` of the tensor around the footprint of instruction `instr` (margin cells on each
/// side, at most 2 for im2col) at `step`: cells read/written by moves of steps < step are marked
/// (kFlagWritten), the last step's kFlagCurrent, earlier ones fade over `fadeSteps`.
[[nodiscard]] GlobalScene globalSceneAt(const Document& doc, uint32_t instr, uint32_t step,
                                        const std::vector<BoxFrame>& frames, const GlobalSlice& slice,
                                        int32_t margin = 8, uint32_t fadeSteps = 0);
/// The same on the tile's defaultSlice.
[[nodiscard]] GlobalScene globalSceneAt(const Document& doc, uint32_t instr, uint32_t step,
                                        const std::vector<BoxFrame>& frames, int32_t margin = 8,
                                        uint32_t fadeSteps = 0);

/// Shared-memory bytes [addr, addr + length) of CTA `cta` that the element at cell (x, y) went to
/// (load) or came from (store), by the latest move of the shown instruction before the scene's step.
struct SmemSpan {
    uint32_t addr = 0, length = 0;
};
[[nodiscard]] std::optional<SmemSpan> smemOfGlobalCell(const Document& doc, const GlobalScene& g, uint32_t x,
                                                       uint32_t y, uint32_t cta);

/// Cell of the global scene holding the element that move `moveIndex` carried at byte `byteInMove`
/// (nullopt when the move is another instruction's or the element is not in the slice).
[[nodiscard]] std::optional<std::array<uint32_t, 2>>
globalCellOfMoveByte(const Document& doc, const GlobalScene& g, size_t moveIndex, uint32_t byteInMove);

} // namespace layoutscope::views
