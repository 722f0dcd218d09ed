#pragma once
// Internal to the scenario front end: the state shared by the directive parser
// (scenario_parse.cpp, scenario_directives.cpp) and the instruction lowering (scenario_ops.cpp).
#include "layoutscope/analysis/consumer.hpp"
#include "layoutscope/ptx/validate.hpp"
#include "layoutscope/scenario/scenario.hpp"

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace layoutscope::scn {

inline constexpr const char* kFormatRef = "docs/scenario-format.md";
inline constexpr uint64_t kDefaultGlobalBase = 0x7f0000000000ULL;
inline constexpr uint64_t kGlobalSpacing = 4096; ///< default tensors start on 4 KiB pages
inline constexpr const char* kSizeLimitRef =
    "docs/scenario-format.md (size limit: a scenario is at most 16 MiB)";

/// The size-limit message (kMaxScenarioBytes) for a text of at least `atLeast` bytes.
[[nodiscard]] std::string scenarioTooLargeMessage(uint64_t atLeast);

/// A declared name: what it is and where it was declared (one namespace for all kinds).
enum class NameKind { TensorMap, Buffer, Barrier, Let };
struct NameInfo {
    NameKind kind;
    SourceSpan span;
    int64_t value = 0; ///< for Let
};

struct Context {
    Scenario s;
    std::vector<Diagnostic> diags;
    TmaArch arch = TmaArch::Sm90;
    std::map<std::string, NameInfo, std::less<>> names;
    std::array<uint32_t, kMaxClusterCtas> smemCursor{}; ///< next free shared::cta address per CTA
    uint32_t issuingCta = 0;
    uint64_t nextGlobal = kDefaultGlobalBase;
    std::set<std::string, std::less<>> poisoned; ///< names whose declaration failed: uses stay quiet
    bool targetInvalid = false;               ///< target/ptx rejected: instructions are not validated again
    std::map<std::string, SourceSpan> seen;   ///< header directives already given (target, ptx, cluster)
    uint32_t issuingWarp = 0;                 ///< directive `warp N` (tcgen05 instructions)
    std::optional<ParsedInstr> ctaGroupFirst; ///< first tcgen05 instruction with a kernel-wide .cta_group
    bool ctaGroupMixReported = false;         ///< the kernel-wide .cta_group rule is reported once
    std::optional<OperandExpectation> expectA, expectB; ///< `expect` statements for the wgmmas that follow
    std::optional<FragmentExpectation> expectFragment;  ///< `expect fragment` for the tcgen05.ld that follow
    std::optional<SourceOrigin> pendingOrigin;          ///< `origin`: the kernel line of the next instruction

    void error(DiagCode code, SourceSpan span, std::string message, std::string ruleRef = kFormatRef,
               Provenance prov = Provenance::Assumption) {
        // A rule of the scenario format itself (the default reference) is no hardware assumption.
        if (prov == Provenance::Assumption && ruleRef == kFormatRef) prov = Provenance::ToolFormat;
        diags.push_back(
            Diagnostic{Severity::Error, code, span, std::move(message), std::move(ruleRef), prov});
    }
    /// Global byte ranges of the tensors declared so far, [start, end) with their index in s.tensorMaps:
    /// never overlapping (an overlap is refused), so one ordered lookup finds a clash (issue 25 item 3).
    std::set<std::tuple<uint64_t, uint64_t, size_t>> globalRanges;
    /// The declared tensor whose bytes meet [addr, addr + extent), if any: O(log n).
    [[nodiscard]] const ScenarioTensorMap* overlappingTensor(uint64_t addr, uint64_t extent) const;
    /// Declares t's name and appends it (its range recorded); false after a duplicate-name error.
    bool addTensorMap(ScenarioTensorMap t);
    /// The tensor map declared as `name`, via the name table (O(log n), not a scan of s.tensorMaps).
    [[nodiscard]] ScenarioTensorMap* tensorMap(std::string_view name);
    [[nodiscard]] const NameInfo* lookup(std::string_view name) const {
        auto it = names.find(name);
        return it == names.end() ? nullptr : &it->second;
    }
    /// Registers a new name; reports a duplicate and returns false if it exists.
    bool declare(const std::string& name, NameKind kind, SourceSpan span, int64_t value = 0);
    [[nodiscard]] PtxTarget ptxTarget() const;
};

/// A token of a directive line: a word or one of = [ ] , .
struct Tok {
    enum Kind { Word, Punct } kind = Word;
    std::string text;
    SourceSpan span;
};

/// Split a directive into tokens (words are runs without blanks or = [ ] ,).
[[nodiscard]] std::vector<Tok> tokenizeDirective(std::string_view text, int line, int column);

/// Printable form of user text for messages (non-printable bytes as \xNN, long text shortened).
[[nodiscard]] std::string quoted(std::string_view text);

/// The directive keywords (first word of a line followed by a blank or the end of the line).
[[nodiscard]] bool isDirectiveKeyword(std::string_view word);
/// Is `word` a directive that must be applied before all others (target, ptx, cluster)?
[[nodiscard]] bool isHeaderDirective(std::string_view word);

/// Apply one directive; diagnostics go to ctx.diags.
void applyDirective(Context& ctx, const std::vector<Tok>& toks);

/// Parse, validate and lower one PTX instruction statement (text spans from `line`/`column`).
void applyInstruction(Context& ctx, std::string_view text, int line, int column, bool terminated);

/// tcgen05 scenario support (scenario_tcgen05.cpp): `warp N`, `regs pattern=...`, instruction lowering.
void warpDirective(Context& ctx, const std::vector<Tok>& toks);
void regsDirective(Context& ctx, const std::vector<Tok>& toks);
void descDirective(Context& ctx, const std::vector<Tok>& toks);
[[nodiscard]] bool isTcgen05(const ParsedInstr& in);
/// Lower a validated tcgen05 instruction; false after a diagnostic.
[[nodiscard]] bool lowerTcgen05(Context& ctx, const ParsedInstr& in, ScenarioInstr& out);
/// The registers of a warp at the start of a run: those given by `regs`, else zero (128 per thread).
[[nodiscard]] WarpRegisters scenarioWarpRegisters(const Scenario& s, uint32_t cta, uint32_t warp);
/// Warp (cta, warp) of a run's register files, added with its `regs` values on first use.
ScenarioWarp& scenarioWarp(std::vector<ScenarioWarp>& ws, const Scenario& s, uint32_t cta, uint32_t warp);
/// st.shared of a warp with register values (`regs`, tcgen05.ld, wgmma D): its lanes' source registers into
/// shared memory, one step (smem_store.cpp). Returns the summary's tail (what it stored, or why nothing).
std::string storeSharedData(const Scenario& s, const ScenarioInstr& in, std::vector<ScenarioWarp>& warps,
                            MachineState& state, TraceBuilder& tb);
/// Registers per thread in the scenario's register model (r0..r127).
inline constexpr uint32_t kScenarioRegsPerThread = 128;
/// The number N of a register name as pasted from a kernel (%r5, r5, %f12 -> 5, 12); nullopt without a
/// trailing number or at kScenarioRegsPerThread and above (tcgen05.cpp).
[[nodiscard]] std::optional<uint32_t> registerNumber(std::string_view name);
class ProducerIndex;
/// Execute a ScenarioInstrKind::Tcgen05 instruction (it records its own trace instruction). Errors that
/// do not stop the run (Tensor Memory used outside a live allocation) are appended to `findings`.
[[nodiscard]] Status runTcgen05(const Scenario& s, const ScenarioInstr& in, Tcgen05Executor& ex,
                                std::vector<ScenarioWarp>& warps, const MachineState& state, Trace& trace,
                                ProducerIndex& index, std::vector<Diagnostic>& findings);

/// An MMA operand given as an immediate or a `let`/`desc` name (scenario_wgmma.cpp); a diagnostic
/// citing `ref` otherwise.
[[nodiscard]] std::optional<int64_t> letOrImmediate(Context& ctx, const Operand& op, const char* role,
                                                    const char* ref);
/// wgmma in scenarios (scenario_wgmma.cpp): fence/commit_group/wait_group as no-ops, mma_async lowered to
/// its operand fetch (ScenarioInstr::wgmma); false after a diagnostic.
[[nodiscard]] bool isWgmma(const ParsedInstr& in);
/// ld.shared / st.shared / ldmatrix with a per-lane address expression (scenario_smem_access.cpp).
[[nodiscard]] bool isSmemAccess(std::string_view text);
void lowerSmemAccess(Context& ctx, std::string_view text, int line, int column);
/// `expect A|B tensor=NAME m=dimI k=dimJ` (B: n=dimI): what the following wgmmas' operand must see.
void expectDirective(Context& ctx, const std::vector<Tok>& toks);
/// Recorded kernels (scenario/kernel_directive.cpp, docs/exec.md "Kernel scenarios"): `kernel FILE.ptx
/// OPTIONS...` (raw words, shell-like quotes), `origin ptx=L [cu=FILE:L] [cta=C] [warp=W] [thread=T]` (for
/// the next instruction) and `poke smem|global [cta=C] addr=A bytes=HEX`.
void kernelDirective(Context& ctx, std::string_view text, int line, int column);
void originDirective(Context& ctx, std::string_view text, int line, int column);
void pokeDirective(Context& ctx, const std::vector<Tok>& toks);
/// Words of a directive line, blanks separating them, "..." grouping (no escapes); a `\` at a line's end
/// continues it. nullopt (and `err`) for an unterminated quote.
[[nodiscard]] std::optional<std::vector<std::string>> splitWords(std::string_view text, std::string& err);
/// `observe smem|global|tmem ... file=PATH` (scenario/observe.cpp).
void observeDirective(Context& ctx, const std::vector<Tok>& toks);
[[nodiscard]] bool lowerWgmma(Context& ctx, const ParsedInstr& in, ScenarioInstr& out);
/// The global element each 16-byte granule of shared memory holds, as the TMA tile loads left it
/// (scenario_consumer.cpp). One per run, advanced to each consumer: every move is read once, so
/// checking N consumers stays linear in the trace.
/// One k-block of an MMA operand that read its tile as expected (operand_sequence.cpp): the steps of a
/// sequence over one TMA tile must advance along K by exactly one k-block each.
struct KBlockStep {
    size_t producer = 0; ///< the TMA load's scenario instruction
    uint32_t cta = 0;
    std::string role;         ///< OperandSpec::what (operand and pair half)
    bool mnAlongDim0 = false; ///< which way the operand runs over the tile
    std::array<int64_t, 2> origin{};
    SourceSpan span;
    std::string descName;
    uint32_t start = 0; ///< the descriptor's start address
};

class ProducerIndex {
  public:
    void advance(const Scenario& s, const Trace& t, uint64_t endMove);
    [[nodiscard]] std::optional<ProducedByte> at(uint32_t cta, uint32_t addr) const;
    /// Indices of the Copy instructions among s.instrs[0, before), ascending; found by one scan over the
    /// whole run (issue 25 item 3: each consumer used to rescan every instruction before it).
    const std::vector<size_t>& copiesBefore(const Scenario& s, size_t before);
    /// The k-blocks read so far in this run (the operand-sequence check's memory).
    [[nodiscard]] std::vector<KBlockStep>& kBlocks() { return m_kBlocks; }

  private:
    std::vector<KBlockStep> m_kBlocks;
    uint64_t m_done = 0;
    size_t m_scanned = 0;                                  ///< s.instrs[0, m_scanned) are in m_copies
    std::vector<size_t> m_copies;                          ///< Copy instructions, ascending
    std::unordered_map<uint64_t, ProducedByte> m_granules; ///< (CTA << 32 | 16-B aligned address)
};

/// tcgen05.mma (scenario_umma.cpp): the dense kind::f16/tf32 form with A and B from descriptors.
[[nodiscard]] bool isTcgen05Mma(const ParsedInstr& in);
[[nodiscard]] bool lowerTcgen05Mma(Context& ctx, const ParsedInstr& in, ScenarioInstr& out);
/// The producer/consumer check of a tcgen05.mma's A and B (scenario_consumer.cpp).
void checkUmmaConsumer(const Scenario& s, size_t instrIndex, const Trace& t, ProducerIndex& index,
                       std::vector<Diagnostic>& findings);
/// `expect fragment SHAPE [pack::16b] [imm=N]` | `expect fragment none` (fragment_check.cpp).
void fragmentDirective(Context& ctx, const std::vector<Tok>& toks);
/// The check of a tcgen05.ld against the fragment its epilogue assumes: every (thread, register) whose
/// TMEM cell differs is counted; the first few named, with the load that gives the assumed fragment.
[[nodiscard]] std::optional<Diagnostic> checkLdFragment(const LdStForm& got, uint32_t taddr,
                                                        const FragmentExpectation& e);
/// The producer/consumer check of a wgmma.mma_async's A and B (scenario_consumer.cpp).
void checkWgmmaConsumer(const Scenario& s, size_t instrIndex, const Trace& t, ProducerIndex& index,
                        std::vector<Diagnostic>& findings);

/// The producer/consumer check of tcgen05.cp instruction `instrIndex` (scenario_consumer.cpp): reads
/// through descriptor `descValue` (named `descName`) that see other elements than the TMA tile behind
/// the descriptor's start become one Error finding with the first few and a suggested fix.
/// The descriptor operand's name of a tcgen05.cp: its last operand ("tcgen05.cp... [taddr], sd;").
[[nodiscard]] std::string cpDescName(const std::string& text);
void checkCpConsumer(const Scenario& s, size_t instrIndex, const CpForm& f, uint64_t descValue,
                     const std::string& descName, const Trace& t, ProducerIndex& index,
                     std::vector<Diagnostic>& findings);

/// Byte extent of a tensor: from its base to one past its last element; nullopt on overflow.
[[nodiscard]] std::optional<uint64_t> tensorExtent(const TensorMapTiledParams& p);

/// Bytes per element in global memory for the fill pattern (1 for sub-byte types).
[[nodiscard]] uint32_t fillElementBytes(TensorDataType t);

} // namespace layoutscope::scn
