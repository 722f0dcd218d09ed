// tcgen05 in scenarios: execution of lowered tcgen05 instructions through Tcgen05Executor (alloc, dealloc,
// shift, cp, st, ld), with the allocation and `expect fragment` checks, and the warps' registers they
// read and write.
#include "scenario/parse.hpp"

namespace layoutscope::scn {

ScenarioWarp& scenarioWarp(std::vector<ScenarioWarp>& ws, const Scenario& s, uint32_t cta, uint32_t warp) {
    for (ScenarioWarp& w : ws)
        if (w.cta == cta && w.warp == warp) return w;
    ScenarioWarp w{cta, warp, scenarioWarpRegisters(s, cta, warp), {}};
    w.final = w.initial;
    ws.push_back(std::move(w));
    return ws.back();
}

Status runTcgen05(const Scenario& s, const ScenarioInstr& instr, Tcgen05Executor& ex,
                  std::vector<ScenarioWarp>& warps, const MachineState& state, Trace& trace,
                  ProducerIndex& index, std::vector<Diagnostic>& findings) {
    // A copy only when the TMEM address is read from shared memory (copying every instruction, with its
    // text and register list, was a hot spot of long tcgen05 scenarios).
    std::optional<ScenarioInstr> withTaddr;
    if (instr.taddrSmem >= 0 && !instr.text.starts_with("tcgen05.alloc")) { // [taddrBuf]: little-endian b32
        const auto bytes = state.smem.at(instr.cta).bytes();
        const size_t a = static_cast<size_t>(instr.taddrSmem);
        withTaddr = instr;
        withTaddr->taddr =
            bytes[a] | bytes[a + 1] << 8 | bytes[a + 2] << 16 | static_cast<uint32_t>(bytes[a + 3]) << 24;
    }
    const ScenarioInstr& in = withTaddr ? *withTaddr : instr;
    const InstrSource src{in.text, in.span.line};
    const uint32_t group = in.text.find("cta_group::2") != std::string::npos ? 2 : 1;
    auto is = [&](const char* p) { return in.text.rfind(p, 0) == 0; };
    if (is("tcgen05.alloc")) {
        auto r = ex.alloc(group, in.cta, in.taddr, static_cast<uint32_t>(in.value), src);
        if (!r) return r.diagnostics();
        return okStatus();
    }
    // dealloc / relinquish move no data but still get their trace instruction, so trace.instrs[i] stays
    // scenario instruction i (views index tiles by it).
    auto allocatorOnly = [&](Status st, std::string summary) {
        if (!st) return st;
        TraceBuilder tb(trace);
        tb.beginInstr(in.text, in.span.line);
        tb.endInstr(std::move(summary));
        return st;
    };
    if (is("tcgen05.dealloc"))
        return allocatorOnly(ex.dealloc(group, in.cta, in.taddr, static_cast<uint32_t>(in.value)),
                             "tcgen05.dealloc " + std::to_string(in.value) + " columns at column " +
                                 std::to_string(in.taddr & 0xFFFF));
    if (is("tcgen05.relinquish_alloc_permit"))
        return allocatorOnly(ex.relinquishAllocPermit(group, in.cta), "allocation permit relinquished");
    // Tensor Memory must be allocated before use: columns [lo, lo + n) in this CTA (and its peer for
    // .cta_group::2) must lie in live tcgen05.alloc allocations.
    const TmemAddr ta = decodeTmemAddress(in.taddr);
    auto requireAllocated = [&](int64_t lo, int64_t hi, uint32_t ctaGroup) {
        const std::string_view what = std::string_view(in.text).substr(0, in.text.find_first_of(". \t", 8));
        const std::array<uint32_t, 2> ctas{ctaGroup == 2 ? in.cta & ~1u : in.cta, in.cta | 1u};
        for (uint32_t i = 0; i < (ctaGroup == 2 ? 2u : 1u); ++i) // "tcgen05.st"
            if (auto d = ex.checkAllocated(ctas[i], lo, hi, what)) findings.push_back(*d);
    };
    if (is("tcgen05.shift")) {
        requireAllocated(ta.column, int64_t(ta.column) + 8, group); // the executor's footprint: 8 columns
        return ex.shiftDown(group, in.cta, in.taddr, src);
    }
    if (is("tcgen05.cp")) {
        auto f = parseCp(in.text);
        if (!f) return f.diagnostics();
        requireAllocated(ta.column, int64_t(ta.column) + cpRowBytes(f->shape) / 4, f->ctaGroup);
        Status st = ex.cp(*f, in.cta, in.taddr, in.desc, src);
        if (st && &instr >= s.instrs.data() && &instr < s.instrs.data() + s.instrs.size()) {
            checkCpConsumer(s, size_t(&instr - s.instrs.data()), *f, in.desc, cpDescName(in.text), trace,
                            index, findings);
        }
        return st;
    }
    auto f = parseLdSt(in.text);
    if (!f) return f.diagnostics();
    {
        const LdStFootprint fp = ldStFootprint(*f);
        int64_t lo = ta.column;
        if (f->shape == LdStShape::k16x32bx2 && f->immHalfSplitoff < 0) lo += f->immHalfSplitoff;
        requireAllocated(lo, int64_t(ta.column) + fp.cols, 1);
    }
    ScenarioWarp& w = scenarioWarp(warps, s, in.cta, in.warp);
    // The executor numbers registers by their position in the vector operand; the trace names them as
    // the scenario does ({%r4, %r7}: positions 0, 1 -> registers 4, 7).
    ex.setRegisterNames(in.regs);
    if (f->store) {
        WarpRegisters v;
        for (uint32_t t = 0; t < 32; ++t) v[t].reserve(in.regs.size());
        for (uint32_t t = 0; t < 32; ++t)
            for (uint32_t r : in.regs) v[t].push_back(w.final[t][r]);
        Status st = ex.st(*f, in.cta, in.warp, in.taddr, v, src);
        ex.setRegisterNames({});
        return st;
    }
    if (in.expectFragment && !f->store)
        if (auto d = checkLdFragment(*f, in.taddr, *in.expectFragment)) findings.push_back(*d);
    // One buffer per thread for every load (its vectors keep their capacity): not 32 allocations per ld.
    thread_local WarpRegisters got;
    Status st = ex.ldInto(*f, in.cta, in.warp, in.taddr, src, got);
    ex.setRegisterNames({});
    if (!st) return st;
    for (uint32_t t = 0; t < 32; ++t)
        for (size_t k = 0; k < in.regs.size() && k < got[t].size(); ++k) w.final[t][in.regs[k]] = got[t][k];
    return okStatus();
}

} // namespace layoutscope::scn
