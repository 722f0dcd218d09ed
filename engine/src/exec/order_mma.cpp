// The executor's asynchronous MMA and Tensor Memory operations fed to the order model (order_mma.hpp; issue
// 23, docs/exec.md "Time and order"). Shared-memory operand bytes come from the addresses the executor reads
// (elementAddress of the descriptors, as umma_exec.cpp and wgmma.cpp walk them); Tensor Memory bytes from the
// trace the tcgen05 executor recorded (lane x column rectangles).
#include "exec/order_mma.hpp"

#include "async/history.hpp"

#include "exec/order.hpp"
#include "exec/order_wgmma.hpp"
#include "exec/record.hpp"
#include "exec/tcgen05_state.hpp"
#include "layoutscope/tcgen05/smem_descriptor.hpp"
#include "layoutscope/tcgen05/umma_layout.hpp"
#include "layoutscope/tcgen05/umma_ws_sp.hpp"

#include <algorithm>
#include <bit>
#include <tuple>

namespace layoutscope::exec {

/// A tcgen05.ld whose completion no thread has observed yet (no wait::ld, no read of its registers).
struct PendingLd {
    int pc = 0;
    uint32_t exec = 0;
    std::vector<uint32_t> regs;     ///< destination register slots
    std::vector<async::Range> tmem; ///< what it reads
};

struct OrderMmaState {
    std::vector<std::vector<PendingLd>> byWarp; ///< index: the warp's index in Machine::warps
    size_t pending = 0;
};

namespace {

using async::Range;

OrderMmaState& state(Machine& m) {
    if (!m.orderMma) {
        m.orderMma = std::make_shared<OrderMmaState>();
        m.orderMma->byWarp.resize(m.warps.size());
    }
    return *m.orderMma;
}

// Shared-memory element reads (cta, address) of `bytes` each, as merged ranges named `name`.
void smemRanges(std::vector<std::pair<uint32_t, uint32_t>>& at, uint32_t bytes, const char* name,
                std::vector<Range>& out) {
    std::sort(at.begin(), at.end());
    const size_t first = out.size();
    for (const auto& [cta, a] : at) {
        if (out.size() > first && out.back().cta == cta && a <= out.back().end) {
            out.back().end = std::max<uint64_t>(out.back().end, uint64_t(a) + bytes);
            continue;
        }
        out.push_back(orderSmem(cta, a, uint64_t(a) + bytes, name));
    }
}

// Tensor Memory cells (cta, lane, column, columns) as lane x column rectangles: the columns of a lane merge
// into spans, then equal spans of consecutive lanes into one rectangle.
void tmemRects(std::vector<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>>& cells, const char* name,
               std::vector<Range>& out) {
    std::sort(cells.begin(), cells.end());
    std::vector<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>> spans; // (cta, first column, end, lane)
    for (const auto& [cta, lane, col, cols] : cells) {
        if (!spans.empty()) {
            auto& [c, c0, c1, l] = spans.back();
            if (c == cta && l == lane && col <= c1) {
                c1 = std::max(c1, col + cols);
                continue;
            }
        }
        spans.emplace_back(cta, col, col + cols, lane);
    }
    std::sort(spans.begin(), spans.end());
    const size_t first = out.size();
    for (const auto& [cta, c0, c1, lane] : spans) {
        if (out.size() > first) {
            Range& b = out.back();
            const uint32_t l1 = uint32_t(b.begin >> 16) + b.lanes;
            if (b.cta == cta && (b.begin & 0xFFFF) == c0 && b.end - b.begin == c1 - c0 && lane <= l1) {
                b.lanes = std::max(b.lanes, lane + 1 - uint32_t(b.begin >> 16));
                continue;
            }
        }
        out.push_back(Range{MemSpace::TensorMemory, cta, uint64_t(lane) << 16 | c0,
                            (uint64_t(lane) << 16 | c0) + (c1 - c0), name});
    }
}

// The moves of the trace's instructions: shared memory and Tensor Memory on their source (reads) or
// destination (writes) side.
void traceRanges(const Trace& tr, bool dst, const char* smemName, const char* tmemName,
                 std::vector<Range>& out) {
    std::vector<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>> cells;
    std::vector<Range> shared;
    for (const TraceInstr& ti : tr.instrs)
        for (uint64_t i = ti.firstMove; i < ti.endMove; ++i) {
            const ByteMove mv = tr.moves[i];
            const MemRef& r = dst ? mv.dst : mv.src;
            if (r.space == MemSpace::TensorMemory)
                cells.emplace_back(r.cta, r.addr >> 16, r.addr & 0xFFFF, (mv.length + 3) / 4);
            else if (r.space == MemSpace::SharedCta)
                shared.push_back(orderSmem(r.cta, r.addr, uint64_t(r.addr) + mv.length, smemName));
        }
    std::sort(shared.begin(), shared.end(), [](const Range& a, const Range& b) {
        return std::tie(a.cta, a.begin) < std::tie(b.cta, b.begin);
    });
    for (Range& r : shared)
        if (!out.empty() && out.back().space == MemSpace::SharedCta && out.back().cta == r.cta &&
            out.back().name == r.name && r.begin <= out.back().end)
            out.back().end = std::max(out.back().end, r.end);
        else
            out.push_back(std::move(r));
    tmemRects(cells, tmemName, out);
}

bool touchesTmem(const std::vector<Range>& a, const std::vector<Range>& b) {
    for (const Range& x : a)
        for (const Range& y : b)
            if (x.space == MemSpace::TensorMemory && async::overlaps(x, y)) return true;
    return false;
}

// Issue a pending tcgen05.ld to the model now (its completion still unobserved), so that the access that
// conflicts with it is reported against it with the model's words.
void issuePending(Machine& m, async::Model& mo, size_t wi, const PendingLd& p) {
    Warp& w = m.warps[wi];
    const Op& op = m.p.ops[size_t(p.pc)];
    async::AsyncOp a;
    a.kind = async::OpKind::Tcgen05Ld;
    a.how = async::Completion::Tcgen05WaitLd;
    a.reads = p.tmem;
    std::vector<async::Site> sites;
    for (uint32_t x = p.exec; x; x &= x - 1) {
        const int l = std::countr_zero(x);
        sites.push_back(orderSite(m, w, op, l));
        for (const uint32_t r : p.regs) {
            const uint64_t at = uint64_t(w.firstThread + uint32_t(l)) << 32 | uint64_t(r) * 4;
            a.writes.push_back(Range{MemSpace::Register, w.cta, at, at + 4,
                                     r < m.p.regNames.size() ? m.p.regNames[r] : "%?"});
        }
    }
    mo.issueCollective(sites, std::move(a));
}

// Pending loads of CTA `cta` whose Tensor Memory `writes` overlaps: issued to the model, no longer pending.
void flushPending(Machine& m, async::Model& mo, uint32_t cta, const std::vector<Range>& writes) {
    if (!m.orderMma || !m.orderMma->pending) return;
    OrderMmaState& s = *m.orderMma;
    for (size_t wi = 0; wi < s.byWarp.size(); ++wi) {
        if (m.warps[wi].cta != cta) continue;
        auto& list = s.byWarp[wi];
        for (size_t k = 0; k < list.size();) {
            if (!touchesTmem(list[k].tmem, writes)) {
                ++k;
                continue;
            }
            issuePending(m, mo, wi, list[k]);
            list.erase(list.begin() + long(k));
            --s.pending;
        }
    }
}

void flushForWrites(Machine& m, async::Model& mo, const std::vector<Range>& writes) {
    std::vector<uint32_t> ctas;
    for (const Range& r : writes)
        if (r.space == MemSpace::TensorMemory && std::find(ctas.begin(), ctas.end(), r.cta) == ctas.end())
            ctas.push_back(r.cta);
    for (uint32_t c : ctas) flushPending(m, mo, c, writes);
}

} // namespace

void orderTcgen05Mma(Machine& m, Warp& w, const Op& op, int lane, const UmmaOp& u, const Trace& tr) {
    async::Model* mo = orderModel(m);
    if (!mo) return;
    const uint32_t even = u.ctaGroup == 2 ? (w.cta & ~1u) : w.cta;
    const std::array<uint32_t, 2> ctas{even, u.ctaGroup == 2 ? (even | 1u) : even};
    async::AsyncOp a;
    a.kind = async::OpKind::Tcgen05Mma;
    a.how = async::Completion::Tcgen05Commit;
    // A and B: every element where Tcgen05Executor::mma reads it (umma_exec.cpp: the row's CTA of the pair,
    // elementAddress of the descriptor; e2m1 two elements a byte; .sp: A's K / 2 stored values; .ws: B rows
    // shifted by the zero-column mask's shift, none from shared memory when B comes from a collector).
    const uint32_t kB = ummaK(u), kA = u.sparse ? kB / 2 : kB;
    uint32_t shift = 0;
    if (u.ws && u.hasZeroColumnMask)
        if (Result<UmmaZeroColumns> z = ummaZeroColumnMask(u.m, u.n, u.zeroColumnMask); z) shift = z->shift;
    auto operand = [&](uint64_t descValue, bool mnMajor, UmmaType t, uint32_t rows, bool isA) {
        const uint32_t K = isA ? kA : kB, rowShift = isA ? 0 : shift;
        const SmemDescriptor d = decodeSmemDescriptor(descValue);
        const bool packed4 = ummaTypeBits(t) == 4;
        std::vector<std::pair<uint32_t, uint32_t>> at;
        at.reserve(size_t(rows) * K);
        for (uint32_t r = 0; r < rows; ++r) {
            const UmmaRowHome h = isA ? ummaARow(u, r) : ummaBRow(u, r);
            for (uint32_t k = 0; k < K; ++k)
                at.emplace_back(ctas[h.cta], elementAddress(d, mnMajor ? MatrixMajor::MN : MatrixMajor::K,
                                                            packed4 ? 8 : ummaTypeBits(t), h.row + rowShift,
                                                            packed4 ? k / 2 : k));
        }
        smemRanges(at, packed4 ? 1 : ummaTypeBits(t) / 8, isA ? "A operand" : "B operand", a.reads);
    };
    if (u.aFromTmem) {
        const TmemAddr a0 = decodeTmemAddress(u.aTaddr);
        std::vector<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>> cells;
        for (uint32_t r = 0; r < u.m; ++r)
            for (uint32_t k = 0; k < kA; ++k) {
                const UmmaDCell c = ummaATmemCell(u, r, k);
                cells.emplace_back(ctas[c.cta], a0.lane + c.lane, a0.column + c.column, 1);
            }
        tmemRects(cells, "A operand (TMEM)", a.reads);
    } else {
        operand(u.descA, u.transA, u.a, u.m, true);
    }
    const bool collected =
        u.ws && (u.collector.op == UmmaCollectorOp::Use || u.collector.op == UmmaCollectorOp::Lastuse);
    if (!collected) operand(u.descB, u.transB, u.b, u.n, false);
    if (u.sparse) // the metadata cells the executor recorded as reads (umma_ws_sp_exec.cpp)
        traceRanges(tr, false, "sparsity metadata", "sparsity metadata (TMEM)", a.reads);
    else
        traceRanges(tr, false, "scale factors", "scale factors (TMEM)", a.reads); // block scaling
    traceRanges(tr, true, "D", "D (TMEM)", a.writes);
    if (a.writes.empty()) { // untraced (over the trace budget): D's rectangle
        const UmmaDShape shape = ummaDShape(u);
        const TmemAddr d0 = decodeTmemAddress(u.dTaddr);
        const uint64_t b = uint64_t(d0.lane) << 16 | d0.column;
        for (uint32_t c = 0; c < u.ctaGroup; ++c)
            a.writes.push_back(Range{MemSpace::TensorMemory, ctas[c], b, b + ummaDColumns(shape), "D (TMEM)",
                                     ummaDLaneSpan(shape)});
    }
    flushForWrites(m, *mo, a.writes);
    mo->issue(orderSite(m, w, op, lane), std::move(a));
}

void orderTcgen05CpShift(Machine& m, Warp& w, const Op& op, int lane, bool cp, const Trace& tr) {
    async::Model* mo = orderModel(m);
    if (!mo) return;
    async::AsyncOp a;
    a.kind = cp ? async::OpKind::Tcgen05Cp : async::OpKind::Tcgen05Shift;
    a.how = async::Completion::Tcgen05Commit;
    traceRanges(tr, false, "tcgen05.cp source", "TMEM", a.reads);
    traceRanges(tr, true, "smem", "TMEM", a.writes);
    flushForWrites(m, *mo, a.writes);
    mo->issue(orderSite(m, w, op, lane), std::move(a));
}

void orderTcgen05LdSt(Machine& m, Warp& w, const Op& op, uint32_t exec, bool store, const Trace& tr,
                      const Opnd& vec) {
    async::Model* mo = orderModel(m);
    if (!mo || !exec) return;
    if (store) { // one operation of the warp, complete for each thread at its tcgen05.wait::st
        async::AsyncOp a;
        a.kind = async::OpKind::Tcgen05St;
        a.how = async::Completion::Tcgen05WaitSt;
        traceRanges(tr, true, "smem", "TMEM", a.writes);
        flushForWrites(m, *mo, a.writes);
        std::vector<async::Site> sites;
        for (uint32_t x = exec; x; x &= x - 1) sites.push_back(orderSite(m, w, op, std::countr_zero(x)));
        mo->issueCollective(sites, std::move(a));
        return;
    }
    // The load's Tensor Memory read, checked now against what wrote it (unverified: the warp's read is
    // checked with its first lane's clock; every lane of a .sync.aligned load waited the same way).
    PendingLd p;
    p.pc = int(&op - m.p.ops.data());
    p.exec = exec;
    traceRanges(tr, false, "smem", "TMEM", p.tmem);
    mo->access(orderSite(m, w, op, std::countr_zero(exec)), p.tmem, {});
    for (const Opnd& e : vec.elems)
        if (e.kind == OK::Reg) p.regs.push_back(e.reg);
    OrderMmaState& s = state(m);
    s.byWarp[size_t(&w - m.warps.data())].push_back(std::move(p));
    ++s.pending;
}

void orderTcgen05Wait(Machine& m, Warp& w, const Op& op, uint32_t exec, bool ld) {
    async::Model* mo = orderModel(m);
    if (!mo) return;
    if (ld && m.orderMma) { // every load of the warp completes
        auto& list = m.orderMma->byWarp[size_t(&w - m.warps.data())];
        m.orderMma->pending -= list.size();
        list.clear();
    }
    for (uint32_t x = exec; x; x &= x - 1)
        mo->tcgen05Wait(orderSite(m, w, op, std::countr_zero(x)),
                        ld ? async::Completion::Tcgen05WaitLd : async::Completion::Tcgen05WaitSt);
}

void orderTcgen05Dealloc(Machine& m, Warp& w, const Op& op, uint32_t exec, uint32_t col, uint32_t n) {
    async::Model* mo = orderModel(m);
    if (!mo || !exec) return;
    const Range freed{MemSpace::TensorMemory, w.cta, col, uint64_t(col) + n, "TMEM", 128};
    flushPending(m, *mo, w.cta, {freed});
    mo->dealloc(orderSite(m, w, op, std::countr_zero(exec)), col, col + n);
}

void orderWgmma(Machine& m, const Op& op, const std::array<Warp*, 4>& warps,
                const std::vector<uint32_t>& addrs, uint32_t bytes) {
    async::Model* mo = orderModel(m);
    if (!mo) return;
    Warp& w0 = *warps[0];
    std::vector<std::pair<uint32_t, uint32_t>> at;
    at.reserve(addrs.size());
    for (const uint32_t a : addrs) { // a .shared::cta address may carry the CTA's rank bits (program.hpp)
        uint32_t cta = w0.cta;
        uint64_t off = a;
        if (splitShared(m, w0, false, a, cta, off).empty()) at.emplace_back(cta, uint32_t(off));
    }
    async::AsyncOp o;
    o.kind = async::OpKind::Wgmma;
    o.how = async::Completion::WgmmaGroup;
    smemRanges(at, bytes, "wgmma operand", o.reads);
    wgmmaRegisterRanges(m, op, warps, o.reads, o.writes); // D and a register A (order_wgmma.cpp)
    std::vector<async::Site> sites;
    for (Warp* w : warps)
        for (uint32_t x = w->valid & ~w->exited; x; x &= x - 1)
            sites.push_back(orderSite(m, *w, op, std::countr_zero(x)));
    // Recorded by the warpgroup's first warp when it arrived, executed by the last: that statement.
    if (m.rec && warps[0]) {
        const auto it = m.rec->wgmmaStatement.find({warps[0]->cta, warps[0]->firstThread / 128});
        if (it != m.rec->wgmmaStatement.end())
            for (async::Site& st : sites) st.step = it->second, st.stepApprox = false;
    }
    mo->issueCollective(sites, std::move(o));
}

void orderRegisterUse(Machine& m, Warp& w, const Op& op, uint32_t exec) {
    if (!m.orderMma || !m.orderMma->pending || !exec) return;
    OrderMmaState& s = *m.orderMma;
    const size_t wi = size_t(&w - m.warps.data());
    auto& list = s.byWarp[wi];
    if (list.empty()) return;
    const bool tcgen = op.opc == Opc::Tcgen05;
    if (tcgen && static_cast<Tc>(op.mode) == Tc::Ld)
        return; // a load writes its registers, it does not use them
    // tcgen05.st reads its source registers asynchronously; every other instruction reads registers at once,
    // and the register true dependency completes the load (ref/tcgen05.md §4, PTX §9.7.16.6.4.5).
    const Opnd* asyncRead =
        tcgen && static_cast<Tc>(op.mode) == Tc::St && !op.o.empty() ? &op.o.back() : nullptr;
    for (size_t k = 0; k < list.size();) {
        const PendingLd& p = list[k];
        bool used = false, racy = false;
        uint32_t racyReg = 0;
        for (const uint32_t r : p.regs) {
            for (const Opnd& o : op.o)
                if (operandNames(o, r)) {
                    used = true;
                    if (&o == asyncRead && !racy) racy = true, racyReg = r;
                }
            if (op.guard >= 0 && uint32_t(op.guard) == r) used = true;
        }
        if (!used) {
            ++k;
            continue;
        }
        if (racy) // the scenario path's rule: a race naming the load, the reader and tcgen05.wait::ld
            if (async::Model* mo = orderModel(m)) {
                issuePending(m, *mo, wi, p);
                const int l = std::countr_zero(exec & p.exec ? exec & p.exec : exec);
                const uint64_t at = uint64_t(w.firstThread + uint32_t(l)) << 32 | uint64_t(racyReg) * 4;
                mo->access(orderSite(m, w, op, l),
                           {Range{MemSpace::Register, w.cta, at, at + 4,
                                  racyReg < m.p.regNames.size() ? m.p.regNames[racyReg] : "%?"}},
                           {});
            }
        list.erase(list.begin() + long(k));
        --s.pending;
    }
}

void orderMmaFinish(Machine& m) {
    async::Model* mo = orderModel(m);
    if (!mo || !m.orderMma) return;
    for (size_t wi = 0; wi < m.orderMma->byWarp.size(); ++wi)
        for (const PendingLd& p : m.orderMma->byWarp[wi]) issuePending(m, *mo, wi, p);
    m.orderMma->byWarp.assign(m.orderMma->byWarp.size(), {});
    m.orderMma->pending = 0;
}

} // namespace layoutscope::exec
