// Cluster and warp forms of the async core: elect.sync (PTX ISA 9.2 §9.7.13.11), mapa (§9.7.9.16),
// barrier.cluster.arrive / wait (§9.7.13.3), fence / membar (§9.7.13.4: no data effect in the
// executor's sequentially consistent memory), and the dispatch of the h/xasync opcodes (execAsync).
// Remote shared memory: a shared::cluster address of CTA rank r is offset | r << 24, the executing
// CTA's own shared::cta addresses included (program.hpp kClusterRankShift); memory.cpp splitShared.
#include "exec/decode_async.hpp"
#include "exec/mbarrier.hpp"
#include "exec/order.hpp"

#include <bit>

namespace layoutscope::exec {

bool execCopy(Machine& m, Warp& w, const Op& op, uint32_t exec); // tma.cpp

namespace {

bool elect(Machine& m, Warp& w, const Op& op, uint32_t g, uint32_t exec) {
    // elect.sync d|p, membermask
    if (op.o.size() != 3 || !op.pairDest)
        return m.fail(op, DiagCode::Syntax, "elect.sync needs d|p, membermask");
    const uint32_t member = uint32_t(readOperand(m, w, op.o[2], std::countr_zero(g), {TK::B, 32}));
    const uint32_t live = member & w.valid & ~w.exited;
    if ((live & g) != live)
        return m.fail(op, DiagCode::FaultIllegalInstruction,
                      "elect.sync's member mask names lanes at another instruction (a non-converged warp)");
    // unverified: PTX does not say which lane is elected; the lowest active lane of the mask is.
    const uint32_t cand = exec & member;
    const int leader = cand ? std::countr_zero(cand) : -1;
    for (uint32_t x = exec; x; x &= x - 1) {
        const int l = std::countr_zero(x);
        writeOperand(m, w, op.o[0], l, uint64_t(leader < 0 ? 0 : leader));
        writeOperand(m, w, op.o[1], l, l == leader);
    }
    return true;
}

bool mapa(Machine& m, Warp& w, const Op& op, uint32_t exec) {
    if (op.o.size() != 3) return m.fail(op, DiagCode::Syntax, "mapa needs d, a, b");
    for (uint32_t x = exec; x; x &= x - 1) {
        const int l = std::countr_zero(x);
        uint64_t a = readOperand(m, w, op.o[1], l, op.t);
        const uint64_t rank = readOperand(m, w, op.o[2], l, {TK::U, 32}) & 0xffffffffu;
        if (rank >= m.ctas.size())
            return m.fail(op, DiagCode::FaultLaunchFailure,
                          "mapa to CTA rank " + std::to_string(rank) + " by " + m.who(w, l) +
                              "; the cluster has " + std::to_string(m.ctas.size()) + " CTAs (--cluster)");
        const bool generic = op.space == Space::Generic;
        if (generic) {
            if (a - kSharedWindow >= kWindowBytes)
                return m.fail(op, DiagCode::FaultLaunchFailure,
                              "mapa of a generic address outside shared memory by " + m.who(w, l));
            a -= kSharedWindow;
        }
        a &= (uint64_t(1) << kClusterRankShift) - 1;
        const uint64_t d = (a | rank << kClusterRankShift) + (generic ? kSharedWindow : 0);
        writeOperand(m, w, op.o[0], l, maskBits(d, op.t.bits));
    }
    return true;
}

bool clusterBarrier(Machine& m, Warp& w, const Op& op, uint32_t g, uint32_t exec) {
    if (exec != g)
        return m.fail(op, DiagCode::Unsupported,
                      "a predicated-off barrier.cluster in part of a warp is not modelled");
    if (op.mode == 0) { // arrive
        if (w.clusterArrived & exec)
            return m.fail(op, DiagCode::InvalidValue,
                          "barrier.cluster.arrive twice without barrier.cluster.wait by " +
                              m.who(w, std::countr_zero(w.clusterArrived & exec)) +
                              " (PTX ISA 9.2 §9.7.13.3)");
        w.clusterArrived |= exec;
        m.clusterArriveRelaxed |= op.text.find(".relaxed") != std::string::npos;
        clusterBarrierCheck(m);
        return true;
    }
    // Lanes whose arrival's phase has not completed yet wait; the others (their phase completed, or
    // unverified: no arrive at all) pass.
    const uint32_t waiting = exec & w.clusterArrived;
    if (waiting) w.blocked |= waiting, w.blockedBarrier = kClusterBarrierId;
    return true;
}

} // namespace

void clusterBarrierCheck(Machine& m) {
    bool any = false;
    for (const Warp& w : m.warps) {
        const uint32_t live = w.valid & ~w.exited;
        if ((w.clusterArrived & live) != live) return;
        any |= w.clusterArrived != 0;
    }
    if (!any) return;
    ++m.clusterPhase;
    orderBarrierRelease(m,
                        !m.clusterArriveRelaxed); // a release arrive publishes the mbarrier inits before it
    m.clusterArriveRelaxed = false;
    for (Warp& w : m.warps) {
        w.clusterArrived = 0;
        if (w.blockedBarrier == kClusterBarrierId) w.blocked = 0, w.blockedBarrier = -1;
    }
}

bool execAsync(Machine& m, Warp& w, const Op& op, uint32_t g, uint32_t exec) {
    switch (op.opc) {
    case Opc::Mbarrier:
        return execMbarrier(m, w, op, exec);
    case Opc::Elect:
        return elect(m, w, op, g, exec);
    case Opc::Mapa:
        return mapa(m, w, op, exec);
    case Opc::ClusterBar:
        return clusterBarrier(m, w, op, g, exec);
    case Opc::Fence: // no data effect (memory is sequentially consistent here); the order model reads it
        if (async::Model* mo = orderModel(m);
            mo && (op.mode == uint8_t(FenceForm::ProxyAsync) || op.mode == uint8_t(FenceForm::MbarrierInit)))
            for (uint32_t x = exec; x; x &= x - 1)
                mo->fence(orderSite(m, w, op, std::countr_zero(x)), op.mode == uint8_t(FenceForm::ProxyAsync)
                                                                        ? async::FenceKind::ProxyAsync
                                                                        : async::FenceKind::MbarrierInit);
        return true;
    case Opc::AsyncCopy:
        return execCopy(m, w, op, exec);
    default:
        return m.fail(op, DiagCode::Unsupported, "not an async-core instruction");
    }
}

} // namespace layoutscope::exec
