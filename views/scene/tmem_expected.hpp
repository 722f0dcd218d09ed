#pragma once
/// Expected-vs-actual overlay of the Tensor Memory view (issue 12 item 5): the TMEM cells a tcgen05.cp
/// filled from shared-memory chunks that the consumer check says hold another element than the tile.
///
/// The truth is the check's own: operandGrid (analysis/operand_grid.hpp, computed by the code behind the
/// "tcgen05.cp reads N of M 16-byte chunks ..." diagnostic) says which 16-byte source chunks mismatch;
/// the cp's byte moves in the trace say which TMEM cells each chunk's bytes land in (decompression and
/// multicast replicas included). A cell is marked while the cp's move is still the last one that wrote
/// it. Marks are kFlagDiffers (a tint and an outline over the producer colour, which stays).
#include "scene/document.hpp"
#include "scene/tmem_scene.hpp"

#include <array>
#include <optional>
#include <string>
#include <unordered_map>

namespace layoutscope::views {

/// One TMEM cell written from a mismatched chunk: what its first byte should hold and holds.
struct TmemWrongCell {
    uint32_t instr = 0;                           ///< the tcgen05.cp (trace instruction)
    uint32_t m = 0;                               ///< source row (the operand grid's m)
    uint32_t chunk = 0;                           ///< 16-byte chunk of the row (the operand grid's column)
    uint32_t byteInChunk = 0;                     ///< the cell's first source byte within the chunk
    uint32_t srcAddr = 0;                         ///< shared::cta address of that byte
    std::array<int64_t, 2> expected{};            ///< global element it should hold (dim 0 first)
    std::optional<std::array<int64_t, 2>> actual; ///< what the producer left there; nullopt: unknown
    std::string tensor;                           ///< the producer's tensor map
    uint32_t producerLine = 0, line = 0;          ///< source lines of the TMA load and the cp
};

/// Every cp cell of a document that holds another element than the tile, by the move that wrote it.
struct TmemExpectations {
    /// key: move index << 8 | cell within the move (4 destination bytes each)
    std::unordered_map<uint64_t, TmemWrongCell> cells;
    std::unordered_map<uint32_t, size_t> chunksByInstr; ///< per cp: mismatched chunks (the diagnostic's)
    size_t unchecked =
        0; ///< tcgen05.cp operands past maxCps: not marked, whatever they hold (the legend says)
    [[nodiscard]] bool empty() const { return cells.empty(); }
    [[nodiscard]] const TmemWrongCell* at(size_t move, uint32_t cell) const;
};

/// Computed once per document: the scenario's tcgen05.cp operands (the first `maxCps` of them; each
/// grid replays the moves before its cp), empty without a trace or a mismatch.
[[nodiscard]] TmemExpectations tmemExpectations(const Document& doc, size_t maxCps = 64);

/// Sets kFlagDiffers on the shown cells whose last write is a marked cp cell, and counts them
/// (TmemScene::expectedMarked, expectedChunks; expectedUnchecked = e.unchecked).
void markExpectedTmem(const Document& doc, const TmemExpectations& e, TmemScene& s);

/// The marked cell under grid cell (x, y) of `s`, if any.
[[nodiscard]] const TmemWrongCell* expectedCellAt(const Document& doc, const TmemExpectations& e,
                                                  const TmemScene& s, uint32_t x, uint32_t y);

/// Inspector lines for a marked cell: "expected global (x=0, y=1), holds (x=64, y=0)" and where it comes
/// from.
[[nodiscard]] std::string expectedCellText(const TmemWrongCell& c);

} // namespace layoutscope::views
