// The words of async::Model's findings: both accesses (instruction, line, CTA/warp/thread, range, buffer),
// the missing edge and the fix (which wait, which parity, which fence, which commit).
#include "async/model_impl.hpp"

#include <cstdio>
#include <string_view>

namespace layoutscope::async {

const char* opKindName(OpKind k) {
    switch (k) {
    case OpKind::TmaLoad:
        return "TMA load";
    case OpKind::TmaStore:
        return "TMA store";
    case OpKind::TmaReduce:
        return "TMA reduce";
    case OpKind::TmaPrefetch:
        return "TMA prefetch";
    case OpKind::BulkCopy:
        return "bulk copy";
    case OpKind::Wgmma:
        return "wgmma.mma_async";
    case OpKind::Tcgen05Mma:
        return "tcgen05.mma";
    case OpKind::Tcgen05Cp:
        return "tcgen05.cp";
    case OpKind::Tcgen05Shift:
        return "tcgen05.shift";
    case OpKind::Tcgen05Ld:
        return "tcgen05.ld";
    case OpKind::Tcgen05St:
        return "tcgen05.st";
    case OpKind::CpAsync:
        return "cp.async";
    }
    return "async operation";
}

Lane laneOf(OpKind k) {
    switch (k) {
    case OpKind::TmaLoad:
    case OpKind::TmaStore:
    case OpKind::TmaReduce:
    case OpKind::TmaPrefetch:
        return Lane::Tma;
    case OpKind::Tcgen05Mma:
        return Lane::Mma;
    case OpKind::Tcgen05Cp:
    case OpKind::Tcgen05Shift:
    case OpKind::Tcgen05Ld:
    case OpKind::Tcgen05St:
        return Lane::Tcgen05Copy;
    case OpKind::BulkCopy:
    case OpKind::CpAsync:
        return Lane::Bulk;
    case OpKind::Wgmma:
        return Lane::Wgmma;
    }
    return Lane::Bulk;
}

const char* laneName(Lane l) {
    switch (l) {
    case Lane::Tma:
        return "TMA";
    case Lane::Mma:
        return "MMA";
    case Lane::Tcgen05Copy:
        return "tcgen05 copies";
    case Lane::Bulk:
        return "bulk / cp.async";
    case Lane::Wgmma:
        return "wgmma";
    }
    return "async";
}

std::string hexAddr(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

std::string threadText(const ThreadId& t) {
    return "CTA " + std::to_string(t.cta) + " warp " + std::to_string(t.warp) + " thread " +
           std::to_string(t.thread);
}

std::string rangeText(const Range& r) {
    const std::string cta = " of CTA " + std::to_string(r.cta);
    switch (r.space) {
    case MemSpace::TensorMemory: {
        const std::string cols = " columns [" + std::to_string(r.begin & 0xFFFF) + ", " +
                                 std::to_string((r.begin & 0xFFFF) + (r.end - r.begin)) + ")" + cta;
        if (r.lanes > 1) // a lane x column rectangle (the executor's tcgen05 operations)
            return "TMEM lanes [" + std::to_string(r.begin >> 16) + ", " +
                   std::to_string((r.begin >> 16) + r.lanes) + ")" + cols;
        return "TMEM lane " + std::to_string(r.begin >> 16) + cols;
    }
    case MemSpace::Register:
        if (!r.name.empty() && r.name[0] == '%') // the executor: thread << 32 | 4 * slot, the PTX name
            return "register " + r.name + " of thread " + std::to_string(r.begin >> 32) + cta;
        return "registers r" + std::to_string((r.begin & 0xFFFF) / 4) + "..r" +
               std::to_string(((r.end - 1) & 0xFFFF) / 4) + " of thread " + std::to_string(r.begin >> 16) +
               cta;
    case MemSpace::Global:
        return (r.name.empty() ? "global " : r.name + " ") + "[" + hexAddr(r.begin) + ", " + hexAddr(r.end) +
               ")";
    default:
        return (r.name.empty() ? "shared " : r.name + " ") + "[" + hexAddr(r.begin) + ", " + hexAddr(r.end) +
               ")" + cta;
    }
}

namespace {
std::string shortText(const std::string& t) {
    return t.size() > 72 ? t.substr(0, 69) + "..." : t;
}
constexpr const char* kOrderRef =
    "PTX ISA 9.2 Memory Consistency Model (async proxy; completion mechanisms of "
    "asynchronous operations); §9.7.13.15 mbarrier";
} // namespace

size_t Model::Impl::emit(Severity sev, const SourceSpan& span, std::string msg, std::string ref) {
    out.push_back(
        Diagnostic{sev, DiagCode::InvalidValue, span, std::move(msg), std::move(ref), Provenance::PtxText});
    return out.size() - 1;
}

std::string Model::Impl::who(const AccessRec& a) const {
    const std::string where = "line " + std::to_string(a.site->span.line) + ", " + threadText(a.site->thread);
    if (a.op >= 0)
        return std::string(opKindName(ops[a.op].op.kind)) + " `" + shortText(a.site->text) + "` (" + where +
               ", an async unit)";
    return "`" + shortText(a.site->text) + "` (" + where + ")";
}

std::string Model::Impl::fixFor(const OpRec& o, const ThreadRec* reader) const {
    const std::string name = opKindName(o.op.kind);
    switch (o.op.how) {
    case Completion::Mbarrier: {
        if (!o.op.barrier) return "wait for the copy's completion";
        const BarrierRef& b = *o.op.barrier;
        std::string s = "missing edge: the completion of mbarrier " + b.name + " (CTA " +
                        std::to_string(b.cta) + ") phase " + std::to_string(o.phase) + ", which the " + name +
                        "'s complete_tx finishes, observed by a wait. Fix: mbarrier.try_wait.parity [" +
                        b.name + "], " + std::to_string(o.phase & 1) + " before the access";
        if (reader)
            if (auto it = reader->parityAtOnce.find(b.cta << 24 | b.addr); it != reader->parityAtOnce.end())
                s += " (the wait at line " + std::to_string(it->second.first.span.line) + " used parity " +
                     std::to_string((it->second.second & 1) ^ 1) + ", which names the phase before phase " +
                     std::to_string(it->second.second) + " and completes at once)";
        return s;
    }
    case Completion::Tcgen05Commit:
        return "missing edge: the " + name +
               "'s completion, which only tcgen05.commit makes visible (it arrives "
               "on an mbarrier once every prior tcgen05.mma/cp/shift of the thread completed; "
               "tcgen05.wait::ld "
               "and ::st cover only tcgen05.ld and tcgen05.st). Fix: tcgen05.commit.cta_group::N.mbarrier::"
               "arrive::one.shared::cluster.b64 [bar] after it, then mbarrier.try_wait.parity [bar], P (and "
               "tcgen05.fence::after_thread_sync) before the access";
    case Completion::BulkGroup:
        return "missing edge: the bulk async-group of the " + name +
               ". Fix: cp.async.bulk.commit_group after it "
               "and cp.async.bulk.wait_group.read 0 (its sources read) or cp.async.bulk.wait_group 0 before "
               "the access";
    case Completion::WgmmaGroup:
        return "missing edge: the wgmma-group of the wgmma.mma_async. Fix: wgmma.commit_group after it and "
               "wgmma.wait_group 0 before the access";
    case Completion::Tcgen05WaitLd:
        return "missing edge: tcgen05.wait::ld, the only thing that makes a tcgen05.ld's destination "
               "registers "
               "valid. Fix: tcgen05.wait::ld.sync.aligned before the access";
    case Completion::Tcgen05WaitSt:
        return "missing edge: tcgen05.wait::st, which completes the thread's tcgen05.st. Fix: "
               "tcgen05.wait::st.sync.aligned before the access";
    case Completion::CpAsyncGroup:
        return "missing edge: the cp.async group. Fix: cp.async.commit_group and cp.async.wait_group 0 "
               "before "
               "the access";
    }
    return {};
}

void Model::Impl::race(const AccessRec& a, const AccessRec& b, const Range& ov, bool valueDiffers) {
    const int kind = a.write && b.write ? 2 : a.write ? 0 : 1;
    const int ka = a.op >= 0 ? a.op : -1 - int(a.unit), kb = b.op >= 0 ? b.op : -1 - int(b.unit);
    if (!reported.insert({ka, kb, kind, 0}).second) return;
    const char* what = kind == 0 ? "read after write" : kind == 1 ? "write after read" : "write after write";
    std::string msg = std::string("race (") + what + "): " + who(b) + (b.write ? " writes " : " reads ") +
                      rangeText(ov) + ", which " + who(a) + (a.write ? " writes" : " may still be reading") +
                      ", and nothing orders the second access after the first one's completion; ";
    const OpRec* o = a.op >= 0 ? &ops[a.op] : b.op >= 0 ? &ops[b.op] : nullptr;
    const ThreadRec* reader = &threads[threadOfUnit.at(b.thread)];
    if (o)
        msg += fixFor(*o, reader);
    else
        msg += "missing edge: a synchronisation between the two threads";
    if (valueDiffers)
        msg += ". Value cross-check: the bytes read differ between the schedule where the write completes at "
               "issue and the one where it completes as late as the waits allow";
    link(a, b, emit(Severity::Error, b.site->span, std::move(msg), kOrderRef));
}

void Model::Impl::link(const AccessRec& a, const AccessRec& b, size_t finding) {
    if (tl.races.size() >= kMaxTimelineItems) { // bounded: past the cap only counted
        ++tl.racesLeftOut;
        return;
    }
    tl.races.push_back(RaceLink{a.site->step, b.site->step, a.site->span.line, b.site->span.line,
                                a.site->text, b.site->text, finding, a.site->stepApprox, b.site->stepApprox});
}

void Model::Impl::proxyRace(const AccessRec& w, const AccessRec& r, const Range& ov) {
    // One report per reading line: a kernel's threads storing a tile (often many unrolled st.shared lines)
    // make one finding at the consumer, whose fence fixes them all.
    if (!reported.insert({-1, int(r.site->span.line), 3, 0}).second) return;
    // An MMA's operand read (tcgen05.mma, wgmma.mma_async) is an async-proxy read too, but a warning: the
    // CuTe tutorial 01_mma_sm100 feeds tcgen05.mma st.shared data after bar.sync alone, and what the hardware
    // does without the fence is unverified (docs/exec.md "Time and order").
    const bool mma =
        r.op >= 0 && (ops[r.op].op.kind == OpKind::Tcgen05Mma || ops[r.op].op.kind == OpKind::Wgmma);
    const size_t finding = emit(
        mma ? Severity::Warning : Severity::Error, r.site->span,
        "race (proxy): " + who(r) + " reads " + rangeText(ov) + " through the async proxy, but " + who(w) +
            " wrote it through the generic proxy with no fence.proxy.async in between; the async proxy may "
            "read "
            "stale bytes. Missing edge: a proxy fence. Fix: fence.proxy.async.shared::cta after line " +
            std::to_string(w.site->span.line) + " and before line " + std::to_string(r.site->span.line),
        "PTX ISA 9.2 Memory Consistency Model, async proxy (fence.proxy.async orders generic-proxy accesses "
        "with async-proxy ones)");
    link(w, r, finding);
}

void Model::Impl::valueOnly(const AccessRec& w, const AccessRec& r, const Range& ov) {
    if (!reported.insert({w.op, r.op >= 0 ? r.op : -1 - int(r.unit), 4, 0}).second) return;
    const size_t finding =
        emit(Severity::Error, r.site->span,
             "race (value cross-check): " + who(r) + " reads " + rangeText(ov) +
                 ", whose bytes differ between the "
                 "schedule where " +
                 who(w) +
                 " completes at issue and the one where it completes as late as the "
                 "waits allow, though the happens-before clocks order them; treat it as a race",
             kOrderRef);
    link(w, r, finding);
}

void Model::Impl::hang(const Site& s, const BarrierRec& b) {
    std::string msg;
    for (uint32_t id : multicastOps) { // a multicast that leaves out this barrier's CTA is named first
        const OpRec& o = ops[id];
        if (!o.op.barrier || o.op.barrier->addr != b.ref.addr || (o.op.multicastMask >> b.ref.cta) & 1)
            continue;
        if (b.tx <= 0) break;
        msg = "ctaMask " + hexAddr(o.op.multicastMask) + " (line " + std::to_string(o.site.span.line) +
              ") omits CTA " + std::to_string(b.ref.cta) + ", whose barrier at " + hexAddr(b.ref.addr) +
              " expects " + std::to_string(b.tx) + " B; add bit " + std::to_string(b.ref.cta) +
              " to the mask or do not expect the bytes there. ";
        break;
    }
    msg += "the wait at line " + std::to_string(s.span.line) +
           " never completes (the kernel hangs): barrier " + b.ref.name + " (CTA " +
           std::to_string(b.ref.cta) + ", " + hexAddr(b.ref.addr) + "), phase " + std::to_string(b.phase) +
           ", " + std::to_string(int64_t(b.count) - b.pending) + " of " + std::to_string(b.count) +
           " arrivals, " + std::to_string(b.completedTx) + " of " + std::to_string(b.expected) + " tx bytes";
    if (b.pending > 0)
        msg += "; the missing arrival would come from an mbarrier.arrive or a tcgen05.commit on " +
               b.ref.name + " that no thread issues in this phase";
    if (b.tx > 0)
        msg += "; the missing " + std::to_string(b.tx) +
               " B would come from a copy whose complete_tx names " + b.ref.name + " (none is in flight)";
    emit(Severity::Error, s.span, std::move(msg),
         "PTX ISA 9.2 §9.7.13.15 (a phase completes when the pending arrivals and the tx-count reach 0)");
}

void Model::Impl::parityNote(const Site& s, const BarrierRec& b, uint32_t parity) {
    // A note: CUTLASS producers start their empty-barrier waits this way on purpose; a race it causes is
    // reported at the access, with this wait named in the fix.
    emit(Severity::Note, s.span,
         "the wait at line " + std::to_string(s.span.line) + " (parity " + std::to_string(parity) +
             ") completes at once: mbarrier " + b.ref.name + " is in phase " + std::to_string(b.phase) +
             " (parity " + std::to_string(b.phase & 1) + "), and parity " + std::to_string(parity) +
             " names the phase before it, which counts as complete; to wait for the current phase use "
             "parity " +
             std::to_string(b.phase & 1) +
             " (a producer's first wait on an empty barrier uses the other "
             "parity on purpose)",
         "PTX ISA 9.2 §9.7.13.15.16 mbarrier.test_wait/try_wait (.parity: the current or the immediately "
         "preceding phase)");
}

void Model::Impl::inflightAt(const Site& s, const OpRec& o, const char* where, const Range* ov) {
    if (!inflightReported.insert({o.unit, where}).second) return;
    const ThreadRec* t = &threads[threadOfUnit.at(o.thread)];
    // At kernel exit a warning: a scenario is often a fragment of a kernel (as TMEM still allocated at its
    // end).
    const bool exit = std::string_view(where) == "kernel exit";
    emit(exit ? Severity::Warning : Severity::Error, s.span,
         std::string(opKindName(o.op.kind)) + " `" + shortText(o.site.text) + "` (line " +
             std::to_string(o.site.span.line) + ", " + threadText(o.site.thread) +
             ") is still in flight at " + where + " (line " + std::to_string(s.span.line) + ")" +
             (ov ? " on " + rangeText(*ov) : "") + ": nothing observes its completion; " + fixFor(o, t),
         kOrderRef);
}

} // namespace layoutscope::async
