// Figures of a scenario run (metrics.hpp). One pass over the instructions and one over the trace's moves.
#include "layoutscope/analysis/metrics.hpp"
#include "layoutscope/analysis/banks.hpp"
#include "layoutscope/tcgen05/tmem.hpp"
#include "layoutscope/tcgen05/umma.hpp"

#include <algorithm>
#include <set>
#include <unordered_set>

namespace layoutscope {

std::vector<MetricValue> scenarioMetrics(const Scenario& s, const Run& run) {
    using B = MetricValue::Better;
    int64_t loads = 0, stores = 0, mbar = 0, tcgen = 0, wgmma = 0;
    for (const ScenarioInstr& in : s.instrs) {
        if (in.kind == ScenarioInstrKind::Copy) {
            if (std::holds_alternative<TmaTileStore>(in.op))
                ++stores;
            else
                ++loads; // tile, gather4 and im2col loads
        } else if (in.kind == ScenarioInstrKind::Tcgen05) {
            ++tcgen;
        } else if (in.wgmma) {
            ++wgmma;
        } else if (in.kind != ScenarioInstrKind::NoOp) {
            ++mbar;
        }
    }
    const Trace& t = run.trace;
    int64_t moved = 0, tx = 0, oob = 0;
    for (const TraceInstr& ti : t.instrs) moved += int64_t(ti.bytesMoved);
    for (const TxEvent& e : t.txEvents)
        if (e.bytes > 0) tx += e.bytes;
    std::unordered_set<uint64_t> sectorsRead, sectorsWritten, linesRead, linesWritten;
    std::set<std::pair<uint32_t, uint32_t>> tmemCols; // (CTA, column) written
    std::unordered_set<uint64_t> instrLines;          // lines one instruction reads or writes
    int64_t lineFetches = 0;
    uint32_t instr = UINT32_MAX;
    for (size_t i = 0; i < t.moves.size(); ++i) {
        const ByteMove m = t.moves[i];
        if (m.instr != instr) lineFetches += int64_t(instrLines.size()), instrLines.clear(), instr = m.instr;
        for (const MemRef& r : {m.src, m.dst})
            if (r.space == MemSpace::Global && m.length)
                for (uint64_t a = r.addr / 128; a <= (r.addr + m.length - 1) / 128; ++a) instrLines.insert(a);
        if (m.transform == Transform::FillZero || m.transform == Transform::FillNaN) oob += m.length;
        auto touch = [&](uint64_t addr, uint32_t len, auto& sectors, auto& lines) {
            for (uint64_t a = addr / 32; a <= (addr + len - 1) / 32; ++a) sectors.insert(a);
            for (uint64_t a = addr / 128; a <= (addr + len - 1) / 128; ++a) lines.insert(a);
        };
        if (m.length == 0) continue;
        if (m.src.space == MemSpace::Global) touch(m.src.addr, m.length, sectorsRead, linesRead);
        if (m.dst.space == MemSpace::Global) touch(m.dst.addr, m.length, sectorsWritten, linesWritten);
        if (m.dst.space == MemSpace::TensorMemory) {
            const TmemAddr a = decodeTmemAddress(uint32_t(m.dst.addr));
            for (uint32_t c = 0; c < (m.length + 3) / 4; ++c) tmemCols.insert({m.dst.cta, a.column + c});
        }
    }
    lineFetches += int64_t(instrLines.size());
    int64_t declared = 0, padding = 0, footprint = 0;
    for (uint32_t cta = 0; cta < s.clusterSize; ++cta) {
        std::vector<const ScenarioBuffer*> bufs;
        for (const ScenarioBuffer& b : s.buffers)
            if (b.cta == cta) bufs.push_back(&b);
        if (bufs.empty()) continue;
        std::sort(bufs.begin(), bufs.end(), [](auto* a, auto* b) { return a->addr < b->addr; });
        int64_t size = 0;
        for (auto* b : bufs) size += b->size;
        const int64_t span = int64_t(bufs.back()->addr) + bufs.back()->size - bufs.front()->addr;
        declared += size;
        footprint += span;
        padding += span - size;
    }
    // TMEM columns allocated: every tcgen05.alloc's columns (a pair's alloc counts in both CTAs).
    int64_t allocated = 0;
    for (const ScenarioInstr& in : s.instrs)
        if (in.kind == ScenarioInstrKind::Tcgen05 && in.text.rfind("tcgen05.alloc", 0) == 0)
            allocated += in.value * (in.text.find("cta_group::2") != std::string::npos ? 2 : 1);
    int64_t wavefronts = 0, excess = 0, patterns = 0;
    for (const ScenarioInstr& in : s.instrs)
        if (in.smemAccess) {
            const SmemAccess& a = *in.smemAccess;
            if (auto r = smemAccessWavefronts(a)) {
                ++patterns;
                wavefronts += r->wavefronts;
                excess += r->excess;
            }
        }
    int64_t errors = 0;
    for (const Diagnostic& d : run.warnings) errors += d.severity == Severity::Error;
    // MMA cost (issue 24 item 8): instructions, K elements they cover, distinct descriptor values.
    int64_t mmas = 0, mmaK = 0;
    std::set<uint64_t> descs;
    for (const ScenarioInstr& in : s.instrs) {
        if (in.wgmma) {
            ++mmas;
            mmaK += 16; // m64nNk16 (PTX ISA 9.2 §9.7.15.5.1)
            descs.insert(in.wgmma->descA);
            descs.insert(in.wgmma->descB);
        } else if (in.umma) {
            ++mmas;
            mmaK += ummaK(in.umma->op); // 256 bits of K per row (§9.7.16.10.9)
            if (!in.umma->op.aFromTmem) descs.insert(in.umma->descA);
            descs.insert(in.umma->descB);
        }
    }
    return {
        {"instructions", int64_t(s.instrs.size()), B::None},
        {"TMA loads", loads, B::None},
        {"TMA stores", stores, B::None},
        {"mbarrier operations", mbar, B::None},
        {"tcgen05 operations", tcgen, B::None},
        {"wgmma operations", wgmma, B::None},
        {"bytes moved", moved, B::None},
        {"mbarrier complete-tx bytes", tx, B::None},
        {"OOB-filled bytes", oob, B::Lower},
        {"shared bytes declared", declared, B::Lower},
        {"shared footprint (first to last byte)", footprint, B::Lower},
        {"shared alignment padding", padding, B::Lower},
        {"global 32-B sectors read", int64_t(sectorsRead.size()), B::Lower},
        {"global 128-B lines read", int64_t(linesRead.size()), B::Lower},
        {"global 128-B line requests (per instruction)", lineFetches, B::Lower},
        {"global 32-B sectors written", int64_t(sectorsWritten.size()), B::Lower},
        {"global 128-B lines written", int64_t(linesWritten.size()), B::Lower},
        {"shared access patterns (ld/st.shared, ldmatrix)", patterns, B::None},
        {"shared wavefronts", wavefronts, B::Lower},
        {"shared excess wavefronts (bank conflicts)", excess, B::Lower},
        {"TMEM columns allocated", allocated, B::Lower},
        {"TMEM columns written", int64_t(tmemCols.size()), B::None},
        {"MMA instructions", mmas, B::None},
        {"MMA k-steps (K elements covered)", mmaK, B::None},
        {"MMA descriptors (distinct values)", int64_t(descs.size()), B::None},
        {"check errors", errors, B::Lower},
    };
}

} // namespace layoutscope
