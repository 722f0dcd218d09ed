// The executor's scheduler and control flow (PTX ISA 9.2 §9.7.12 control flow, §9.7.13.1 bar,
// §9.7.13.1 bar; the warp-synchronous shfl, vote, match and redux are in warp_ops.cpp).
//
// Divergence: every lane keeps its own pc and call stack (independent thread scheduling, as on sm_70+);
// a warp step runs the lanes whose pc is the smallest among its runnable lanes. For the structured code
// nvcc emits (if/else, loops whose exits jump forward) the smallest pc is where the lanes reconverge,
// which is the immediate post-dominator a SIMT stack would pick, without needing a CFG; and it keeps
// working for unstructured branches, where a SIMT stack needs the post-dominator tree. Warp-synchronous
// instructions (shfl.sync, vote.sync, bar.warp.sync) whose member mask names lanes not at the same pc
// stop the run with a diagnostic instead of guessing.
//
// Warps run round-robin in a fixed order (CTA, then warp index), each until it waits at a barrier,
// exits or has issued kQuantum steps: deterministic.
#include "exec/machine.hpp"
#include "exec/mbarrier.hpp"
#include "exec/order.hpp"
#include "exec/order_mma.hpp"
#include "exec/order_wgmma.hpp"
#include "exec/record.hpp"
#include "exec/warp_ops.hpp"

#include <algorithm>
#include <bit>

namespace layoutscope::exec {

namespace {

constexpr uint64_t kQuantum = 1 << 12;
constexpr int kSpinWindow = 16; ///< instructions around a failed mbarrier wait that count as its spin loop

uint32_t runnable(const Warp& w) {
    return w.valid & ~w.exited & ~w.blocked;
}

// The lanes at the smallest pc among the runnable ones.
uint32_t group(const Warp& w, int& pc) {
    uint32_t r = runnable(w), g = 0;
    pc = INT32_MAX;
    for (uint32_t x = r; x; x &= x - 1) {
        const int l = std::countr_zero(x);
        if (w.pc[l] < pc) pc = w.pc[l], g = 0;
        if (w.pc[l] == pc) g |= 1u << l;
    }
    return g;
}

// Release a CTA barrier when every live thread has arrived (bar.sync without a count) or `count` did.
void releaseIfComplete(Machine& m, uint32_t cta, int id, uint32_t expected) {
    Cta& c = m.ctas[cta];
    if (c.arrived[id] < expected) return;
    c.arrived[id] = 0;
    orderBarrierRelease(m); // h/xasync: the barrier orders every thread's accesses before it
    const uint32_t nTrue = c.redTrue[id], nFalse = c.redFalse[id];
    c.redTrue[id] = c.redFalse[id] = 0;
    for (auto& w : m.warps) {
        if (w.cta != cta || w.blockedBarrier != id) continue;
        w.blocked = 0, w.blockedBarrier = -1;
        if (!w.barRed) continue;
        const int how = w.barRed->mode & 7; // bar.red: every participant gets the reduction over all of them
        const uint64_t r = how == 1 ? nTrue : how == 2 ? nFalse == 0 : nTrue > 0;
        for (uint32_t x = w.barRedLanes; x; x &= x - 1)
            writeOperand(m, w, w.barRed->o[0], std::countr_zero(x), r);
        w.barRed = nullptr, w.barRedLanes = 0;
    }
}

} // namespace

std::string Machine::who(const Warp& w, int lane) const {
    const uint32_t t = w.firstThread + lane;
    const Dim3 b = launch.block;
    const Dim3 id = ctas[w.cta].id;
    return "thread (" + std::to_string(t % b.x) + "," + std::to_string(t / b.x % b.y) + "," +
           std::to_string(t / (b.x * b.y)) + ") of CTA (" + std::to_string(id.x) + "," +
           std::to_string(id.y) + "," + std::to_string(id.z) + ")";
}

bool Machine::fail(const Op& op, DiagCode code, const std::string& msg) {
    if (!error) {
        std::string where = "`" + op.text.substr(0, op.text.find('\n')) + "`";
        if (op.locLine) {
            std::string file = "file " + std::to_string(op.locFile);
            for (const auto& [n, name] : p.files)
                if (n == op.locFile) file = name.substr(name.find_last_of('/') + 1);
            where += " (" + file + ":" + std::to_string(op.locLine) + ")";
        }
        error = Diagnostic{Severity::Error,    code,     {op.line, op.column, 1},
                           where + ": " + msg, kExecRef, Provenance::PtxText};
    }
    return false;
}

// One step of warp `wi`: returns false when the run must stop. `progressed` tells whether it ran.
bool stepWarp(Machine& m, size_t wi, bool& progressed) {
    Warp& w = m.warps[wi];
    int pc = 0;
    const uint32_t g = group(w, pc);
    progressed = g != 0;
    if (!g) return true;
    // h/xasync: a warp spinning on a failed mbarrier wait leaves the spin when it runs code away from it.
    if (w.spin.on && (pc < w.spin.pc - kSpinWindow || pc > w.spin.pc + kSpinWindow)) w.spin.on = false;
    const Op& op = m.p.ops[pc];
    uint32_t exec = g;
    if (op.guard >= 0)
        for (uint32_t x = g; x; x &= x - 1) {
            const int l = std::countr_zero(x);
            if (((m.reg(w, uint32_t(op.guard), l) & 1) != 0) == op.guardNeg) exec &= ~(1u << l);
        }
    m.threadInstructions += std::popcount(exec);
    if (m.rec) m.rec->instrStart = m.rec->statements;   // order events' steps (orderSite)
    if (m.orderMma) orderRegisterUse(m, w, op, exec);   // h/order2: registers of a pending tcgen05.ld
    if (m.order) orderWgmmaRegisterUse(m, w, op, exec); // wgmma registers: not waited for, not fenced
    auto advance = [&](uint32_t lanes) {
        for (uint32_t x = lanes; x; x &= x - 1) ++w.pc[std::countr_zero(x)];
    };
    switch (op.opc) {
    case Opc::Bra:
        for (int l = 0; l < 32; ++l)
            if (g >> l & 1) w.pc[l] = (exec >> l & 1) ? op.target : pc + 1;
        return true;
    case Opc::Call: // call.cpp: arguments, the callee's activation (recursion), the depth bound
        if (!execCall(m, w, op, pc, exec)) return false;
        advance(g & ~exec);
        return true;
    case Opc::Ret:
    case Opc::Exit:
        for (uint32_t x = exec; x; x &= x - 1) {
            const int l = std::countr_zero(x);
            if (op.opc == Opc::Exit || w.stack[l].empty()) {
                w.exited |= 1u << l;
                --m.ctas[w.cta].liveThreads;
                continue;
            }
            if (!execReturn(m, w, op, l)) return false; // call.cpp
        }
        advance(g & ~exec);
        // Threads that exited may complete a barrier the others wait at.
        for (int id = 0; id < 16; ++id)
            if (m.ctas[w.cta].arrived[id]) releaseIfComplete(m, w.cta, id, m.ctas[w.cta].liveThreads);
        clusterBarrierCheck(m); // h/xasync: exited threads no longer hold up barrier.cluster
        return true;
    case Opc::Bar:
    case Opc::BarArrive: {
        // bar.red.popc.u32 d, a{, b}, {!}c / bar.red.and|or.pred p, a{, b}, {!}c: a barrier whose
        // participants each get the reduction of c over all of them (PTX ISA 9.2 §9.7.13.1)
        const bool red = op.mode & 8;
        if (red && ((op.mode & 7) == 0 || op.o.size() < 3 || op.o.size() > 4))
            return m.fail(op, DiagCode::Syntax,
                          "bar.red needs .popc.u32 d, or .and/.or.pred p, then a{, b}, {!}c");
        // The barrier's operands a{, b}: after bar.red's destination, before its predicate (no copy: bar.sync
        // runs in every loop of a kernel).
        const size_t b0 = red ? 1 : 0, nb = op.o.size() - (red ? 2 : 0);
        if (nb == 0) return m.fail(op, DiagCode::Syntax, "bar needs a barrier number");
        const int lane0 = std::countr_zero(g);
        const uint64_t id = readOperand(m, w, op.o[b0], lane0, {TK::U, 32});
        if (id >= 16)
            return m.fail(op, DiagCode::InvalidValue,
                          "barrier number " + std::to_string(id) + " is not in 0..15");
        uint32_t expected = m.ctas[w.cta].liveThreads;
        if (nb > 1)
            expected = uint32_t(readOperand(m, w, op.o[b0 + 1], lane0, {TK::U, 32}));
        else if (op.opc == Opc::BarArrive)
            return m.fail(op, DiagCode::Syntax, "bar.arrive needs a thread count");
        if (exec != g)
            return m.fail(op, DiagCode::Unsupported,
                          "a predicated-off bar in part of a warp is not modelled");
        advance(g);
        m.ctas[w.cta].arrived[id] += std::popcount(exec);
        if (op.opc == Opc::Bar) w.blocked |= exec, w.blockedBarrier = int(id);
        if (red) {
            for (uint32_t x = exec; x; x &= x - 1)
                ++(readOperand(m, w, op.o.back(), std::countr_zero(x), {TK::Pred, 1}) & 1
                       ? m.ctas[w.cta].redTrue
                       : m.ctas[w.cta].redFalse)[id];
            w.barRed = &op, w.barRedLanes = exec;
        }
        releaseIfComplete(m, w.cta, int(id), expected);
        return true;
    }
    case Opc::BarWarp: {
        const uint32_t member =
            op.o.empty() ? ~0u : uint32_t(readOperand(m, w, op.o[0], std::countr_zero(g), {TK::B, 32}));
        if (!warpSync(m, w, op, g, member)) return false;
        orderWarpSync(m, w, op, member); // memory ordering among the members (PTX ISA §9.7.13.2)
        advance(g);
        return true;
    }
    case Opc::Shfl:
        if (!shfl(m, w, op, g, exec)) return false;
        advance(g);
        return true;
    case Opc::Vote:
        if (!vote(m, w, op, g, exec)) return false;
        advance(g);
        return true;
    case Opc::Match:
    case Opc::Redux:
        if (!(op.opc == Opc::Match ? match(m, w, op, g, exec) : redux(m, w, op, g, exec))) return false;
        advance(g);
        return true;
    case Opc::Activemask:
        if (op.o.size() != 1) return m.fail(op, DiagCode::Syntax, "activemask needs one destination");
        for (uint32_t x = exec; x; x &= x - 1) writeOperand(m, w, op.o[0], std::countr_zero(x), g);
        advance(g);
        return true;
    case Opc::Nop:
        if (op.mode == 1 && exec && (m.notes.empty() || m.notes.back().ruleRef != "CUDA printf"))
            m.notes.push_back({Severity::Warning,
                               DiagCode::Unsupported,
                               {op.line, op.column, 1},
                               "`call vprintf` (printf) executed by " + m.who(w, std::countr_zero(exec)) +
                                   ": the executor prints nothing and returns 0",
                               "CUDA printf",
                               Provenance::PtxText});
        advance(g);
        return true;
    case Opc::Trap:
        if (!exec) return advance(g), true;
        return m.fail(op, op.target == -2 ? DiagCode::Unsupported : DiagCode::FaultIllegalInstruction,
                      op.target == -2 ? op.text.substr(op.text.find('\n') + 1) + "; the run stops here"
                                      : "`trap` executed by " + m.who(w, std::countr_zero(exec)));
    case Opc::Ld:
    case Opc::St:
    case Opc::Atom:
    case Opc::Red:
    case Opc::Cvta:
        orderMemory(m, w, op, exec); // h/xasync: shared-memory accesses for the order model
        if (!execMemory(m, w, op, exec)) return false;
        break;
    case Opc::Cvt:
        if (!execConvert(m, w, op, exec)) return false;
        break;
    case Opc::Tcgen05:
        if (!execTcgen05(m, w, op, g, exec)) return false;
        break;
    case Opc::Mbarrier: // h/xasync (cluster.cpp, mbarrier.cpp, tma.cpp)
    case Opc::Elect:
    case Opc::Mapa:
    case Opc::ClusterBar:
    case Opc::Fence:
    case Opc::AsyncCopy:
        if (!execAsync(m, w, op, g, exec)) return false;
        break;
    case Opc::CpAsync: // cp_async.cpp, ldmatrix.cpp, mma_sync.cpp, wgmma.cpp
    case Opc::CpAsyncGroup:
        if (!execCpAsync(m, w, op, exec)) return false;
        break;
    case Opc::WgmmaOrder: // wgmma.fence / commit_group / wait_group: the data lands at issue
        orderWgmmaGroup(m, w, op, exec);
        break;
    case Opc::Ldmatrix:
    case Opc::Stmatrix:
    case Opc::Movmatrix:
        if (!execLdStMatrix(m, w, op, g, exec)) return false;
        break;
    case Opc::MmaSync:
        if (!execMmaSync(m, w, op, g, exec)) return false;
        break;
    case Opc::Wgmma: // waits for the warpgroup's 4 warps; advances the pcs itself
        if (m.rec) recordWgmma(m, w, op, exec);
        return execWgmma(m, wi, op, pc, g, exec);
    default:
        if (op.t.bits == 0)
            return m.fail(op, DiagCode::Syntax, "the instruction has no type suffix (.u32, .f32, ...)");
        if (!(isFloatOp(op) ? execFloat(m, w, op, exec) : execInteger(m, w, op, exec))) return false;
    }
    if (m.rec && !m.rec->pending.empty()) recordFlush(m, w, op, exec); // the threads' stores, as pokes
    advance(g);
    return true;
}

bool runWarps(Machine& m, const ExecOptions& opt, uint64_t& steps) {
    int idleRounds = 0; // h/xasync: rounds in which every warp that ran only spun on mbarrier waits
    for (;;) {
        bool any = false, allDone = true, effect = false;
        for (size_t wi = 0; wi < m.warps.size(); ++wi) {
            for (uint64_t q = 0; q < kQuantum; ++q) {
                bool progressed = false;
                if (!stepWarp(m, wi, progressed)) return false;
                if (!progressed) break;
                any = true;
                Warp& sw = m.warps[wi];
                effect |= !sw.spin.on;
                if (sw.yield) {
                    sw.yield = false;
                    break;
                }
                if ((++steps % ExecOptions::kProgressEvery) == 0) { // the GUI's progress bar and Cancel
                    if (opt.progress) opt.progress(steps);
                    if (opt.cancel && opt.cancel->load(std::memory_order_relaxed)) {
                        int pc = 0;
                        group(sw, pc);
                        return m.fail(m.p.ops[std::min<size_t>(size_t(std::max(pc, 0)), m.p.ops.size() - 1)],
                                      DiagCode::Unsupported,
                                      "run cancelled after " + std::to_string(steps) + " warp instructions");
                    }
                }
                if (steps > opt.maxWarpSteps) {
                    int pc = 0;
                    group(m.warps[wi], pc);
                    const Op& op = m.p.ops[std::min<size_t>(size_t(std::max(pc, 0)), m.p.ops.size() - 1)];
                    return m.fail(
                        op, DiagCode::InvalidValue,
                        "the run issued more than " + std::to_string(opt.maxWarpSteps) +
                            " warp instructions (an endless loop?); the limit is ExecOptions::maxWarpSteps");
                }
            }
            if ((m.warps[wi].valid & ~m.warps[wi].exited) != 0) allDone = false;
        }
        if (allDone) return true;
        idleRounds = any && !effect ? idleRounds + 1 : 0;
        if (idleRounds >= 2) return reportHang(m); // mbarrier.cpp: names every waiting warp
        if (!any) return reportDeadlock(m); // every live lane waits at a barrier nobody else will reach
    }
}

} // namespace layoutscope::exec
