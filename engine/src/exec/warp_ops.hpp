#pragma once
// Internal to the executor: the warp-synchronous data exchanges (warp_ops.cpp). Each needs every live lane of
// its member mask at the same instruction (warpSync) and otherwise stops the run.
#include "exec/machine.hpp"

namespace layoutscope::exec {

/// False (after a diagnostic) when `member` names live lanes that are not in `g` (a non-converged warp).
[[nodiscard]] bool warpSync(Machine& m, Warp& w, const Op& op, uint32_t g, uint32_t member);
/// shfl.sync (PTX ISA 9.2 §9.7.9.6), vote.sync (§9.7.13.9), match.sync (§9.7.13.10), redux.sync (§9.7.13.12).
[[nodiscard]] bool shfl(Machine& m, Warp& w, const Op& op, uint32_t g, uint32_t exec);
[[nodiscard]] bool vote(Machine& m, Warp& w, const Op& op, uint32_t g, uint32_t exec);
[[nodiscard]] bool match(Machine& m, Warp& w, const Op& op, uint32_t g, uint32_t exec);
[[nodiscard]] bool redux(Machine& m, Warp& w, const Op& op, uint32_t g, uint32_t exec);

} // namespace layoutscope::exec
