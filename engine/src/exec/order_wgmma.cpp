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

struct OrderWgmmaState {
    std::vector<std::vector<PendingWgmma>> byWarp; ///< index: the warp's index in Machine::warps
    std::vector<int64_t> commits;                  ///< wgmma.commit_group executed, per warp
    std::set<int> reported;                        ///< accessing pcs reported: one finding each
    size_t pending = 0;
};

namespace {

OrderWgmmaState& state(Machine& m) {
    if (!m.orderWgmma) {
        m.orderWgmma = std::make_shared<OrderWgmmaState>();
        m.orderWgmma->byWarp.resize(m.warps.size());
        m.orderWgmma->commits.assign(m.warps.size(), 0);
    }
    return *m.orderWgmma;
}

size_t warpIndex(const Machine& m, const Warp& w) {
    return size_t(&w - m.warps.data());
}

// Operand `o` names register `reg` (a register, a vector element, or the base of an address).
bool mentions(const Opnd& o, uint32_t reg) {
    if ((o.kind == OK::Reg || (o.kind == OK::Mem && o.hasBase)) && o.reg == reg) return true;
    for (const Opnd& e : o.elems)
        if (e.kind == OK::Reg && e.reg == reg) return true;
    return false;
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

} // namespace

void wgmmaRegisterRanges(const Machine& m, const Op& op, const std::array<Warp*, 4>& warps,
                         std::vector<async::Range>& reads, std::vector<async::Range>& writes) {
    if (op.o.size() < 2) return;
    const MmaForm& f = m.p.mmaForms[size_t(op.form)];
    // Each thread's slots of an operand as runs of consecutive slots (one range each: `.reg .f32 %f<N>`
    // declares consecutive slots); the finding names the register the reader names.
    auto add = [&](const Opnd& o, const char* name, std::vector<async::Range>& out) {
        std::vector<uint32_t> slots;
        for (size_t i = 0; i < std::max<size_t>(1, o.elems.size()); ++i)
            if (const int r = vecReg(o, i); r >= 0) slots.push_back(uint32_t(r));
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
        for (size_t i = 0; i < std::max<size_t>(1, op.o[0].elems.size()); ++i)
            if (const int r = vecReg(op.o[0], i); r >= 0) p.d.push_back(uint32_t(r));
        if (f.aRegs)
            for (size_t i = 0; i < std::max<size_t>(1, op.o[1].elems.size()); ++i)
                if (const int r = vecReg(op.o[1], i); r >= 0) p.a.push_back(uint32_t(r));
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
    if (!m.orderWgmma || !m.orderWgmma->pending || !exec) return;
    OrderWgmmaState& s = *m.orderWgmma;
    auto& list = s.byWarp[warpIndex(m, w)];
    if (list.empty()) return;
    async::Model* mo = orderModel(m);
    if (!mo) return;
    const int pc = int(&op - m.p.ops.data());
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
                    if (!mentions(op.o[i], r)) continue;
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
