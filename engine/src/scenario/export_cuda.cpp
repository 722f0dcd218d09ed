// exportCuda: the kernel half of the CUDA repro (export_cuda.hpp); the host half is export_cuda_host.cpp.
#include "layoutscope/scenario/export_cuda.hpp"

#include "scenario/export_cuda_detail.hpp"

#include <map>
#include <set>
#include <sstream>

namespace layoutscope {
namespace {

using cudaexport::AsmStatement;
using Segment = std::map<uint32_t, std::vector<AsmStatement>>; // CTA -> its statements in program order

bool startsWith(std::string_view s, std::string_view p) {
    return s.substr(0, p.size()) == p;
}

std::string indentLines(const std::string& code, const std::string& pad) {
    std::string out = pad;
    for (char c : code) {
        out += c;
        if (c == '\n') out += pad;
    }
    return out;
}

// Each statement runs on its warp (lane 0 alone unless .sync.aligned); every thread of the CTA then meets
// at syncStep(), so program order holds across warps.
// A wgmma statement of a block that is its one warpgroup runs unconditionally: under a branch ptxas
// serializes every wgmma.mma_async (C7520, "WG.AR in divergent path"), which would hide the races a repro
// is for.
std::string segmentCode(const Segment& seg, bool initFence, uint32_t blockThreads) {
    std::string out = "    switch (cta) {\n";
    for (const auto& [cta, stmts] : seg) {
        out += "    case " + std::to_string(cta) + ":\n";
        for (const AsmStatement& st : stmts) {
            out += st.warpgroup == 0 && blockThreads == 128 ? std::string("        {\n")
                   : st.warpgroup >= 0 ? "        if (warp / 4 == " + std::to_string(st.warpgroup) + ") {\n"
                   : st.everyQuarter   ? std::string("        if (warp < 4) {\n")
                                       : "        if (warp == " + std::to_string(st.warp) +
                                           (st.wholeWarp ? "" : " && lane == 0") + ") {\n";
            out += indentLines(st.code, "            ") + "\n        }\n        syncStep();\n";
        }
        out += "        break;\n";
    }
    out += "    default:\n        break;\n    }\n";
    if (initFence) out += "    asm volatile(\"fence.mbarrier_init.release.cluster;\" ::: \"memory\");\n";
    out += "    clusterSync();\n";
    return out;
}

AsmStatement tmemDumpStatement(const cudaexport::TmemDump& d, uint32_t rowColumns) {
    AsmStatement st;
    st.everyQuarter = true;
    st.wholeWarp = true;
    st.tcgen05 = true;
    st.code = "// read back TMEM columns [" + std::to_string(d.column) + ", " +
              std::to_string(d.column + d.count) + ") of every lane before the dealloc of line " +
              std::to_string(d.line) + "\n";
    st.code += "tmemReadBack(tmemDump + size_t(cta) * 128 * " + std::to_string(rowColumns) + ", " +
               std::to_string(d.column) + "u, " + std::to_string(d.count) + "u, " +
               std::to_string(rowColumns) + "u);";
    return st;
}

} // namespace

Result<std::string> exportCuda(const Scenario& s, const Run& run, std::string_view text,
                               const ExportCudaOptions& options) {
    using namespace cudaexport;
    const SmemLayout layout = smemLayout(s);
    const Symbols sym = symbols(text);
    const std::vector<TmemDump> dumps = tmemDumps(s);
    const uint32_t dumpColumns = tmemDumpColumns(dumps);
    std::vector<Diagnostic> errors;

    // Segment 0: each CTA's leading mbarrier.init; then one segment per `barrier.cluster.wait`.
    std::vector<Segment> segments(2);
    std::set<uint32_t> pastInits, dumped;               // CTAs past their inits / with their TMEM read back
    std::set<std::pair<uint32_t, uint32_t>> waited;     // (cta, barrier address) with a try_wait
    std::map<std::pair<uint32_t, uint32_t>, int> inits; // (cta, barrier address) -> line of its init
    uint32_t maxWarp = 3;
    std::vector<ObservedRead> reads; // consumer ld.shared, in program order
    uint32_t obsBytes = 0;
    ReadCursor readCursor{Replay(run.trace, run.initial)};
    bool usesTcgen05 = false;
    const WgmmaRegisters wgmmaRegs = wgmmaRegisters(s);
    std::vector<const ScenarioPoke*> pokes; // leading `poke global`: the tensors' initial bytes
    bool started = false;
    for (const ScenarioInstr& in : s.instrs) {
        if (in.poke && in.poke->global && !started) {
            pokes.push_back(&*in.poke);
            continue;
        }
        if (in.poke) {
            errors.push_back(
                Diagnostic{Severity::Error, DiagCode::Unsupported, in.span,
                           "export-cuda cannot express this instruction yet: a `poke` other than "
                           "global bytes before the first instruction (those become the tensors' "
                           "initial contents)",
                           "docs/export-cuda.md: what a repro covers", Provenance::PtxText});
            continue;
        }
        started = true;
        if (startsWith(in.text, "barrier.cluster.wait")) {
            segments.emplace_back();
            continue;
        }
        if (startsWith(in.text, "barrier.cluster.arrive")) continue; // the cluster barrier does both halves
        if (in.smemAccess && in.smemAccess->kind == SmemAccess::Kind::Load) { // a consumer read, observed
            Result<ObservedRead> r = observedRead(readCursor, run, in, obsBytes);
            if (!r) {
                errors.push_back(r.error());
                continue;
            }
            obsBytes += 32 * r.value().width;
            maxWarp = std::max(maxWarp, in.warp);
            pastInits.insert(in.cta);
            segments.back()[in.cta].push_back(readStatement(r.value()));
            reads.push_back(std::move(r.value()));
            continue;
        }
        const bool wgmma = startsWith(in.text, "wgmma.");
        Result<AsmStatement> st = wgmma ? wgmmaStatement(in, wgmmaRegs)
                                  : in.smemAccess && in.smemAccess->kind == SmemAccess::Kind::Store
                                      ? storeStatement(in, run)
                                      : asmFor(s, in, sym, layout, options.spinLimit);
        if (!st) {
            errors.push_back(st.error());
            continue;
        }
        maxWarp = std::max(maxWarp, wgmma ? 4 * (in.warp / 4) + 3 : in.warp);
        usesTcgen05 |= st.value().tcgen05;
        const bool leadingInit = in.kind == ScenarioInstrKind::MbarrierInit && !pastInits.count(in.cta);
        if (in.kind == ScenarioInstrKind::MbarrierInit)
            inits.emplace(std::pair{in.cta, in.mbarAddr}, in.span.line);
        else
            pastInits.insert(in.cta);
        if (in.kind == ScenarioInstrKind::MbarrierWait) waited.insert({in.cta, in.mbarAddr});
        Segment& seg = leadingInit ? segments[0] : segments.back();
        if (startsWith(in.text, "tcgen05.dealloc") && dumped.insert(in.cta).second)
            for (const TmemDump& d : dumps)
                if (d.cta == in.cta) seg[in.cta].push_back(tmemDumpStatement(d, dumpColumns));
        seg[in.cta].push_back(st.value());
    }
    if (!errors.empty()) return errors;
    if (maxWarp >= 32)
        return Diagnostic{Severity::Error,
                          DiagCode::Unsupported,
                          {},
                          "export-cuda: warp " + std::to_string(maxWarp) +
                              " needs more than 1024 threads per CTA",
                          "CUDA: at most 1024 threads per block",
                          Provenance::PtxText};
    const uint32_t blockThreads = 32 * (maxWarp + 1);

    // The end: bulk stores complete, and every initialised barrier nobody waited on is waited on (parity 0),
    // so that the dump sees what arrived.
    Segment tail;
    for (uint32_t cta = 0; cta < s.clusterSize; ++cta) {
        AsmStatement bulk;
        bulk.code = "asm volatile(\"cp.async.bulk.commit_group;\" ::: \"memory\");\n"
                    "asm volatile(\"cp.async.bulk.wait_group 0;\" ::: \"memory\");";
        tail[cta].push_back(bulk);
    }
    for (const auto& [key, line] : wgmmaRegs.groups) { // every warpgroup's wgmma completes
        const auto [cta, group] = key;
        ScenarioInstr w;
        w.text = "wgmma.wait_group.sync.aligned 0;";
        w.cta = cta, w.warp = 4 * group, w.span.line = line;
        Result<AsmStatement> st = wgmmaStatement(w, wgmmaRegs);
        if (!st) return st.diagnostics();
        st.value().code = "// every wgmma completes before the dump\n" + st.value().code;
        tail[cta].push_back(st.value());
    }
    for (const auto& [key, line] : inits) {
        if (waited.count(key)) continue;
        const ScenarioBarrier* b = nullptr;
        for (const ScenarioBarrier& x : s.barriers)
            if (x.cta == key.first && x.addr == key.second) b = &x;
        if (!b) continue;
        ScenarioInstr w;
        w.text = "mbarrier.try_wait.parity.shared::cta.b64 p, [" + b->name + "], 0;";
        w.kind = ScenarioInstrKind::MbarrierWait;
        w.cta = key.first;
        w.span.line = line;
        Result<AsmStatement> st = asmFor(s, w, sym, layout, options.spinLimit);
        if (!st) return st.diagnostics();
        st.value().code = "// the scenario never waits on " + b->name +
                          ": wait for phase 0 before the dump\n" + st.value().code;
        tail[key.first].push_back(st.value());
    }
    segments.push_back(tail);

    const bool regs = !run.warps.empty();
    std::string arch = s.target.substr(s.target.find('_') + 1); // 90a, 100a: the arch-specific target
    if (!arch.empty() && arch.back() != 'a' && arch.back() != 'f') arch += 'a';
    std::ostringstream k;
    k << "// Generated by `layoutscope-cli export-cuda` from " << options.sourceName << " (target "
      << s.target << ").\n"
      << "// Replays the scenario on the GPU and compares the bytes with the engine's prediction (embedded "
         "below):\n"
      << "// prints PASS, or FAIL with the first differing byte. Build and run (docs/export-cuda.md):\n"
      << "//   nvcc -std=c++17 -gencode=arch=compute_" << arch << ",code=sm_" << arch
      << " -o repro repro.cu -lcuda && ./repro\n"
      << "#pragma nv_diag_suppress 186 // comparisons with the table sizes, which may be 0\n"
      << "#include <cuda.h>\n#include <cuda_runtime.h>\n\n#include <algorithm>\n#include <cmath>\n#include "
         "<cstdint>\n#include <cstdio>\n"
      << "#include <cstring>\n#include <vector>\n\n"
      << "constexpr uint32_t kCluster = " << s.clusterSize << ";\n"
      << "constexpr uint32_t kThreads = " << blockThreads << ";\n"
      << "constexpr uint32_t kRegion = " << layout.region << "; // shared::cta bytes from scenario address "
      << layout.base << " (mapped to a 1024-aligned base)\n"
      << "constexpr uint32_t kSmemBase = " << layout.base << ";\n"
      << "constexpr uint32_t kMaps = " << s.tensorMaps.size() << ";\n"
      << "constexpr uint32_t kRegWarps = " << run.warps.size() << "; // warps whose registers are compared\n"
      << "constexpr uint32_t kTmemColumns = " << dumpColumns << "; // TMEM columns read back per lane\n"
      << "struct Maps {\n    CUtensorMap m[kMaps > 0 ? kMaps : 1];\n};\n\n"
      << "__device__ void timeout(uint32_t* status, uint32_t line) {\n    if (*status == 0) *status = "
         "line;\n}\n"
      << "__device__ void clusterSync() {\n"
      << "    asm volatile(\"barrier.cluster.arrive.release.aligned;\" ::: \"memory\");\n"
      << "    asm volatile(\"barrier.cluster.wait.acquire.aligned;\" ::: \"memory\");\n}\n"
      << "__device__ void syncStep() {\n";
    if (usesTcgen05)
        k << "    asm volatile(\"tcgen05.fence::before_thread_sync;\" ::: \"memory\");\n    "
             "__syncthreads();\n"
          << "    asm volatile(\"tcgen05.fence::after_thread_sync;\" ::: \"memory\");\n";
    else
        k << "    __syncthreads();\n";
    k << "}\n"
      << "// A shared-memory descriptor with its start address (bits [0,14), address >> 4) moved by the "
         "distance\n"
      << "// between the scenario's shared-memory base and the real one (a multiple of 1024).\n"
      << "__device__ uint64_t movedDescriptor(uint64_t d, uint32_t sb) {\n"
      << "    const uint64_t start = ((d & 0x3FFF) << 4) + (sb - kSmemBase);\n"
      << "    return (d & ~uint64_t(0x3FFF)) | ((start >> 4) & 0x3FFF);\n}\n";
    if (dumpColumns)
        k << "// Warp w (0..3) reads lanes 32w..32w+31 of columns [c0, c0+n) (tcgen05.ld 32x32b.x1).\n"
          << "__device__ void tmemReadBack(uint32_t* out, uint32_t c0, uint32_t n, uint32_t row) {\n"
          << "    const uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;\n"
          << "    for (uint32_t c = 0; c < n; ++c) {\n        uint32_t v;\n"
          << "        asm volatile(\"tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];\" : \"=r\"(v) : "
             "\"r\"((warp * 32) << 16 | (c0 + c)) : \"memory\");\n"
          << "        asm volatile(\"tcgen05.wait::ld.sync.aligned;\" ::: \"memory\");\n"
          << "        out[size_t(warp * 32 + lane) * row + c] = v;\n    }\n}\n";
    k << "\n__global__ void __launch_bounds__(kThreads, 1)\n"
      << "layoutscopeRepro(const __grid_constant__ Maps maps, uint8_t* dump, uint32_t* status, const "
         "uint32_t* regInit,\n"
      << "                 uint32_t* regDump, uint32_t* tmemDump, uint8_t* obs) {\n"
      << "    extern __shared__ __align__(1024) uint8_t dyn[];\n"
      << "    uint8_t* base = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(dyn) + 1023) & "
         "~uintptr_t(1023));\n"
      << "    const uint32_t sb = static_cast<uint32_t>(__cvta_generic_to_shared(base));\n"
      << "    const uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;\n"
      << "    uint32_t cta;\n    asm volatile(\"mov.u32 %0, %%cluster_ctarank;\" : \"=r\"(cta));\n"
      << "    status += cta;\n"
      << "    for (uint32_t i = threadIdx.x; i < kRegion; i += blockDim.x) base[i] = 0;\n"
      << "    asm volatile(\"fence.proxy.async.shared::cta;\" ::: \"memory\");\n"
      << "    __syncthreads();\n"
      << "    (void)sb;\n    (void)maps;\n    (void)lane;\n    (void)regInit;\n    (void)regDump;\n    "
         "(void)tmemDump;\n    (void)obs;\n";
    if (regs) {
        k << "    // The registers of the scenario's tcgen05 warps (`regs`), slot = index in the host's "
             "kRegs table.\n"
          << "    int slot = -1;\n";
        for (size_t i = 0; i < run.warps.size(); ++i)
            k << "    if (cta == " << run.warps[i].cta << " && warp == " << run.warps[i].warp
              << ") slot = " << i << ";\n";
        k << "    uint32_t r[128];\n"
          << "    for (uint32_t j = 0; j < 128; ++j) r[j] = slot >= 0 ? regInit[(size_t(slot) * 32 + lane) * "
             "128 + j] : 0;\n";
        for (uint32_t j : wgmmaRegs.f32) // wgmma f32 accumulators: scalars, so they stay in registers
            k << "    float acc_" << j << " = __uint_as_float(r[" << j << "]);\n";
    }
    for (size_t i = 0; i < segments.size(); ++i) {
        k << "    // "
          << (i == 0                     ? "each CTA's mbarrier.init, then a cluster barrier"
              : i + 1 == segments.size() ? "the end: bulk groups complete, barriers waited on"
                                         : "program order (a cluster barrier after)")
          << "\n"
          << segmentCode(segments[i], i == 0, blockThreads);
    }
    if (regs)
        k << "    if (slot >= 0)\n        for (uint32_t j = 0; j < 128; ++j) regDump[(size_t(slot) * 32 + "
             "lane) * 128 + j] "
             "= r[j];\n";
    k << "    for (uint32_t i = threadIdx.x; i < kRegion; i += blockDim.x) dump[size_t(cta) * kRegion + i] = "
         "base[i];\n"
      << "}\n\n";

    Result<std::string> host = hostProgram(s, run, reads, pokes);
    if (!host) return host.diagnostics();
    return k.str() + host.value();
}

} // namespace layoutscope
