#pragma once
// Private pieces of the CUDA repro exporter (export_cuda*.cpp).
#include "layoutscope/core/result.hpp"
#include "layoutscope/scenario/scenario.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace layoutscope::cudaexport {

/// Where the scenario's shared::cta addresses go in the program: kBase (smemBase rounded down to 1024)
/// maps to the 1024-aligned start of dynamic shared memory, so every address keeps its value mod 1024.
struct SmemLayout {
    uint32_t base = 0;   ///< scenario address that maps to the aligned dynamic base
    uint32_t region = 0; ///< bytes from base to the end of the last buffer or barrier
};
[[nodiscard]] SmemLayout smemLayout(const Scenario& s);

/// One instruction as an inline-asm statement of thread 0 of its CTA.
struct AsmStatement {
    std::string code;       ///< C++ statement(s), indented by the caller
    uint32_t warp = 0;      ///< the issuing warp (directive `warp`)
    bool wholeWarp = false; ///< .sync.aligned: every lane of the warp executes it; else lane 0 alone
    bool tcgen05 = false;
    bool everyQuarter = false; ///< warps 0..3 (all 128 lanes of TMEM) execute it
    int warpgroup = -1;        ///< >= 0: the four warps of this warpgroup execute it (wgmma)
};

/// The wgmma D registers of a scenario, by register number: f32 D (kernel-scope `float acc_N`) and
/// f16x2 D (kept in the register file `r`).
struct WgmmaRegisters {
    std::set<uint32_t> f32, b32;
    std::map<std::pair<uint32_t, uint32_t>, int>
        groups; ///< (CTA, warpgroup) of every wgmma -> its first line
};
[[nodiscard]] WgmmaRegisters wgmmaRegisters(const Scenario& s);
/// wgmma.fence / commit_group / wait_group / mma_async as the warpgroup's statement (export_cuda_wgmma.cpp).
[[nodiscard]] Result<AsmStatement> wgmmaStatement(const ScenarioInstr& in, const WgmmaRegisters& regs);
/// A scenario st.shared: each active lane stores its source registers `r[...]` at its address.
/// Unsupported when its warp has no register values in `run` (the engine stored nothing).
[[nodiscard]] Result<AsmStatement> storeStatement(const ScenarioInstr& in, const Run& run);

/// Names read back from the scenario text (Scenario keeps their values resolved only): `let NAME = INT`
/// values and `desc NAME ...` names (their values are the instruction's ScenarioInstr::desc).
struct Symbols {
    std::map<std::string, int64_t, std::less<>> lets;
    std::set<std::string, std::less<>> descs;
};
[[nodiscard]] Symbols symbols(std::string_view text);

/// export-cuda's Unsupported error at the instruction's line: "cannot express this instruction yet: WHAT".
[[nodiscard]] Diagnostic unsupported(const ScenarioInstr& in, const std::string& what);

/// The asm statement for a scenario instruction, or Unsupported naming the instruction's line.
[[nodiscard]] Result<AsmStatement> asmFor(const Scenario& s, const ScenarioInstr& in, const Symbols& sym,
                                          const SmemLayout& layout, uint32_t spinLimit);

/// Tensor Memory read back before a CTA's first tcgen05.dealloc: columns [column, column + count) of all
/// 128 lanes, compared with the engine's final TMEM.
struct TmemDump {
    uint32_t cta = 0, column = 0, count = 0;
    int line = 0;
};
[[nodiscard]] std::vector<TmemDump> tmemDumps(const Scenario& s);
/// Columns of the widest dump (the dump buffer's row length); 0 without tcgen05.dealloc.
[[nodiscard]] uint32_t tmemDumpColumns(const std::vector<TmemDump>& d);

/// Hex digits of bytes, split into C++ string-literal lines of 64 bytes each.
[[nodiscard]] std::string hexLiteral(const uint8_t* p, size_t n, std::string_view indent);

/// A consumer `ld.shared` of the scenario (SmemAccess Load): in the repro every active lane of its warp reads
/// `width` bytes at its address and writes them to the `obs` buffer at offset + lane * width; the host
/// compares them with the bytes the engine predicts the read sees (shared memory before the instruction in
/// the run's trace). A read that raced an asynchronous write shows as a stale value.
struct ObservedRead {
    int line = 0;
    uint32_t cta = 0, warp = 0, mask = 0, width = 0, offset = 0;
    std::array<uint32_t, 32> addr{};
    std::vector<uint8_t> predicted; ///< 32 * width bytes (inactive lanes: zero, not compared)
};
/// The statement of an observed read (export_cuda_reads.cpp).
[[nodiscard]] AsmStatement readStatement(const ObservedRead& r);
/// Where the reads stand in the run's trace: its replay and the trace instruction of the last read.
struct ReadCursor {
    Replay replay;
    size_t instr = 0;
};
/// The observed read of instruction `in` (in.smemAccess, a Load) with the engine's predicted bytes. Reads
/// come in program order: `c` only moves forward, so all reads of a scenario cost one pass of its trace.
[[nodiscard]] Result<ObservedRead> observedRead(ReadCursor& c, const Run& run, const ScenarioInstr& in,
                                                uint32_t offset);

/// The host half of the program: allocation, fills, encodes, launch, dumps and the comparison (the kernel
/// half defines kCluster, kThreads, kRegion and kSmemBase, which it uses).
/// The fixed text of the host half (export_cuda_host_text.cpp): helpers and main() up to the tensor-map
/// encodes, then main() from the launch on.
extern const char* const kHostHelpers;
extern const char* const kHostMainRest;

/// `pokes`: the scenario's `poke global` lines before its first instruction, written into the tensors on the
/// host before the launch (the kernel then starts from the memory the engine's run started from).
[[nodiscard]] Result<std::string> hostProgram(const Scenario& s, const Run& run,
                                              const std::vector<ObservedRead>& reads,
                                              const std::vector<const ScenarioPoke*>& pokes);

} // namespace layoutscope::cudaexport
