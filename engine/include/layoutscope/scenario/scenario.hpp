#pragma once
/// Scenarios: small text files that read like what a kernel engineer writes
/// (full grammar: docs/scenario-format.md).
///
///   # 64x64 fp16 tile with 128B swizzle
///   target sm_90a                   # sm_90a (default) -> TmaArch::Sm90, sm_100a and later -> Sm100
///                                   # (sm_103 -> Sm103, sm_120 and later -> Sm120: target-specific TMA
///                                   rules)
///   ptx 9.0                         # optional PTX ISA version for the validator (default 9.0)
///   cluster 1                       # or: cluster 2x1x1 (CTAs = product, at most 16)
///   tensormap A tiled FLOAT16 dims=[4096,4096] strides=[8192] box=[64,64] swizzle=128B
///   fill A pattern=index            # optional: index (default) | zero | bytes | random
///   smem sA 16384 align=1024        # optional: cta=N; default align 128
///   mbarrier bar                    # 8 B, 8-aligned, in the same per-CTA layout as smem
///   let x = 64                      # a name usable as a coordinate / ctaMask / tx count
///   cta 0                           # the CTA (%cluster_ctarank) issuing what follows
///   mbarrier.init.shared::cta.b64 [bar], 1;
///   cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [A, {0, x}], [bar];
///
/// Tensor Memory (docs/scenario-format.md "Tensor Memory (tcgen05)"), target sm_100a or later:
///   warp 4                          # issuing warp of the current CTA (lane quarter = warp % 4)
///   regs pattern=index              # r0..r127 of its threads: t << 16 | j (also zero|lane|bytes|random)
///   desc sd start=sA lbo=16 sbo=128 swizzle=none   # 64-bit smem descriptor as a let name
///   let tmem = 0                    # TMEM address lane << 16 | column
///   tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], 32;
///   tcgen05.st.sync.aligned.32x32b.x2.b32 [tmem], {%r0, %r1};   # registers by number
///   tcgen05.cp.cta_group::1.128x256b [tmem], sd;
///
/// Comments: '#' or '//' to the end of the line. A line whose first word is not a directive is a
/// PTX instruction, pasted verbatim and ended by ';' (it may span lines).
/// tensormap options (cuda.h parameter names are accepted too): dims=/globalDim= (elements, dim 0
/// first), strides=/globalStrides= (rank-1 byte strides; default: dense), box=/boxDim=,
/// elementStrides=, interleave=, swizzle=, l2=/l2Promotion=, oob=zero|nan|<cuda.h name>,
/// address=/globalAddress= (default 0x7f0000000000, later tensors 4 KiB-aligned after the
/// previous one), mapAddress= (the CUtensorMap object), fill=.
/// Shared memory: each CTA's buffers and barriers are laid out in declaration order from
/// Scenario::smemBase, each at its alignment; a CTA may use at most 228 KiB (kSmemBytesPerCta).
///
#include "layoutscope/core/memory.hpp"
#include "layoutscope/core/result.hpp"
#include "layoutscope/core/trace.hpp"
#include "layoutscope/tcgen05/exec.hpp"
#include "layoutscope/tcgen05/umma.hpp"
#include "layoutscope/tma/tensor_map.hpp"
#include "layoutscope/tma/tma.hpp"

#include <array>
#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace layoutscope {
namespace async {
struct Timeline; // layoutscope/async/timeline.hpp
}

/// How a tensor's global memory starts out (directive `fill NAME pattern=...`). With es = the
/// element size in bytes (1 for sub-byte types) and o the byte offset from the tensor's base:
enum class ScenarioFill : uint8_t {
    Index,  ///< byte o holds byte (o % es) of the little-endian uint64 o / es: every element holds
            ///< its memory index (y*dims[0] + x for dense strides), truncated to the element size
    Zero,   ///< all bytes zero
    Bytes,  ///< byte o holds o & 0xFF
    Random, ///< byte o holds the low byte of splitmix64(o) (fixed, reproducible)
    Data,   ///< appended: byte o holds ScenarioTensorMap::data[o] (a recorded kernel's tensor; 0 beyond it)
};

struct ScenarioTensorMap {
    std::string name;
    TensorMap map;
    SourceSpan span;
    ScenarioFill fill = ScenarioFill::Index; ///< appended: initial contents of the tensor
    uint64_t extent = 0; ///< appended: bytes from map.p.globalAddress to the end of the last element
    /// appended: `roles=[k,n]`: the MMA role of each dimension, dimension 0 first ('m', 'n', 'k' or 'b'
    /// for a batch/other dimension); empty when not declared. The consumer check takes an operand's
    /// major-ness from it instead of from the descriptor under test.
    std::string roles;
    /// appended: the bytes of fill Data, from the tensor's address on (loadScenario: the kernel's tensor)
    std::shared_ptr<const std::vector<uint8_t>> data;
};

struct ScenarioBuffer {
    std::string name;
    uint32_t cta = 0;
    uint32_t addr = 0; ///< shared::cta byte address assigned by the layout pass
    uint32_t size = 0;
    uint32_t align = 16;
    SourceSpan span;
};

struct ScenarioBarrier {
    std::string name;
    uint32_t cta = 0;
    uint32_t addr = 0;
    SourceSpan span;
};

/// A validated operation ready to execute.
using ScenarioOp = std::variant<TmaTileLoad, TmaTileStore, TmaGather4Load, TmaScatter4Store, TmaIm2colLoad,
                                TmaIm2colStore>; ///< gather4/scatter4, im2col appended

/// What a scenario instruction does. Only Copy uses ScenarioInstr::op. (appended)
enum class ScenarioInstrKind : uint8_t {
    Copy,               ///< cp.async.bulk.tensor tile load/store: `op` holds it
    MbarrierInit,       ///< mbarrier.init: resets the barrier at (cta, mbarAddr); value = arrival count
    MbarrierExpectTx,   ///< mbarrier.arrive.expect_tx / mbarrier.expect_tx: tx-count += value
    MbarrierCompleteTx, ///< mbarrier.complete_tx: tx-count -= value
    MbarrierWait,       ///< mbarrier.try_wait / test_wait: accepted and recorded, no effect
    NoOp,               ///< fences, cp.async.bulk.commit_group / wait_group, barrier.cluster
    Tcgen05, ///< appended: tcgen05.alloc/dealloc/relinquish_alloc_permit/st/ld/cp/shift (Tcgen05Executor)
    Poke, ///< appended: `poke`: bytes a recorded kernel's threads stored (st.shared, cp.async, st.global...)
};

/// The `poke` directive of a recorded kernel (docs/exec.md "Kernel scenarios"): the bytes one warp
/// instruction of the kernel stored, range by range, as its threads left them. (appended)
struct ScenarioPoke {
    bool global = false; ///< false: shared::cta of CTA `cta`; true: global addresses
    uint32_t cta = 0;
    struct Range {
        uint64_t addr = 0;
        std::vector<uint8_t> bytes;
    };
    std::vector<Range> ranges; ///< ascending, disjoint
    /// `poke regs cta=C warp=W R=HEX` (appended): registers r[R, R+k) of the 32 threads of warp W, as the
    /// kernel held them before a tcgen05.st; HEX is thread 0's k registers (each little-endian), then thread
    /// 1's ... (one range; `global` false). Sets the scenario's register model; moves no memory byte.
    bool regs = false;
    uint32_t warp = 0;
};

/// wgmma.mma_async with A and B from shared-memory matrix descriptors (PTX ISA 9.2 §9.7.15.5.2): the
/// operand fetch the scenario checks against the TMA tiles behind the descriptors, and (appended) D
/// computed into the {d...} registers of the warpgroup's 128 threads (scenario/wgmma_d.hpp), checked
/// against the product of the global tiles (analysis/mma_values.hpp wgmmaDValues). (appended)
/// `expect A|B tensor=NAME m|n=dimI k=dimJ`: what an MMA operand must see (issue 12): tensor NAME's tile,
/// the operand's M (or N) index along dimension mnDim and K along kDim.
struct OperandExpectation {
    std::string tensor;
    uint32_t mnDim = 1, kDim = 0;
    SourceSpan span;
};

/// `expect fragment SHAPE [pack::16b] [imm=N]`: the register fragment an epilogue assumes the tcgen05.ld
/// that follow deliver (issue 12): thread t's register j holds the TMEM cell that SHAPE's map gives it
/// (with as many registers per thread as the load has). `expect fragment none` ends it.
struct FragmentExpectation {
    LdStShape shape = LdStShape::k32x32b;
    bool pack16b = false;
    int64_t imm = 0; ///< 16x32bx2: the column offset of the second half
    SourceSpan span;
};

struct WgmmaRead {
    uint32_t n = 0;         ///< N of m64nNk16
    uint32_t elemBits = 16; ///< .f16 / .bf16
    uint64_t descA = 0, descB = 0;
    bool transA = false, transB = false;                ///< imm-trans-a/b: 1 = MN-major
    std::string descAName, descBName;                   ///< the operands as written
    std::optional<OperandExpectation> expectA, expectB; ///< the `expect` statements in force
    /// appended: D. dRegs: the register numbers of {d...} (%f5 -> 5), N/2 (.f32) or N/4 (.f16) of them;
    /// dBits 32 (.f32) or 16 (.f16, two elements a register); bf16: .bf16 inputs (else .f16).
    std::vector<uint32_t> dRegs;
    uint32_t dBits = 32;
    bool bf16 = false;
    bool scaleD = false;             ///< scale-d: 1 D = A*B + D, 0 D = A*B
    bool scaleDKnown = true;         ///< false: a predicate name with no `let` value, taken as 0 (D = A*B)
    std::string scaleDText;          ///< the scale-d operand as written
    bool negA = false, negB = false; ///< imm-scale-a / imm-scale-b = -1
};

/// A warp's ld.shared / st.shared / ldmatrix with per-thread addresses (issue 14: consumer access patterns);
/// its wavefronts are counted with the bank model (banks.hpp). (appended)
struct SmemAccess {
    enum class Kind : uint8_t { Load, Store, Ldmatrix } kind = Kind::Load;
    std::array<uint32_t, 32> addr{}; ///< shared::cta byte address of each lane
    uint32_t activeMask = 0xFFFFFFFFu;
    uint32_t widthBytes = 4; ///< bytes per thread (ldmatrix: a 16-byte row per address-giving thread)
    /// appended: st.shared's source registers `{%r4, %r5}` -> 4, 5 (each < 128, one per vector element of
    /// widthBytes / srcRegs.size() <= 4 bytes: the register's low bytes, little-endian). Empty when a source
    /// is not such a register: the store's data is then unknown and it moves no byte.
    std::vector<uint32_t> srcRegs;
};

/// tcgen05.mma (PTX ISA 9.2 §9.7.16.10.9), A from a shared-memory descriptor or Tensor Memory, B from a
/// descriptor: the operand fetch checked against the TMA tiles, D's columns checked against the allocation,
/// and `op` executed by the run (Tcgen05Executor::mma: D written into TMEM). The instruction descriptor is
/// decoded by decodeUmmaIdesc (umma.hpp). (appended)
struct UmmaRead {
    uint32_t ctaGroup = 1;
    uint32_t m = 0, n = 0, elemBits = 16; ///< from the instruction descriptor; kind::f16 16, kind::tf32 32
    bool transA = false, transB = false;  ///< descriptor bits 15 / 16: 1 = MN-major
    uint64_t descA = 0, descB = 0;
    uint32_t idesc = 0;
    uint32_t dTaddr = 0;
    std::string descAName, descBName;
    std::optional<OperandExpectation> expectA, expectB;
    UmmaOp op;                     ///< appended: the validated MMA the run executes (umma.hpp)
    std::string enableInputD;      ///< appended: the enable-input-d operand as written
    bool enableInputDKnown = true; ///< appended: false: a predicate name with no `let` value, taken as false
};

struct ScenarioInstr {
    std::string text;
    SourceSpan span;
    ScenarioOp op;
    ScenarioInstrKind kind = ScenarioInstrKind::Copy; ///< appended
    uint32_t cta = 0;                                 ///< appended: issuing CTA (%cluster_ctarank)
    uint32_t mbarAddr = 0; ///< appended: mbarrier shared::cta address for the Mbarrier* kinds
    int64_t value = 0;     ///< appended: arrival count / tx bytes for the Mbarrier* kinds
    uint32_t warp = 0;     ///< appended: issuing warp in the CTA (directive `warp N`) for tcgen05
    uint32_t taddr = 0; ///< appended: tcgen05 TMEM address (st/ld/cp/shift/dealloc) or alloc's smem address
    uint64_t desc = 0;  ///< appended: tcgen05.cp shared-memory descriptor
    std::vector<uint32_t> regs; ///< appended: tcgen05.st/ld register numbers of the vector operand (%r5 -> 5)
    int64_t taddrSmem = -1; ///< appended: >= 0: the TMEM address is read at run time from this shared::cta
                            ///< address of the issuing CTA (`[taddrBuf]`, the buffer tcgen05.alloc wrote)
    std::optional<WgmmaRead> wgmma; ///< appended: a wgmma.mma_async (kind NoOp: it moves no shared bytes)
    std::optional<SmemAccess> smemAccess; ///< appended: ld.shared / st.shared / ldmatrix (kind NoOp)
    std::optional<UmmaRead> umma;         ///< appended: tcgen05.mma (kind NoOp)
    std::optional<FragmentExpectation>
        expectFragment; ///< appended: tcgen05.ld: the `expect fragment` in force
    SourceOrigin
        origin; ///< appended: a recorded kernel's PTX/CUDA line (directive `origin`); ptxLine 0 if none
    std::optional<ScenarioPoke> poke; ///< appended: kind Poke
};

/// A warp that executes tcgen05.st / ld / cp in a scenario, with its registers. (appended)
struct ScenarioWarp {
    uint32_t cta = 0;        ///< %cluster_ctarank
    uint32_t warp = 0;       ///< warp id in the CTA (lane quarter = warp % 4)
    WarpRegisters initial{}; ///< registers before the first instruction (the `regs` directive)
    WarpRegisters final{};   ///< after the run (tcgen05.ld results written back)
};

/// A scenario's `observe` directive, or the CLI's --smem / --global / --tmem (issue 13 item 4; the
/// comparison is in analysis/observed.hpp). (appended)
struct Observation {
    enum class Space : uint8_t { Smem, Global, Tmem } space = Space::Smem;
    std::string name;                ///< buffer (smem) or tensor map (global); empty for tmem
    uint32_t cta = 0;                ///< smem / tmem: %cluster_ctarank
    uint32_t lane0 = 0, lanes = 128; ///< tmem window: lanes [lane0, lane0 + lanes)
    uint32_t col0 = 0, cols = 0; ///< tmem window: columns [col0, col0 + cols); 0 = as many as the file holds
    std::string path;            ///< as written; relative paths are relative to the scenario's folder
    SourceSpan span;
};

/// The `kernel` directive (issue 22 item 2): a launch of a real kernel, in layoutscope-cli exec's own
/// words (`kernel FILE.ptx --grid 1 --block 128 --arg 0=tensor:f16[64,64]:index ...`, docs/exec.md). A
/// scenario that has one holds nothing else but comments and `observe`: loadScenario runs the kernel and
/// its recorded data movement becomes the scenario's instructions (exec/record.hpp).
struct ScenarioKernel {
    std::string path;              ///< the .ptx as written (relative to the scenario's folder)
    std::vector<std::string> args; ///< the exec options after the path, one word each (quotes removed)
    SourceSpan span;
    std::string resolvedPath; ///< set by loadScenario: the module read
};

struct Scenario {
    std::string target = "sm_90a";
    uint32_t clusterSize = 1;
    uint32_t smemBase = 1024; ///< first shared::cta byte address available to buffers
    std::vector<ScenarioTensorMap> tensorMaps;
    std::vector<ScenarioBuffer> buffers;
    std::vector<ScenarioBarrier> barriers;
    std::vector<ScenarioInstr> instrs;

    [[nodiscard]] const ScenarioTensorMap* findTensorMap(std::string_view name) const;
    [[nodiscard]] const ScenarioBuffer* findBuffer(std::string_view name) const;
    int ptxMajor = 9; ///< appended: `ptx X.Y` (PTX ISA version given to the validator)
    int ptxMinor = 0;
    [[nodiscard]] const ScenarioBarrier* findBarrier(std::string_view name) const; ///< appended
    std::vector<ScenarioWarp> warps;       ///< appended: warps given registers by `regs` (their `initial`)
    std::vector<Observation> observations; ///< appended: `observe` directives, in order
    std::optional<ScenarioKernel>
        kernel; ///< appended: the `kernel` directive (before loadScenario expands it)
    /// appended: set by loadScenario on a kernel scenario: the recording is not a program order the scenario
    /// ordering checker may judge (warps ran concurrently); the executor's own order model judged the run.
    bool recorded = false;
    /// appended: what the kernel's run itself said (the executor's notes and its order model's findings),
    /// placed at the `kernel` directive with the PTX line in words; runScenario reports them first.
    std::vector<Diagnostic> kernelNotes;
    /// appended: set by loadScenario on a kernel scenario: the executor's order model's timeline, by
    /// instruction of this recording (orderTimeline returns it; docs/async-order.md "Kernel lanes").
    std::shared_ptr<const async::Timeline> kernelTimeline;
};

/// Largest scenario accepted, in bytes (16 MiB): scenarios are hand-written text, and the largest
/// bundled one is a few KiB. parseScenario rejects longer text; readScenarioFile stops reading there.
inline constexpr uint64_t kMaxScenarioBytes = uint64_t(16) << 20;

struct BankReport;
/// The wavefronts of a scenario's shared access with the bank model measured on H100 (banks.hpp).
[[nodiscard]] Result<BankReport> smemAccessWavefronts(const SmemAccess& a);

/// Parse and validate a scenario. Every diagnostic has a line and column.
[[nodiscard]] Result<Scenario> parseScenario(std::string_view text);

/// parseScenario, then, when it holds a `kernel` directive, run that kernel (the .ptx path relative to
/// `scenarioPath`'s folder) and return the scenario its run recorded (exec/record.hpp: every TMA, bulk,
/// mbarrier, wgmma and tcgen05 operation with its concrete operands, each with its SourceOrigin). Errors
/// of the launch or the run carry the directive's span. Without a `kernel` directive: parseScenario.
[[nodiscard]] Result<Scenario> loadScenario(std::string_view text, const std::string& scenarioPath);

/// A recorded kernel's diagnostics point at lines of its recording, which the user never wrote: each one
/// whose line is a recorded instruction is placed at the `kernel` directive, its message led by the
/// kernel's own place ("02_mma_tma_sm100.ptx:812 (02_mma_tma_sm100.cu:301), thread 0 of CTA 0: ...").
/// Other scenarios' diagnostics are returned unchanged.
[[nodiscard]] std::vector<Diagnostic> placeInKernel(const Scenario& s, std::vector<Diagnostic> ds);

/// Read a scenario file (bytes, unchanged). Reads at most kMaxScenarioBytes + 1 bytes, so a device
/// such as /dev/zero or an endless pipe ends with the size-limit diagnostic instead of reading forever.
/// Errors (DiagCode::Io): the file cannot be opened or read, or it is larger than kMaxScenarioBytes.
[[nodiscard]] Result<std::string> readScenarioFile(const std::string& path);

struct Run {
    MachineState initial; ///< memory before the first instruction (global tensors generated)
    MachineState final;
    Trace trace;
    TmemState tmemInitial{1}; ///< appended: Tensor Memory of every CTA before the first instruction
    TmemState tmemFinal{1};   ///< appended
    std::vector<ScenarioWarp>
        warps; ///< appended: every warp that executes tcgen05.st/ld/cp, with its registers
    /// appended: Warning-severity diagnostics that did not stop the run, in order: tcgen05.alloc size rules
    /// at the alloc instruction, then TMEM columns still allocated when the scenario ends (PTX ISA 9.2
    /// §9.7.16.7.1).
    std::vector<Diagnostic> warnings;
};

/// How much of a run to record.
struct RunOptions {
    /// Trace::budgetBytes: instructions that start over it run untraced (TraceInstr::traced = false);
    /// 0 records no moves at all (the fast path for conformance and sweeps: Run::final is still exact).
    uint64_t traceBudgetBytes = Trace::kDefaultTraceBudget;
    /// Trace::compactBytes: keep at most one byte per byte moved where the rest is reproducible (off: every
    /// before and after byte stored, the reference the compact trace is tested against).
    bool compactTrace = true;
    /// Checked before each instruction: once it reads true the run stops with a "cancelled"
    /// diagnostic (an editor re-check superseded by the next keystroke). nullptr: never cancelled.
    const std::atomic<bool>* cancel = nullptr;
};

/// Execute every instruction. A hardware fault stops the run with its diagnostic; warnings go to
/// Run::warnings.
[[nodiscard]] Result<Run> runScenario(const Scenario& s, const RunOptions& options = {});

/// The initial byte generator of a tensor (its ScenarioFill applied to its data type). (appended)
[[nodiscard]] ByteGenerator scenarioFillGenerator(const ScenarioTensorMap& t);
/// scenarioFillGenerator over a range (GlobalMemory::addRegion's `bulk`); nullptr for zero fills.
[[nodiscard]] BulkByteGenerator scenarioFillBulkGenerator(const ScenarioTensorMap& t);

} // namespace layoutscope
