// PTX validity for a target and PTX ISA version, as CUDA 13.0 ptxas decides it.
//
// The rules are one declarative table per instruction (ptx_rules_tma.cpp, ptx_rules_tcgen05_*.cpp,
// ptx_rules_mbarrier.cpp); this file dispatches an instruction to its table, checks the
// .target/.version pair and applies the kernel-wide rule (one .cta_group for all tcgen05
// instructions). Where ptxas and the PTX ISA text disagree, ptxas wins
// (../shared/golden/ptxas/README.md "Where ptxas departs from the PTX ISA text").
#include "layoutscope/ptx/validate.hpp"
#include "ptx/module_internal.hpp"
#include "ptx/rules.hpp"

#include <algorithm>

namespace layoutscope {

using namespace ptx;

namespace {

constexpr int kHighestPtx = 90; // ptxas 13.0: "Unsupported .version 9.1; current version is '9.0'"
constexpr const char* kVersionRef = "PTX ISA §12 (release notes: .target support per .version); ptxas 13.0";
constexpr const char* kKindRef = "PTX ISA §9.7.16.8.5 (tcgen05.wait), §9.7.16.11.1 (tcgen05.fence)";
constexpr const char* kKernelRef =
    "PTX ISA §9.7.16.5 (tcgen05 .cta_group consistency); ptxas 13.0 function-level error";

const std::vector<InstrEntry>& entries() {
    static const std::vector<InstrEntry> all = [] {
        std::vector<InstrEntry> v;
        for (auto part :
             {tmaEntries(), tcgen05LdStEntries(), tcgen05MiscEntries(), mbarrierEntries(),
              tcgen05MmaEntries(), tcgen05LdRedEntries(), bulkEntries(), bulkTensorEntries(), syncEntries(),
              cpAsyncEntries(), mbarrierMoreEntries(), wgmmaEntries(), ldstSharedEntries(), matrixEntries(),
              mmaSyncEntries(), mmaSpEntries(), atomRedSharedEntries(), asyncStEntries(), stBulkEntries()})
            v.insert(v.end(), part.begin(), part.end());
        return v;
    }();
    return all;
}

/// A blank (or a line break) between opcode tokens i-1 and i, seen in their spans; tokens built
/// without positions count as joined.
bool blankBefore(const ParsedInstr& in, size_t i) {
    const SourceSpan& a = in.opcode[i - 1].span;
    const SourceSpan& b = in.opcode[i].span;
    if (a.line <= 0 || b.line <= 0 || a.column <= 0 || b.column <= 0) return false;
    return b.line != a.line || b.column != a.column + a.length;
}

size_t nameMatch(const ParsedInstr& in, const InstrSpec& s) {
    if (in.opcode.size() < s.nameTokens.size()) return 0;
    // The name is one word for ptxas (`tcgen05 .ld` is "not a name of any known instruction").
    for (size_t i = 0; i < s.nameTokens.size(); ++i)
        if (in.opcode[i].text != s.nameTokens[i] || (i > 0 && blankBefore(in, i))) return 0;
    if (s.claims && !s.claims(in)) return 0;
    return s.nameTokens.size();
}

/// The PTX ISA name of `in` when it is a real instruction of the cp or mbarrier families that no
/// table here covers (ptxmod::dataMovementFamily), else "".
std::string unmodelledRealInstruction(const ParsedInstr& in) {
    const std::string& head = in.opcode.front().text;
    if (head == "mbarrier" && in.opcode.size() > 1) {
        static const char* kReal[] = {".inval",     ".arrive",      ".arrive_drop", ".pending_count",
                                      ".expect_tx", ".complete_tx", ".test_wait",   ".try_wait"};
        for (const char* r : kReal)
            if (in.opcode[1].text == r) return "mbarrier" + in.opcode[1].text;
        return "";
    }
    std::string written;
    for (const auto& t : in.opcode) written += t.text;
    // ld/st/atom/red: only the shared-memory forms are modelled; any other state space (or none) is a
    // real instruction without a table (not a misspelt `ld.shared`).
    if ((head == "ld" || head == "st" || head == "atom" || head == "red") && in.opcode.size() > 1) {
        const std::string family = ptxmod::dataMovementFamily(written);
        return family.empty() ? head + in.opcode[1].text : family;
    }
    // fence.sc / fence.acq_rel and barrier{.cta}.sync / arrive / red are real, unmodelled instructions.
    const auto oneOf = [&](std::initializer_list<std::string_view> l) {
        return in.opcode.size() > 1 && std::find(l.begin(), l.end(), in.opcode[1].text) != l.end();
    };
    if ((head == "fence" && oneOf({".sc", ".acq_rel", ".acquire", ".release", ".op_restrict"})) ||
        (head == "barrier" && oneOf({".sync", ".arrive", ".red", ".cta", ".aligned"})))
        return head + in.opcode[1].text;
    if (head != "cp" && head != "fence" && head != "barrier" && head != "wgmma" && head != "mma") return "";
    return ptxmod::dataMovementFamily(written);
}

Status unknownInstruction(const ParsedInstr& in) {
    const OpcodeToken& head = in.opcode.front();
    // Same family ("tcgen05", "cp", "mbarrier"): name the closest modelled instruction.
    std::vector<std::string> family;
    std::vector<std::string> all;
    for (const auto& e : entries()) {
        std::string name;
        for (const char* t : e.spec->nameTokens) name += t;
        all.push_back(name);
        if (head.text == e.spec->nameTokens[0]) family.push_back(name);
    }
    std::string written = head.text;
    for (size_t i = 1; i < in.opcode.size() && i < 4; ++i) written += in.opcode[i].text;
    SourceSpan span = head.span;
    for (size_t i = 1; i < in.opcode.size() && i < 5; ++i)
        if (blankBefore(in, i)) {
            ParsedInstr joined = in;
            for (auto& t : joined.opcode) t.span = {};
            if (validatorModels(joined))
                return Diagnostic{Severity::Error,
                                  DiagCode::Syntax,
                                  in.opcode[i].span,
                                  "the instruction name is one word: remove the blank before `" +
                                      in.opcode[i].text + "` (blanks may separate the qualifiers after it)",
                                  "PTX ISA 9.2 §4 (syntax); ptxas 13.0",
                                  Provenance::Ptxas};
            break;
        }
    // A real PTX instruction of a modelled family that has no table here (cp.async.ca, cp.async.bulk
    // forms beyond the modelled ones, mbarrier.arrive, ...): say that, not "did you mean".
    if (const std::string real = unmodelledRealInstruction(in); !real.empty())
        return Diagnostic{Severity::Error,
                          DiagCode::Unsupported,
                          span,
                          "`" + real +
                              "` is a PTX instruction that this validator does not model (yet); "
                              "ptxas is the oracle for it (`check FILE.ptx` lists such instructions without "
                              "validating them)",
                          "PTX ISA 9.2 §9.7 (" + real + ")",
                          Provenance::PtxText};
    if (!family.empty()) {
        if (in.opcode.size() > 1) span = in.opcode[1].span;
        const std::string name = head.text + (in.opcode.size() > 1 ? in.opcode[1].text : std::string());
        // `tcgen05.wait` / `tcgen05.fence` without their `::kind`, or with one that does not exist:
        // name the spellings that do.
        const std::string stem = name.substr(0, name.find("::"));
        std::string kinds;
        size_t nKinds = 0;
        for (const auto& f : family)
            if (f.rfind(stem + "::", 0) == 0) kinds += (nKinds++ ? " or `" : "`") + f + "`";
        if (in.opcode.size() > 1 && nKinds) {
            const std::string msg = stem == name
                                        ? "`" + name + "` needs its kind written with `::`: " + kinds
                                        : "`" + name + "` is not a kind of " + stem + ": write " + kinds;
            Diagnostic d{Severity::Error, DiagCode::InvalidValue, span, msg, kKindRef, Provenance::Ptxas};
            return d;
        }
        std::string msg = "`" + name + "` is not " + article(head.text) + " " + head.text;
        msg += " instruction this validator knows";
        std::string best;
        int bestD = 1 << 30;
        for (const auto& f : family) {
            const int d = editDistance(written.substr(0, std::min(written.size(), f.size())), f);
            if (d < bestD) bestD = d, best = f;
        }
        msg += "; did you mean `" + best + "`? (the instruction name comes first, its qualifiers after it)";
        return Diagnostic{
            Severity::Error,  DiagCode::InvalidValue, span, msg, "PTX ISA §9.7 (instruction names)",
            Provenance::Ptxas};
    }
    return Diagnostic{
        Severity::Error,
        DiagCode::Unsupported,
        span,
        "`" + head.text +
            "` is outside what this validator models (the bulk and tensor copies, tcgen05, wgmma, "
            "ldmatrix/stmatrix/movmatrix, mma.sync, cp.async, mbarrier, fence, barrier.cluster, elect.sync, "
            "ld/st/atom/red on shared memory, st.async, red.async, st.bulk)",
        "",
        Provenance::Assumption};
}

} // namespace

std::vector<std::string> knownPtxTargets() {
    return {"sm_75",   "sm_80",   "sm_86",   "sm_87",   "sm_88",   "sm_89",   "sm_90",  "sm_90a",
            "sm_100",  "sm_100a", "sm_100f", "sm_103",  "sm_103a", "sm_103f", "sm_110", "sm_110a",
            "sm_110f", "sm_120",  "sm_120a", "sm_120f", "sm_121",  "sm_121a", "sm_121f"};
}

Status validateTargetVersion(const PtxTarget& target) {
    const TargetInfo* ti = findTarget(target.sm);
    const int v = ptxValue(target);
    if (!ti) {
        std::string msg =
            "unknown target `" + target.sm + "`; the modelled targets are " + targetList(kAllTargets);
        if (target.sm == "sm_101a")
            msg += " (sm_101a was renamed sm_110a)";
        else if (auto near = closest(target.sm, knownPtxTargets()); !near.empty())
            msg += "; did you mean `" + near + "`?";
        return Diagnostic{Severity::Error, DiagCode::TargetMismatch, {}, msg, kVersionRef, Provenance::Ptxas};
    }
    // PTX ISA versions that never existed: ptxas 13.0 says "Unsupported .version 7.9" (also 6.6 ... 6.9
    // and 8.9; measured with a trivial kernel, issue 21). Below 6.3 no modelled target is accepted.
    const bool neverReleased = (target.ptxMajor == 6 && target.ptxMinor > 5) ||
                               ((target.ptxMajor == 7 || target.ptxMajor == 8) && target.ptxMinor == 9);
    if (neverReleased)
        return Diagnostic{
            Severity::Error,
            DiagCode::TargetMismatch,
            {},
            ".version " + ptxText(v) +
                " is not a PTX ISA version (CUDA 13.0 knows 6.0 ... 6.5, 7.0 ... 7.8, 8.0 ... 8.8, 9.0)",
            kVersionRef,
            Provenance::Ptxas};
    if (target.ptxMinor < 0 || target.ptxMinor > 9 || v > kHighestPtx)
        return Diagnostic{Severity::Error,
                          DiagCode::TargetMismatch,
                          {},
                          ".version " + std::to_string(target.ptxMajor) + "." +
                              std::to_string(target.ptxMinor) +
                              " is newer than CUDA 13.0 supports; the highest is 9.0",
                          kVersionRef,
                          Provenance::Ptxas};
    if (v < ti->minPtx)
        return Diagnostic{Severity::Error,
                          DiagCode::TargetMismatch,
                          {},
                          ".target " + target.sm + " needs .version " + ptxText(ti->minPtx) +
                              " or later; the kernel declares " + ptxText(v),
                          kVersionRef,
                          Provenance::Ptxas};
    return okStatus();
}

namespace ptx {
bool validatorHead(std::string_view head) {
    return std::any_of(entries().begin(), entries().end(),
                       [&](const InstrEntry& e) { return head == e.spec->nameTokens[0]; });
}
} // namespace ptx

bool validatorModels(const ParsedInstr& instr) {
    return std::any_of(entries().begin(), entries().end(),
                       [&](const InstrEntry& e) { return nameMatch(instr, *e.spec) != 0; });
}

Status validateInstruction(const ParsedInstr& instr, const PtxTarget& target) {
    return validateInstruction(instr, target, PtxEnvironment{});
}

Status validateInstruction(const ParsedInstr& instr, const PtxTarget& target, const PtxEnvironment& env) {
    if (instr.opcode.empty())
        return Diagnostic{Severity::Error,    DiagCode::Syntax, instr.span, "empty instruction", "",
                          Provenance::PtxText};
    std::vector<Diagnostic> diags;
    if (auto tv = validateTargetVersion(target); !tv) {
        diags = tv.diagnostics();
        for (auto& d : diags) d.span = instr.opcode.front().span;
    }
    const InstrEntry* best = nullptr;
    size_t bestLen = 0;
    for (const auto& e : entries())
        if (size_t n = nameMatch(instr, *e.spec); n > bestLen) bestLen = n, best = &e;
    Status s = best ? best->check(instr, target, env) : unknownInstruction(instr);
    // An unknown target or an unusable .version is reported once above; the per-instruction
    // "not available on …" / "needs PTX ISA …" that follow from it would only repeat it.
    const bool targetBad = !diags.empty();
    if (!s)
        for (const Diagnostic& d : s.diagnostics())
            if (!targetBad || d.code != DiagCode::TargetMismatch) diags.push_back(d);
    if (diags.empty()) return okStatus();
    return diags;
}

namespace ptx {

int kernelCtaGroup(const ParsedInstr& in) {
    // PTX ISA §9.7.16.5 ("all tcgen05 instructions in a kernel must use the same .cta_group"), as
    // ptxas enforces it: alloc, dealloc, relinquish_alloc_permit, cp, shift, commit (and mma).
    // Not cp.async.bulk.tensor (golden/ptxas README departure 6); ld/st carry no .cta_group.
    if (in.opcode.size() < 2 || in.opcode[0].text != "tcgen05") return 0;
    static const char* kCovered[] = {".alloc",  ".dealloc", ".relinquish_alloc_permit", ".cp", ".shift",
                                     ".commit", ".mma"};
    if (std::none_of(std::begin(kCovered), std::end(kCovered),
                     [&](const char* c) { return in.opcode[1].text == c; }))
        return 0;
    for (const auto& t : in.opcode) {
        if (t.text == ".cta_group::1") return 1;
        if (t.text == ".cta_group::2") return 2;
    }
    return 0;
}

Diagnostic ctaGroupMixDiagnostic(const ParsedInstr& earlier, const ParsedInstr& later) {
    const int gEarlier = kernelCtaGroup(earlier), gLater = kernelCtaGroup(later);
    SourceSpan at = later.span;
    for (const auto& t : later.opcode)
        if (t.text.rfind(".cta_group::", 0) == 0) at = t.span;
    SourceSpan first = earlier.span;
    for (const auto& t : earlier.opcode)
        if (t.text.rfind(".cta_group::", 0) == 0) first = t.span;
    const std::string msg =
        "all tcgen05 instructions of one kernel must use the same .cta_group: `" + later.opcodeText() +
        "` uses ::" + std::to_string(gLater) + " but `" + earlier.opcodeText() + "` (line " +
        std::to_string(first.line) + ", column " + std::to_string(first.column) +
        ") uses ::" + std::to_string(gEarlier) +
        "; pick one for the whole kernel (cp.async.bulk.tensor's .cta_group is not part of this rule)";
    return Diagnostic{Severity::Error, DiagCode::InvalidValue, at, msg, kKernelRef, Provenance::Ptxas};
}

} // namespace ptx

Status validateKernel(const std::vector<ParsedInstr>& instrs, const PtxTarget& target) {
    return validateKernel(instrs, target, PtxEnvironment{});
}

Status validateKernel(const std::vector<ParsedInstr>& instrs, const PtxTarget& target,
                      const PtxEnvironment& env) {
    std::vector<Diagnostic> diags;
    for (const auto& in : instrs) {
        Status s = validateInstruction(in, target, env);
        if (!s) diags.insert(diags.end(), s.diagnostics().begin(), s.diagnostics().end());
    }
    const ParsedInstr* first[3] = {nullptr, nullptr, nullptr};
    for (const auto& in : instrs) {
        const int g = kernelCtaGroup(in);
        if (g && !first[g]) first[g] = &in;
    }
    if (first[1] && first[2]) {
        // The instructions are in kernel order: the later of the two first uses conflicts.
        const bool oneFirst = first[1] < first[2]; // both point into instrs
        diags.push_back(ctaGroupMixDiagnostic(*first[oneFirst ? 1 : 2], *first[oneFirst ? 2 : 1]));
    }
    if (diags.empty()) return okStatus();
    std::stable_sort(diags.begin(), diags.end(),
                     [](const Diagnostic& a, const Diagnostic& b) { return a.severity < b.severity; });
    return diags;
}

} // namespace layoutscope
