#pragma once
/// The operand grid (issue 12 item 5): one consumer operand of a run (wgmma A/B, tcgen05.mma A/B,
/// tcgen05.cp) element by element: the shared-memory bytes each (m, k) reads, the global element the
/// producer (a TMA tile load) left there, the element it should read, and whether the two differ.
///
/// It is computed by the same code as the scenario's consumer check (engine/src/scenario/
/// consumer_checks.cpp: the producer behind the descriptor, the inferred or stated expectation, and
/// compareRead), so the grid's mismatches are exactly the reads the check's diagnostic counts.
#include "layoutscope/analysis/consumer.hpp"
#include "layoutscope/core/result.hpp"
#include "layoutscope/scenario/scenario.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace layoutscope {

/// One operand a consumer instruction reads from shared memory.
struct ConsumerOperandRef {
    size_t instr = 0;     ///< scenario instruction (= trace instruction) index
    uint32_t operand = 0; ///< 0: A (tcgen05.cp: its source), 1: B
    std::string label;    ///< "line 17: wgmma.mma_async operand A"
};

/// Every operand of every consumer of `s` the check understands, in instruction order (A before B).
[[nodiscard]] std::vector<ConsumerOperandRef> consumerOperands(const Scenario& s);

/// One read of the operand: grid cell (m, col).
struct OperandCell {
    uint32_t m = 0;     ///< operand row: M (A, tcgen05.cp) or N (B) index
    uint32_t col = 0;   ///< grid column: the element along K (MMA) or the 16-byte chunk (tcgen05.cp)
    uint32_t k = 0;     ///< first element along K this read covers
    uint32_t addr = 0;  ///< shared::cta byte address read (after the swizzle)
    uint32_t bytes = 0; ///< bytes read: [addr, addr + bytes)
    std::array<int64_t, 2> expected{};            ///< global element it should hold (dim 0 first)
    std::optional<std::array<int64_t, 2>> actual; ///< what the producer left there; nullopt: nothing known
    bool mismatch = false;
};

struct OperandGrid {
    std::string what;      ///< "wgmma.mma_async operand A", "tcgen05.cp"
    std::string indexName; ///< "m" or "n"
    uint32_t rows = 0;     ///< M or N
    uint32_t cols = 0;     ///< K elements (MMA) or 16-byte chunks per row (tcgen05.cp)
    uint32_t cta = 0;      ///< the CTA whose shared memory is read
    /// Operand row of cell row 0: 0, or M/2 (N/2) for the odd CTA's half of a `.cta_group::2` tcgen05.mma
    /// (cells keep the row within the half; the operand's row is rowBase + m).
    uint32_t rowBase = 0;
    bool mnAlongDim0 = false; ///< m (n) runs along the tile's dimension 0 (else K does)
    uint32_t elemBytes = 1;   ///< bytes per element of the producer's tensor
    std::string tensor;       ///< the tensor map the producer loaded (empty when unchecked)
    uint64_t tensorAddress = 0;
    size_t producerInstr = 0; ///< the TMA load behind the descriptor's start
    /// False when the check has nothing to compare with (no TMA tile behind the descriptor, an untraced
    /// instruction, an expectation naming another tensor); `note` says which.
    bool checked = false;
    std::string note;
    std::vector<OperandCell> cells; ///< row-major: cells[m * cols + col]
    size_t mismatched = 0;          ///< cells with mismatch set (= the check diagnostic's count)
};

/// The grid of operand `ref` of `run` (which must be runScenario(s)). Errors (InvalidValue): the
/// instruction index or operand does not name a consumer operand of `s`.
[[nodiscard]] Result<OperandGrid> operandGrid(const Scenario& s, const Run& run,
                                              const ConsumerOperandRef& ref);

} // namespace layoutscope
