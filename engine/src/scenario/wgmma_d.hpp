#pragma once
// Internal: wgmma.mma_async's accumulator in a scenario run (issue 24 item 4). wgmma_d.cpp computes D into
// the {d...} registers of the warpgroup and records the register writes; wgmma_values.cpp checks them
// against the product of the global tiles (the public replay is analysis/mma_values.hpp wgmmaDValues).
#include "layoutscope/analysis/mma_values.hpp"
#include "scenario/parse.hpp"

#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace layoutscope::scn {

inline constexpr const char* kWgmmaDRef =
    "PTX ISA 9.2 §9.7.15.5.2 (wgmma.mma_async), §9.7.15.5.1.1 (wgmma D fragment)";

/// The 4 warps of the warpgroup of wgmma `in` (warps 4 (in.warp / 4) .. + 3 of in.cta).
[[nodiscard]] inline uint32_t wgmmaFirstWarp(const ScenarioInstr& in) {
    return in.warp / 4 * 4;
}

/// D of wgmma.mma_async s.instrs[instrIndex] (kind NoOp, `wgmma` set), inside the trace instruction `tb` has
/// open: A (64 x 16) and B (N x 16) read from in.cta's shared memory element by element where the operand
/// check reads them (consumerOperandSpecs: the descriptor, its major-ness, elementAddress), decoded as the
/// instruction's .f16 / .bf16, negated by imm-scale-a/b = -1; D = A*B (+ the registers' D when scale-d is
/// 1) summed in binary64 and rounded once (RuleId::WgmmaValues, unverified order); every thread's
/// registers written at the fragment layout (core/wgmma_fragment.hpp) into `warps` (added on first use),
/// one 4-byte move per (thread, register), one step per register of {d...}. Returns the summary's words
/// for D; an element past the end of shared memory computes no D and appends an error to `findings`.
struct WgmmaDResult {
    bool computed = false;
    std::string summary; ///< "D = A*B into r0..r31 of warps 0-3 (...)" or why D was not computed
};
[[nodiscard]] WgmmaDResult runWgmmaD(const Scenario& s, size_t instrIndex, MachineState& state,
                                     std::vector<ScenarioWarp>& warps, TraceBuilder& tb,
                                     std::vector<Diagnostic>& findings);

class WgmmaValueCheck {
  public:
    /// wgmma `instrIndex` has run: compare the D registers of its warpgroup in `warps` with the product
    /// of the global tiles behind its descriptors (plus the previous reference of the same registers, or
    /// their `regs` values, when scale-d is 1); one error in `findings` (when given) if any element
    /// differs. `operandsClean`: the operand check found nothing (the message then names the likely
    /// cause: a .f16/.bf16 mix-up). Returns the cells (empty, with `skipped` set, when not checked).
    MmaDCheck check(const Scenario& s, size_t instrIndex, const Trace& t, ProducerIndex& index,
                    const GlobalMemory& g, const std::vector<ScenarioWarp>& warps, bool operandsClean,
                    std::vector<Diagnostic>* findings);

  private:
    /// (CTA, first warp of the warpgroup, {d...} registers) -> the reference (64 x N) and sum of |a*b|.
    using Key = std::tuple<uint32_t, uint32_t, std::vector<uint32_t>>;
    std::map<Key, std::pair<std::vector<double>, std::vector<double>>> m_ref;
};

/// The whole wgmma.mma_async of a run (run.cpp): runWgmmaD, the operand check (checkWgmmaConsumer) and, when
/// D was computed, `check`; their errors appended to `findings`. Returns the trace instruction's summary.
[[nodiscard]] std::string runWgmma(const Scenario& s, size_t instrIndex, MachineState& state,
                                   std::vector<ScenarioWarp>& warps, const Trace& t, TraceBuilder& tb,
                                   ProducerIndex& producers, WgmmaValueCheck& check,
                                   std::vector<Diagnostic>& findings);

} // namespace layoutscope::scn
