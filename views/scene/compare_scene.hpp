#pragma once
/// Compare mode (issue 14 item 5), the pure part: several documents side by side at one timeline
/// position, their shared-memory cells matched by logical element and their differences marked.
/// Plain C++ + GLM (no Qt): the compare window (compare_window.*) and the headless export
/// (compare_export.*) draw what this builds, with the same scene and overlay builders as the window.
///
/// Logical elements and the classes of cells (same, reshuffled, different) are the engine's
/// (layoutscope/analysis/compare_match.hpp, issue 24 item 8), so `layoutscope-cli compare` counts what
/// this window marks; this file builds them from a Document and its scenes.
#include "layoutscope/analysis/compare_match.hpp"
#include "layoutscope/analysis/metrics_table.hpp"
#include "scene/smem_scene.hpp"
#include "scene/tmem_scene.hpp"
#include "scene/view_pane.hpp"

#include <array>
#include <compare>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace layoutscope::views {

/// What one pane's shared memory holds at a step: per cell of its window, the element key (nullopt:
/// never written) and the byte value.
struct SmemContent {
    SmemWindow window;
    std::vector<std::optional<ElementKey>> keys;
    std::vector<uint8_t> bytes;
};

/// Per instruction of `doc`: whether it copies tensor elements (its InstrTile), for the engine's keys.
[[nodiscard]] std::vector<TensorCopyInfo> documentTensorCopies(const Document& doc);

/// The element a shared-memory byte holds, from its last writer `m` (byte `byteInMove` of it).
[[nodiscard]] ElementKey elementKeyOf(const Document& doc, const ByteMove& m, uint32_t byteInMove);

/// Keys and byte values of every cell of `s` (a scene of `doc` at s.step).
[[nodiscard]] SmemContent smemContentOf(const Document& doc, const SmemScene& s);

/// Cells of `c` that hold the same element as `k` (any byte of it), in cell order.
[[nodiscard]] std::vector<uint32_t> cellsOfElement(const SmemContent& c, const ElementKey& k);

/// Classes of the cells of `other` against `ref`, same place = same shared::cta address. O(cells): a
/// hash of (key, value) -> first cell of `ref`.
[[nodiscard]] CellMatches matchCells(const SmemContent& ref, const SmemContent& other);

/// What one pane's Tensor Memory holds at a step: per grid cell of its TMEM view (tmem_scene.hpp), the
/// TMEM cell shown, the element key of what was written there (nullopt: never written) and the 32-bit
/// value. The key of a cell copied from shared memory (tcgen05.cp) is the key of its source byte in
/// `smem` (the element it holds); from registers or TMEM, the source register / cell.
struct TmemContent {
    std::vector<std::optional<TmemCellRef>> cells;
    std::vector<std::optional<ElementKey>> keys;
    std::vector<uint32_t> values;
    uint32_t firstCta = 0, ctaCount = 1, width = 0; ///< the grid (TmemScene)
};
[[nodiscard]] TmemContent tmemContentOf(const Document& doc, uint32_t step, const SmemContent& smem);
/// Classes of the grid cells of `other` against `ref`, same place = the same TMEM cell (CTA, lane, column).
[[nodiscard]] CellMatches matchTmemCells(const TmemContent& ref, const TmemContent& other);

/// True when a move of `doc` reads or writes Tensor Memory: the compare window then shows a Tensor
/// Memory pane (register moves alone, e.g. a recorded `poke global`, do not make one).
[[nodiscard]] bool comparesTmem(const Document& doc);

/// How one timeline position maps to each document's step.
enum class CompareSync : uint8_t {
    Step,        ///< position i = step i of each document (clamped to its last step)
    Instruction, ///< position i = the state after instruction i of each (0: before the first)
};

/// The step of `doc` shown at position `pos` (0 without a trace).
[[nodiscard]] uint32_t compareStepOf(const Document& doc, CompareSync sync, uint32_t pos);
/// The last position: the largest step count (Step) or instruction count (Instruction).
[[nodiscard]] uint32_t compareLastPosition(const std::vector<const Document*>& docs, CompareSync sync);

/// Box frames (colour reference) of each document's instructions so that one tensor element gets one
/// colour in every pane: every TMA copy of every document uses the union of all their boxes (dims 0, 1).
[[nodiscard]] std::vector<std::vector<BoxFrame>> compareFrames(const std::vector<const Document*>& docs);

/// One document's panes at a position: shared memory (always, unless the document has no trace or no
/// shared memory: `error`) and Tensor Memory when the document has one. Each pane's overlay starts
/// with a header band naming the scenario and badges with the two counts; the legend explains the
/// difference (kFlagDiffers) and reshuffle (kFlagReshuffled) marks.
struct ComparePanes {
    std::string name;  ///< file name, the pane title
    uint32_t step = 0; ///< the document's step shown
    std::optional<ViewPane> smem, tmem;
    SmemContent content; ///< of the shared-memory pane
    CellMatches match;   ///< pane 1: the stronger class against every other pane; empty alone
    size_t differCount = 0, reshuffleCount = 0;
    TmemContent tmemContent; ///< of the Tensor Memory pane (empty without one)
    CellMatches tmemMatch;
    size_t tmemDifferCount = 0, tmemReshuffleCount = 0;
    std::string error;
};

/// Height of the header band each compare pane draws its title in, pixels.
inline constexpr float kCompareHeader = 24.0f;

/// Every document's panes at position `pos`; differences are marked against docs[0] (and docs[0]'s
/// cells that differ from any other pane). `frames` = compareFrames(docs).
[[nodiscard]] std::vector<ComparePanes> comparePanesAt(const std::vector<const Document*>& docs,
                                                       const std::vector<std::string>& names,
                                                       const std::vector<std::vector<BoxFrame>>& frames,
                                                       CompareSync sync, uint32_t pos);

/// The scenarios of a comparison: their documents (a file that fails still has one, with its
/// diagnostics), pane titles (file names) and the metrics table of `layoutscope-cli compare`.
struct CompareSet {
    std::vector<std::unique_ptr<Document>> docs;
    std::vector<std::string> names;
    std::vector<MetricColumn> columns; ///< empty when a file does not run (see errors)
    std::vector<std::string> errors;   ///< `file:line:col: error: ...` of files that do not run
    [[nodiscard]] std::vector<const Document*> documents() const;
};
[[nodiscard]] CompareSet loadCompareSet(const std::vector<std::string>& paths);

} // namespace layoutscope::views
