#pragma once
/// Internal to the executor: mbarrier objects (PTX ISA 9.2 §9.7.13.15) and the scheduler's hang check.
/// The state transitions are here for every caller: mbarrier.* instructions (mbarrier.cpp), TMA and bulk
/// copies (complete_tx, tma.cpp), tcgen05.commit (an arrive, h/xtc) and cp.async.mbarrier.arrive (h/xmma).
///
/// An mbarrier is identified by (CTA index in Machine::ctas = %cluster_ctarank, shared::cta offset). A
/// phase completes when its pending arrivals and its tx-count both reach zero; then the phase number
/// advances, pending arrivals reset to the expected count and tx-count to zero (§9.7.13.15.1-.6).
#include "exec/machine.hpp"

#include <cstdint>

namespace layoutscope::exec {

/// Where an mbarrier operand points: `addr` in `space` (.shared::cta, .shared::cluster or generic) for
/// `lane` -> (cta, offset). Checks the 8-byte alignment and the range; false + m.error otherwise.
bool mbarTarget(Machine& m, Warp& w, const Op& op, Space space, uint64_t addr, int lane, uint32_t& cta,
                uint32_t& offset);

/// The barrier at (cta, offset), or nullptr + m.error ("used before mbarrier.init") naming `op`.
MbarState* mbarAt(Machine& m, const Op& op, uint32_t cta, uint32_t offset);

/// expect-tx of `tx` bytes (tx may be 0), then `count` arrivals (count may be 0: expect_tx alone).
/// Errors: an arrival beyond the pending count, a tx-count outside ±(2^20 - 1).
bool mbarArrive(Machine& m, const Op& op, uint32_t cta, uint32_t offset, uint32_t count, int64_t tx);

/// complete-tx of `bytes` (a TMA / bulk copy's delivery, or mbarrier.complete_tx).
bool mbarCompleteTx(Machine& m, const Op& op, uint32_t cta, uint32_t offset, int64_t bytes);

/// Whether the phase with parity `parity` (parity = true) or the phase recorded in state token `token`
/// has completed (test_wait / try_wait semantics, §9.7.13.15.16).
[[nodiscard]] bool mbarPhaseDone(const MbarState& b, uint64_t waitFor, bool parity);

/// The state token of mbarrier.arrive ("the phase prior to the arrive-on operation"): phase in bits
/// [32,63), pending arrivals before the arrive in bits [0,32). unverified: the hardware's token is opaque,
/// and whether pending_count counts the token's own arrival is not stated; waits read only the phase.
[[nodiscard]] uint64_t mbarToken(const MbarState& b);

/// Execute an Opc::Mbarrier instruction for the lanes in `exec` (a failed wait marks the warp spinning).
bool execMbarrier(Machine& m, Warp& w, const Op& op, uint32_t exec);

/// The scheduler found no progress for a whole round: stop with a diagnostic naming every waiting warp
/// (the barrier, the phase it waits for, arrivals and tx bytes so far, the PTX line) and every warp
/// blocked at a bar.sync / barrier.cluster. Always returns false.
bool reportHang(Machine& m);

/// No warp can run: every live lane waits at a bar.sync, barrier.cluster.wait or wgmma.mma_async that nobody
/// else will reach. Stops with a deadlock diagnostic naming the first such warp. Always returns false.
bool reportDeadlock(Machine& m);

} // namespace layoutscope::exec
