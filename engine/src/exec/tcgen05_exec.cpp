// The tcgen05 family on a running kernel (PTX ISA 9.2 §9.7.16): Tensor Memory allocation (§9.7.16.7.1),
// tcgen05.ld / st / wait (§9.7.16.8), tcgen05.cp / shift (§9.7.16.9), the fences (§9.7.16.6). The data
// effects are the engine's Tcgen05Executor's (tcgen05/exec.hpp: allocator rules, ld/st register maps,
// lane quarters); this file binds them to the warps' registers and the CTAs' shared memory.
//
// `.sync.aligned` forms (alloc, dealloc, relinquish_alloc_permit, ld, st, wait) are warp-collective: every
// live thread of the warp executes them together with the same operands, else the run stops. mma, cp,
// shift and commit are issued by each thread that executes them (nvcc's code elects one).
#include "exec/record.hpp"
#include "exec/tcgen05_state.hpp"

#include <bit>
#include <cstring>

namespace layoutscope::exec {

namespace {

constexpr const char* kTcgenRef = "PTX ISA 9.2 §9.7.16 (tcgen05)";

std::string hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

// The warp's live lanes must all execute a .sync.aligned form (exec == live).
bool collective(Machine& m, Warp& w, const Op& op, uint32_t exec) {
    const uint32_t live = w.valid & ~w.exited;
    if (exec == live) return true;
    return m.fail(op, DiagCode::FaultIllegalInstruction,
                  "`.sync.aligned` tcgen05 instruction executed by lanes " + hex(exec) + " of " +
                      m.who(w, std::countr_zero(exec | 1u)) + "'s warp while its live lanes are " +
                      hex(live) + ": every thread of the warp must execute it together [" + kTcgenRef + "]");
}

// An operand that `.aligned` requires to be the same in every executing lane: its value, or nullopt + error.
std::optional<uint64_t> uniform(Machine& m, Warp& w, const Op& op, const Opnd& o, uint32_t exec, bool address,
                                const char* what) {
    const int l0 = std::countr_zero(exec);
    const uint64_t v = address ? tcgenAddress(m, w, o, l0) : readOperand(m, w, o, l0, {TK::B, 64});
    for (uint32_t x = exec & (exec - 1); x; x &= x - 1) {
        const int l = std::countr_zero(x);
        const uint64_t u = address ? tcgenAddress(m, w, o, l) : readOperand(m, w, o, l, {TK::B, 64});
        if (u != v) {
            m.fail(op, DiagCode::InvalidValue,
                   std::string(what) + " differs across the warp (" + hex(v) + " in lane " +
                       std::to_string(l0) + ", " + hex(u) + " in lane " + std::to_string(l) +
                       "): a .sync.aligned instruction needs the same value in every thread [" + kTcgenRef +
                       "]");
            return std::nullopt;
        }
    }
    return v;
}

bool alloc(Machine& m, Warp& w, const Op& op, uint32_t exec) {
    TcgenState& st = tcgenState(m);
    auto dst = uniform(m, w, op, op.o[0], exec, true, "the destination address");
    const auto nCols = dst ? uniform(m, w, op, op.o[1], exec, false, "nCols") : std::nullopt;
    if (!nCols) return false;
    uint32_t dstCta = 0; // the .shared::cta address carries the CTA's rank bits (program.hpp)
    if (std::string why = splitShared(m, w, false, *dst, dstCta, *dst); !why.empty())
        return m.fail(op, DiagCode::FaultLaunchFailure, "tcgen05.alloc destination: " + why);
    const uint32_t group = op.boolOp;
    // .cta_group::2: one warp of each CTA of the pair executes the alloc and together they allocate once,
    // the same columns in both CTAs (tmem.hpp allocPair). The first to arrive allocates; the peer's
    // execution completes the pair and receives the same address. unverified: open question 23.
    const uint32_t first = group == 2 ? (w.cta & ~1u) : w.cta, last = group == 2 ? (w.cta | 1u) : w.cta;
    if (group == 2 && last >= m.ctas.size())
        return m.fail(
            op, DiagCode::InvalidValue,
            "tcgen05.alloc.cta_group::2 needs the peer CTA (rank " + std::to_string(w.cta ^ 1u) +
                ") in the cluster: launch with --cluster of an even size [PTX ISA 9.2 §9.7.16.5.1]");
    uint32_t taddrValue = 0;
    if (group == 2 && st.pairAlloc[first] >= 0) {
        taddrValue = uint32_t(st.pairAlloc[first]);
        st.pairAlloc[first] = -1;
    } else {
        Result<uint32_t> taddr =
            st.ex.alloc(group, w.cta, uint32_t(*dst), uint32_t(*nCols), {op.text, op.line});
        st.trace = Trace{};
        if (!taddr) return failWith(m, op, taddr.error());
        for (Diagnostic d : st.ex.warnings()) {
            d.span = {op.line, op.column, 1};
            m.notes.push_back(std::move(d));
        }
        taddrValue = *taddr;
        if (group == 2) st.pairAlloc[first] = int64_t(taddrValue);
    }
    // The address is written to shared memory at dst of the executing CTA.
    std::vector<uint8_t>& smem = m.ctas[w.cta].smem;
    if (*dst + 4 > smem.size())
        return m.fail(op, DiagCode::FaultLaunchFailure,
                      "tcgen05.alloc destination " + hex(*dst) + " is outside the CTA's " +
                          std::to_string(smem.size()) + " bytes of shared memory");
    std::memcpy(smem.data() + *dst, &taddrValue, 4);
    for (uint32_t k = first; k <= last; ++k) st.allocPc[k] = int(&op - m.p.ops.data());
    return true;
}

bool ldSt(Machine& m, Warp& w, const Op& op, uint32_t exec, bool store) {
    TcgenState& st = tcgenState(m);
    Result<LdStForm> f = parseLdSt(tcgenBody(op));
    if (!f) return failWith(m, op, f.error());
    const Opnd& vec = op.o[store ? op.o.size() - 1 : 0];
    const auto taddr = uniform(m, w, op, op.o[store ? 0 : f->reduce ? 2 : 1], exec, true, "taddr");
    if (!taddr) return false;
    const uint32_t warp = w.firstThread / 32, n = regsPerThread(*f);
    const TmemAddr a = decodeTmemAddress(uint32_t(*taddr));
    const LdStFootprint fp = ldStFootprint(*f);
    if (a.lane < kTmemLanes && a.column + fp.cols <= kTmemColumns)
        if (auto d = st.ex.checkAllocated(w.cta, a.column, a.column + fp.cols,
                                          store ? "tcgen05.st" : "tcgen05.ld"))
            return failWith(m, op, *d);
    const InstrSource src{op.text, op.line};
    if (store) {
        WarpRegisters regs;
        for (int l = 0; l < 32; ++l) {
            regs[l].resize(n);
            for (uint32_t j = 0; j < n; ++j)
                regs[l][j] = (exec >> l & 1) ? uint32_t(readOperand(m, w, vec.elems[j], l, {TK::B, 32})) : 0;
        }
        Status s = st.ex.st(*f, w.cta, warp, uint32_t(*taddr), regs, src);
        st.trace = Trace{};
        return s ? true : failWith(m, op, s.error());
    }
    Status s = st.ex.ldInto(*f, w.cta, warp, uint32_t(*taddr), src, st.regs);
    st.trace = Trace{};
    if (!s) return failWith(m, op, s.error());
    for (uint32_t x = exec; x; x &= x - 1) {
        const int l = std::countr_zero(x);
        for (uint32_t j = 0; j < n; ++j) writeOperand(m, w, vec.elems[j], l, st.regs[l][j]);
        if (f->reduce) writeOperand(m, w, op.o[1], l, ldRedReduce(*f, st.regs[l])); // redval: min/max of them
    }
    return true;
}

bool cpShift(Machine& m, Warp& w, const Op& op, int lane, bool cp) {
    TcgenState& st = tcgenState(m);
    const uint32_t taddr = uint32_t(tcgenAddress(m, w, op.o[0], lane));
    const TmemAddr a = decodeTmemAddress(taddr);
    Status s = okStatus();
    if (cp) {
        Result<CpForm> f = parseCp(tcgenBody(op));
        if (!f) return failWith(m, op, f.error());
        const uint32_t cols = cpRowBytes(f->shape) / 4;
        if (a.column + cols <= kTmemColumns)
            if (auto d = st.ex.checkAllocated(w.cta, a.column, a.column + cols, "tcgen05.cp"))
                return failWith(m, op, *d);
        syncShadow(m);
        s = st.ex.cp(*f, w.cta, taddr, readOperand(m, w, op.o[1], lane, {TK::B, 64}), {op.text, op.line});
    } else {
        if (a.column + 8 <= kTmemColumns)
            if (auto d = st.ex.checkAllocated(w.cta, a.column, a.column + 8, "tcgen05.shift"))
                return failWith(m, op, *d);
        s = st.ex.shiftDown(op.boolOp, w.cta, taddr, {op.text, op.line});
    }
    st.trace = Trace{};
    return s ? true : failWith(m, op, s.error());
}

} // namespace

TcgenState& tcgenState(Machine& m) {
    if (!m.tcgen) m.tcgen = std::make_shared<TcgenState>(uint32_t(m.ctas.size()));
    return *m.tcgen;
}

void syncShadow(Machine& m) {
    TcgenState& st = tcgenState(m);
    for (size_t c = 0; c < m.ctas.size(); ++c) {
        const std::vector<uint8_t>& from = m.ctas[c].smem;
        auto to = st.shadow.smem[c].bytes();
        std::memcpy(to.data(), from.data(), std::min(from.size(), to.size()));
    }
}

bool failWith(Machine& m, const Op& op, const Diagnostic& d) {
    return m.fail(op, d.code, d.message + (d.ruleRef.empty() ? "" : " [" + d.ruleRef + "]"));
}

bool execTcgen05(Machine& m, Warp& w, const Op& op, uint32_t /*g*/, uint32_t exec) {
    if (!exec) return true;
    const Tc t = static_cast<Tc>(op.mode);
    switch (t) {
    case Tc::Alloc:
    case Tc::Dealloc:
    case Tc::Relinquish:
    case Tc::Ld:
    case Tc::St:
    case Tc::WaitLd:
    case Tc::WaitSt:
        if (!collective(m, w, op, exec)) return false;
        break;
    default:
        break;
    }
    recordTcgen05(m, w, op, exec); // record.hpp: a no-op unless the run is recorded
    switch (t) {
    case Tc::Alloc:
        return alloc(m, w, op, exec);
    case Tc::Dealloc: {
        const auto taddr = uniform(m, w, op, op.o[0], exec, false, "taddr");
        const auto nCols = taddr ? uniform(m, w, op, op.o[1], exec, false, "nCols") : std::nullopt;
        if (!nCols) return false;
        TcgenState& st = tcgenState(m);
        if (op.boolOp == 2) { // both CTAs of the pair execute it; the pair's columns are freed once
            int64_t& pending = st.pairDealloc[w.cta & ~1u];
            if (pending == int64_t(*taddr)) return pending = -1, true;
            pending = int64_t(*taddr);
        }
        Status s = st.ex.dealloc(op.boolOp, w.cta, uint32_t(*taddr), uint32_t(*nCols));
        return s ? true : failWith(m, op, s.error());
    }
    case Tc::Relinquish: {
        Status s = tcgenState(m).ex.relinquishAllocPermit(op.boolOp, w.cta);
        return s ? true : failWith(m, op, s.error());
    }
    case Tc::Ld:
    case Tc::St:
        return ldSt(m, w, op, exec, t == Tc::St);
    case Tc::WaitLd: // every tcgen05.ld / st completed when it was issued (the early schedule)
    case Tc::WaitSt:
    case Tc::Fence: // no data effect: the executor's memory is sequentially consistent
        return true;
    case Tc::Mma:
    case Tc::Commit:
    case Tc::Cp:
    case Tc::Shift:
        for (uint32_t x = exec; x; x &= x - 1) {
            const int l = std::countr_zero(x);
            const bool ok = t == Tc::Mma      ? execTcgen05Mma(m, w, op, l)
                            : t == Tc::Commit ? execTcgen05Commit(m, w, op, l)
                                              : cpShift(m, w, op, l, t == Tc::Cp);
            if (!ok) return false;
        }
        return true;
    }
    return true;
}

bool finishTcgen05(Machine& m) {
    if (!m.tcgen) return true;
    TcgenState& st = *m.tcgen;
    for (size_t c = 0; c < st.tmem.allocators.size(); ++c) {
        Status s = st.tmem.allocators[c].checkExit();
        if (s) continue;
        const Op& at = st.allocPc[c] >= 0 ? m.p.ops[size_t(st.allocPc[c])] : m.p.ops.front();
        return m.fail(at, s.error().code,
                      "the kernel exited with Tensor Memory of CTA rank " + std::to_string(c) +
                          " still allocated: " + s.error().message + " [" + s.error().ruleRef + "]");
    }
    return true;
}

} // namespace layoutscope::exec
