#pragma once
/// Internal to the PTX validator: the vocabulary its declarative tables are written in.
///
/// [SECTION] index
///   Targets      TargetMask bits for the 23 modelled targets (sm_75 ... sm_121f), PTX versions as
///   10*major+minor Qualifiers   QualGroup / InstrSpec: one table per instruction (ptx_rules_*.cpp) Operands
///   ValueKind masks an operand slot accepts; Checker helpers that report with spans Checker per-instruction
///   state: the matched qualifiers and the diagnostics found
#include "layoutscope/ptx/validate.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace layoutscope::ptx {

// [SECTION] Targets ----------------------------------------------------------------------------

using TargetMask = uint32_t;
constexpr TargetMask kSm90a = 1u << 0;
constexpr TargetMask kSm100a = 1u << 1;
constexpr TargetMask kSm100f = 1u << 2;
constexpr TargetMask kSm103a = 1u << 3;
constexpr TargetMask kSm110a = 1u << 4;
constexpr TargetMask kSm120a = 1u << 5;
/// Targets as ptxas spells them without the a/f suffix: the features every later GPU keeps. ptxas 13.0
/// accepts TMA tile loads, mbarrier and (with an advisory) .multicast::cluster on them, but rejects
/// tcgen05.* ("not supported on .target 'sm_100'"): those need sm_100a/sm_100f
/// (tests/cli_ptxas_targets.cmake).
constexpr TargetMask kSm90 = 1u << 6;
constexpr TargetMask kSm100 = 1u << 7;
constexpr TargetMask kSm103 = 1u << 8;
constexpr TargetMask kSm110 = 1u << 9;
constexpr TargetMask kSm120 = 1u << 10;
/// The family targets and sm_121 that ptxas 13.0 also knows (`ptxas --help`, -arch values; PTX 8.8 at
/// least, sm_110f 9.0). A family target `sm_XYf` has the features of its family (sm_103f: sm_100f's).
constexpr TargetMask kSm103f = 1u << 11;
constexpr TargetMask kSm110f = 1u << 12;
constexpr TargetMask kSm120f = 1u << 13;
constexpr TargetMask kSm121 = 1u << 14;
constexpr TargetMask kSm121a = 1u << 15;
constexpr TargetMask kSm121f = 1u << 16;
constexpr TargetMask kPlainTargets = kSm90 | kSm100 | kSm103 | kSm110 | kSm120 | kSm121;
/// Hopper and every later target (the seventeen above): cluster, TMA, mbarrier tx-counts, wgmma.
constexpr TargetMask kSm90Up = 0x1ffff;
/// The pre-Hopper targets ptxas 13.0 knows (`ptxas --help`: sm_75 ... sm_89; issue 21). Turing sm_75 has
/// ldmatrix and the m8n8k16 / m16n8k8 mma.sync shapes; Ampere sm_80 adds cp.async, mbarrier, mma.sp and
/// the m16n8k16 shapes; sm_89 adds FP8 mma.sync. None has a cluster, TMA, wgmma or stmatrix.
constexpr TargetMask kSm75 = 1u << 17;
constexpr TargetMask kSm80 = 1u << 18;
constexpr TargetMask kSm86 = 1u << 19;
constexpr TargetMask kSm87 = 1u << 20;
constexpr TargetMask kSm88 = 1u << 21;
constexpr TargetMask kSm89 = 1u << 22;
constexpr TargetMask kPreHopper = kSm75 | kSm80 | kSm86 | kSm87 | kSm88 | kSm89;
constexpr TargetMask kSm80Up = kSm90Up | (kPreHopper & ~kSm75);
constexpr TargetMask kAllTargets = kSm90Up | kPreHopper;
/// The targets with Tensor Memory and tcgen05 (sm_101a was renamed sm_110a; unknown to ptxas 13.0).
constexpr TargetMask kTcgen05Targets = kSm100a | kSm100f | kSm103a | kSm103f | kSm110a | kSm110f;
/// The consumer-Blackwell arch/family targets: what sm_120a has, sm_120f, sm_121a and sm_121f have
/// (ptxas 13.0 over the public golden texts: identical verdicts).
constexpr TargetMask kSm120Like = kSm120a | kSm120f | kSm121a | kSm121f;

struct TargetInfo {
    const char* name;
    TargetMask bit;
    int minPtx; ///< lowest .version ptxas 13.0 accepts with this .target (10*major+minor)
};
[[nodiscard]] const TargetInfo* findTarget(std::string_view sm);
[[nodiscard]] std::string targetList(TargetMask m); ///< "sm_100a, sm_100f, sm_103a, sm_110a"
[[nodiscard]] inline int ptxValue(const PtxTarget& t) {
    return t.ptxMajor * 10 + t.ptxMinor;
}
[[nodiscard]] inline std::string ptxText(int v) {
    return std::to_string(v / 10) + "." + std::to_string(v % 10);
}

// [SECTION] Qualifiers -------------------------------------------------------------------------

/// One qualifier spelling with its own gates (0 / kAllTargets: no gate beyond the instruction's).
struct QualSpec {
    const char* text;
    TargetMask targets = kAllTargets;
    int minPtx = 0;
};

/// A set of mutually exclusive qualifiers (".shape", ".num"): at most one of them, unless repeatable.
struct QualGroup {
    const char* name; ///< in words, e.g. "shape", "completion mechanism"
    std::vector<QualSpec> values;
    bool required = false;
    bool repeatable = false;
    const char* ref = "";        ///< where the group is defined
    bool repeatsIgnored = false; ///< ptxas 13.0 silently accepts `.sync.sync` (but not `.aligned.aligned`)
};

/// A qualifier ptxas knows but rejects on this instruction, with the reason in plain words.
struct IllegalQual {
    const char* text;
    const char* why;
};

/// One instruction's qualifier table. Checks beyond "which qualifiers, how many, on which targets"
/// (allowed combinations, operand lists) are tables in the instruction's own file.
struct InstrSpec {
    const char* name;                    ///< "tcgen05.ld"
    std::vector<const char*> nameTokens; ///< {"tcgen05", ".ld"}
    TargetMask targets;
    int minPtx;
    const char* ref;
    std::vector<QualGroup> groups;
    std::vector<IllegalQual> illegal;
    /// For a table that models only some forms of an instruction name (ld/st on shared memory):
    /// whether `in` is one of them; nullptr: every instruction with the name tokens.
    bool (*claims)(const ParsedInstr& in) = nullptr;
};

// [SECTION] Operands ---------------------------------------------------------------------------

/// What an operand (or an element / address base) is, after looking its name up.
enum ValueKind : uint32_t {
    kR16 = 1u << 0,
    kR32 = 1u << 1,
    kR64 = 1u << 2,
    kPred = 1u << 3,
    kImm = 1u << 4,
    kSharedSym = 1u << 5,
    kParamSym = 1u << 6,
    kGlobalSym = 1u << 7,
    kSink = 1u << 8,    ///< "_"
    kOpenSym = 1u << 9, ///< an undeclared scenario symbol (fits any symbol slot)
    kUndeclared = 1u << 10,
    kVectorKind = 1u << 11,
    kAddressKind = 1u << 12,
    kPairKind = 1u << 13, ///< `d|p` (elect.sync's destination): Operand::elements holds both halves
    kR128 = 1u << 14,     ///< `.reg .b128` (ld/st/atom `.b128`, PTX 8.3)
};
[[nodiscard]] const char* valueKindWords(uint32_t k);   ///< "a 32-bit register", ...
[[nodiscard]] std::string acceptedWords(uint32_t mask); ///< "a 32-bit register or an immediate"

// [SECTION] Checker ----------------------------------------------------------------------------

struct Matched {
    const QualGroup* group;
    const QualSpec* spec;
    const OpcodeToken* tok;
    size_t position; ///< index in ParsedInstr::opcode
};

class Checker {
  public:
    Checker(const ParsedInstr& in, const PtxTarget& target, const PtxEnvironment& env, const InstrSpec& spec);

    const ParsedInstr& in;
    const PtxTarget& target;
    const PtxEnvironment& env;
    const InstrSpec& spec;
    TargetMask bit = 0; ///< 0 for an unknown target
    int ptx = 0;
    std::vector<Matched> quals;
    std::vector<Diagnostic> diags;

    /// Match every qualifier token against spec.groups: unknown, illegal, duplicate, conflicting,
    /// target- and version-gated, and missing required groups. Returns false if any was reported.
    bool matchQualifiers();

    [[nodiscard]] const Matched* find(std::string_view groupName) const;
    [[nodiscard]] std::string value(std::string_view groupName) const; ///< "" when absent
    [[nodiscard]] bool has(std::string_view text) const;
    [[nodiscard]] SourceSpan spanOf(std::string_view groupName) const; ///< the token, else the opcode
    [[nodiscard]] SourceSpan opcodeSpan() const;

    void error(DiagCode code, SourceSpan span, std::string message, std::string ref, Provenance prov);
    void warning(SourceSpan span, std::string message, std::string ref, Provenance prov);
    /// Reports "form F is valid only on …" for a form whose valid targets are `valid`.
    void targetError(SourceSpan span, const std::string& what, TargetMask valid, std::string ref,
                     Provenance prov);

    // Operands
    [[nodiscard]] uint32_t kindOf(const Operand& op) const;
    /// Exact operand count; reports missing / extra operands with spans. False when wrong.
    bool expectCount(size_t n, const std::string& listInWords, const char* ref);
    /// A scalar operand whose kind must be in `accept`.
    bool expectScalar(const Operand& op, const std::string& role, uint32_t accept, const char* ref,
                      Provenance prov = Provenance::Ptxas);
    /// `[base]` or `[base+imm]` with base kind in `accept`.
    bool expectAddress(const Operand& op, const std::string& role, uint32_t accept, bool offsetOk,
                       const char* ref, Provenance prov = Provenance::Ptxas);
    /// `{e0, …}` of exactly `len` elements (0: any) whose kinds are in `accept`.
    bool expectVector(const Operand& op, const std::string& role, size_t len, uint32_t accept,
                      const char* ref, Provenance prov = Provenance::Ptxas);

    [[nodiscard]] Status finish();
};

/// Edit distance (optimal string alignment) for "did you mean" hints.
[[nodiscard]] int editDistance(std::string_view a, std::string_view b);
/// The closest spelling in `candidates` within a small distance, or "".
[[nodiscard]] std::string closest(std::string_view word, const std::vector<std::string>& candidates);

// Per-instruction entry points (ptx_rules_*.cpp). Each owns its spec table.
using InstrCheck = Status (*)(const ParsedInstr&, const PtxTarget&, const PtxEnvironment&);
struct InstrEntry {
    const InstrSpec* spec;
    InstrCheck check;
};
[[nodiscard]] std::vector<InstrEntry> tmaEntries();          ///< ptx_rules_tma.cpp
[[nodiscard]] std::vector<InstrEntry> tcgen05LdStEntries();  ///< ptx_rules_tcgen05_ldst.cpp
[[nodiscard]] std::vector<InstrEntry> tcgen05MiscEntries();  ///< ptx_rules_tcgen05_misc.cpp
[[nodiscard]] std::vector<InstrEntry> mbarrierEntries();     ///< ptx_rules_mbarrier.cpp
[[nodiscard]] std::vector<InstrEntry> tcgen05MmaEntries();   ///< rules_tcgen05_mma.cpp
[[nodiscard]] std::vector<InstrEntry> tcgen05LdRedEntries(); ///< rules_tcgen05_ldred.cpp
[[nodiscard]] std::vector<InstrEntry> bulkEntries();         ///< rules_bulk.cpp (non-tensor bulk copies)
[[nodiscard]] std::vector<InstrEntry> bulkTensorEntries();   ///< rules_bulk_tensor.cpp (reduce, prefetch)
[[nodiscard]] std::vector<InstrEntry> syncEntries();    ///< rules_sync.cpp (elect, barrier.cluster, fence)
[[nodiscard]] std::vector<InstrEntry> cpAsyncEntries(); ///< rules_cp_async.cpp (sm_80 cp.async)
[[nodiscard]] std::vector<InstrEntry> mbarrierMoreEntries(); ///< rules_mbarrier_more.cpp
[[nodiscard]] std::vector<InstrEntry> wgmmaEntries();        ///< rules_wgmma.cpp
[[nodiscard]] std::vector<InstrEntry> ldstSharedEntries();   ///< rules_ldst_shared.cpp
[[nodiscard]] std::vector<InstrEntry> matrixEntries();  ///< rules_matrix.cpp (ldmatrix, stmatrix, movmatrix)
[[nodiscard]] std::vector<InstrEntry> mmaSyncEntries(); ///< rules_mma_sync.cpp (dense warp-level mma)
[[nodiscard]] std::vector<InstrEntry> mmaSpEntries();   ///< rules_mma_sp.cpp (mma.sp, block-scaled mma.sync)
[[nodiscard]] std::vector<InstrEntry> atomRedSharedEntries(); ///< rules_atom_shared.cpp (atom/red on shared)
[[nodiscard]] std::vector<InstrEntry> asyncStEntries();       ///< rules_async_st.cpp (st.async, red.async)
[[nodiscard]] std::vector<InstrEntry> stBulkEntries();        ///< rules_st_bulk.cpp (st.bulk)

/// mbarrier `.sem` and `.scope` are written together or not at all (rules_mbarrier.cpp); `orders` names the
/// memory orders that may stand before the scope, for the message ("`.release` or `.relaxed`").
void mbarrierSemScope(Checker& c, const char* ref, const std::string& orders);

/// The first opcode token of every instruction some table models ("cp", "wgmma", "ld", ...).
[[nodiscard]] bool validatorHead(std::string_view head);

/// The .cta_group value of a tcgen05 instruction that the kernel-wide rule covers (1, 2), or 0.
[[nodiscard]] int kernelCtaGroup(const ParsedInstr& in);
/// The kernel-wide rule broken by `later` (kernelCtaGroup differs from `earlier`'s, both non-zero):
/// an error at later's `.cta_group` qualifier that names `earlier` and its line and column.
[[nodiscard]] Diagnostic ctaGroupMixDiagnostic(const ParsedInstr& earlier, const ParsedInstr& later);

/// "a" or "an" before `word` as it is read aloud ("an alignment", "a CTA group", "an L2 hint").
[[nodiscard]] const char* article(std::string_view word);

} // namespace layoutscope::ptx
