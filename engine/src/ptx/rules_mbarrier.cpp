// mbarrier.init, mbarrier.arrive.expect_tx, mbarrier.try_wait{.parity}, mbarrier.test_wait{.parity}
// (PTX ISA §9.7.13.15; CCCL cuda/__ptx/instructions/generated/mbarrier_*.h for the forms and gates):
//
//   mbarrier.init{.shared{::cta}}.b64                               [addr], count;
//   mbarrier.arrive.expect_tx{.sem.scope}{.space}.b64               state, [addr], txCount;
//   mbarrier.try_wait{.parity}{.sem.scope}{.shared{::cta}}.b64      waitComplete, [addr], state|phaseParity
//   {, suspendTimeHint}; mbarrier.test_wait{.parity}{.sem.scope}{.shared{::cta}}.b64     waitComplete,
//   [addr], state|phaseParity;
//
// Checked with CUDA 13.0 ptxas: `.parity` must follow the instruction name directly; `.sem` and
// `.scope` come together; `.shared::cluster` arrive needs the sink `_` as state.
#include "ptx/rules.hpp"

namespace layoutscope::ptx {

namespace {

constexpr const char* kInitRef = "PTX ISA §9.7.13.15.9 mbarrier.init";
constexpr const char* kArriveRef = "PTX ISA §9.7.13.15.13 mbarrier.arrive";
constexpr const char* kWaitRef = "PTX ISA §9.7.13.15.16 mbarrier.test_wait/try_wait";

QualGroup b64(const char* ref) {
    return {"type", {{".b64"}}, true, false, ref};
}
QualGroup scope(const char* ref) {
    // "Feature 'scopes on mbarrier operations' requires PTX ISA .version 8.0" (ptxas 13.0); `.cluster`:
    // sm_90.
    return {"scope", {{".cta", kAllTargets, 80}, {".cluster", kSm90Up, 80}}, false, false, ref};
}
QualGroup ctaSpace(const char* ref) {
    // "Feature '::cta' requires PTX ISA .version 7.8" (ptxas 13.0; sm_80's forms exist from 7.0).
    return {"state space", {{".shared"}, {".shared::cta", kAllTargets, 78}}, false, false, ref};
}
const IllegalQual kClusterSpace{".shared::cluster",
                                "the barrier must be in the executing CTA's shared memory: use "
                                "`.shared::cta` (or `.shared`)"};

const InstrSpec kInit{
    "mbarrier.init", {"mbarrier", ".init"}, kSm80Up, 70, kInitRef, {ctaSpace(kInitRef), b64(kInitRef)},
    {kClusterSpace}};

const InstrSpec kArrive{
    "mbarrier.arrive.expect_tx",
    {"mbarrier", ".arrive", ".expect_tx"},
    kSm90Up,
    80,
    kArriveRef,
    {{"memory-order semantics", {{".release"}, {".relaxed", kSm90Up, 86}}, false, false, kArriveRef},
     scope(kArriveRef),
     {"state space",
      {{".shared"}, {".shared::cta"}, {".shared::cluster", kSm90Up}},
      false,
      false,
      kArriveRef},
     b64(kArriveRef)},
    {{".acquire", "an arrive releases: use `.release` (or `.relaxed`)"}}};

InstrSpec waitSpec(const char* name, std::vector<const char*> tokens, TargetMask targets, int minPtx) {
    return {
        name,
        std::move(tokens),
        targets,
        minPtx,
        kWaitRef,
        {{"memory-order semantics", {{".acquire"}, {".relaxed", kSm90Up, 86}}, false, false, kWaitRef},
         scope(kWaitRef),
         ctaSpace(kWaitRef),
         b64(kWaitRef)},
        {kClusterSpace,
         {".release", "a wait acquires: use `.acquire` (or `.relaxed`)"},
         {".parity", "`.parity` must follow the instruction name directly: `mbarrier.try_wait.parity…`"}}};
}
// try_wait is Hopper's (sm_90, PTX 7.8); test_wait is sm_80's (PTX 7.0, `.parity` 7.1; ptxas 13.0).
const InstrSpec kTryWait = waitSpec("mbarrier.try_wait", {"mbarrier", ".try_wait"}, kSm90Up, 78);
const InstrSpec kTryWaitParity =
    waitSpec("mbarrier.try_wait.parity", {"mbarrier", ".try_wait", ".parity"}, kSm90Up, 78);
const InstrSpec kTestWait = waitSpec("mbarrier.test_wait", {"mbarrier", ".test_wait"}, kSm80Up, 70);
const InstrSpec kTestWaitParity =
    waitSpec("mbarrier.test_wait.parity", {"mbarrier", ".test_wait", ".parity"}, kSm80Up, 71);

constexpr uint32_t kBarAddr = kSharedSym | kR32 | kR64;

Status checkInit(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, kInit);
    c.matchQualifiers();
    if (c.expectCount(2, "[addr], count", kInitRef)) {
        c.expectAddress(in.operands[0], "the mbarrier address", kBarAddr, true, kInitRef);
        c.expectScalar(in.operands[1], "the expected arrival count", kR32 | kImm, kInitRef);
    }
    return c.finish();
}

Status checkArrive(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, kArrive);
    c.matchQualifiers();
    mbarrierSemScope(c, kArriveRef, "`" + std::string(c.spec.groups[0].values[0].text) + "` or `.relaxed`");
    if (c.expectCount(3, "state, [addr], txCount", kArriveRef)) {
        if (c.has(".shared::cluster"))
            c.expectScalar(in.operands[0], "the state (a remote barrier returns none)", kSink, kArriveRef);
        else
            c.expectScalar(in.operands[0], "the returned state", kR64 | kSink, kArriveRef);
        c.expectAddress(in.operands[1], "the mbarrier address", kBarAddr, true, kArriveRef);
        c.expectScalar(in.operands[2], "txCount", kR32 | kImm, kArriveRef);
    }
    return c.finish();
}

Status checkWait(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env, const InstrSpec& spec,
                 bool parity, bool tryWait) {
    Checker c(in, t, env, spec);
    c.matchQualifiers();
    mbarrierSemScope(c, kWaitRef, "`" + std::string(c.spec.groups[0].values[0].text) + "` or `.relaxed`");
    const size_t n = in.operands.size();
    const std::string list = std::string("waitComplete, [addr], ") + (parity ? "phaseParity" : "state") +
                             (tryWait ? " {, suspendTimeHint}" : "");
    if (tryWait && n == 4 ? true : c.expectCount(3, list, kWaitRef)) {
        c.expectScalar(in.operands[0], "waitComplete", kPred, kWaitRef);
        c.expectAddress(in.operands[1], "the mbarrier address", kBarAddr, true, kWaitRef);
        c.expectScalar(in.operands[2], parity ? "phaseParity" : "the phase state",
                       parity ? kR32 | kImm : kR64, kWaitRef);
        if (n == 4) c.expectScalar(in.operands[3], "suspendTimeHint", kR32 | kImm, kWaitRef);
    }
    return c.finish();
}

Status checkTryWait(const ParsedInstr& i, const PtxTarget& t, const PtxEnvironment& e) {
    return checkWait(i, t, e, kTryWait, false, true);
}
Status checkTryWaitParity(const ParsedInstr& i, const PtxTarget& t, const PtxEnvironment& e) {
    return checkWait(i, t, e, kTryWaitParity, true, true);
}
Status checkTestWait(const ParsedInstr& i, const PtxTarget& t, const PtxEnvironment& e) {
    return checkWait(i, t, e, kTestWait, false, false);
}
Status checkTestWaitParity(const ParsedInstr& i, const PtxTarget& t, const PtxEnvironment& e) {
    return checkWait(i, t, e, kTestWaitParity, true, false);
}

} // namespace

void mbarrierSemScope(Checker& c, const char* ref, const std::string& orders) {
    const Matched* sem = c.find("memory-order semantics");
    const Matched* sc = c.find("scope");
    if (sem && !sc)
        c.error(DiagCode::InvalidValue, sem->tok->span,
                "`" + sem->tok->text + "` needs a scope: add `.cta` or `.cluster`", ref, Provenance::Ptxas);
    if (sc && !sem)
        c.error(DiagCode::InvalidValue, sc->tok->span,
                "`" + sc->tok->text + "` needs a memory order before it: add " + orders, ref,
                Provenance::Ptxas);
}

std::vector<InstrEntry> mbarrierEntries() {
    return {{&kInit, &checkInit},         {&kArrive, &checkArrive},
            {&kTryWait, &checkTryWait},   {&kTryWaitParity, &checkTryWaitParity},
            {&kTestWait, &checkTestWait}, {&kTestWaitParity, &checkTestWaitParity}};
}

} // namespace layoutscope::ptx
