// The registers of wgmma.mma_async in the executor's order model (order_wgmma.hpp; issue 23 on real
// kernels). PTX ISA 9.2 §9.7.15.5.2 (wgmma.mma_async) and §9.7.15.6 (wgmma.commit_group, wgmma.wait_group):
// accessing the accumulator registers, or the registers holding a register A fragment, of a wgmma.mma_async
// before a wgmma.wait_group that waits on its wgmma-group is undefined behaviour, except that the
// accumulator may be used by further wgmma.mma_async instructions of the same shape (ordered by default).
// The rule concerns one thread's own registers, so the executor tracks it per warp (the wgmma forms are
// .sync.aligned: every thread of a warp commits and waits together): each wgmma leaves its D and A register
// slots pending, commit_group numbers the pending ones, wait_group N retires all but the N most recent
// groups. The wgmma's operation in the async model holds its register ranges (wgmmaRegisterRanges); an
// instruction that reads or writes a pending register goes to the model as that thread's access, so the
// finding has the model's words and the timeline its arrow.
#include "exec/order_wgmma.hpp"

#include "exec/mma_exec.hpp" // vecReg
#include "exec/order.hpp"

#include <algorithm>
#include <bit>
#include <set>

namespace layoutscope::exec {

/// A wgmma.mma_async of one warp whose wgmma-group the warp has not waited for yet.
struct PendingWgmma {
    int pc = 0;
    int64_t group = -1;         ///< its wgmma-group (the warp's commit count when committed); -1: none yet
    std::vector<uint32_t> d, a; ///< accumulator and register-A slots
};

/// Per warp: which registers an instruction other than wgmma.mma_async wrote since the warp's last
/// wgmma.fence (the write's fence epoch equals the warp's), and where.
struct FenceState {
    uint32_t epoch = 1;
    bool fenced = false;            ///< a wgmma.fence ran
    std::vector<uint32_t> regEpoch; ///< per register slot (lazily sized)
    std::vector<int> regPc;
};

struct OrderWgmmaState {
    bool any = false;                              ///< the program has a wgmma.mma_async at all
    std::vector<std::vector<PendingWgmma>> byWarp; ///< index: the warp's index in Machine::warps
    std::vector<int64_t> commits;                  ///< wgmma.commit_group executed, per warp
    std::vector<FenceState> fences;                ///< per warp
    std::set<int> reported;                        ///< accessing pcs reported: one finding each
    std::set<int> fenceReported;                   ///< wgmma pcs given the missing-fence warning
    size_t pending = 0;
};

namespace {

OrderWgmmaState& state(Machine& m) {
    if (!m.orderWgmma) {
        m.orderWgmma = std::make_shared<OrderWgmmaState>();
        OrderWgmmaState& s = *m.orderWgmma;
        s.any = std::any_of(m.p.ops.begin(), m.p.ops.end(), [](const Op& o) { return o.opc == Opc::Wgmma; });
        s.byWarp.resize(m.warps.size());
        s.commits.assign(m.warps.size(), 0);
        s.fences.resize(m.warps.size());
    }
    return *m.orderWgmma;
}

size_t warpIndex(const Machine& m, const Warp& w) {
    return size_t(&w - m.warps.data());
}

// The registers of operand `i` of `op` are written (a destination), not read. The first operand is the
// destination when it is a register or a vector of them (ld, mov, the ALU, mma.sync, tcgen05.ld, ...);
// stores and the asynchronous copies name memory there. setp / shfl `d|p`: the second one too.
bool writesOperand(const Op& op, size_t i) {
    if (op.o.empty() || (op.o[0].kind != OK::Reg && op.o[0].kind != OK::Vec)) return false;
    switch (op.opc) {
    case Opc::St:
    case Opc::Red:
    case Opc::Bar:
    case Opc::BarArrive:
    case Opc::BarWarp:
    case Opc::Bra:
    case Opc::Ret:
    case Opc::Exit:
    case Opc::Trap:
    case Opc::Nop:
    case Opc::Fence:
    case Opc::Stmatrix:
        return false;
    default:
        return i == 0 || (i == 1 && op.pairDest);
    }
}

std::string regName(const Machine& m, uint32_t r) {
    return r < m.p.regNames.size() ? m.p.regNames[r] : "%?";
}

// Slots of operand `o` (a register or a vector of them).
template <class F>
void forSlots(const Opnd& o, F&& f) {
    for (size_t i = 0; i < std::max<size_t>(1, o.elems.size()); ++i)
        if (const int r = vecReg(o, i); r >= 0) f(uint32_t(r));
}

// PTX ISA 9.2 §9.7.15.6.1 (wgmma.fence): a warp must execute wgmma.fence before its first wgmma.mma_async and
// between a register write by another instruction and a wgmma.mma_async that uses the register (its
// accumulator, or its A fragment in registers); wgmma.mma_async of one shape chaining an accumulator need
// none. ptxas 13 inserts the fence itself where it is missing (info C7519 "warpgroup.arrive is injected"):
// the PTX is still undefined there, so the finding is a warning. Only writes are tracked (unverified whether
// a plain read of the registers also needs the fence).
void fenceCheck(Machine& m, OrderWgmmaState& s, size_t wi, const Op& op, int pc) {
    FenceState& f = s.fences[wi];
    if (op.opc == Opc::WgmmaOrder) {
        if (op.text.find("wgmma.fence") != std::string::npos) ++f.epoch, f.fenced = true;
        return;
    }
    if (op.opc == Opc::Wgmma) {
        const MmaForm& mf = m.p.mmaForms[size_t(op.form)];
        int writer = -1;
        uint32_t reg = 0;
        auto dirty = [&](uint32_t r) {
            if (writer < 0 && r < f.regEpoch.size() && f.regEpoch[r] == f.epoch) writer = f.regPc[r], reg = r;
        };
        if (!op.o.empty()) forSlots(op.o[0], dirty);
        if (mf.aRegs && op.o.size() > 1) forSlots(op.o[1], dirty);
        if (writer < 0 && f.fenced) return;
        ++f.epoch, f.fenced = true; // as the fence ptxas inserts here: later wgmmas are not reported again
        if (!s.fenceReported.insert(pc).second) return; // one finding per wgmma line (the other warps')
        const std::string what =
            writer >= 0 ? "uses register " + regName(m, reg) + ", which `" + m.p.ops[size_t(writer)].text +
                              "` (line " + std::to_string(m.p.ops[size_t(writer)].line) +
                              ") wrote with no wgmma.fence between them"
                        : "is the warp's first wgmma.mma_async and no wgmma.fence ran before it";
        m.notes.push_back(
            Diagnostic{Severity::Warning,
                       DiagCode::InvalidValue,
                       {op.line, op.column, 1},
                       "order: `" + op.text.substr(0, op.text.find('\n')) + "` (line " +
                           std::to_string(op.line) + ") " + what +
                           ": undefined per the PTX ISA (ptxas 13 inserts the fence, info C7519, "
                           "which serialises the warpgroup). Fix: wgmma.fence.sync.aligned; "
                           "before the wgmma.mma_async (after the last register write)",
                       "PTX ISA 9.2 §9.7.15.6.1 wgmma.fence",
                       Provenance::PtxText});
        return;
    }
    for (size_t i = 0; i < op.o.size(); ++i) // the registers this instruction writes are now unfenced
        if (writesOperand(op, i))
            forSlots(op.o[i], [&](uint32_t r) {
                if (f.regEpoch.size() <= r) {
                    const size_t n = std::max<size_t>(m.p.regNames.size(), r + 1);
                    f.regEpoch.resize(n);
                    f.regPc.resize(n);
                }
                f.regEpoch[r] = f.epoch, f.regPc[r] = pc;
            });
}

} // namespace

void wgmmaRegisterRanges(const Machine& m, const Op& op, const std::array<Warp*, 4>& warps,
                         std::vector<async::Range>& reads, std::vector<async::Range>& writes) {
    if (op.o.size() < 2) return;
    const MmaForm& f = m.p.mmaForms[size_t(op.form)];
    // Each thread's slots of an operand as runs of consecutive slots (one range each: `.reg .f32 %f<N>`
    // declares consecutive slots); the finding names the register the reader names.
    auto add = [&](const Opnd& o, const char* name, std::vector<async::Range>& out) {
        std::vector<uint32_t> slots;
        forSlots(o, [&](uint32_t r) { slots.push_back(r); });
        std::sort(slots.begin(), slots.end());
        for (const Warp* w : warps)
            for (uint32_t l = 0; l < 32; ++l) {
                const uint64_t t = uint64_t(w->firstThread + l) << 32;
                for (size_t i = 0; i < slots.size();) {
                    size_t j = i + 1;
                    while (j < slots.size() && slots[j] <= slots[j - 1] + 1) ++j;
                    out.push_back(async::Range{MemSpace::Register, w->cta, t | uint64_t(slots[i]) * 4,
                                               (t | uint64_t(slots[j - 1]) * 4) + 4, name});
                    i = j;
                }
            }
    };
    add(op.o[0], "D registers", writes);
    if (f.aRegs) add(op.o[1], "A fragment registers", reads);
}

void orderWgmmaRegisters(Machine& m, const Op& op, const std::array<Warp*, 4>& warps) {
    if (!orderModel(m) || op.o.size() < 2) return;
    const MmaForm& f = m.p.mmaForms[size_t(op.form)];
    OrderWgmmaState& s = state(m);
    for (Warp* w : warps) {
        PendingWgmma p;
        p.pc = int(&op - m.p.ops.data());
        forSlots(op.o[0], [&](uint32_t r) { p.d.push_back(r); });
        if (f.aRegs) forSlots(op.o[1], [&](uint32_t r) { p.a.push_back(r); });
        s.byWarp[warpIndex(m, *w)].push_back(std::move(p));
        ++s.pending;
    }
}

void orderWgmmaGroupRegisters(Machine& m, const Warp& w, bool commit, int waitN) {
    if (!m.orderWgmma) return;
    OrderWgmmaState& s = *m.orderWgmma;
    const size_t wi = warpIndex(m, w);
    auto& list = s.byWarp[wi];
    if (commit) {
        bool any = false;
        for (PendingWgmma& p : list)
            if (p.group < 0) p.group = s.commits[wi] + 1, any = true;
        if (any) ++s.commits[wi]; // an empty group commits nothing the waits could count
        return;
    }
    // wait_group N: every committed group but the N most recent is complete (§9.7.15.6.2).
    const int64_t done = s.commits[wi] - std::max(waitN, 0);
    const size_t before = list.size();
    std::erase_if(list, [&](const PendingWgmma& p) { return p.group >= 0 && p.group <= done; });
    s.pending -= before - list.size();
}

void orderWgmmaRegisterUse(Machine& m, Warp& w, const Op& op, uint32_t exec) {
    if (!exec) return;
    OrderWgmmaState& s = state(m);
    if (!s.any) return;
    const int pc = int(&op - m.p.ops.data());
    fenceCheck(m, s, warpIndex(m, w), op, pc);
    if (!s.pending) return;
    auto& list = s.byWarp[warpIndex(m, w)];
    if (list.empty()) return;
    async::Model* mo = orderModel(m);
    if (!mo) return;
    // A later wgmma.mma_async of the same shape may use the accumulator (its D operand) with no wait.
    const bool chained = op.opc == Opc::Wgmma && op.form >= 0;
    if (s.reported.count(pc)) return;
    for (auto it = list.rbegin(); it != list.rend(); ++it) { // the latest wgmma first
        const PendingWgmma& p = *it;
        const MmaForm& pf = m.p.mmaForms[size_t(m.p.ops[size_t(p.pc)].form)];
        const MmaForm* of = chained ? &m.p.mmaForms[size_t(op.form)] : nullptr;
        const bool sameShape = of && of->m == pf.m && of->n == pf.n && of->k == pf.k && of->d == pf.d;
        for (size_t i = 0; i < op.o.size(); ++i) {
            const bool write = writesOperand(op, i) || (chained && i == 0);
            auto hit = [&](const std::vector<uint32_t>& regs, bool isD) {
                for (const uint32_t r : regs) {
                    if (!operandNames(op.o[i], r)) continue;
                    if (isD && chained && i == 0 && sameShape) continue; // the accumulator chain
                    if (!isD && !write) continue;                        // reads of a read register
                    // The thread's access; the model holds the wgmma's register ranges (orderWgmma) and
                    // words the race. One finding per accessing instruction.
                    s.reported.insert(pc);
                    const int lane = std::countr_zero(exec);
                    const uint64_t at = uint64_t(w.firstThread + uint32_t(lane)) << 32 | uint64_t(r) * 4;
                    const async::Range reg{MemSpace::Register, w.cta, at, at + 4, regName(m, r)};
                    if (write)
                        mo->access(orderSite(m, w, op, lane), {}, {reg});
                    else
                        mo->access(orderSite(m, w, op, lane), {reg}, {});
                    return true;
                }
                return false;
            };
            if (hit(p.d, true) || hit(p.a, false)) return;
        }
    }
}

} // namespace layoutscope::exec
