#pragma once
/// Differences by logical element between runs (issue 24 item 8): what each shared-memory byte and Tensor
/// Memory cell holds (an element key and a value) and how a cell of one run compares with a reference run.
/// Shared by `layoutscope-cli compare` (compareElements) and the GUI's compare window (views/scene/
/// compare_scene.*, which builds its contents with the same functions), so both count the same.
///
/// Logical element of a byte = what the move that last wrote it carried:
///   * a TMA copy (fills included): the tensor element, i.e. the tensor (its global address), the
///     coordinate of every dim (dim 0 first, cuda.h's globalDim order) and the byte inside the element;
///   * any other move: the location it was copied from (space, CTA, byte / cell address).
/// A cell of a run, against the reference run,
///   * is the same when the reference holds the same key with the same value at the same place;
///   * is reshuffled when the reference holds that key with that value at another place;
///   * differs when the reference holds that key with that value nowhere (another value, another or a
///     missing element), or when the cell is unwritten and the reference's element at this place is
///     nowhere in the run.
/// The key names the byte inside the element, so a cell is one byte (shared memory) or one 32-bit cell
/// (Tensor Memory, the key of its first byte) and the value is that byte or cell.
#include "layoutscope/core/result.hpp"
#include "layoutscope/core/trace.hpp"
#include "layoutscope/scenario/scenario.hpp"
#include "layoutscope/tcgen05/exec.hpp"

#include <array>
#include <compare>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace layoutscope {

struct ElementKey {
    MemSpace space = MemSpace::None; ///< Global: a tensor element; else where the byte came from
    uint32_t cta = 0;
    uint64_t addr = 0;              ///< tensor global address; or the source byte / cell address
    std::array<int32_t, 5> coord{}; ///< tensor elements: the coordinate, dim 0 first
    uint32_t byte = 0;              ///< tensor elements: byte inside the element
    friend auto operator<=>(const ElementKey&, const ElementKey&) = default;
    /// Same element, whatever the byte inside it.
    [[nodiscard]] bool sameElement(const ElementKey& o) const {
        return space == o.space && cta == o.cta && addr == o.addr && coord == o.coord;
    }
};

/// Per instruction of a trace: is it a TMA copy of a tensor (then its bytes are tensor elements), the
/// tensor's global address and its bytes per element (>= 1).
struct TensorCopyInfo {
    bool tensor = false;
    uint64_t globalAddress = 0;
    uint32_t elemBytes = 2;
};
/// One entry per instruction of `s` (a TMA tile, gather4/scatter4 or im2col load or store is a tensor copy).
[[nodiscard]] std::vector<TensorCopyInfo> tensorCopiesOf(const Scenario& s);

/// The element byte `byteInMove` of move `m` holds (see the file comment); `copies` per instruction.
[[nodiscard]] ElementKey elementKeyOf(const std::vector<TensorCopyInfo>& copies, const ByteMove& m,
                                      uint32_t byteInMove);

/// How a cell of a run compares with the reference run (see the file comment).
enum class CellMatch : uint8_t { Same, Reshuffled, Different };

/// Per cell of a run: its class against the reference and where the reference holds it.
struct CellMatches {
    std::vector<CellMatch> kind;
    /// Reshuffled: the reference's cell holding the same key and value, the first one; Different: a
    /// reference cell holding the same key with another value, or (an unwritten cell) the reference's
    /// cell at the same place; -1 when there is none.
    std::vector<int64_t> refAt;
    size_t reshuffled = 0, different = 0;
};

/// One side of a comparison, cell by cell: its key (nullopt: never written) and value.
struct MatchSide {
    size_t n = 0;
    std::function<const std::optional<ElementKey>&(size_t)> key;
    std::function<uint32_t(size_t)> value;
};

/// Classes of the cells of `other` against `ref`; `samePlace(i)`: the reference cell at the place of
/// `other`'s cell i, if the reference has one. O(cells): hashes of (key, value) and key -> first cell.
[[nodiscard]] CellMatches classifyCells(const MatchSide& ref, const MatchSide& other,
                                        const std::function<std::optional<size_t>(size_t)>& samePlace);
/// Per cell the stronger class of `into` and `from` (Different > Reshuffled > Same); the counts follow.
void mergeMatches(CellMatches& into, const CellMatches& from);

/// A window of one CTA's shared memory, whole 128-byte rows: [base, base + size). The smallest one that
/// covers the scenario's buffers of `cta` (when given) and every shared-memory move of `cta` in `t`.
struct SharedWindow {
    uint32_t cta = 0, base = 0, size = 0;
};
[[nodiscard]] SharedWindow sharedWindowOf(const Trace& t, uint32_t cta, const Scenario* s = nullptr);

/// Per byte of `w`: the index into t.moves of the last move of steps < `step` that wrote it, -1 none.
[[nodiscard]] std::vector<int32_t> lastSmemWriters(const Trace& t, const SharedWindow& w, uint32_t step);

/// What shared memory of one CTA holds at a step: per byte of its window, the element key and the value.
struct SmemElements {
    SharedWindow span;
    std::vector<std::optional<ElementKey>> keys;
    std::vector<uint8_t> bytes;
};
/// `moveOf` = lastSmemWriters(t, w, step) (or the same, computed by a scene).
[[nodiscard]] SmemElements smemElementsAt(const Trace& t, const MachineState& initial,
                                          const std::vector<TensorCopyInfo>& copies, const SharedWindow& w,
                                          const std::vector<int32_t>& moveOf, uint32_t step);
/// Classes of `other`'s bytes against `ref`, same place = same shared::cta address.
[[nodiscard]] CellMatches matchSmem(const SmemElements& ref, const SmemElements& other);

/// One Tensor Memory cell: CTA, lane, column.
struct TmemCell {
    uint32_t cta = 0, lane = 0, column = 0;
    friend bool operator==(const TmemCell&, const TmemCell&) = default;
};
/// The CTAs a Tensor Memory comparison of `cta` covers: the pair (cta & ~1, 2) when `t` has TMEM moves in
/// both CTAs of the pair, else (cta, 1).
[[nodiscard]] std::pair<uint32_t, uint32_t> tmemCtasOf(const Trace& t, uint32_t cta);

/// What Tensor Memory holds at a step, per cell of a list (gaps allowed: nullopt): the element key of
/// what was written there (a cell copied from shared memory by tcgen05.cp takes the key of its source
/// byte in `smem`) and the 32-bit value.
struct TmemElements {
    std::vector<std::optional<TmemCell>> cells;
    std::vector<std::optional<ElementKey>> keys;
    std::vector<uint32_t> values;
};
/// `moveOf[i]`: the last move of steps < `step` that wrote cells[i], -1 none.
[[nodiscard]] TmemElements tmemElementsAt(const Trace& t, const TmemState& initial,
                                          const std::vector<TensorCopyInfo>& copies,
                                          std::vector<std::optional<TmemCell>> cells,
                                          const std::vector<int32_t>& moveOf, uint32_t step,
                                          const SmemElements& smem);
/// Every cell of CTAs [firstCta, firstCta + count), lane by lane (CTA by CTA inside a lane), and the last
/// writer of each (steps < `step`): the cell list and moveOf of tmemElementsAt.
struct TmemCellsAt {
    std::vector<std::optional<TmemCell>> cells;
    std::vector<int32_t> moveOf;
};
[[nodiscard]] TmemCellsAt tmemCellsAt(const Trace& t, uint32_t firstCta, uint32_t count, uint32_t step);
/// Classes of `other`'s cells against `ref`, same place = the same TMEM cell.
[[nodiscard]] CellMatches matchTmem(const TmemElements& ref, const TmemElements& other);

/// Counts of one run's cells against the reference: `same` counts written cells only.
struct ElementCounts {
    size_t cells = 0, same = 0, reshuffled = 0, different = 0;
};
/// `layoutscope-cli compare`: each scenario's final state, shared memory of CTA 0 and (when every
/// scenario moves data through it) Tensor Memory. Run k > 0 against run 0; run 0 the stronger class
/// against any other (as the compare window's pane 1).
struct ElementComparison {
    std::vector<std::string> names;
    std::vector<ElementCounts> smem;
    bool hasTmem = false;
    std::vector<ElementCounts> tmem; ///< empty unless hasTmem
};
/// Loads and runs each file; the diagnostics of the first that fails (its path in `failed` when given).
[[nodiscard]] Result<ElementComparison> compareElements(const std::vector<std::string>& paths,
                                                        std::string* failed = nullptr);
/// The comparison as text ("text"), a Markdown table ("md"), CSV rows ("csv") or a JSON array ("json").
[[nodiscard]] std::string formatElementComparison(const ElementComparison& c, const std::string& format);

} // namespace layoutscope
