#pragma once
// Internal to the consumer check (consumer_checks.cpp, its specs in consumer_specs.cpp) and the operand
// grid (operand_grid.cpp): one descriptor operand of a consumer instruction, and what it is compared with.
// Both the check's diagnostic and the GUI's operand grid are built from these, so they cannot disagree.
#include "scenario/parse.hpp"

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace layoutscope::scn {

// A consumer operand read through a descriptor, as the generic check sees it.
struct OperandSpec {
    std::string what;     ///< "tcgen05.cp", "wgmma.mma_async operand A"
    std::string tensorIx; ///< index names: "m" or "n"
    std::string descName;
    SmemDescriptor desc;
    bool mnMajor = false;
    std::string transName; ///< the operand that flips the major-ness ("imm-trans-a"), empty: fixed K-major
    std::optional<OperandExpectation> expect; ///< a stated expectation (else inferred from the producer)
    std::function<std::vector<OperandRead>(const SmemDescriptor&, bool mnMajor)> reads;
    uint32_t cta = 0; ///< the CTA whose shared memory it reads
    /// `.cta_group::2` tcgen05.mma: the half of A (B) one CTA of the pair holds. Its reads are rows
    /// [0, rows) of that CTA's shared memory, which are operand rows rowBase + row. unverified
    /// (RuleId::Tcgen05MmaCtaPair): how the pair splits the operands.
    uint32_t rowBase = 0;
    bool pairHalf = false;
    uint32_t k = 0;        ///< MMA: elements of K one instruction reads (0: tcgen05.cp, no k-blocks)
    uint32_t rows = 0;     ///< MMA: rows (M or N, or the pair half) one instruction reads
    uint32_t elemBits = 0; ///< MMA: element width
};

/// The operand specs of instruction `instrIndex`: tcgen05.cp one, wgmma / tcgen05.mma .cta_group::1 two
/// (A, B), tcgen05.mma .cta_group::2 four (A and B, each as the even CTA's half and the odd CTA's half),
/// anything else none.
[[nodiscard]] std::vector<OperandSpec> consumerOperandSpecs(const Scenario& s, size_t instrIndex);
/// The tcgen05.cp spec for form `f` reading through descriptor `descValue` named `descName`.
[[nodiscard]] OperandSpec cpOperandSpec(const Scenario& s, size_t instrIndex, const CpForm& f,
                                        uint64_t descValue, std::string descName);
/// The wgmma.mma_async (tcgen05.mma) operand specs of instruction `instrIndex`: none when it is no wgmma
/// (tcgen05.mma).
[[nodiscard]] std::vector<OperandSpec> wgmmaOperandSpecs(const Scenario& s, size_t instrIndex);
[[nodiscard]] std::vector<OperandSpec> ummaOperandSpecs(const Scenario& s, size_t instrIndex);

// The TMA tile load behind a descriptor.
struct Producer {
    const TmaTileLoad* op = nullptr;
    size_t index = 0; ///< scenario instruction
    TileGeometry g;
};

// What an operand is compared with: the producer, the element the operand's (0, 0) should hold, and which
// way its indices run over the tile.
struct ResolvedOperand {
    Producer p;
    std::array<int64_t, 2> origin{};
    std::string tensor;       ///< the producer's tensor map name
    bool mnAlongDim0 = false; ///< m (or n) along dimension 0 (stated, else as the major-ness says)
    bool wrongTensor = false; ///< an `expect` names another tensor than the producer's
    /// The direction came from the data (an `expect`, the tensor's `roles=`, or the only way the box holds
    /// the operand), not from the descriptor under test; `rolesNote` says which, for the diagnostic.
    bool rolesKnown = false;
    std::string rolesNote;
};

/// Resolve `op` of instruction `instrIndex`; `index` is advanced to the instruction's first move.
/// nullopt (with `why` set): nothing to compare with (no TMA tile behind the descriptor, untraced).
[[nodiscard]] std::optional<ResolvedOperand> resolveOperand(const Scenario& s, size_t instrIndex,
                                                            const OperandSpec& op, const Trace& t,
                                                            ProducerIndex& index, std::string* why = nullptr);

/// The sequence check (operand_sequence.cpp): operand `op` of instruction `instrIndex` read its tile `r`
/// as expected; against the previous k-block of the same operand over the same tile, its start must be
/// exactly one k-block (op.k elements) further along K. A restart (k back to or before the previous
/// start) begins a new pass. An overlap or a gap is one error naming the right advance.
void checkKBlockStep(const Scenario& s, size_t instrIndex, const OperandSpec& op, const ResolvedOperand& r,
                     ProducerIndex& index, std::vector<Diagnostic>& findings);

} // namespace layoutscope::scn
