#pragma once
/// Tensor Memory scene: from a trace and a step, what each TMEM cell shows (PTX ISA 9.2 §9.7.16.1;
/// tcgen05_exec.hpp for the move conventions). Pure C++ (no Qt, no GL).
///
/// Cells: one per 32-bit TMEM cell. One CTA: 512 x 128 (x = column, y = lane). A CTA pair
/// (`.cta_group::2` moves in the trace) is shown side by side: CTA 2k at x [0,512), CTA 2k+1 at
/// x [512+kTmemPairGap, 1024+kTmemPairGap); `slot` columns each instead of 512 after narrowPair.
///
/// Colour = provenance, like the shared-memory view:
///   from a register (tcgen05.st)   hue = thread (lane id), lightness = register index
///   from shared memory (tcgen05.cp) the colour of the source SMEM byte (its tensor coordinate) when
///                                  the caller supplies it, else hue = source row, lightness = column
///   from TMEM (tcgen05.shift)      the colour of the cell it came from
/// Flags: kFlagWritten, kFlagCurrent (written or read by the step just played), kFlagFill (the cell is
/// outside every live allocation), and cells never written keep kUntouched.
#include "scene/cell_style.hpp"
#include "scene/document.hpp"

#include <functional>
#include <optional>
#include <vector>

namespace layoutscope::views {

inline constexpr uint32_t kTmemPairGap = 16; ///< empty columns between the two CTAs of a pair

/// One live allocation as recorded by a tcgen05.alloc move (dealloc is not in the trace).
struct TmemAllocBox {
    uint32_t cta = 0;
    uint32_t column = 0;
    uint32_t nCols = 0;
    uint32_t taddr = 0;
    uint32_t instr = 0;
};

struct TmemCellRef {
    uint32_t cta = 0;
    uint32_t lane = 0;
    uint32_t column = 0;
    friend bool operator==(const TmemCellRef&, const TmemCellRef&) = default;
};

/// Colour of a shared-memory byte (cta, shared::cta address) if the caller knows it (e.g. from the
/// SMEM scene); nullopt falls back to the source row/column colour.
using SmemColourFn = std::function<std::optional<Rgba8>(uint32_t cta, uint32_t addr)>;

struct TmemScene {
    uint32_t step = 0;
    uint32_t firstCta = 0;       ///< CTA shown at x = 0
    uint32_t ctaCount = 1;       ///< 1, or 2 for a CTA pair
    std::vector<int32_t> moveOf; ///< per cell: last move that wrote it, -1 none
    std::vector<Rgba8> texels;   ///< row-major, width() per row
    std::vector<TmemAllocBox> allocs;
    size_t observedMarked = 0; ///< cells marked kFlagDiffers: they differ from an `observe tmem` dump
    /// Cells marked kFlagDiffers because a tcgen05.cp filled them from 16-byte chunks that hold another
    /// element than the tile (scene/tmem_expected.hpp), and how many distinct such chunks they show.
    size_t expectedMarked = 0, expectedChunks = 0;
    size_t expectedUnchecked = 0; ///< tcgen05.cp operands the marks did not check (TmemExpectations)
    /// Cells marked kFlagDiffers because a tcgen05.mma's D there differs from the product of the tiles beyond
    /// the tolerance (scene/tmem_dvalues.hpp, the run's value check).
    size_t dValueMarked = 0;
    /// The checked tcgen05.mma accumulators are coloured by value (colourMmaDByValue), from dMin (blue) to
    /// dMax (yellow), instead of by element.
    bool dByValue = false;
    double dMin = 0, dMax = 0;
    bool mmaShown = false; ///< a tcgen05.mma accumulator was written by this step (its own colours)
    /// Columns shown per CTA: 512, or fewer when a pair is narrowed to its allocated columns (narrowPair).
    uint32_t slot = 512;
    [[nodiscard]] uint32_t width() const { return ctaCount * slot + (ctaCount - 1) * kTmemPairGap; }
    [[nodiscard]] uint32_t height() const { return 128; }
    /// The TMEM cell under grid cell (x, y); nullopt in the gap or outside.
    [[nodiscard]] std::optional<TmemCellRef> cellAt(uint32_t x, uint32_t y) const;
    /// Grid cell of a TMEM cell; nullopt when that CTA is not shown.
    [[nodiscard]] std::optional<glm::uvec2> gridOf(TmemCellRef c) const;
    /// x of column 0 of `cta` (cta must be shown).
    [[nodiscard]] uint32_t originOf(uint32_t cta) const { return (cta - firstCta) * (slot + kTmemPairGap); }
};

/// The scene with each CTA's columns [0, `columns`) only (a pair fitted to its allocations: issue 24, the
/// `.cta_group::2` pair beside 2 x 512 columns squeezed each CTA's cells to a third of a cta_group::1's).
/// Cells at columns >= `columns` are left out; `columns` is clamped to [1, slot].
[[nodiscard]] TmemScene narrowPair(const TmemScene& s, uint32_t columns);

/// Sets kFlagDiffers on the shown cells that differ from the document's `observe tmem` dumps.
void markObservedTmem(const Document& doc, TmemScene& s);

/// CTAs the TMEM view shows for `cta`: the pair (cta & ~1, 2) when the trace has TMEM moves in both
/// CTAs of the pair, else (cta, 1).
[[nodiscard]] std::pair<uint32_t, uint32_t> tmemCtasShown(const Document& doc, uint32_t cta);

/// Allocations made by tcgen05.alloc moves of steps < `step` (size from the instruction summary).
[[nodiscard]] std::vector<TmemAllocBox> tmemAllocationsAt(const Document& doc, uint32_t step);
/// Every allocation tcgen05.alloc moves of steps < `step` made, also those a tcgen05.dealloc freed since
/// (what "Fit TMEM to allocation" shows: the columns the run ever allocated).
[[nodiscard]] std::vector<TmemAllocBox> tmemAllocationsMade(const Document& doc, uint32_t step);

/// State of TMEM after every move of steps < `step` (TmemReplay::seek semantics).
[[nodiscard]] TmemScene tmemSceneAt(const Document& doc, uint32_t step, uint32_t cta = 0,
                                    const SmemColourFn& smemColour = {});

/// Provenance colour of register `reg` of thread `thread` (lane id 0..31) for an instruction using
/// `regCount` registers per thread: colourForCoord(thread, reg, 32, regCount).
[[nodiscard]] Rgba8 registerColour(uint32_t thread, uint32_t reg, uint32_t regCount);

/// Registers per thread an instruction moves (max register index + 1 over its moves), >= 1.
[[nodiscard]] uint32_t registerCountOf(const Document& doc, uint32_t instr);

} // namespace layoutscope::views
