#pragma once
/// Internal to the executor: the time-and-order model of a run (issue 23; docs/async-order.md). One
/// async::Model per run, owned by the Machine (ExecOptions::order), fed the executor's events: each TMA /
/// bulk copy issued (its shared-memory reads and writes, its completion mechanism), the ld/st/atom of
/// threads on shared memory, mbarrier init / arrive / complete_tx / successful waits, bulk async-groups,
/// fences, and CTA / cluster barriers. Its findings (a read of bytes a TMA may not have written yet, a
/// reload of a stage still being read, a generic write consumed by the async proxy without
/// fence.proxy.async, ...) become errors of the run naming both PTX lines.
///
/// Hooks for h/xmma (wgmma, cp.async) and h/xtc (tcgen05): take the model with orderModel(m) (nullptr
/// when the order model is off) and a Site with orderSite(m, w, op, lane), then call the Model's
/// issue / commitGroup / waitGroup / tcgen05Commit / tcgen05Wait / fence / dealloc directly.
#include "exec/machine.hpp"
#include "layoutscope/async/async.hpp"

namespace layoutscope::exec {

/// The run's model, or nullptr when ExecOptions::order is off.
[[nodiscard]] async::Model* orderModel(Machine& m);
/// The event site of `lane` of `w` at `op` (thread, PTX line and column, instruction text) and, when the
/// run is recorded, its step: the recording's statement of this instruction when it wrote one before the
/// event, else the next statement (Site::stepApprox).
[[nodiscard]] async::Site orderSite(const Machine& m, const Warp& w, const Op& op, int lane);
/// orderSite for an event the recorder writes after it: a TMA load's delivery (its statement follows) or a
/// thread store (st, stmatrix, cp.async: its `poke` follows the instruction). Its step is the next statement
/// (not approximate; kernel_timeline.cpp checks the statement's PTX line).
[[nodiscard]] async::Site orderSiteBefore(const Machine& m, const Warp& w, const Op& op, int lane);
/// A shared::cta byte range of CTA `cta` for the model.
[[nodiscard]] async::Range orderSmem(uint32_t cta, uint64_t begin, uint64_t end, std::string name = "smem");
/// The barrier reference of the mbarrier at (cta, offset).
[[nodiscard]] async::BarrierRef orderBarrier(uint32_t cta, uint32_t offset);

/// Operand `o` names register slot `reg`: the register itself, an element of a vector, or an address's base.
[[nodiscard]] bool operandNames(const Opnd& o, uint32_t reg);

/// ld / st / atom / red of the lanes in `exec`: their shared-memory bytes as accesses of each thread.
void orderMemory(Machine& m, Warp& w, const Op& op, uint32_t exec);
/// A CTA barrier (bar.sync) or cluster barrier completed: every thread of the run is ordered after every
/// access before it (unverified over-approximation for bar.sync in a cluster: it also orders other CTAs).
void orderBarrierRelease(Machine& m, bool publishesInits = false);
/// bar.warp.sync with member mask `member`: a join of those lanes of warp `w` (async::Model::warpBarrier).
void orderWarpSync(Machine& m, const Warp& w, const Op& op, uint32_t member);
/// Kernel end: in-flight operations, then the findings as the run's diagnostics (errors first). A recorded
/// run's `timeline` (when given) receives the model's, its races' `finding` indexing the returned list.
[[nodiscard]] std::vector<Diagnostic> orderFinish(Machine& m, async::Timeline* timeline = nullptr);

} // namespace layoutscope::exec
