#pragma once
/// Internal to the executor: the tcgen05 family (PTX ISA 9.2 §9.7.16) on a running kernel. Tensor Memory
/// (128 lanes x 512 columns of 32 bits per CTA, address lane << 16 | column) and its allocator live in a
/// TmemState; every instruction is executed by the engine's Tcgen05Executor (tcgen05/exec.hpp), the same
/// code the scenario runner uses, so alloc rules, ld/st maps, MMA values and D layout are shared.
///
/// Timing model (the "early schedule"): an asynchronous tcgen05 operation (mma, cp, shift) completes when
/// it is issued, so tcgen05.wait::ld/st and the fences have no data effect, and tcgen05.commit arrives on
/// its mbarrier at once. The hardware completes them later: the order model (order_mma.hpp) sees each as an
/// async operation that completes only through tcgen05.commit / wait::ld / wait::st, and reports a kernel
/// that reads a result (or reuses its operands) before waiting for it.
#include "exec/machine.hpp"
#include "layoutscope/core/memory.hpp"
#include "layoutscope/core/trace.hpp"
#include "layoutscope/tcgen05/exec.hpp"

#include <string>
#include <string_view>

namespace layoutscope::exec {

/// Op::mode of an Opc::Tcgen05 instruction.
enum class Tc : uint8_t { Alloc, Dealloc, Relinquish, Ld, St, WaitLd, WaitSt, Fence, Mma, Commit, Cp, Shift };

/// Op::async of a tcgen05.mma (tcgen05_decode.cpp): bit 0 .ws, bit 1 .sp, bit 2 a zero-column-mask-desc
/// operand (.ws), bits [4,6) the .ws collector buffer bN, bits [6,8) its UmmaCollectorOp (umma.hpp).
constexpr uint32_t kMmaWs = 1, kMmaSp = 2, kMmaZeroColumnMask = 4;
/// Operand index of idesc in a tcgen05.mma: after [sp-meta-tmem] (.sp) or b-desc.
inline size_t mmaIdescOperand(const Op& op) {
    return (op.async & kMmaSp) ? 4 : 3;
}

/// Per-run tcgen05 state: Tensor Memory of every CTA of the cluster (index = %cluster_ctarank = Machine::ctas
/// index) and the Tcgen05Executor working on it. `shadow` mirrors the CTAs' shared memory for the operand
/// reads of mma / cp (copied in before each), `trace` receives the executor's byte moves (emptied after each
/// instruction until the executor records a trace of its own).
struct TcgenState {
    explicit TcgenState(uint32_t ctas)
        : shadow(ctas, 0, kSmemBytesPerCta), tmem(ctas), ex(trace, shadow, tmem), allocPc(ctas, -1),
          pairAlloc(ctas, -1), pairDealloc(ctas, -1) {}
    MachineState shadow;
    Trace trace;
    TmemState tmem;
    Tcgen05Executor ex;
    WarpRegisters regs;       ///< tcgen05.ld's buffer (reused)
    std::vector<int> allocPc; ///< per CTA: the pc of its last tcgen05.alloc (the leak diagnostic's line)
    std::vector<int64_t> pairAlloc;   ///< .cta_group::2, per even CTA: the address its pair's first alloc got
    std::vector<int64_t> pairDealloc; ///< .cta_group::2, per even CTA: the address the first dealloc freed
    bool notedOrder = false;          ///< the MMA accumulation-order note was given
};

/// tcgen05.mma / tcgen05.commit (tcgen05_mma.cpp), one issuing lane.
bool execTcgen05Mma(Machine& m, Warp& w, const Op& op, int lane);
bool execTcgen05Commit(Machine& m, Warp& w, const Op& op, int lane);
/// The value of an address operand `[reg+imm]` / `[sym+imm]` for `lane` (a TMEM address, or a shared offset).
inline uint64_t tcgenAddress(Machine& m, Warp& w, const Opnd& o, int lane) {
    uint64_t a = static_cast<uint64_t>(o.imm);
    if (o.hasBase) a += m.reg(w, o.reg, lane);
    if (o.sym >= 0) a += symbolAddress(m, m.p.symbols[o.sym], w.cta);
    return a;
}
/// The state, created at the first tcgen05 instruction.
TcgenState& tcgenState(Machine& m);
/// Copy the CTAs' shared memory into the shadow the executor reads (before mma / cp).
void syncShadow(Machine& m);
/// The instruction text without its guard, a space before the first operand (`.b32{%r1}` -> `.b32 {%r1}`).
[[nodiscard]] std::string tcgenBody(const Op& op);
/// Stop the run with an engine diagnostic (its message and rule reference) at `op`.
bool failWith(Machine& m, const Op& op, const Diagnostic& d);

} // namespace layoutscope::exec
