// The sm_80 non-bulk asynchronous copies (PTX ISA 9.2 §9.7.9.25.3; forms from the ISA text and CCCL
// cuda/__ptx/instructions/generated/cp_async_mbarrier_arrive*.h; the rules below as CUDA 13.0 ptxas
// decides them, tests/data/ptxas_front/front.jsonl.gz):
//
//   cp.async.ca.shared{::cta}.global{.L2::cache_hint}{.L2::64B|128B|256B}
//            [dst], [src], cp-size {, src-size | ignore-src} {, cache-policy};   cp-size: 4, 8, 16
//   cp.async.cg.shared{::cta}.global{...}  [dst], [src], 16 {, src-size | ignore-src} {, cache-policy};
//   cp.async.commit_group;   cp.async.wait_group N;   cp.async.wait_all;
//   cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr];
#include "ptx/rules.hpp"

namespace layoutscope::ptx {

namespace {

constexpr const char* kCopyRef = "PTX ISA 9.2 §9.7.9.25.3.1 cp.async";
constexpr const char* kGroupRef = "PTX ISA 9.2 §9.7.9.25.3.2-4 cp.async.commit_group / wait_group / wait_all";
constexpr const char* kArriveRef = "PTX ISA 9.2 §9.7.13.15.12 cp.async.mbarrier.arrive";

constexpr uint32_t kSharedAddr = kR32 | kR64 | kSharedSym | kOpenSym;
constexpr uint32_t kGlobalAddr = kR64 | kR32 | kGlobalSym | kOpenSym;

const InstrSpec kCopy{
    "cp.async",
    {"cp", ".async"},
    kSm80Up,
    70,
    kCopyRef,
    {{"cache operator", {{".ca"}, {".cg"}}, true, false, kCopyRef},
     // ptxas 13.0 takes `.shared::cta` here from cp.async's own PTX 7.0 (cp.async.mbarrier.arrive: 7.8).
     {"destination state space", {{".shared"}, {".shared::cta"}}, true, false, kCopyRef},
     {"source state space", {{".global"}}, true, false, kCopyRef},
     {"cache hint", {{".L2::cache_hint", kAllTargets, 74}}, false, false, kCopyRef},
     {"prefetch size",
      {{".L2::64B", kAllTargets, 74}, {".L2::128B", kAllTargets, 74}, {".L2::256B", kAllTargets, 74}},
      false,
      false,
      kCopyRef}},
    {{".shared::cluster",
      "cp.async writes the executing CTA's shared memory: `.shared::cta` (or `.shared`)"}}};

const InstrSpec kCommit{
    "cp.async.commit_group", {"cp", ".async", ".commit_group"}, kSm80Up, 70, kGroupRef, {}, {}};
const InstrSpec kWaitGroup{
    "cp.async.wait_group", {"cp", ".async", ".wait_group"}, kSm80Up, 70, kGroupRef, {}, {}};
const InstrSpec kWaitAll{"cp.async.wait_all", {"cp", ".async", ".wait_all"}, kSm80Up, 70, kGroupRef, {}, {}};

const InstrSpec kArrive{
    "cp.async.mbarrier.arrive",
    {"cp", ".async", ".mbarrier", ".arrive"},
    kSm80Up,
    70,
    kArriveRef,
    {{"no increment", {{".noinc"}}, false, false, kArriveRef},
     {"state space", {{".shared"}, {".shared::cta", kAllTargets, 78}}, false, false, kArriveRef},
     {"type", {{".b64"}}, true, false, kArriveRef}},
    {{".shared::cluster", "the barrier is in the executing CTA's shared memory: use "
                          "`.shared::cta` (or `.shared`)"}}};

Status checkCopy(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, kCopy);
    c.matchQualifiers();
    // The destination state space comes before the source (`.shared.global`).
    const Matched* dst = c.find("destination state space");
    const Matched* src = c.find("source state space");
    if (dst && src && src->position < dst->position)
        c.error(DiagCode::InvalidValue, src->tok->span,
                "the destination state space comes first: write `" + dst->tok->text + src->tok->text + "`",
                kCopyRef, Provenance::Ptxas);
    const bool hint = c.find("cache hint") != nullptr;
    const auto& ops = in.operands;
    const size_t n = ops.size();
    // 3 + optional src-size / ignore-src + policy when `.L2::cache_hint` is written.
    const size_t minN = 3 + hint, maxN = 4 + hint;
    const std::string list =
        std::string("[dst], [src], cp-size {, src-size | ignore-src}") + (hint ? ", cache-policy" : "");
    if (n < minN || n > maxN) {
        c.expectCount(n < minN ? minN : maxN, list, kCopyRef);
        return c.finish();
    }
    c.expectAddress(ops[0], "the destination", kSharedAddr, true, kCopyRef);
    c.expectAddress(ops[1], "the source", kGlobalAddr, true, kCopyRef);
    if (c.expectScalar(ops[2], "cp-size", kImm, kCopyRef)) {
        const int64_t sz = ops[2].imm;
        if (c.value("cache operator") == ".cg" && sz != 16)
            c.error(DiagCode::InvalidValue, ops[2].span,
                    "cp.async.cg copies 16 bytes (it bypasses L1); cp-size " + ops[2].text +
                        " needs `.ca` (4, 8 or 16)",
                    kCopyRef, Provenance::Ptxas);
        else if (sz != 4 && sz != 8 && sz != 16)
            c.error(DiagCode::InvalidValue, ops[2].span,
                    "cp-size must be 4, 8 or 16 bytes; found " + ops[2].text, kCopyRef, Provenance::Ptxas);
    }
    if (n == maxN &&
        c.expectScalar(ops[3], "src-size (a register or immediate) or ignore-src (a predicate)",
                       kR32 | kImm | kPred, kCopyRef) &&
        c.kindOf(ops[3]) == kPred && c.bit && c.ptx < 75)
        // ptxas 13.0: "Feature 'igonre-src on cp.async' requires PTX ISA .version 7.5 or later" (sic)
        c.error(
            DiagCode::TargetMismatch, ops[3].span,
            "ignore-src (a predicate operand) needs PTX ISA 7.5 or later; this kernel declares .version " +
                ptxText(c.ptx),
            kCopyRef, Provenance::Ptxas);
    if (hint) c.expectScalar(ops[n - 1], "the cache policy", kR64, kCopyRef);
    return c.finish();
}

Status checkCommit(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, kCommit);
    c.matchQualifiers();
    c.expectCount(0, "no operands", kGroupRef);
    return c.finish();
}

Status checkWaitAll(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, kWaitAll);
    c.matchQualifiers();
    c.expectCount(0, "no operands", kGroupRef);
    return c.finish();
}

Status checkWaitGroup(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, kWaitGroup);
    c.matchQualifiers();
    if (c.expectCount(1, "N (the number of groups that may stay pending)", kGroupRef))
        c.expectScalar(in.operands[0], "N", kImm, kGroupRef);
    return c.finish();
}

Status checkArrive(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, kArrive);
    c.matchQualifiers();
    if (c.expectCount(1, "[addr]", kArriveRef))
        c.expectAddress(in.operands[0], "the mbarrier address", kSharedAddr, true, kArriveRef);
    return c.finish();
}

} // namespace

std::vector<InstrEntry> cpAsyncEntries() {
    return {{&kCopy, &checkCopy},
            {&kCommit, &checkCommit},
            {&kWaitGroup, &checkWaitGroup},
            {&kWaitAll, &checkWaitAll},
            {&kArrive, &checkArrive}};
}

} // namespace layoutscope::ptx
