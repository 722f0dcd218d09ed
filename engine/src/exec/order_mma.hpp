#pragma once
/// Internal to the executor (issue 23 on real kernels): the asynchronous MMA and Tensor Memory operations
/// reported to the time-and-order model (order.hpp, docs/exec.md "Time and order"), each with the bytes it
/// reads and writes and its completion mechanism:
/// - tcgen05.mma (PTX ISA 9.2 §9.7.16.10.9): reads A and B in shared memory at the element addresses the
///   executor reads them (elementAddress of the descriptors, umma_exec.cpp's walk), or A in Tensor Memory,
///   and the block scale factors; writes D (the trace's Tensor Memory moves). Completes through
///   tcgen05.commit -> mbarrier arrive (§9.7.16.11.1).
/// - tcgen05.cp / tcgen05.shift (§9.7.16.9): the trace's moves; completes through tcgen05.commit.
/// - tcgen05.st (§9.7.16.8): writes Tensor Memory; completes at tcgen05.wait::st.
/// - tcgen05.ld (§9.7.16.8): its Tensor Memory read is checked when issued (a read of D before the MMA's
///   completion was observed is a race). Its destination registers stay pending until tcgen05.wait::ld or
///   until an instruction of the warp reads one of them: per the semantics pack (ref/tcgen05.md §4, PTX
///   §9.7.16.6.4.5) a register true dependency is honoured, so a plain read completes the load (the CuTe
///   tutorials read the registers with no wait::ld at all). An asynchronous reader of a pending register
///   (tcgen05.st's source registers; unverified whether the register dependency covers it) is the race
///   "tcgen05.ld result used before tcgen05.wait::ld" (the scenario path's rule and words); a pending load
///   whose Tensor Memory an MMA / st / cp / shift overwrites or a dealloc frees is reported as in flight.
/// - wgmma.mma_async (§9.7.15.5.2): reads A and B in shared memory (the descriptors' element addresses);
///   one operation of the warpgroup, completed by each thread's wgmma.commit_group / wait_group.
/// The shared-memory reads are async-proxy reads (a generic st.shared before them needs fence.proxy.async).
#include "exec/machine.hpp"
#include "layoutscope/core/trace.hpp"
#include "layoutscope/tcgen05/umma.hpp"

#include <array>
#include <vector>

namespace layoutscope::exec {

/// tcgen05.mma issued by `lane` (after the executor ran it: `tr` holds its moves).
void orderTcgen05Mma(Machine& m, Warp& w, const Op& op, int lane, const UmmaOp& u, const Trace& tr);
/// tcgen05.cp (cp) or tcgen05.shift issued by `lane`.
void orderTcgen05CpShift(Machine& m, Warp& w, const Op& op, int lane, bool cp, const Trace& tr);
/// tcgen05.ld / st of the warp's lanes `exec`; `vec` the register vector.
void orderTcgen05LdSt(Machine& m, Warp& w, const Op& op, uint32_t exec, bool store, const Trace& tr,
                      const Opnd& vec);
/// tcgen05.wait::ld (ld) or ::st.
void orderTcgen05Wait(Machine& m, Warp& w, const Op& op, uint32_t exec, bool ld);
/// tcgen05.dealloc of columns [col, col + n) of the warp's CTA (before the columns are freed).
void orderTcgen05Dealloc(Machine& m, Warp& w, const Op& op, uint32_t exec, uint32_t col, uint32_t n);
/// wgmma.mma_async of the warpgroup `warps`: its shared-memory operand bytes [a, a + bytes) for a in addrs.
void orderWgmma(Machine& m, const Op& op, const std::array<Warp*, 4>& warps,
                const std::vector<uint32_t>& addrs, uint32_t bytes);
/// Before each instruction (run.cpp): the registers of a pending tcgen05.ld it reads. Cheap when none is.
void orderRegisterUse(Machine& m, Warp& w, const Op& op, uint32_t exec);
/// Kernel end (order.cpp): loads still pending are reported in flight.
void orderMmaFinish(Machine& m);

} // namespace layoutscope::exec
