// mbarrier objects (PTX ISA 9.2 §9.7.13.15): init, inval, arrive (.expect_tx, .noComplete, remote
// .shared::cluster), arrive_drop, expect_tx, complete_tx, test_wait / try_wait (.parity), pending_count,
// and the scheduler's hang report. A failed try_wait / test_wait returns false to the program (its spin
// loop runs again) and marks the warp spinning on the barrier; run.cpp reports a hang when a whole round
// passes with every running warp spinning (docs/exec.md "mbarrier and hangs").
#include "exec/mbarrier.hpp"
#include "exec/decode_async.hpp"
#include "exec/order.hpp"
#include "exec/record.hpp"
#include "layoutscope/core/hex.hpp"

#include <bit>
#include <cstdio>

namespace layoutscope::exec {

namespace {

constexpr const char* kMbarRef = "PTX ISA 9.2 §9.7.13.15 (mbarrier)";
constexpr int64_t kTxLimit = (int64_t(1) << 20) - 1; // tx-count range ±(2^20 - 1), §9.7.13.15.1

uint64_t memAddress(Machine& m, Warp& w, const Opnd& o, int lane) {
    uint64_t a = static_cast<uint64_t>(o.imm);
    if (o.hasBase) a += m.reg(w, o.reg, lane);
    if (o.sym >= 0) a += symbolAddress(m, m.p.symbols[o.sym], w.cta);
    return a;
}

std::string barrierText(const Machine& m, uint32_t cta, uint32_t offset, const MbarState& b) {
    return "mbarrier at shared::cta " + hex(offset) +
           (m.ctas.size() > 1 ? " of CTA rank " + std::to_string(cta) : "") + " (phase " +
           std::to_string(b.phase) + ", " + std::to_string(b.expected - b.pending) + " of " +
           std::to_string(b.expected) + " arrivals, tx-count " + std::to_string(b.tx) + ")";
}

// Complete the current phase when both counts reached zero.
void maybeComplete(MbarState& b) {
    if (b.pending == 0 && b.tx == 0) {
        ++b.phase;
        b.pending = b.expected;
    }
}

} // namespace

bool mbarTarget(Machine& m, Warp& w, const Op& op, Space space, uint64_t addr, int lane, uint32_t& cta,
                uint32_t& offset) {
    uint64_t a = addr;
    if (space == Space::Generic) {
        if (a - kSharedWindow >= kWindowBytes)
            return m.fail(op, DiagCode::FaultLaunchFailure,
                          "the mbarrier operand " + hex(addr) + " of " + m.who(w, lane) +
                              " is not a shared-memory address (" + kMbarRef +
                              ": an mbarrier lives in .shared)");
        a -= kSharedWindow;
        space = Space::SharedCluster;
    }
    if (std::string why = splitShared(m, w, space == Space::SharedCluster, a, cta, a); !why.empty())
        return m.fail(op, DiagCode::FaultLaunchFailure, "the mbarrier operand " + hex(addr) + ": " + why);
    if (a % 8)
        return m.fail(op, DiagCode::FaultMisalignedAddress,
                      "the mbarrier operand " + hex(addr) + " of " + m.who(w, lane) +
                          " is not 8-byte aligned (an mbarrier is a .b64 object)");
    if (a + 8 > m.ctas[cta].smem.size())
        return m.fail(op, DiagCode::FaultLaunchFailure,
                      "the mbarrier operand " + hex(addr) + " is outside the CTA's " +
                          std::to_string(m.ctas[cta].smem.size()) + " bytes of shared memory");
    offset = uint32_t(a);
    return true;
}

MbarState* mbarAt(Machine& m, const Op& op, uint32_t cta, uint32_t offset) {
    auto it = m.mbars.find(uint64_t(cta) << 32 | offset);
    if (it != m.mbars.end()) return &it->second;
    m.fail(op, DiagCode::InvalidValue,
           "mbarrier at shared::cta " + hex(offset) +
               (m.ctas.size() > 1 ? " of CTA rank " + std::to_string(cta) : "") +
               " used before mbarrier.init (or after mbarrier.inval) (" + kMbarRef + ")");
    return nullptr;
}

bool mbarArrive(Machine& m, const Op& op, uint32_t cta, uint32_t offset, uint32_t count, int64_t tx) {
    MbarState* b = mbarAt(m, op, cta, offset);
    if (!b) return false;
    b->tx += tx;
    if (b->tx > kTxLimit || b->tx < -kTxLimit)
        return m.fail(op, DiagCode::InvalidValue,
                      "expect-tx of " + std::to_string(tx) + " bytes takes the tx-count of the " +
                          barrierText(m, cta, offset, *b) + " outside ±(2^20 - 1) (" + kMbarRef + ")");
    if (int64_t(count) > b->pending)
        return m.fail(op, DiagCode::InvalidValue,
                      std::to_string(count) + " arrival" + (count == 1 ? "" : "s") + " on the " +
                          barrierText(m, cta, offset, *b) +
                          ": more arrivals than the phase expects (undefined behaviour, " + kMbarRef + ")");
    b->pending -= count;
    b->lastArriveLine = op.line;
    maybeComplete(*b);
    return true;
}

bool mbarCompleteTx(Machine& m, const Op& op, uint32_t cta, uint32_t offset, int64_t bytes) {
    MbarState* b = mbarAt(m, op, cta, offset);
    if (!b) return false;
    b->tx -= bytes;
    if (b->tx < -kTxLimit)
        return m.fail(op, DiagCode::InvalidValue,
                      "complete-tx of " + std::to_string(bytes) + " bytes takes the tx-count of the " +
                          barrierText(m, cta, offset, *b) + " below -(2^20 - 1) (" + kMbarRef + ")");
    maybeComplete(*b);
    return true;
}

bool mbarPhaseDone(const MbarState& b, uint64_t waitFor, bool parity) {
    if (parity) return (b.phase & 1) != (waitFor & 1); // the phase of that parity is the previous one
    return (waitFor >> 32) < b.phase;                  // the token's phase has completed
}

uint64_t mbarToken(const MbarState& b) {
    return uint64_t(b.phase) << 32 | uint32_t(b.pending);
}

bool execMbarrier(Machine& m, Warp& w, const Op& op, uint32_t exec) {
    const auto kind = static_cast<MbarOp>(op.mode);
    const auto& o = op.o;
    const bool isWait = kind == MbarOp::TestWait || kind == MbarOp::TryWait;
    if (kind == MbarOp::PendingCount) {
        if (o.size() != 2) return m.fail(op, DiagCode::Syntax, "mbarrier.pending_count needs count, state");
        for (uint32_t x = exec; x; x &= x - 1) {
            const int l = std::countr_zero(x);
            writeOperand(m, w, o[0], l, uint32_t(readOperand(m, w, o[1], l, {TK::B, 64})));
        }
        return true;
    }
    const size_t memIdx = kind == MbarOp::Init || kind == MbarOp::Inval || kind == MbarOp::ExpectTx ||
                                  kind == MbarOp::CompleteTx
                              ? 0
                              : 1;
    if (o.size() <= memIdx || o[memIdx].kind != OK::Mem)
        return m.fail(op, DiagCode::Syntax, "expects the mbarrier address operand `[...]`");
    uint32_t failed = 0;
    bool waitRecorded = false; // a wait that observed its phase is recorded once per warp instruction
    for (uint32_t x = exec; x; x &= x - 1) {
        const int l = std::countr_zero(x);
        uint32_t cta = 0, off = 0;
        if (!mbarTarget(m, w, op, op.space, memAddress(m, w, o[memIdx], l), l, cta, off)) return false;
        auto arg = [&](size_t i, uint64_t dflt) {
            return i < o.size() ? readOperand(m, w, o[i], l, {TK::U, 32}) : dflt;
        };
        async::Model* mo = orderModel(m); // h/xasync order model (order.hpp)
        const async::BarrierRef ref = orderBarrier(cta, off);
        switch (kind) {
        case MbarOp::Init: {
            const uint64_t count = arg(1, 0);
            if (count < 1 || count > (uint64_t(1) << 20) - 1)
                return m.fail(op, DiagCode::InvalidValue,
                              "mbarrier.init count " + std::to_string(count) + " is not in [1, 2^20 - 1] (" +
                                  kMbarRef + ")");
            MbarState b;
            b.pending = b.expected = int64_t(count);
            b.initLine = op.line;
            m.mbars[uint64_t(cta) << 32 | off] = b;
            recordMbarrier(m, w, op, l, true, cta, off, count, false);
            if (mo) mo->init(orderSite(m, w, op, l), ref, uint32_t(count));
            break;
        }
        case MbarOp::Inval:
            if (!mbarAt(m, op, cta, off)) return false;
            m.mbars.erase(uint64_t(cta) << 32 | off);
            break;
        case MbarOp::ExpectTx:
            if (!mbarArrive(m, op, cta, off, 0, int64_t(arg(1, 0)))) return false;
            recordMbarrier(m, w, op, l, false, cta, off, arg(1, 0), false);
            if (mo) mo->arrive(orderSite(m, w, op, l), ref, int64_t(arg(1, 0)), false);
            break;
        case MbarOp::CompleteTx:
            if (!mbarCompleteTx(m, op, cta, off, int64_t(arg(1, 0)))) return false;
            if (mo) mo->completeTx(orderSite(m, w, op, l), ref, int64_t(arg(1, 0)));
            break;
        case MbarOp::Arrive:
        case MbarOp::ArriveDrop: {
            const bool expect = op.async & kAfExpectTx;
            const uint32_t count = expect ? 1 : uint32_t(arg(2, 1));
            const int64_t tx = expect ? int64_t(arg(2, 0)) : 0;
            if (expect) recordMbarrier(m, w, op, l, false, cta, off, uint64_t(tx), true);
            if (count == 0)
                return m.fail(op, DiagCode::InvalidValue,
                              "an arrive count of 0 (" + std::string(kMbarRef) + ")");
            MbarState* b = mbarAt(m, op, cta, off);
            if (!b) return false;
            if ((op.async & kAfNoComplete) && int64_t(count) >= b->pending && b->tx + tx == 0)
                return m.fail(op, DiagCode::InvalidValue,
                              "mbarrier.arrive.noComplete completes the phase of the " +
                                  barrierText(m, cta, off, *b) + " (undefined behaviour, " + kMbarRef + ")");
            if (kind == MbarOp::ArriveDrop) {
                b->expected -= count; // later phases expect fewer arrivals
                if (b->expected < 0)
                    return m.fail(op, DiagCode::InvalidValue,
                                  "arrive_drop below zero expected arrivals on the " +
                                      barrierText(m, cta, off, *b));
            }
            const uint64_t token = mbarToken(*b); // the phase this arrive belongs to
            if (!mbarArrive(m, op, cta, off, count, tx)) return false;
            if (o[0].kind == OK::Reg) writeOperand(m, w, o[0], l, token);
            if (mo) // unverified: arrive_drop is modelled as arrivals (the model has no drop)
                for (uint32_t k = 0; k < count; ++k)
                    mo->arrive(orderSite(m, w, op, l), ref, k ? 0 : tx, true);
            break;
        }
        case MbarOp::TestWait:
        case MbarOp::TryWait: {
            MbarState* b = mbarAt(m, op, cta, off);
            if (!b) return false;
            const bool parity = op.async & kAfParity;
            const uint64_t waitFor = parity ? (arg(2, 0) & 1) : readOperand(m, w, o[2], l, {TK::B, 64});
            const bool done = mbarPhaseDone(*b, waitFor, parity);
            writeOperand(m, w, o[0], l, done);
            if (!done) {
                failed |= 1u << l;
                w.spin = {true, cta, off, waitFor, parity, int(&op - m.p.ops.data())};
            } else {
                const uint32_t observed = uint32_t(parity ? waitFor & 1 : (waitFor >> 32) & 1);
                if (!waitRecorded) recordWait(m, w, op, l, off, observed); // the warp's wait, once
                waitRecorded = true;
                if (mo) mo->wait(orderSite(m, w, op, l), ref, observed); // the observed phase's parity
            }
            break;
        }
        case MbarOp::PendingCount:
            break;
        }
    }
    if (isWait) {
        if (failed)
            w.yield = true; // let the other warps run: only they can complete the phase
        else
            w.spin.on = false;
    }
    return true;
}

bool reportHang(Machine& m) {
    std::string msg = "hang: no warp can make progress";
    const Op* first = nullptr;
    for (const Warp& w : m.warps) {
        const uint32_t live = w.valid & ~w.exited;
        if (!live) continue;
        const int l = std::countr_zero(live);
        if (w.blocked) {
            const Op& op = m.p.ops[size_t(w.pc[std::countr_zero(w.blocked)] - 1)];
            if (!first) first = &op;
            msg += "; warp " + std::to_string(w.firstThread / 32) + " of CTA rank " + std::to_string(w.cta) +
                   " waits at " +
                   (w.blockedBarrier == kClusterBarrierId ? std::string("barrier.cluster.wait")
                    : w.blockedBarrier == kWarpgroupWait // h/xmma
                        ? std::string("wgmma.mma_async for the other warps of its warpgroup")
                        : "bar.sync " + std::to_string(w.blockedBarrier)) +
                   " (line " + std::to_string(op.line) + ")";
        } else if (w.spin.on) {
            const Op& op = m.p.ops[size_t(w.spin.pc)];
            if (!first) first = &op;
            auto it = m.mbars.find(uint64_t(w.spin.cta) << 32 | w.spin.addr);
            msg += "; warp " + std::to_string(w.firstThread / 32) + " of CTA rank " + std::to_string(w.cta) +
                   " (" + m.who(w, l) + ") spins at line " + std::to_string(op.line) + " waiting for the " +
                   (w.spin.parity ? "phase of parity " + std::to_string(w.spin.waitFor)
                                  : "phase " + std::to_string(w.spin.waitFor >> 32)) +
                   " of the ";
            if (it == m.mbars.end()) {
                msg += "mbarrier at " + hex(w.spin.addr) + " (invalidated)";
            } else {
                const MbarState& b = it->second;
                msg += barrierText(m, w.spin.cta, w.spin.addr, b) + ", initialised at line " +
                       std::to_string(b.initLine);
                if (w.spin.parity && b.pending == b.expected && b.tx == 0)
                    msg += ": no arrival in this phase; the wait names parity " +
                           std::to_string(w.spin.waitFor) +
                           ", the current phase's, which nothing completes (a wrong parity?)";
                else if (b.tx > 0)
                    msg += ": " + std::to_string(b.tx) + " tx bytes expected that no copy in flight delivers";
                else
                    msg += ": " + std::to_string(b.pending) + " arrival" + (b.pending == 1 ? "" : "s") +
                           " missing";
            }
        } else {
            msg += "; warp " + std::to_string(w.firstThread / 32) + " of CTA rank " + std::to_string(w.cta) +
                   " runs without effect";
        }
    }
    return m.fail(first ? *first : m.p.ops.front(), DiagCode::FaultLaunchFailure, msg);
}

bool reportDeadlock(Machine& m) { // every live lane waits at a barrier nobody else will reach
    for (auto& w : m.warps)
        if (w.blocked) {
            const int l = std::countr_zero(w.blocked);
            const Op& op = m.p.ops[w.pc[l] - 1];
            if (w.blockedBarrier == kWarpgroupWait)
                return m.fail(op, DiagCode::FaultLaunchFailure,
                              "deadlock: the warp of " + m.who(w, l) +
                                  " waits at this wgmma.mma_async for the other warps of its "
                                  "warpgroup (4 consecutive warps), which exited or wait elsewhere");
            return m.fail(op, DiagCode::FaultLaunchFailure,
                          "deadlock: " + m.who(w, l) + " waits at " +
                              (w.blockedBarrier == kClusterBarrierId
                                   ? std::string("barrier.cluster.wait")
                                   : "barrier " + std::to_string(w.blockedBarrier)) +
                              " but the other threads of its " +
                              (w.blockedBarrier == kClusterBarrierId ? "cluster" : "CTA") +
                              " have exited or wait elsewhere");
        }
    return m.fail(m.p.ops.front(), DiagCode::FaultLaunchFailure, "no warp can run (deadlock)");
}

} // namespace layoutscope::exec
