// runScenario: build the machine (global tensors from their fill patterns, one shared memory per
// CTA of the cluster), then execute each instruction through the TMA executor, recording a trace.
#include "layoutscope/analysis/banks.hpp"
#include "layoutscope/core/hex.hpp"
#include "layoutscope/scenario/scenario.hpp"
#include "scenario/async_order.hpp"
#include "scenario/im2col.hpp"
#include "scenario/mma_values.hpp"
#include "scenario/parse.hpp"
#include "scenario/tma_extra.hpp"
#include "scenario/wgmma_d.hpp"

#include <bit>
#include <cstdio>
#include <cstring>
#include <map>
#include <tuple>
#include <type_traits>

namespace layoutscope {

namespace {

std::string boxText(const TensorMap& m) {
    std::string s;
    for (uint32_t i = 0; i < m.p.tensorRank && i < kMaxTensorRank; ++i)
        s += (i ? "x" : "") + std::to_string(m.p.boxDim[i]);
    std::string type = cudaName(m.p.dataType);
    if (type.rfind("CU_TENSOR_MAP_DATA_TYPE_", 0) == 0) type = type.substr(24);
    std::string sw = cudaName(m.p.swizzle);
    if (sw.rfind("CU_TENSOR_MAP_", 0) == 0) sw = sw.substr(14);
    return s + " " + type + ", " + sw;
}

// Bytes written by the moves of trace instruction `idx`.
uint64_t bytesMoved(const Trace& t, uint32_t idx) {
    return t.instrs[idx].bytesMoved;
}

// "CTA 0 (8192 B)" or "CTA 0 (4096 B), CTA 1 (4096 B)": shared-memory bytes per destination CTA.
std::string perCta(const Trace& t, uint32_t idx) {
    std::map<uint32_t, uint64_t> n;
    const TraceInstr& in = t.instrs[idx];
    // The summary is written before endInstr closes the range: the open instruction ends at the table's end.
    const uint64_t end = idx + 1 == t.instrs.size() ? t.moves.size() : in.endMove;
    // By runs (a 10,000-load trace has 5.1 M moves): a run whose levels keep the destination CTA adds its
    // moves' bytes at once; a multicast run steps the CTA and is walked move by move.
    for (const MoveTable::RunSpan& r : t.moves.runSpans(in.firstMove, end)) {
        if (r.first.dst.space != MemSpace::SharedCta) continue;
        t.moves.forSpanByField(r, 3, [&](const ByteMove& m, uint64_t count) { // field 3: dst.cta
            n[m.dst.cta] += count * m.length;
        });
    }
    if (!in.traced) return "CTAs not traced";
    std::string s;
    for (const auto& [cta, bytes] : n)
        s += (s.empty() ? "CTA " : ", CTA ") + std::to_string(cta) + " (" + std::to_string(bytes) + " B)";
    return s.empty() ? "no CTA" : s;
}

Diagnostic atInstr(Diagnostic d, const ScenarioInstr& in) {
    if (!d.span.valid()) d.span = in.span;
    return d;
}

void pushTx(Trace& trace, MachineState& state, uint32_t cta, uint32_t addr, int64_t completeBytes) {
    MbarrierState& mb = state.mbarriers[{cta, addr}];
    mb.txCount -= completeBytes;
    if (completeBytes > 0) mb.completedBytes += completeBytes;
    const uint32_t step = trace.stepCount == 0 ? 0 : trace.stepCount - 1;
    trace.txEvents.push_back(TxEvent{step, static_cast<uint32_t>(trace.instrs.size() - 1),
                                     static_cast<uint8_t>(cta), addr, completeBytes});
}

// The scenario ends like a kernel exit: TMEM columns still allocated break the PTX exit rule (checkExit,
// PTX ISA 9.2 §9.7.16.7.1). A scenario is often a fragment of a kernel, so this is a warning, reported at the
// alloc instruction that took the columns. (PTX sets no exit rule for relinquish_alloc_permit: tcgen05.md
// §2.2.)
void exitWarnings(const TmemState& tmem,
                  const std::map<std::pair<uint32_t, uint32_t>, SourceSpan>& allocSites,
                  std::vector<Diagnostic>& out) {
    for (uint32_t cta = 0; cta < tmem.allocators.size(); ++cta) {
        const TmemAllocator& a = tmem.allocators[cta];
        const Status st = a.checkExit(); // one diagnostic per live allocation, in allocations() order
        if (st) continue;
        LAYOUTSCOPE_ASSERT(st.diagnostics().size() == a.allocations().size());
        for (size_t i = 0; i < a.allocations().size(); ++i) {
            Diagnostic d = st.diagnostics()[i];
            d.severity = Severity::Warning;
            d.message = "CTA " + std::to_string(cta) + " at the end of the scenario: " + d.message;
            if (auto it = allocSites.find({cta, a.allocations()[i].column}); it != allocSites.end())
                d.span = it->second;
            out.push_back(std::move(d));
        }
    }
}

// expect_tx against the bytes that arrive (issue 12): only for barriers the scenario armed with expect_tx.
struct TxWatch {
    bool armed = false;    ///< an expect_tx since the last init
    SourceSpan expectSpan; ///< the last expect_tx
    int64_t announced = 0; ///< expect_tx bytes since the last init
    bool waited = false;   ///< a wait checked the barrier at tx-count `checkedTx`
    int64_t checkedTx = 0;
};

std::string txMismatch(const Scenario& sc, const MbarrierState& mb, const TxWatch& w, uint32_t cta,
                       uint32_t addr) {
    const int64_t arrived = w.announced - mb.txCount;
    std::string name = "CTA " + std::to_string(cta) + " " + hex(addr);
    for (const ScenarioBarrier& b : sc.barriers)
        if (b.cta == cta && b.addr == addr) name = b.name + " (" + name + ")";
    std::string s = "mbarrier " + name + ": expect_tx announced " + std::to_string(w.announced) + " B but " +
                    std::to_string(arrived) + " B of complete-tx arrive (tx-count " +
                    std::to_string(mb.txCount) + ")";
    if (mb.txCount < 0)
        return s +
               ": the phase can complete before the last bytes land, a race on hardware; announce the bytes "
               "of every copy the phase covers (expect_tx " +
               std::to_string(arrived) + ")";
    return s +
           ": a wait on this phase never completes (the kernel hangs); announce only the bytes that "
           "arrive (expect_tx " +
           std::to_string(arrived) + ") or issue the missing copies";
}

Diagnostic txDiagnostic(std::string msg, SourceSpan span) {
    return Diagnostic{
        Severity::Error,
        DiagCode::InvalidValue,
        span,
        std::move(msg),
        "PTX ISA 9.2 §9.7.13.15 (a phase completes when pending arrivals and tx-count reach 0); tma.md §6",
        Provenance::PtxText};
}

} // namespace

Result<Run> runScenario(const Scenario& s, const RunOptions& options) {
    Run run{MachineState(s.clusterSize, 0), MachineState(s.clusterSize, 0), Trace{}};
    run.trace.budgetBytes = options.traceBudgetBytes;
    run.trace.compactBytes = options.compactTrace;
    run.tmemInitial = TmemState(s.clusterSize);
    TmemState tmem = run.tmemInitial;
    for (const ScenarioTensorMap& t : s.tensorMaps)
        run.initial.global.addRegion(t.map.p.globalAddress, t.extent, scenarioFillGenerator(t),
                                     scenarioFillBulkGenerator(t));
    for (const ScenarioBarrier& b : s.barriers) run.initial.mbarriers[{b.cta, b.addr}] = MbarrierState{};
    run.warnings = s.kernelNotes; // a kernel scenario: what its run said (races, approximations) comes first
    MachineState state = run.initial;
    TraceBuilder tb(run.trace);
    Tcgen05Executor tcgen(run.trace, state, tmem);
    scn::MmaValueCheck mmaValues;     // tcgen05.mma accumulators against the product of the global tiles
    scn::WgmmaValueCheck wgmmaValues; // wgmma.mma_async D registers, likewise
    std::map<std::pair<uint32_t, uint32_t>, SourceSpan> allocSites; ///< (CTA, first column) -> tcgen05.alloc
    std::map<std::pair<uint32_t, uint32_t>, TxWatch> txWatch;       ///< (CTA, mbarrier) -> expect_tx check
    scn::ProducerIndex producers; ///< what the TMA loads left in shared memory, for the consumer checks
    for (const ScenarioInstr& in : s.instrs) {
        if (options.cancel && options.cancel->load(std::memory_order_relaxed))
            return Diagnostic{Severity::Error,       DiagCode::Unsupported, in.span, "run cancelled", "",
                              Provenance::Assumption};
        if (in.kind == ScenarioInstrKind::Tcgen05) { // records its own trace instruction
            std::vector<Diagnostic> findings;
            Status st = scn::runTcgen05(s, in, tcgen, run.warps, state, run.trace, producers, findings);
            for (const Diagnostic& d : findings) run.warnings.push_back(atInstr(d, in));
            if (!st) {
                std::vector<Diagnostic> ds;
                for (const Diagnostic& d : st.diagnostics()) ds.push_back(atInstr(d, in));
                return ds;
            }
            if (in.text.rfind("tcgen05.alloc", 0) == 0) { // its warnings; where its columns came from
                for (const Diagnostic& d : tcgen.warnings()) run.warnings.push_back(atInstr(d, in));
                const uint32_t idx = static_cast<uint32_t>(run.trace.instrs.size() - 1);
                // Its moves store the TMEM address (src.addr) to each CTA's shared memory (tcgen05_exec.hpp).
                const TraceInstr& ti = run.trace.instrs[idx];
                for (uint64_t i = ti.firstMove; i < ti.endMove; ++i) {
                    const ByteMove m = run.trace.moves[i];
                    allocSites[{m.src.cta, decodeTmemAddress(static_cast<uint32_t>(m.src.addr)).column}] =
                        in.span;
                }
            }
            continue;
        }
        if (in.umma) { // tcgen05.mma: executed by Tcgen05Executor::mma, which records its own trace
                       // instruction
            const UmmaRead& u = *in.umma;
            std::vector<Diagnostic> findings;
            // Tensor Memory must be allocated before use: D's columns (and A's, from TMEM) in every CTA it
            // touches.
            const UmmaDShape shape = ummaDShape(u.op);
            const std::array<uint32_t, 2> pair{u.ctaGroup == 2 ? in.cta & ~1u : in.cta, in.cta | 1u};
            for (uint32_t i = 0; i < u.ctaGroup; ++i) {
                const int64_t dCol = u.dTaddr & 0xFFFF;
                if (auto d = tcgen.checkAllocated(pair[i], dCol, dCol + ummaDColumns(shape), "tcgen05.mma"))
                    findings.push_back(*d);
                if (u.op.aFromTmem) { // .sp: A holds K / 2 values a row
                    const int64_t aCol = u.op.aTaddr & 0xFFFF;
                    const uint32_t kA = u.op.sparse ? ummaK(u.op) / 2 : ummaK(u.op);
                    if (auto d = tcgen.checkAllocated(pair[i], aCol, aCol + kA * ummaTypeBits(u.op.a) / 32,
                                                      "tcgen05.mma A"))
                        findings.push_back(*d);
                }
                if (u.op.sparse) { // .sp: the metadata columns (umma_ws_sp.hpp)
                    const int64_t eCol = (u.op.spMetaTaddr & 0xFFFF) + u.op.spSelector;
                    if (auto d = tcgen.checkAllocated(pair[i], eCol, eCol + ummaSparseMetaColumns(u.op),
                                                      "tcgen05.mma.sp sparsity metadata"))
                        findings.push_back(*d);
                }
                if (u.op.scaleVecSize) // block-scaled: the SFA / SFB columns (ummaScaleColumns)
                    for (auto [which, taddr, what] :
                         {std::tuple{UmmaOperand::A, u.op.sfaTaddr, "tcgen05.mma scale factors A"},
                          std::tuple{UmmaOperand::B, u.op.sfbTaddr, "tcgen05.mma scale factors B"}}) {
                        const int64_t col = taddr & 0xFFFF;
                        if (auto d =
                                tcgen.checkAllocated(pair[i], col, col + ummaScaleColumns(u.op, which), what))
                            findings.push_back(*d);
                    }
            }
            Status st = tcgen.mma(u.op, in.cta, InstrSource{in.text, in.span.line});
            if (!st) {
                std::vector<Diagnostic> ds;
                for (const Diagnostic& d : st.diagnostics()) ds.push_back(atInstr(d, in));
                return ds;
            }
            const uint32_t idx = static_cast<uint32_t>(run.trace.instrs.size() - 1);
            if (!u.enableInputDKnown)
                run.trace.instrs[idx].summary +=
                    "; enable-input-d '" + u.enableInputD + "' has no let value: taken as false (D = A*B)";
            const size_t before = findings.size();
            scn::checkUmmaConsumer(s, idx, run.trace, producers, findings);
            if (findings.size() == before) // operands read as expected: D against the product of the tiles
                (void)mmaValues.check(s, idx, run.trace, producers, state.global, tmem, &findings);
            for (const Diagnostic& d : findings) run.warnings.push_back(atInstr(d, in));
            continue;
        }
        tb.beginInstr(in.text, in.span.line);
        const uint32_t idx = static_cast<uint32_t>(run.trace.instrs.size() - 1);
        std::string summary;
        switch (in.kind) {
        case ScenarioInstrKind::Copy: {
            Status st = scn::executeScenarioOp(in.op, state, tb); // scenario_tma_extra.cpp
            if (!st) {
                std::vector<Diagnostic> ds;
                for (const Diagnostic& d : st.diagnostics()) ds.push_back(atInstr(d, in));
                return ds;
            }
            if (const auto* ld = std::get_if<TmaTileLoad>(&in.op)) {
                summary = "TMA tile load " + boxText(ld->map) + ", " +
                          std::to_string(bytesMoved(run.trace, idx)) + " B written at " + hex(ld->dstAddr) +
                          " to " + perCta(run.trace, idx) +
                          (ld->multicast ? ", multicast mask " + hex(ld->ctaMask) : std::string()) +
                          (ld->ctaGroup == 2
                               ? ", .cta_group::2: complete-tx to the pair member of parity " +
                                     std::to_string(ld->mbarCta & 1) + " (unverified, open question 12)"
                               : std::string());
            } else if (const auto* st2p = std::get_if<TmaTileStore>(&in.op)) {
                const auto& st2 = *st2p;
                summary = "TMA tile store " + boxText(st2.map) + ", " +
                          std::to_string(bytesMoved(run.trace, idx)) + " B written to global from CTA " +
                          std::to_string(st2.srcCta) + " at " + hex(st2.srcAddr);
            } else {
                summary = scn::extraOpSummary(in.op, bytesMoved(run.trace, idx));
                if (summary.empty())
                    summary = scn::im2colOpSummary(in.op, bytesMoved(run.trace, idx)); // im2col
            }
            break;
        }
        case ScenarioInstrKind::MbarrierInit:
            state.mbarriers[{in.cta, in.mbarAddr}] = MbarrierState{};
            txWatch[{in.cta, in.mbarAddr}] = TxWatch{};
            summary = "mbarrier.init at CTA " + std::to_string(in.cta) + " " + hex(in.mbarAddr) +
                      ", arrival count " + std::to_string(in.value);
            break;
        case ScenarioInstrKind::MbarrierExpectTx:
            pushTx(run.trace, state, in.cta, in.mbarAddr, -in.value);
            {
                TxWatch& w = txWatch[{in.cta, in.mbarAddr}];
                w.armed = true;
                w.expectSpan = in.span;
                w.announced += in.value;
            }
            summary = "expect-tx " + std::to_string(in.value) + " B on mbarrier CTA " +
                      std::to_string(in.cta) + " " + hex(in.mbarAddr);
            break;
        case ScenarioInstrKind::MbarrierCompleteTx:
            pushTx(run.trace, state, in.cta, in.mbarAddr, in.value);
            summary = "complete-tx " + std::to_string(in.value) + " B on mbarrier CTA " +
                      std::to_string(in.cta) + " " + hex(in.mbarAddr);
            break;
        case ScenarioInstrKind::MbarrierWait: {
            const MbarrierState& mb = state.mbarriers[{in.cta, in.mbarAddr}];
            // A recorded kernel's waits stand where its warps observed a phase; another phase's expect_tx of
            // a pipelined producer may be pending then: the executor's own model judged those waits.
            if (TxWatch& w = txWatch[{in.cta, in.mbarAddr}]; w.armed && !s.recorded) {
                if (mb.txCount != 0 && !(w.waited && w.checkedTx == mb.txCount))
                    run.warnings.push_back(txDiagnostic(txMismatch(s, mb, w, in.cta, in.mbarAddr), in.span));
                w.waited = true;
                w.checkedTx = mb.txCount;
            }
            summary = "wait on mbarrier CTA " + std::to_string(in.cta) + " " + hex(in.mbarAddr) +
                      ": tx-count " + std::to_string(mb.txCount) +
                      (mb.txCount == 0 ? " (transactions complete)" : " (pending)");
            break;
        }
        case ScenarioInstrKind::NoOp:
            summary = "no data movement";
            if (in.smemAccess) { // a consumer access pattern: its wavefronts with the bank model
                const SmemAccess& a = *in.smemAccess;
                auto rep = smemAccessWavefronts(a);
                if (!rep) {
                    std::vector<Diagnostic> ds;
                    for (const Diagnostic& d : rep.diagnostics()) ds.push_back(atInstr(d, in));
                    return ds;
                }
                summary = std::to_string(a.widthBytes) + " B per thread, " +
                          std::to_string(__builtin_popcount(a.activeMask)) +
                          " threads: " + std::to_string(rep->wavefronts) + " shared wavefronts (ideal " +
                          std::to_string(rep->ideal) + ", " + std::to_string(rep->excess) +
                          " excess = bank conflicts)";
                if (a.kind == SmemAccess::Kind::Store)
                    summary += scn::storeSharedData(s, in, run.warps, state, tb);
            }
            if (in.wgmma) { // wgmma_d.hpp: the operand fetch checked against the TMA tiles, D into the
                            // warpgroup's registers checked against the product of the tiles
                std::vector<Diagnostic> findings;
                summary =
                    scn::runWgmma(s, idx, state, run.warps, run.trace, tb, producers, wgmmaValues, findings);
                for (const Diagnostic& d : findings) run.warnings.push_back(atInstr(d, in));
            }
            break;
        case ScenarioInstrKind::Tcgen05:
            break;                      // handled above
        case ScenarioInstrKind::Poke: { // a recorded kernel's thread stores: registers -> memory, as stored
            const ScenarioPoke& pk = *in.poke;
            if (pk.regs) { // the kernel's register values before its tcgen05.st (no memory byte moves)
                ScenarioWarp& w = scn::scenarioWarp(run.warps, s, pk.cta, pk.warp);
                const std::vector<uint8_t>& b = pk.ranges[0].bytes;
                const size_t k = b.size() / 128, r0 = size_t(pk.ranges[0].addr);
                for (size_t t = 0; t < 32; ++t)
                    for (size_t j = 0; j < k; ++j) {
                        const uint8_t* p = b.data() + 4 * (t * k + j);
                        w.final[t][r0 + j] = p[0] | p[1] << 8 | p[2] << 16 | uint32_t(p[3]) << 24;
                    }
                summary = "registers r" + std::to_string(r0) + "..r" + std::to_string(r0 + k - 1) +
                          " of warp " + std::to_string(pk.warp) + " (CTA " + std::to_string(pk.cta) +
                          ") hold the kernel's values";
                break;
            }
            uint64_t total = 0;
            bool first = true;
            for (const ScenarioPoke::Range& r : pk.ranges) {
                if (!pk.global && r.addr + r.bytes.size() > state.smem[pk.cta].size())
                    return atInstr(
                        Diagnostic{Severity::Error, DiagCode::InvalidValue, in.span,
                                   "poke past the end of CTA " + std::to_string(pk.cta) + "'s shared memory",
                                   "docs/exec.md (kernel scenarios)", Provenance::ToolFormat},
                        in);
                ByteMove mv;
                mv.src = MemRef{MemSpace::Register, static_cast<uint8_t>(pk.cta), 0};
                mv.dst = MemRef{pk.global ? MemSpace::Global : MemSpace::SharedCta,
                                static_cast<uint8_t>(pk.cta), r.addr};
                mv.length = static_cast<uint32_t>(r.bytes.size());
                tb.move(state, mv, r.bytes, first); // one step: the warp's stores land together
                first = false;
                total += r.bytes.size();
            }
            summary = std::to_string(total) + " B stored by the kernel's threads to " +
                      (pk.global ? std::string("global memory")
                                 : "shared memory of CTA " + std::to_string(pk.cta)) +
                      " (" + std::to_string(pk.ranges.size()) + " range(s), first at " +
                      hex(pk.ranges.front().addr) + ")";
            break;
        }
        }
        tb.endInstr(std::move(summary));
    }
    for (const auto& [key, w] : txWatch) { // armed barriers no wait checked in their final state
        const MbarrierState& mb = state.mbarriers[key];
        if (w.armed && mb.txCount != 0 && !(w.waited && w.checkedTx == mb.txCount))
            run.warnings.push_back(txDiagnostic(txMismatch(s, mb, w, key.first, key.second), w.expectSpan));
    }
    exitWarnings(tmem, allocSites, run.warnings);
    // issue 23: completion order, races, hangs. A recorded kernel's instructions are its warps' work in the
    // executor's interleaving, not one program order: the executor's own order model judged that run.
    if (!s.recorded) scn::checkAsyncOrder(s, run, run.warnings);
    if (s.recorded) { // every trace instruction names the kernel line its scenario instruction came from
        std::map<int, const SourceOrigin*> byLine;
        for (const ScenarioInstr& in : s.instrs)
            if (in.origin.known()) byLine[in.span.line] = &in.origin;
        for (TraceInstr& ti : run.trace.instrs)
            if (auto it = byLine.find(ti.sourceLine); it != byLine.end()) ti.origin = *it->second;
    }
    run.final = std::move(state);
    run.tmemFinal = std::move(tmem);
    return run;
}

} // namespace layoutscope
