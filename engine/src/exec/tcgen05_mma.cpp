// tcgen05.mma and tcgen05.commit on a running kernel (PTX ISA 9.2 §9.7.16.10.9, §9.7.16.11.1; commit arrives
// through h/xasync's mbarrier API, exec/mbarrier.hpp). The
// instruction descriptor is decoded by decodeUmmaIdesc (umma.hpp) and the product computed by the
// engine's Tcgen05Executor::mma (umma_exec.cpp: A and B read through the shared-memory descriptors at the
// consumer model's element addresses, D written at the data path layout), the scenario runner's code.
#include "exec/mbarrier.hpp"
#include "exec/order.hpp"
#include "exec/order_mma.hpp"
#include "exec/tcgen05_state.hpp"
#include "layoutscope/tcgen05/umma.hpp"
#include "layoutscope/tcgen05/umma_ws_sp.hpp"

namespace layoutscope::exec {

namespace {

// A warning of the run, once per message (Blackwell semantics this machine cannot check).
void noteOnce(Machine& m, const Op& op, const std::string& msg) {
    for (const auto& n : m.notes)
        if (n.message == msg) return;
    m.notes.push_back({Severity::Warning,
                       DiagCode::InvalidValue,
                       {op.line, op.column, 1},
                       msg,
                       "PTX ISA 9.2 §9.7.16.10.9",
                       Provenance::Assumption});
}

} // namespace

bool execTcgen05Mma(Machine& m, Warp& w, const Op& op, int lane) {
    TcgenState& st = tcgenState(m);
    // [d-tmem], a-desc | [a-tmem], b-desc, {[sp-meta-tmem],} idesc, {disable-output-lane}?, enable-input-d;
    // .ws: ..., idesc, enable-input-d {, zero-column-mask-desc} (tcgen05_decode.cpp, op.async flags)
    const bool ws = op.async & kMmaWs, sp = op.async & kMmaSp;
    const size_t at = mmaIdescOperand(op); // idesc; the operands after it shift with [sp-meta-tmem]
    const uint32_t idesc = uint32_t(readOperand(m, w, op.o[at], lane, {TK::B, 32}));
    const UmmaKind kind = static_cast<UmmaKind>(op.vec);
    const bool scaled = ummaKindBlockScaled(kind);
    Result<UmmaOp> u = scaled ? decodeUmmaIdescBlockScaled(kind, op.boolOp, op.t.bits, idesc)
                              : decodeUmmaIdesc(kind, op.boolOp, idesc, UmmaForm{ws, sp});
    if (!u) return failWith(m, op, u.error());
    if (sp) u->spMetaTaddr = uint32_t(tcgenAddress(m, w, op.o[3], lane));
    if (ws) {
        u->collector = {(op.async >> 4) & 3u, static_cast<UmmaCollectorOp>((op.async >> 6) & 3u)};
        u->hasZeroColumnMask = op.async & kMmaZeroColumnMask;
        if (u->hasZeroColumnMask) u->zeroColumnMask = readOperand(m, w, op.o[at + 2], lane, {TK::B, 64});
    }
    if (scaled) { // [scale-A-tmem], [scale-B-tmem]
        u->sfaTaddr = uint32_t(tcgenAddress(m, w, op.o[4], lane));
        u->sfbTaddr = uint32_t(tcgenAddress(m, w, op.o[5], lane));
    }
    u->dTaddr = uint32_t(tcgenAddress(m, w, op.o[0], lane));
    u->aFromTmem = op.o[1].kind == OK::Mem;
    if (u->aFromTmem)
        u->aTaddr = uint32_t(tcgenAddress(m, w, op.o[1], lane));
    else
        u->descA = readOperand(m, w, op.o[1], lane, {TK::B, 64});
    u->descB = readOperand(m, w, op.o[2], lane, {TK::B, 64});
    const bool mask = !scaled && !ws && op.o[at + 1].kind == OK::Vec;
    u->enableInputD = readOperand(m, w, op.o[scaled ? 6 : mask ? at + 2 : at + 1], lane, {TK::Pred, 1}) & 1;
    // D (and A in Tensor Memory) must lie in live allocations of every CTA the MMA writes.
    const UmmaDShape shape = ummaDShape(*u);
    const TmemAddr d = decodeTmemAddress(u->dTaddr);
    const uint32_t first = op.boolOp == 2 ? (w.cta & ~1u) : w.cta,
                   last = op.boolOp == 2 ? (w.cta | 1u) : w.cta;
    for (uint32_t c = first; c <= last && c < m.ctas.size(); ++c)
        if (checkUmmaDShape(shape) && d.column + ummaDColumns(shape) <= kTmemColumns)
            if (auto e = st.ex.checkAllocated(c, d.column, d.column + ummaDColumns(shape), "tcgen05.mma's D"))
                return failWith(m, op, *e);
    if (sp) // the sparsity metadata lives in Tensor Memory of the issuing CTA (and its peer for ::2)
        for (uint32_t c = first; c <= last && c < m.ctas.size(); ++c) {
            const uint32_t col = decodeTmemAddress(u->spMetaTaddr).column + u->spSelector;
            const uint32_t cols = ummaSparseMetaColumns(*u);
            if (col + cols <= kTmemColumns)
                if (auto e = st.ex.checkAllocated(c, col, col + cols, "tcgen05.mma.sp's sparsity metadata"))
                    return failWith(m, op, *e);
        }
    if (scaled) // the scale factors live in Tensor Memory of the issuing CTA (and its peer for ::2)
        for (uint32_t c = first; c <= last && c < m.ctas.size(); ++c)
            for (const auto& [taddr, which] :
                 {std::pair{u->sfaTaddr, UmmaOperand::A}, std::pair{u->sfbTaddr, UmmaOperand::B}}) {
                const uint32_t col = decodeTmemAddress(taddr).column, cols = ummaScaleColumns(*u, which);
                if (col + cols <= kTmemColumns)
                    if (auto e =
                            st.ex.checkAllocated(c, col, col + cols,
                                                 which == UmmaOperand::A ? "tcgen05.mma's scale factors A"
                                                                         : "tcgen05.mma's scale factors B"))
                        return failWith(m, op, *e);
            }
    // disable-output-lane (PTX ISA 9.2 §9.7.16.10.9): the Tensor Memory lanes the MMA must not update with
    // D. unverified (no Blackwell GPU here): bit i of element j names lane 32 (j % 4) + i of the pair's CTA
    // j / 4 (the even CTA's lanes in elements 0..3); those lanes keep their D cells (the trace and the
    // order model still see the whole D written).
    std::vector<std::pair<uint32_t, std::vector<uint32_t>>> keep; // (CTA << 8 | lane, its D cells)
    if (mask && checkUmmaDShape(shape) && d.column + ummaDColumns(shape) <= kTmemColumns)
        for (size_t j = 0; j < op.o[at + 1].elems.size(); ++j) {
            const uint32_t bits = uint32_t(readOperand(m, w, op.o[at + 1].elems[j], lane, {TK::B, 32}));
            const uint32_t c = first + uint32_t(j / 4);
            for (uint32_t i = 0; i < 32 && c < m.ctas.size(); ++i)
                if (bits >> i & 1) {
                    const auto cells = st.tmem.ctas[c].laneCells(32 * uint32_t(j % 4) + i);
                    keep.push_back(
                        {c << 8 | (32 * uint32_t(j % 4) + i),
                         {cells.begin() + d.column, cells.begin() + d.column + ummaDColumns(shape)}});
                }
        }
    if (!keep.empty())
        noteOnce(m, op,
                 "tcgen05.mma with a non-zero disable-output-lane mask: the lanes "
                 "it names keep their D cells (unverified: the bit to lane map)");
    syncShadow(m);
    Status s = st.ex.mma(*u, w.cta, {op.text, op.line});
    for (const auto& [where, cells] : keep)
        std::copy(cells.begin(), cells.end(),
                  st.tmem.ctas[where >> 8].laneCells(where & 0xFF).begin() + d.column);
    if (s) orderTcgen05Mma(m, w, op, lane, *u, st.trace); // h/order2: its reads, writes and completion
    st.trace = Trace{};
    if (!s) return failWith(m, op, s.error());
    if (!st.notedOrder) {
        st.notedOrder = true;
        m.notes.push_back({Severity::Warning,
                           DiagCode::InvalidValue,
                           {op.line, op.column, 1},
                           "tcgen05.mma: the products are summed exactly and rounded once into D; the "
                           "hardware's accumulation order and intermediate precision are unverified "
                           "(integer-valued inputs give exact results)",
                           "PTX ISA 9.2 §9.7.16.10.9",
                           Provenance::PtxText});
    }
    return true;
}

bool execTcgen05Commit(Machine& m, Warp& w, const Op& op, int lane) {
    // tcgen05.commit.cta_group::N.mbarrier::arrive::one{.shared::cluster}{.multicast::cluster}.b64 [mbar]{,
    // ctaMask}: one arrive on the mbarrier once every earlier async tcgen05 operation of this thread has
    // completed, which in the early schedule is now (PTX ISA 9.2 §9.7.16.11.1). With .multicast::cluster
    // the arrive goes to the mbarrier at the same offset in every CTA whose %cluster_ctarank bit is set.
    uint32_t cta = 0, offset = 0;
    if (!mbarTarget(m, w, op, op.space, tcgenAddress(m, w, op.o[0], lane), lane, cta, offset)) return false;
    // The committing warp ends its quantum: the warps waiting on this phase see it complete before the
    // committer can run ahead into the next one (it could not on hardware, where the MMA takes time).
    w.yield = true;
    // The order model (order.hpp) sees the arrive as tcgen05.commit's: its waits then complete there too, and
    // they observe the completion of the tcgen05.mma/cp/shift the thread issued before it (order_mma.cpp).
    async::Model* mo = orderModel(m);
    const async::Site site = mo ? orderSite(m, w, op, lane) : async::Site{};
    if (op.o.size() < 2) {
        if (mo) mo->tcgen05Commit(site, orderBarrier(cta, offset));
        return mbarArrive(m, op, cta, offset, 1, 0);
    }
    const uint32_t mask = uint32_t(readOperand(m, w, op.o[1], lane, {TK::B, 16})) & 0xFFFF;
    for (uint32_t r = 0; r < 16; ++r) {
        if (!(mask >> r & 1)) continue;
        if (r >= m.ctas.size())
            return m.fail(op, DiagCode::InvalidValue,
                          "tcgen05.commit ctaMask " + std::to_string(mask) + " names CTA rank " +
                              std::to_string(r) + ", outside the cluster's " + std::to_string(m.ctas.size()) +
                              " CTAs [PTX ISA 9.2 §9.7.16.11.1]");
        if (mo) mo->tcgen05Commit(site, orderBarrier(r, offset));
        if (!mbarArrive(m, op, r, offset, 1, 0)) return false;
    }
    return true;
}

} // namespace layoutscope::exec
