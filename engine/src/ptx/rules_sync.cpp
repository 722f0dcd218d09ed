// The synchronisation that data movement leans on (PTX ISA 9.2; forms from CCCL
// cuda/__ptx/instructions/generated/{barrier_cluster,fence_*,elect}.h and the ISA text; every rule
// below as CUDA 13.0 ptxas decides it, tests/data/ptxas_front/front.jsonl.gz):
//
//   elect.sync                      d|p, membermask;                      §9.7.13.7  (sm_90, PTX 8.0)
//   barrier.cluster.arrive{.sem}{.aligned};   .sem = .release | .relaxed  §9.7.13.4  (sm_90, PTX 7.8)
//   barrier.cluster.wait{.acquire}{.aligned};
//   fence.proxy.async{.global | .shared::cta | .shared::cluster};         §9.7.13.4.1 (sm_90, PTX 8.0)
//   fence.proxy.alias;                                                    (PTX 7.5)
//   fence.proxy.tensormap::generic.release.scope;                         (sm_90, PTX 8.3)
//   fence.proxy.tensormap::generic.acquire.scope [addr], 128;
//   fence.proxy.async::generic.sem.sync_restrict::space.cluster;         (PTX 8.6)
//   fence.mbarrier_init.release.cluster;                                  (sm_90, PTX 8.0)
#include "ptx/rules.hpp"

namespace layoutscope::ptx {

namespace {

constexpr const char* kElectRef = "PTX ISA 9.2 §9.7.13.7 elect.sync";
constexpr const char* kBarRef = "PTX ISA 9.2 §9.7.13.4 barrier.cluster";
constexpr const char* kFenceRef = "PTX ISA 9.2 §9.7.13.4.1 membar/fence (fence.proxy, fence.mbarrier_init)";

const InstrSpec kElect{"elect.sync",
                       {"elect", ".sync"},
                       kSm90Up,
                       80,
                       kElectRef,
                       {{"sync", {{".sync"}}, false, false, kElectRef, true}}, // `.sync.sync`: accepted
                       {}};

InstrSpec barrierSpec(const char* name, const char* op, std::vector<QualSpec> sems, const char* wrongSem,
                      const char* why) {
    return {name,
            {"barrier", ".cluster", op},
            kSm90Up,
            78,
            kBarRef,
            {{"memory-order semantics", std::move(sems), false, false, kBarRef},
             {"alignment", {{".aligned"}}, false, false, kBarRef}},
            {{wrongSem, why}}};
}
const InstrSpec kBarArrive = barrierSpec("barrier.cluster.arrive", ".arrive",
                                         {{".release", kAllTargets, 80}, {".relaxed", kAllTargets, 80}},
                                         ".acquire", "an arrive releases: use `.release` (or `.relaxed`)");
const InstrSpec kBarWait = barrierSpec("barrier.cluster.wait", ".wait", {{".acquire", kAllTargets, 80}},
                                       ".release", "a wait acquires: use `.acquire`");

/// Every fence ptxas 13.0 reads, in one table: qualifier order is free (ptxas takes
/// `fence.release.mbarrier_init.cluster` as it takes `fence.mbarrier_init.release.cluster`), so the
/// variant is told by which qualifiers are present, not by their position.
const InstrSpec kFence{
    "fence",
    {"fence"},
    kAllTargets,
    60,
    kFenceRef,
    {{"proxy", {{".proxy"}}, false, false, kFenceRef},
     {"proxy kind",
      {{".async"}, {".alias"}, {".tensormap::generic"}, {".async::generic"}},
      false,
      false,
      kFenceRef},
     {"mbarrier_init", {{".mbarrier_init"}}, false, false, kFenceRef},
     {"memory-order semantics", {{".sc"}, {".acq_rel"}, {".release"}, {".acquire"}}, false, false, kFenceRef},
     {"scope", {{".cta"}, {".cluster"}, {".gpu"}, {".sys"}}, false, false, kFenceRef},
     {"state space", {{".global"}, {".shared::cta"}, {".shared::cluster"}}, false, false, kFenceRef},
     {"sync restriction",
      {{".sync_restrict::shared::cta"}, {".sync_restrict::shared::cluster"}},
      false,
      false,
      kFenceRef}},
    {{".shared", "say which shared memory: `.shared::cta` or `.shared::cluster`"}}};

Status checkElect(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, kElect);
    c.matchQualifiers();
    if (c.expectCount(2, "d|p, membermask", kElectRef)) {
        const Operand& d = in.operands[0];
        if (c.kindOf(d) != kPairKind) {
            c.error(DiagCode::InvalidValue, d.span,
                    "elect.sync writes a pair `d|p` (the elected lane's index, or `_`, and a predicate); `" +
                        d.text + "` is " + valueKindWords(c.kindOf(d)),
                    kElectRef, Provenance::Ptxas);
        } else {
            c.expectScalar(d.elements[0], "the elected lane (d of d|p)", kR32 | kSink, kElectRef);
            c.expectScalar(d.elements[1], "the predicate (p of d|p)", kPred, kElectRef);
        }
        c.expectScalar(in.operands[1], "membermask", kR32 | kImm, kElectRef);
    }
    return c.finish();
}

Status checkNoOperands(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env,
                       const InstrSpec& s) {
    Checker c(in, t, env, s);
    c.matchQualifiers();
    c.expectCount(0, "no operands", s.ref);
    return c.finish();
}
Status checkBarArrive(const ParsedInstr& i, const PtxTarget& t, const PtxEnvironment& e) {
    return checkNoOperands(i, t, e, kBarArrive);
}
Status checkBarWait(const ParsedInstr& i, const PtxTarget& t, const PtxEnvironment& e) {
    return checkNoOperands(i, t, e, kBarWait);
}
/// Reports `q` (a group name) when it is present: "`tok` is not part of `variant`".
void forbid(Checker& c, const char* group, const std::string& variant) {
    if (const Matched* m = c.find(group))
        c.error(DiagCode::InvalidValue, m->tok->span, "`" + m->tok->text + "` is not part of " + variant,
                kFenceRef, Provenance::Ptxas);
}
void need(Checker& c, const char* group, const std::string& variant, const std::string& choices) {
    if (!c.find(group))
        c.error(DiagCode::InvalidValue, c.opcodeSpan(), variant + " needs its " + group + ": " + choices,
                kFenceRef, Provenance::Ptxas);
}
void version(Checker& c, int minPtx, const std::string& variant) {
    if (c.bit && c.ptx < minPtx)
        c.error(DiagCode::TargetMismatch, c.opcodeSpan(),
                variant + " needs PTX ISA " + ptxText(minPtx) + " or later; this kernel declares .version " +
                    ptxText(c.ptx),
                kFenceRef, Provenance::Ptxas);
}
/// A fence variant that only Hopper and later have (ptxas 13.0 on sm_75 ... sm_89: "Feature '.cluster
/// scope' requires .target sm_90 or higher", "Modifier '.async' requires .target sm_90 or higher").
void hopper(Checker& c, bool needed, const std::string& variant) {
    if (needed && c.bit && !(c.bit & kSm90Up))
        c.targetError(c.opcodeSpan(), variant, kSm90Up, kFenceRef, Provenance::Ptxas);
}
/// `.release` goes with `.sync_restrict::shared::cta`, `.acquire` with `::cluster`.
void syncRestrict(Checker& c) {
    const std::string sem = c.value("memory-order semantics"), sr = c.value("sync restriction");
    if (sem.empty() || sr.empty()) return;
    if (sem != ".release" && sem != ".acquire")
        c.error(DiagCode::InvalidValue, c.spanOf("memory-order semantics"),
                "a `.sync_restrict` fence is `.release` or `.acquire`, not `" + sem + "`", kFenceRef,
                Provenance::Ptxas);
    else if ((sem == ".release") != (sr == ".sync_restrict::shared::cta"))
        c.error(DiagCode::InvalidValue, c.spanOf("sync restriction"),
                "`" + sem + "` goes with `" +
                    (sem == ".release" ? ".sync_restrict::shared::cta" : ".sync_restrict::shared::cluster") +
                    "`, not `" + sr + "`",
                kFenceRef, Provenance::Ptxas);
    if (c.value("scope") != ".cluster" && c.find("scope"))
        c.error(DiagCode::InvalidValue, c.spanOf("scope"), "a `.sync_restrict` fence has scope `.cluster`",
                kFenceRef, Provenance::Ptxas);
}

Status checkFence(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, kFence);
    c.matchQualifiers();
    const std::string kind = c.value("proxy kind"), sem = c.value("memory-order semantics");
    const bool proxy = c.find("proxy") != nullptr;
    if (!c.diags.empty()) return c.finish();
    // `.proxy` follows `fence` directly: `fence.proxy.async`, never `fence.async.proxy` (ptxas 13.0:
    // "Unknown modifier '.proxy'"); after it the order is free
    // (`fence.proxy.release.tensormap::generic.sys`).
    if (const Matched* p = c.find("proxy"); p && p->position != 1)
        c.error(DiagCode::InvalidValue, p->tok->span,
                "`.proxy` follows `fence` directly: write `fence.proxy" + kind + "…`", kFenceRef,
                Provenance::Ptxas);
    if (!c.diags.empty()) return c.finish();
    if (c.find("mbarrier_init")) {
        const std::string v = "`fence.mbarrier_init` (written `fence.mbarrier_init.release.cluster`)";
        forbid(c, "proxy", v), forbid(c, "proxy kind", v), forbid(c, "state space", v);
        forbid(c, "sync restriction", v);
        need(c, "memory-order semantics", v, "`.release`");
        need(c, "scope", v, "`.cluster`");
        if (!sem.empty() && sem != ".release") forbid(c, "memory-order semantics", v);
        if (c.find("scope") && c.value("scope") != ".cluster") forbid(c, "scope", v);
        version(c, 80, "`fence.mbarrier_init`");
        hopper(c, true, "`fence.mbarrier_init`");
        c.expectCount(0, "no operands", kFenceRef);
    } else if (proxy || !kind.empty()) {
        if (!proxy)
            c.error(DiagCode::InvalidValue, c.spanOf("proxy kind"),
                    "`" + kind + "` is a proxy kind: write `fence.proxy" + kind + "`", kFenceRef,
                    Provenance::Ptxas);
        if (kind.empty()) {
            c.error(DiagCode::InvalidValue, c.spanOf("proxy"),
                    "`fence.proxy` needs its kind: `.async`, `.alias`, `.tensormap::generic` or "
                    "`.async::generic`",
                    kFenceRef, Provenance::Ptxas);
        } else if (kind == ".async" || kind == ".alias") {
            const std::string v = "`fence.proxy" + kind + "`";
            forbid(c, "memory-order semantics", v), forbid(c, "scope", v), forbid(c, "sync restriction", v);
            if (kind == ".alias") forbid(c, "state space", v);
            version(c, kind == ".async" ? 80 : 75, v);
            hopper(c, kind == ".async", v);
            c.expectCount(0, "no operands", kFenceRef);
        } else if (kind == ".tensormap::generic") {
            const std::string v = "`fence.proxy.tensormap::generic`";
            forbid(c, "state space", v), forbid(c, "sync restriction", v);
            need(c, "memory-order semantics", v, "`.release` or `.acquire`");
            need(c, "scope", v, "`.cta`, `.cluster`, `.gpu` or `.sys`");
            if (!sem.empty() && sem != ".release" && sem != ".acquire")
                forbid(c, "memory-order semantics", v);
            version(c, 83, v);
            hopper(c, true, v);
            if (sem == ".acquire") {
                if (c.expectCount(2, "[addr], size (128, the tensor map's bytes)", kFenceRef)) {
                    c.expectAddress(in.operands[0], "the tensor map address",
                                    kR64 | kGlobalSym | kParamSym | kOpenSym, true, kFenceRef);
                    const Operand& size = in.operands[1];
                    if (c.expectScalar(size, "size", kImm, kFenceRef) && size.imm != 128)
                        c.error(DiagCode::InvalidValue, size.span,
                                "the size of a tensor-map fence is 128 (bytes of a CUtensorMap); found " +
                                    size.text,
                                kFenceRef, Provenance::Ptxas);
                }
            } else {
                c.expectCount(0, "no operands (only the `.acquire` form names the tensor map)", kFenceRef);
            }
        } else { // .async::generic
            const std::string v = "`fence.proxy.async::generic`";
            forbid(c, "state space", v);
            need(c, "memory-order semantics", v, "`.release` or `.acquire`");
            need(c, "sync restriction", v,
                 "`.sync_restrict::shared::cta` or `.sync_restrict::shared::cluster`");
            need(c, "scope", v, "`.cluster`");
            syncRestrict(c);
            version(c, 86, v);
            hopper(c, true, v);
            c.expectCount(0, "no operands", kFenceRef);
        }
    } else {
        // A plain memory fence: fence{.sem}.scope, or fence.sem.sync_restrict::space.cluster.
        const std::string v = "a plain `fence`";
        forbid(c, "state space", v);
        need(c, "scope", v, "`.cta`, `.cluster`, `.gpu` or `.sys`");
        syncRestrict(c);
        if (c.find("sync restriction")) version(c, 86, "`fence.sync_restrict`");
        hopper(c, c.find("sync restriction") != nullptr, "`fence.sync_restrict`");
        hopper(c, c.value("scope") == ".cluster", "a fence of `.cluster` scope");
        c.expectCount(0, "no operands", kFenceRef);
    }
    return c.finish();
}

} // namespace

std::vector<InstrEntry> syncEntries() {
    return {{&kElect, &checkElect},
            {&kBarArrive, &checkBarArrive},
            {&kBarWait, &checkBarWait},
            {&kFence, &checkFence}};
}

} // namespace layoutscope::ptx
