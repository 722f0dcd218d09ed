// Non-tensor bulk copies (PTX ISA 9.2 §9.7.9.25.4; CCCL cuda/__ptx/instructions/generated/
// cp_async_bulk*.h, cp_reduce_async_bulk*.h for the forms; the rules below as CUDA 13.0 ptxas decides
// them, tests/data/ptxas_bulk/bulk.jsonl.gz):
//
//   cp.async.bulk.dst.src.completion{.multicast::cluster}{.L2::cache_hint}{.cp_mask}
//                  [dstMem], [srcMem], size {, [mbar]} {, ctaMask} {, policy} {, byteMask};
//   cp.reduce.async.bulk.dst.src.completion{.L2::cache_hint}.redOp{.noftz}.type
//                  [dstMem], [srcMem], size {, [mbar]} {, policy};
//   cp.async.bulk.prefetch.L2.global{.L2::cache_hint}  [srcMem], size {, policy};
//   cp.async.bulk.commit_group;   cp.async.bulk.wait_group{.read} N;
//
// As for cp.async.bulk.tensor, the first state space is the destination, the second the source;
// qualifier order is otherwise free.
#include "ptx/rules.hpp"

#include <algorithm>

namespace layoutscope::ptx {

namespace {

constexpr const char* kCopyRef = "PTX ISA 9.2 §9.7.9.25.4.1 cp.async.bulk";
constexpr const char* kRedRef = "PTX ISA 9.2 §9.7.9.25.4.2 cp.reduce.async.bulk";
constexpr const char* kPrefetchRef = "PTX ISA 9.2 §9.7.9.25.4.3 cp.async.bulk.prefetch";
constexpr const char* kGroupRef = "PTX ISA 9.2 §9.7.9.25.6 cp.async.bulk.commit_group / wait_group";
constexpr const char* kMbarComp = ".mbarrier::complete_tx::bytes";

/// ptxas 13.0: a global address is a 16-, 32- or 64-bit register (never an immediate, a shared or
/// .param symbol); a shared address also a .shared symbol; the mbarrier a 32/64-bit register or symbol.
constexpr uint32_t kGlobalAddr = kR16 | kR32 | kR64 | kGlobalSym | kOpenSym;
constexpr uint32_t kSharedAddr = kR16 | kR32 | kR64 | kSharedSym | kOpenSym;
constexpr uint32_t kMbarAddr = kR32 | kR64 | kSharedSym | kOpenSym;
/// `.cp_mask` (PTX 8.6): "Feature '.cp_mask' requires .target sm_100 or higher".
constexpr TargetMask kSm100Up = kSm90Up & ~(kSm90 | kSm90a);

QualGroup spaces(const char* ref) {
    return {"state space", {{".shared::cluster"}, {".shared::cta"}, {".global"}}, false, true, ref};
}
QualGroup completion(const char* ref) {
    return {"completion mechanism", {{kMbarComp}, {".bulk_group"}}, true, false, ref};
}
QualGroup hint(const char* ref) {
    return {"cache hint", {{".L2::cache_hint"}}, false, false, ref};
}
const IllegalQual kBareShared{
    ".shared", "the state space must say which shared memory: `.shared::cta` or `.shared::cluster`"};

const InstrSpec kCopy{
    "cp.async.bulk",
    {"cp", ".async", ".bulk"},
    kSm90Up,
    80,
    kCopyRef,
    {spaces(kCopyRef),
     completion(kCopyRef),
     {"multicast", {{".multicast::cluster"}}, false, false, kCopyRef},
     hint(kCopyRef),
     {"byte mask", {{".cp_mask", kSm100Up, 86}}, false, false, kCopyRef}},
    {kBareShared,
     {".cta_group::1", "cp.async.bulk has no `.cta_group` (cp.async.bulk.tensor has)"},
     {".cta_group::2", "cp.async.bulk has no `.cta_group` (cp.async.bulk.tensor has)"}},
};

const InstrSpec kReduce{
    "cp.reduce.async.bulk",
    {"cp", ".reduce", ".async", ".bulk"},
    kSm90Up,
    80,
    kRedRef,
    {spaces(kRedRef),
     completion(kRedRef),
     hint(kRedRef),
     {"reduction",
      {{".add"}, {".min"}, {".max"}, {".inc"}, {".dec"}, {".and"}, {".or"}, {".xor"}},
      true,
      false,
      kRedRef},
     {"no-flush-to-zero", {{".noftz"}}, false, false, kRedRef},
     {"type",
      {{".b32"}, {".u32"}, {".s32"}, {".b64"}, {".u64"}, {".s64"}, {".f16"}, {".bf16"}, {".f32"}, {".f64"}},
      true,
      false,
      kRedRef}},
    {kBareShared},
};

const InstrSpec kPrefetch{
    "cp.async.bulk.prefetch",
    {"cp", ".async", ".bulk", ".prefetch"},
    kSm90Up,
    80,
    kPrefetchRef,
    {{"cache level", {{".L2"}}, true, false, kPrefetchRef},
     {"state space", {{".global"}}, true, false, kPrefetchRef},
     hint(kPrefetchRef)},
    {{".shared::cta", "a bulk prefetch reads global memory into L2: its state space is `.global`"},
     {".shared::cluster", "a bulk prefetch reads global memory into L2: its state space is `.global`"}},
};

const InstrSpec kCommit{
    "cp.async.bulk.commit_group", {"cp", ".async", ".bulk", ".commit_group"}, kSm90Up, 80, kGroupRef, {}, {}};
const InstrSpec kWait{"cp.async.bulk.wait_group",
                      {"cp", ".async", ".bulk", ".wait_group"},
                      kSm90Up,
                      80,
                      kGroupRef,
                      {{"read", {{".read"}}, false, false, kGroupRef}},
                      {}};

/// One copy direction: destination space, source space, completion and what it may add.
struct Direction {
    const char* dst;
    const char* src;
    const char* completion;
    bool multicast, hint, cpMask;
    int minPtx; ///< a .shared::cta destination needs PTX 8.6 (ptxas 13.0)
};
const Direction kCopyDirs[] = {
    {".shared::cluster", ".global", kMbarComp, true, true, false, 80},
    {".shared::cta", ".global", kMbarComp, false, true, false, 86},
    {".shared::cluster", ".shared::cta", kMbarComp, false, false, false, 80},
    {".global", ".shared::cta", ".bulk_group", false, true, true, 80},
};
const Direction kReduceDirs[] = {
    {".shared::cluster", ".shared::cta", kMbarComp, false, false, false, 80},
    {".global", ".shared::cta", ".bulk_group", false, true, false, 80},
};

/// cp.reduce.async.bulk: the types each reduction takes, per direction (ptxas 13.0, every
/// op x type x .noftz, identical on sm_90a@8.0 and sm_100a@9.0).
struct RedTypes {
    const char* op;
    std::vector<const char*> toCluster; ///< .shared::cluster destination
    std::vector<const char*> toGlobal;  ///< .global destination (without .noftz)
};
const RedTypes kRedTypes[] = {
    {".add", {".u32", ".s32", ".u64"}, {".u32", ".s32", ".u64", ".f32", ".f64"}},
    {".min", {".u32", ".s32"}, {".u32", ".s32", ".u64", ".s64", ".f16", ".bf16"}},
    {".max", {".u32", ".s32"}, {".u32", ".s32", ".u64", ".s64", ".f16", ".bf16"}},
    {".inc", {".u32"}, {".u32"}},
    {".dec", {".u32"}, {".u32"}},
    {".and", {".b32"}, {".b32", ".b64"}},
    {".or", {".b32"}, {".b32", ".b64"}},
    {".xor", {".b32"}, {".b32", ".b64"}},
};

std::string joined(const std::vector<const char*>& v) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i)
        s += std::string(i ? (i + 1 == v.size() ? " or `" : ", `") : "`") + v[i] + "`";
    return s;
}

/// A shared-memory or global address operand: `[x]` / `[x+imm]`.
void address(Checker& c, const Operand& op, const std::string& role, bool global, const char* ref) {
    c.expectAddress(op, role, global ? kGlobalAddr : kSharedAddr, true, ref);
}

/// Finds the direction the two state spaces name; reports a wrong count or pair. nullptr if none.
const Direction* direction(Checker& c, const Direction* dirs, size_t n, const char* instr,
                           const std::string& forms, const char* ref) {
    std::vector<const Matched*> sp;
    for (const auto& m : c.quals)
        if (std::string_view(m.group->name) == "state space") sp.push_back(&m);
    if (sp.size() != 2) {
        c.error(DiagCode::InvalidValue, sp.size() > 2 ? sp[2]->tok->span : c.opcodeSpan(),
                std::string(instr) + " names two state spaces, destination then source (" + forms +
                    "); found " + std::to_string(sp.size()),
                ref, Provenance::Ptxas);
        return nullptr;
    }
    for (size_t i = 0; i < n; ++i)
        if (sp[0]->tok->text == dirs[i].dst && sp[1]->tok->text == dirs[i].src) {
            if (c.ptx < dirs[i].minPtx)
                c.error(DiagCode::TargetMismatch, sp[0]->tok->span,
                        "a `" + std::string(dirs[i].dst) + "` destination needs PTX ISA " +
                            ptxText(dirs[i].minPtx) + " or later; this kernel declares .version " +
                            ptxText(c.ptx) + " (or copy to `.shared::cluster`, valid since PTX 8.0)",
                        ref, Provenance::Ptxas);
            return &dirs[i];
        }
    c.error(DiagCode::InvalidValue, sp[1]->tok->span,
            "`" + sp[0]->tok->text + "` from `" + sp[1]->tok->text + "` is not a direction of " + instr +
                " (destination first): " + forms,
            ref, Provenance::Ptxas);
    return nullptr;
}

/// Completion and optional qualifiers against the direction; then the operand list.
void commonChecks(Checker& c, const Direction& d, const char* ref) {
    const std::string comp = c.value("completion mechanism");
    const std::string where = "`" + std::string(d.dst) + "." + std::string(d.src + 1) + "`";
    if (!comp.empty() && comp != d.completion)
        c.error(DiagCode::InvalidValue, c.spanOf("completion mechanism"),
                "a copy " + where + " completes through `" + d.completion + "`, not `" + comp + "`", ref,
                Provenance::Ptxas);
    if (c.find("multicast") && !d.multicast)
        c.error(DiagCode::InvalidValue, c.spanOf("multicast"),
                "`.multicast::cluster` is only for global to `.shared::cluster` copies; not " + where, ref,
                Provenance::Ptxas);
    if (c.find("cache hint") && !d.hint)
        c.error(DiagCode::InvalidValue, c.spanOf("cache hint"),
                "`.L2::cache_hint` needs global memory on one side; a copy " + where + " takes none", ref,
                Provenance::Ptxas);
    if (c.find("byte mask") && !d.cpMask)
        c.error(DiagCode::InvalidValue, c.spanOf("byte mask"),
                "`.cp_mask` is only for shared::cta to global copies (`.global.shared::cta.bulk_group`)", ref,
                Provenance::Ptxas);
}

void operands(Checker& c, const Direction& d, bool allowMask, const char* ref) {
    const bool mbar = std::string_view(d.completion) == kMbarComp;
    const bool mc = d.multicast && c.find("multicast");
    const bool pol = d.hint && c.find("cache hint");
    const bool bm = allowMask && d.cpMask && c.find("byte mask");
    std::string list = "[dstMem], [srcMem], size";
    if (mbar) list += ", [mbar]";
    if (mc) list += ", ctaMask";
    if (pol) list += ", policy";
    if (bm) list += ", byteMask";
    if (!c.expectCount(3 + mbar + mc + pol + bm, list, ref)) return;
    const auto& ops = c.in.operands;
    address(c, ops[0], "the destination", std::string_view(d.dst) == ".global", ref);
    address(c, ops[1], "the source", std::string_view(d.src) == ".global", ref);
    c.expectScalar(ops[2], "the size in bytes", kR32 | kImm, ref);
    size_t i = 3;
    if (mbar) c.expectAddress(ops[i++], "the mbarrier", kMbarAddr, true, ref);
    if (mc) c.expectScalar(ops[i++], "ctaMask", kR16 | kImm, ref);
    if (pol) c.expectScalar(ops[i++], "the cache policy", kR64 | kImm, ref);
    if (bm) c.expectScalar(ops[i++], "byteMask", kR16 | kImm, ref);
}

Status checkCopy(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, kCopy);
    c.matchQualifiers();
    const Direction* d = direction(
        c, kCopyDirs, std::size(kCopyDirs), "cp.async.bulk",
        "`.shared::cluster.global` or `.shared::cta.global` to load, `.shared::cluster.shared::cta` "
        "between CTAs, `.global.shared::cta` to store",
        kCopyRef);
    if (d) {
        commonChecks(c, *d, kCopyRef);
        operands(c, *d, true, kCopyRef);
    }
    return c.finish();
}

Status checkReduce(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, kReduce);
    c.matchQualifiers();
    const Direction* d = direction(c, kReduceDirs, std::size(kReduceDirs), "cp.reduce.async.bulk",
                                   "`.shared::cluster.shared::cta` or `.global.shared::cta`", kRedRef);
    if (d) {
        commonChecks(c, *d, kRedRef);
        const std::string op = c.value("reduction"), type = c.value("type");
        const bool toGlobal = std::string_view(d->dst) == ".global";
        if (c.find("no-flush-to-zero")) {
            if (!toGlobal || op != ".add" || (type != ".f16" && type != ".bf16" && !type.empty()))
                c.error(DiagCode::InvalidValue, c.spanOf("no-flush-to-zero"),
                        "`.noftz` goes only with `.add.noftz.f16` or `.add.noftz.bf16` into `.global`",
                        kRedRef, Provenance::Ptxas);
        } else if (!op.empty() && !type.empty()) {
            for (const auto& r : kRedTypes) {
                if (op != r.op) continue;
                const auto& ok = toGlobal ? r.toGlobal : r.toCluster;
                if (std::none_of(ok.begin(), ok.end(), [&](const char* x) { return type == x; })) {
                    std::string msg = "`" + op + type + "` is not a reduction into `" + d->dst + "`: `" + op +
                                      "` takes " + joined(ok);
                    if (toGlobal && op == ".add" && (type == ".f16" || type == ".bf16"))
                        msg += "; a half-precision add is `.add.noftz" + type + "`";
                    c.error(DiagCode::InvalidValue, c.spanOf("type"), msg, kRedRef, Provenance::Ptxas);
                }
            }
        }
        operands(c, *d, false, kRedRef);
    }
    return c.finish();
}

Status checkPrefetch(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, kPrefetch);
    c.matchQualifiers();
    const bool pol = c.find("cache hint") != nullptr;
    if (c.expectCount(2 + pol, pol ? "[srcMem], size, policy" : "[srcMem], size", kPrefetchRef)) {
        address(c, in.operands[0], "the source", true, kPrefetchRef);
        c.expectScalar(in.operands[1], "the size in bytes", kR32 | kImm, kPrefetchRef);
        if (pol) c.expectScalar(in.operands[2], "the cache policy", kR64 | kImm, kPrefetchRef);
    }
    return c.finish();
}

Status checkCommit(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, kCommit);
    c.matchQualifiers();
    c.expectCount(0, "no operands", kGroupRef);
    return c.finish();
}

Status checkWait(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, kWait);
    c.matchQualifiers();
    // ptxas 13.0 takes any integer immediate (0, 64, -1 all assemble); a register is rejected.
    if (c.expectCount(1, "N (the number of bulk groups that may stay pending)", kGroupRef))
        c.expectScalar(in.operands[0], "N", kImm, kGroupRef);
    return c.finish();
}

} // namespace

std::vector<InstrEntry> bulkEntries() {
    return {{&kCopy, &checkCopy},
            {&kReduce, &checkReduce},
            {&kPrefetch, &checkPrefetch},
            {&kCommit, &checkCommit},
            {&kWait, &checkWait}};
}

} // namespace layoutscope::ptx
