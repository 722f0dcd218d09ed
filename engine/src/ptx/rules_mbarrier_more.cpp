// The mbarrier forms beyond init / arrive.expect_tx / the waits (rules_mbarrier.cpp): PTX ISA 9.2
// §9.7.13.15; forms from CCCL cuda/__ptx/instructions/generated/mbarrier_{arrive,expect_tx,...}.h,
// the rules below as CUDA 13.0 ptxas decides them (tests/data/ptxas_front/front.jsonl.gz):
//
//   mbarrier.arrive{.sem.scope}{.space}.b64           state, [addr] {, count};
//   mbarrier.arrive_drop{.sem.scope}{.space}.b64      state, [addr] {, count};
//   mbarrier.arrive{,_drop}.noComplete{.shared}.b64   state, [addr], count;
//   mbarrier.arrive_drop.expect_tx{.sem.scope}{.space}.b64  state, [addr], txCount;
//   mbarrier.expect_tx{.relaxed.scope}{.space}.b64    [addr], txCount;
//   mbarrier.complete_tx{.relaxed.scope}{.space}.b64  [addr], txCount;
//   mbarrier.inval{.shared{::cta}}.b64                [addr];
//   mbarrier.pending_count.b64                        count, state;
//
// A `.shared::cluster` barrier (another CTA's) returns no state: the sink `_`. Targets (ptxas 13.0): arrive,
// arrive_drop, inval and pending_count from sm_80; the expect_tx / complete_tx forms, `.relaxed`, the
// `.cluster` scope and `.shared::cluster` from sm_90.
#include "ptx/rules.hpp"

namespace layoutscope::ptx {

namespace {

constexpr const char* kArriveRef = "PTX ISA 9.2 §9.7.13.15.13 mbarrier.arrive";
constexpr const char* kDropRef = "PTX ISA 9.2 §9.7.13.15.14 mbarrier.arrive_drop";
constexpr const char* kTxRef = "PTX ISA 9.2 §9.7.13.15.11-12 mbarrier.expect_tx / complete_tx";
constexpr const char* kInvalRef = "PTX ISA 9.2 §9.7.13.15.10 mbarrier.inval";
constexpr const char* kPendingRef = "PTX ISA 9.2 §9.7.13.15.17 mbarrier.pending_count";

constexpr uint32_t kBarAddr = kSharedSym | kR32 | kR64 | kOpenSym;

QualGroup b64(const char* ref) {
    return {"type", {{".b64"}}, true, false, ref};
}
QualGroup scope(const char* ref) {
    return {"scope", {{".cta", kAllTargets, 80}, {".cluster", kSm90Up, 80}}, false, false, ref};
}
QualGroup anySpace(const char* ref) {
    return {"state space",
            {{".shared"}, {".shared::cta", kAllTargets, 78}, {".shared::cluster", kSm90Up, 80}},
            false,
            false,
            ref};
}

InstrSpec arriveSpec(const char* name, std::vector<const char*> tokens, const char* ref, TargetMask targets,
                     int minPtx) {
    return {name,
            std::move(tokens),
            targets,
            minPtx,
            ref,
            {{"memory-order semantics",
              {{".release", kAllTargets, 80}, {".relaxed", kSm90Up, 86}},
              false,
              false,
              ref},
             scope(ref),
             anySpace(ref),
             {"no completion", {{".noComplete"}}, false, false, ref},
             b64(ref)},
            {{".acquire", "an arrive releases: use `.release` (or `.relaxed`)"}}};
}
const InstrSpec kArrive = arriveSpec("mbarrier.arrive", {"mbarrier", ".arrive"}, kArriveRef, kSm80Up, 70);
const InstrSpec kDrop =
    arriveSpec("mbarrier.arrive_drop", {"mbarrier", ".arrive_drop"}, kDropRef, kSm80Up, 70);
const InstrSpec kDropTx = arriveSpec("mbarrier.arrive_drop.expect_tx",
                                     {"mbarrier", ".arrive_drop", ".expect_tx"}, kDropRef, kSm90Up, 80);

InstrSpec txSpec(const char* name, const char* tok) {
    return {name,
            {"mbarrier", tok},
            kSm90Up,
            80,
            kTxRef,
            {{"memory-order semantics", {{".relaxed"}}, false, false, kTxRef},
             scope(kTxRef),
             anySpace(kTxRef),
             b64(kTxRef)},
            {{".release", "expect_tx / complete_tx are `.relaxed` (or written without an order)"},
             {".acquire", "expect_tx / complete_tx are `.relaxed` (or written without an order)"}}};
}
const InstrSpec kExpectTx = txSpec("mbarrier.expect_tx", ".expect_tx");
const InstrSpec kCompleteTx = txSpec("mbarrier.complete_tx", ".complete_tx");

const InstrSpec kInval{
    "mbarrier.inval",
    {"mbarrier", ".inval"},
    kSm80Up,
    70,
    kInvalRef,
    {{"state space", {{".shared"}, {".shared::cta", kAllTargets, 78}}, false, false, kInvalRef},
     b64(kInvalRef)},
    {{".shared::cluster", "the barrier must be in the executing CTA's shared memory: use "
                          "`.shared::cta` (or `.shared`)"}}};
const InstrSpec kPending{"mbarrier.pending_count",
                         {"mbarrier", ".pending_count"},
                         kSm80Up,
                         70,
                         kPendingRef,
                         {b64(kPendingRef)},
                         {}};

Status checkArriveLike(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env,
                       const InstrSpec& s, bool expectTx) {
    Checker c(in, t, env, s);
    c.matchQualifiers();
    mbarrierSemScope(c, s.ref, "`.release` or `.relaxed`");
    const bool noComplete = c.find("no completion") != nullptr;
    if (noComplete && (c.find("memory-order semantics") || c.find("scope")))
        c.error(DiagCode::InvalidValue, c.spanOf("no completion"),
                "`.noComplete` is the PTX 7.0 form: it takes no `.sem`/`.scope`", s.ref, Provenance::Ptxas);
    const bool cluster = c.has(".shared::cluster");
    const size_t n = in.operands.size();
    const bool countRequired = expectTx || noComplete;
    const std::string list = std::string("state, [addr]") + (expectTx     ? ", txCount"
                                                             : noComplete ? ", count"
                                                                          : " {, count}");
    if ((n == 2 && !countRequired) || c.expectCount(3, list, s.ref)) {
        if (cluster)
            c.expectScalar(in.operands[0], "the state (a remote barrier returns none)", kSink, s.ref);
        else if (c.expectScalar(in.operands[0], "the returned state", kR64 | kSink, s.ref) &&
                 c.kindOf(in.operands[0]) == kSink && &s == &kArrive && c.bit && c.ptx < 71)
            // ptxas 13.0 at .version 7.0: "Result discard mode is not allowed for instruction
            // 'mbarrier.arrive'" (arrive_drop takes `_` there).
            c.error(
                DiagCode::TargetMismatch, in.operands[0].span,
                "the sink `_` as mbarrier.arrive's state needs PTX ISA 7.1 or later; this kernel declares "
                ".version " +
                    ptxText(c.ptx),
                s.ref, Provenance::Ptxas);
        c.expectAddress(in.operands[1], "the mbarrier address", kBarAddr, true, s.ref);
        // ptxas 13.0 also takes the count as a one-element vector `{%r1}`.
        const Operand& cnt = in.operands.size() == 3 ? in.operands[2] : in.operands[1];
        const bool single = cnt.kind == OperandKind::Vector && cnt.elements.size() == 1;
        const Operand& v = single ? cnt.elements[0] : cnt;
        // Before Hopper a count needs `.noComplete` (ptxas 13.0: "Feature 'mbarrier.arrive with count
        // argument and without '.noComplete' modifier' requires .target sm_90 or higher").
        if (n == 3 && !expectTx && !noComplete && c.bit && !(c.bit & kSm90Up))
            c.targetError(cnt.span, "a count without `.noComplete`", kSm90Up, s.ref, Provenance::Ptxas);
        if (n == 3 && c.expectScalar(v, expectTx ? "txCount" : "count", kR32 | kImm, s.ref) && !expectTx &&
            v.kind == OperandKind::Immediate && v.imm <= 0)
            // ptxas 13.0: "value '0' expected to be a non-zero positive"
            c.error(DiagCode::InvalidValue, v.span, "the arrival count is at least 1; found " + v.text, s.ref,
                    Provenance::Ptxas);
    }
    return c.finish();
}
Status checkArrive(const ParsedInstr& i, const PtxTarget& t, const PtxEnvironment& e) {
    return checkArriveLike(i, t, e, kArrive, false);
}
Status checkDrop(const ParsedInstr& i, const PtxTarget& t, const PtxEnvironment& e) {
    return checkArriveLike(i, t, e, kDrop, false);
}
Status checkDropTx(const ParsedInstr& i, const PtxTarget& t, const PtxEnvironment& e) {
    return checkArriveLike(i, t, e, kDropTx, true);
}

Status checkTx(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env, const InstrSpec& s) {
    Checker c(in, t, env, s);
    c.matchQualifiers();
    mbarrierSemScope(c, kTxRef, "`.relaxed`");
    if (c.expectCount(2, "[addr], txCount", kTxRef)) {
        c.expectAddress(in.operands[0], "the mbarrier address", kBarAddr, true, kTxRef);
        c.expectScalar(in.operands[1], "txCount", kR32 | kImm, kTxRef);
    }
    return c.finish();
}
Status checkExpectTx(const ParsedInstr& i, const PtxTarget& t, const PtxEnvironment& e) {
    return checkTx(i, t, e, kExpectTx);
}
Status checkCompleteTx(const ParsedInstr& i, const PtxTarget& t, const PtxEnvironment& e) {
    return checkTx(i, t, e, kCompleteTx);
}

Status checkInval(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, kInval);
    c.matchQualifiers();
    if (c.expectCount(1, "[addr]", kInvalRef))
        c.expectAddress(in.operands[0], "the mbarrier address", kBarAddr, true, kInvalRef);
    return c.finish();
}

Status checkPending(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, kPending);
    c.matchQualifiers();
    if (c.expectCount(2, "count, state", kPendingRef)) {
        c.expectScalar(in.operands[0], "the pending count", kR32, kPendingRef);
        c.expectScalar(in.operands[1], "the phase state", kR64 | kImm, kPendingRef);
    }
    return c.finish();
}

} // namespace

std::vector<InstrEntry> mbarrierMoreEntries() {
    return {{&kArrive, &checkArrive},         {&kDrop, &checkDrop},
            {&kDropTx, &checkDropTx},         {&kExpectTx, &checkExpectTx},
            {&kCompleteTx, &checkCompleteTx}, {&kInval, &checkInval},
            {&kPending, &checkPending}};
}

} // namespace layoutscope::ptx
