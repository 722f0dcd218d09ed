// The executor's events fed to the time-and-order model (order.hpp; issue 23, docs/async-order.md).
#include "exec/order.hpp"

#include "exec/order_mma.hpp"
#include "exec/record.hpp"
#include "layoutscope/async/timeline.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>

namespace layoutscope::exec {

async::Model* orderModel(Machine& m) {
    return m.order.get();
}

async::Site orderSite(const Machine& m, const Warp& w, const Op& op, int lane) {
    async::Site s{{w.cta, w.firstThread / 32, w.firstThread + uint32_t(lane)},
                  SourceSpan{op.line, op.column, 1},
                  op.text.substr(0, op.text.find('\n'))};
    if (!m.rec) return s; // no recording, no trace: no step
    // The recorder writes an instruction's statement before the order model hears of it (TMA, mbarrier.init
    // and expect_tx, tcgen05, wgmma): then the event's step is that statement. An instruction that records
    // nothing (a wait, arrive, ld.shared, fence, commit) gets the next statement: approximate.
    const Recorder& r = *m.rec;
    if (r.statements > r.instrStart) {
        s.step = r.statements - 1;
    } else {
        s.step = r.statements;
        s.stepApprox = true;
    }
    return s;
}

async::Site orderSiteBefore(const Machine& m, const Warp& w, const Op& op, int lane) {
    async::Site s = orderSite(m, w, op, lane);
    if (!m.rec) return s;
    s.step = m.rec->statements; // the next statement is this lane's (or the instruction's poke)
    s.stepApprox = false;
    return s;
}

async::Range orderSmem(uint32_t cta, uint64_t begin, uint64_t end, std::string name) {
    return async::Range{MemSpace::SharedCta, cta, begin, end, std::move(name)};
}

async::BarrierRef orderBarrier(uint32_t cta, uint32_t offset) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%x", offset);
    return async::BarrierRef{cta, offset, std::string("mbarrier@") + buf};
}

namespace {

std::string smemName(const Machine& m, uint64_t off) {
    for (const Symbol& s : m.p.symbols)
        if (s.space == Space::Shared && off >= s.offset && (off < s.offset + s.bytes || s.bytes == 0))
            return s.name;
    return "smem";
}

} // namespace

void orderMemory(Machine& m, Warp& w, const Op& op, uint32_t exec) {
    async::Model* mo = orderModel(m);
    // Atomics are not fed: they do not race with each other (unverified: an atomic against a plain access
    // of another thread is not checked).
    if (!mo || op.opc == Opc::Cvta || op.opc == Opc::Atom || op.opc == Opc::Red) return;
    if (op.space != Space::Shared && op.space != Space::SharedCluster && op.space != Space::Generic) return;
    const bool isStore = op.opc == Opc::St || op.opc == Opc::Red;
    const size_t addrIdx = isStore ? 0 : 1;
    if (op.o.size() <= addrIdx || op.o[addrIdx].kind != OK::Mem) return;
    const Opnd& a = op.o[addrIdx];
    const uint64_t bytes =
        uint64_t(std::max(1, op.t.bits / 8)) * (op.opc == Opc::Ld || op.opc == Opc::St ? op.vec : 1);
    for (uint32_t x = exec; x; x &= x - 1) {
        const int l = std::countr_zero(x);
        uint64_t addr = uint64_t(a.imm);
        if (a.hasBase) addr += m.reg(w, a.reg, l);
        if (a.sym >= 0) addr += symbolAddress(m, m.p.symbols[a.sym], w.cta);
        if (op.space == Space::Generic) {
            if (addr - kSharedWindow >= kWindowBytes) continue; // not shared memory
            addr -= kSharedWindow;
        }
        uint32_t cta = w.cta;
        if (!splitShared(m, w, op.space != Space::Shared, addr, cta, addr).empty()) continue;
        std::vector<async::Range> r{orderSmem(cta, addr, addr + bytes, smemName(m, addr))};
        const bool reads = op.opc != Opc::St, writes = op.opc != Opc::Ld;
        mo->access(writes ? orderSiteBefore(m, w, op, l) : orderSite(m, w, op, l),
                   reads ? r : std::vector<async::Range>{}, writes ? r : std::vector<async::Range>{});
    }
}

void orderBarrierRelease(Machine& m, bool publishesInits) {
    async::Model* mo = orderModel(m);
    if (!mo) return;
    Op bar;
    bar.text = "bar.sync";
    for (const Warp& w : m.warps) // every thread known to the model before the join
        for (uint32_t x = w.valid & ~w.exited; x; x &= x - 1)
            mo->access(orderSite(m, w, bar, std::countr_zero(x)), {}, {});
    mo->clusterBarrier(orderSite(m, m.warps.front(), bar, 0), publishesInits);
}

void orderWarpSync(Machine& m, const Warp& w, const Op& op, uint32_t member) {
    async::Model* mo = orderModel(m);
    if (!mo) return;
    std::vector<async::Site> sites;
    for (uint32_t x = member & w.valid & ~w.exited; x; x &= x - 1)
        sites.push_back(orderSite(m, w, op, std::countr_zero(x)));
    mo->warpBarrier(sites);
}

std::vector<Diagnostic> orderFinish(Machine& m, async::Timeline* timeline) {
    async::Model* mo = orderModel(m);
    if (!mo) return {};
    orderMmaFinish(m); // tcgen05.ld still pending
    Op exitOp;
    exitOp.text = "kernel exit";
    mo->finish(orderSite(m, m.warps.front(), exitOp, 0));
    const std::vector<Diagnostic>& found = mo->findings();
    std::vector<size_t> order(found.size()); // errors first, each severity in the order found
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return found[a].severity < found[b].severity; });
    std::vector<Diagnostic> out;
    std::vector<size_t> position(found.size());
    for (size_t k = 0; k < order.size(); ++k) {
        Diagnostic d = found[order[k]];
        d.message = "order: " + d.message;
        out.push_back(std::move(d));
        position[order[k]] = k;
    }
    if (timeline && m.rec) { // the recording's steps; races name their finding in `out`
        *timeline = mo->timeline();
        for (async::RaceLink& r : timeline->races)
            if (r.finding < position.size()) r.finding = position[r.finding];
    }
    return out;
}

bool operandNames(const Opnd& o, uint32_t reg) {
    if ((o.kind == OK::Reg || (o.kind == OK::Mem && o.hasBase)) && o.reg == reg) return true;
    for (const Opnd& e : o.elems)
        if (e.kind == OK::Reg && e.reg == reg) return true;
    return false;
}

} // namespace layoutscope::exec
