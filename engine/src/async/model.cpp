// async::Model: vector clocks over threads and async units (FastTrack's happens-before, Flanagan and
// Freund PLDI 2009, without its epoch compression: every access is kept and every overlapping pair with a
// write in it checked; the history is indexed by granule, history.hpp; the clocks are persistent tries that
// copies share, clock.hpp), mbarrier phases, commit groups, and the late schedule.
//
// The rules implemented, PTX ISA 9.2:
// * An async operation's writes (and its reads' end) become visible to a thread only through its
//   completion mechanism (chapter "Memory Consistency Model", async proxy; the instruction sections):
//   complete_tx on an mbarrier whose phase completion a wait observes (§9.7.13.15, §9.7.13.15.16
//   mbarrier.test_wait/try_wait), cp.async.bulk.wait_group[.read] for bulk groups (§9.7.9.25.4),
//   wgmma.wait_group, tcgen05.commit arriving on an mbarrier, tcgen05.wait::ld / ::st.
// * A phase completes when its pending arrivals and its tx-count are both 0 (§9.7.13.15); try_wait.parity
//   P waits for the phase of parity P, the current one or the one before it: naming the one before returns
//   at once (§9.7.13.15.16).
// * Generic-proxy writes are visible to the async proxy only after fence.proxy.async ("Async proxy").
// * An mbarrier used by another CTA needs fence.mbarrier_init.release.cluster after its init and a cluster
//   barrier before the use (mbarrier.init; CUTLASS fence_barrier_init + cluster_sync).
// * tcgen05.mma, tcgen05.cp and tcgen05.shift issued by one thread execute in issue order ("tcgen05 Memory
//   Consistency Model", pipelined instruction pairs). unverified: the model orders every such pair, PTX
//   lists specific pairs.
// * wgmma.mma_async issued by one thread are ordered too: further wgmma.mma_async of the same shape may use
//   the accumulator with no wait (§9.7.15.5.2; the executor checks the shape, order_wgmma.cpp).
// * unverified, not enforced: tcgen05.fence::before/after_thread_sync around thread synchronisation.
#include "async/model_impl.hpp"

#include <algorithm>

namespace layoutscope::async {

namespace {
bool isPipelined(OpKind k) {
    return k == OpKind::Tcgen05Mma || k == OpKind::Tcgen05Cp || k == OpKind::Tcgen05Shift ||
           k == OpKind::Wgmma;
}
} // namespace

Model::Model(ValueDiffers differs) : m(std::make_unique<Impl>()) {
    m->differs = std::move(differs);
}
Model::~Model() = default;

const std::vector<Diagnostic>& Model::findings() const {
    return m->out;
}

uint64_t Model::comparisons() const {
    return m->comparisons;
}

const Timeline& Model::timeline() const {
    return m->tl;
}

void Model::Impl::enter(const Site& s) {
    ++events;
    now = s.step;
    nowLine = s.span.line;
    nowApprox = s.stepApprox;
}

ThreadRec& Model::Impl::thread(const ThreadId& t) {
    const auto [it, added] =
        threadIndex.try_emplace({t.cta, t.warp, t.thread}, static_cast<uint32_t>(threads.size()));
    if (!added) return threads[it->second];
    ThreadRec r;
    r.id = t;
    r.unit = units++;
    r.clock = clusterClock;
    r.clock.set(r.unit, 1);
    threadOfUnit[r.unit] = static_cast<uint32_t>(threads.size());
    threads.push_back(std::move(r));
    return threads.back();
}

void Model::Impl::tick(ThreadRec& t) {
    t.clock.set(t.unit, t.clock.at(t.unit) + 1);
}

BarrierRec& Model::Impl::barrier(const Site& s, const BarrierRef& b, const char* use) {
    BarrierRec& r = barriers[{b.cta, b.addr}];
    if (r.ref.name.empty()) r.ref = b;
    if (!r.initialised && !r.uninitReported) {
        r.uninitReported = true;
        emit(Severity::Error, s.span,
             "mbarrier " + b.name + " (CTA " + std::to_string(b.cta) + ", " + hexAddr(b.addr) +
                 ") is used by " + use +
                 " before any mbarrier.init: its phase, arrival count and tx-count are undefined; "
                 "initialise it (mbarrier.init) before its first use",
             "PTX ISA 9.2 §9.7.13.15.9 mbarrier.init (an mbarrier must be initialised before use)");
    }
    return r;
}

void Model::Impl::observe(ThreadRec& t, uint32_t id) {
    join(t.clock, ops[id].clock);
}

void Model::Impl::phaseCheck(BarrierRec& b) {
    if (!b.initialised || b.pending > 0 || b.tx > 0) return;
    b.completed = b.clock;
    b.clock.clear();
    if (tl.phases.size() < kMaxTimelineItems) // bounded: past the cap only counted
        tl.phases.push_back(PhaseChange{b.ref, b.phase, now, nowApprox});
    else
        ++tl.phasesLeftOut;
    ++b.phase;
    b.pending = b.count;
    b.tx = b.expected = b.completedTx = 0;
}

void Model::Impl::complete(uint32_t id) {
    OpRec& o = ops[id];
    if (o.lateDone) return;
    o.lateDone = true;
    if (o.span >= 0) { // the event being processed forced it: where its completion became visible
        tl.ops[o.span].doneStep = now;
        tl.ops[o.span].doneLine = nowLine;
        tl.ops[o.span].doneApprox = nowApprox;
    }
    for (uint32_t t : o.tracked) {
        complete(t);
        join(o.clock, ops[t].clock);
    }
    const bool viaBarrier = o.commitBarrier >= 0 || (o.op.how == Completion::Mbarrier && o.op.barrier);
    if (!viaBarrier) return;
    auto it = barriers.find(o.barrierKey);
    if (it == barriers.end()) return;
    BarrierRec& b = it->second;
    std::erase(b.inflight, id);
    join(b.clock, o.clock);
    if (o.commitBarrier >= 0) {
        --b.pending;
    } else {
        b.tx -= o.op.txBytes;
        b.completedTx += o.op.txBytes;
    }
    phaseCheck(b);
}

void Model::Impl::remoteUse(BarrierRec& b, const Site& s, uint32_t fromCta) {
    if (b.remoteReported || !b.initialised || fromCta == b.ref.cta) return;
    if (b.fencedAt >= 0 && b.fencedAt < clusterGen) return;
    b.remoteReported = true;
    emit(Severity::Error, s.span,
         "mbarrier " + b.ref.name + " of CTA " + std::to_string(b.ref.cta) + ", initialised at line " +
             std::to_string(b.initSite.span.line) + ", is used from CTA " + std::to_string(fromCta) +
             " at line " + std::to_string(s.span.line) +
             (b.fencedAt < 0 ? " with no fence.mbarrier_init after its init"
                             : " with no barrier.cluster.arrive/wait after its fence.mbarrier_init") +
             ": the other CTA may see it uninitialised. Fix: fence.mbarrier_init.release.cluster in CTA " +
             std::to_string(b.ref.cta) +
             " after the init, then barrier.cluster.arrive.release + "
             "barrier.cluster.wait.acquire in every CTA before the first remote use",
         "PTX ISA 9.2 §9.7.13.15.9 mbarrier.init; fence.mbarrier_init (membar/fence); barrier.cluster");
}

uint32_t Model::Impl::nameId(const std::string& name) {
    if (!names.empty() && names.back() == name) return static_cast<uint32_t>(names.size() - 1);
    const auto [it, added] = nameIds.try_emplace(name, static_cast<uint32_t>(names.size()));
    if (added) names.push_back(name);
    return it->second;
}

void Model::Impl::record(const Site& s, uint32_t unit, uint32_t epoch, const Clock& knows, int op,
                         uint32_t threadUnit, const std::vector<Range>& ranges, bool write, bool asyncProxy,
                         const Site* stable) {
    if (capped) return;
    // One copy of s (and its text) for all the ranges of the event, its reads and its writes: every record()
    // call of one event (issueOp, access: after enter()) passes the same site.
    const Site* site = stable;
    for (const Range& r : ranges) {
        if (r.begin >= r.end) continue;
        if (!site && siteEvent == events && !sites.empty()) site = &sites.back();
        if (!site) site = &sites.emplace_back(s), siteEvent = events;
        const Extent e = extentOf(r);
        AccessRec cur{unit, epoch, write, asyncProxy, op, 0, threadUnit, nameId(r.name), e, site};
        if (op < 0) cur.proxyFences = threads[threadOfUnit[threadUnit]].proxyFences;
        history.candidates(e, candidates, write); // a read meets only writes: read-read pairs never race
        for (const uint32_t i : candidates) {
            const AccessRec& h = history[i]; // race() and the reports do not grow the history
            ++comparisons;
            // A write over h's whole range supersedes it once checked below (history.hpp: kill).
            if (write && covers(e, h.range)) history.kill(i);
            if ((!write && !h.write) || h.unit == unit || !overlaps(h.range, e)) continue;
            Range ov = intersect(r, h.range);
            if (ov.name.empty()) ov.name = names[h.name];
            // An op pipelined after the writer (same thread, tcgen05 mma/cp/shift) sees its writes in both
            // schedules.
            const bool pipelined = op >= 0 && h.op >= 0 && h.op < op && ops[h.op].thread == ops[op].thread &&
                                   isPipelined(ops[h.op].op.kind) && isPipelined(ops[op].op.kind);
            const bool lateStale = h.write && h.op >= 0 && !ops[h.op].lateDone && !pipelined;
            const bool valueDiffers = lateStale && differs && ops[h.op].op.traceInstr != UINT32_MAX &&
                                      differs(ops[h.op].op.traceInstr, ov);
            if (at(knows, h.unit) >= h.epoch) {
                // Ordered. A generic write read by the async proxy still needs fence.proxy.async in between.
                if (h.write && !h.asyncProxy && asyncProxy && r.space == MemSpace::SharedCta &&
                    threads[threadOfUnit[h.thread]].proxyFences <= h.proxyFences)
                    proxyRace(h, cur, ov);
                else if (valueDiffers)
                    valueOnly(h, cur, ov); // the clocks order them but the late schedule reads old bytes
                continue;
            }
            race(h, cur, ov, valueDiffers);
        }
        history.add(std::move(cur));
        if (history.size() >= kMaxHistory) {
            capped = true;
            emit(Severity::Warning, s.span,
                 "the happens-before checker keeps at most " + std::to_string(kMaxHistory) +
                     " access ranges; accesses from here on are not checked",
                 "Layoutscope limit (async/model.cpp)");
            return;
        }
    }
}

uint32_t Model::issue(const Site& s, AsyncOp op) {
    return m->issueOp({s}, std::move(op));
}

uint32_t Model::issueCollective(const std::vector<Site>& issuers, AsyncOp op) {
    return issuers.empty() ? UINT32_MAX : m->issueOp(issuers, std::move(op));
}

uint32_t Model::Impl::issueOp(const std::vector<Site>& all, AsyncOp op) {
    const Site& s = all.front();
    enter(s);
    const uint32_t id = static_cast<uint32_t>(ops.size());
    std::vector<uint32_t> tIndex; // the issuers' thread records (the first names the operation)
    for (const Site& a : all) tIndex.push_back(threadOfUnit[thread(a.thread).unit]);
    ThreadRec& t0 = threads[tIndex.front()];
    OpRec rec;
    rec.site = s;
    rec.unit = units++;
    rec.thread = t0.unit;
    rec.clock = t0.clock;
    for (size_t k = 1; k < tIndex.size(); ++k) join(rec.clock, threads[tIndex[k]].clock);
    const bool pipelined = isPipelined(op.kind);
    if (pipelined && t0.lastPipelined >= 0) join(rec.clock, ops[t0.lastPipelined].clock);
    rec.clock.set(rec.unit, 1);
    rec.op = std::move(op);
    const bool hung = t0.hung;
    ops.push_back(std::move(rec));
    if (hung) {
        ops[id].lateDone = ops[id].dropped = true; // never issued: the thread hangs before it
        return id;
    }
    OpRec& o = ops[id];
    if (tl.ops.size() < kMaxTimelineItems) { // bounded: past the cap only counted (o.span stays -1)
        o.span = static_cast<int>(tl.ops.size());
        tl.ops.push_back(OpSpan{o.op.kind, s.thread, s.step, kNever, s.span.line, 0, s.text, s.stepApprox});
    } else {
        ++tl.opsLeftOut;
    }
    if (o.op.how == Completion::Mbarrier && o.op.barrier) {
        BarrierRec& b = barrier(s, *o.op.barrier, "a copy's complete_tx");
        remoteUse(b, s, s.thread.cta);
        o.barrierKey = {o.op.barrier->cta, o.op.barrier->addr};
        o.phase = b.phase;
        b.inflight.push_back(id);
    }
    if (o.op.multicastMask) multicastOps.push_back(id);
    for (const uint32_t ti : tIndex) {
        ThreadRec& t = threads[ti];
        switch (o.op.how) {
        case Completion::BulkGroup:
            t.uncommittedBulk.push_back(id);
            break;
        case Completion::WgmmaGroup:
            t.uncommittedWgmma.push_back(id);
            break;
        case Completion::CpAsyncGroup:
            t.uncommittedCp.push_back(id);
            break;
        case Completion::Tcgen05Commit:
            t.tcgenAsync.push_back(id);
            break;
        case Completion::Tcgen05WaitLd:
            t.tcgenLd.push_back(id);
            break;
        case Completion::Tcgen05WaitSt:
            t.tcgenSt.push_back(id);
            break;
        case Completion::Mbarrier:
            break;
        }
        if (pipelined) t.lastPipelined = static_cast<int>(id);
    }
    // tcgen05.ld / st move Tensor Memory and registers, not shared memory: not the async proxy's view.
    const bool asyncProxy = o.op.kind != OpKind::Tcgen05Ld && o.op.kind != OpKind::Tcgen05St;
    const Clock& knows = o.clock; // record() grows neither ops nor threads: no copy (O(units) each)
    const uint32_t unit = o.unit, issuer = t0.unit;
    // No copies: the operation's own ranges, and its own site (o.site == s) for the records.
    record(s, unit, 1, knows, static_cast<int>(id), issuer, o.op.reads, false, asyncProxy, &o.site);
    record(s, unit, 1, knows, static_cast<int>(id), issuer, o.op.writes, true, asyncProxy, &o.site);
    // From here on only dealloc() reads the operation's ranges, and only those in Tensor Memory: drop the
    // rest (a tcgen05.st's 32 threads' registers, a copy's shared and global bytes) and their memory. Of the
    // Tensor Memory ranges of one list with the same CTA and columns (a tcgen05.st's 32 lanes), dealloc()
    // matches all or none and reports the first: keep the first alone.
    for (std::vector<Range>* list : {&o.op.reads, &o.op.writes}) {
        const size_t before = list->size();
        std::set<std::tuple<uint32_t, uint64_t, uint64_t>> columns; // (CTA, first column, width)
        std::erase_if(*list, [&](const Range& r) {
            return r.space != MemSpace::TensorMemory ||
                   !columns.emplace(r.cta, r.begin & 0xFFFF, r.end - r.begin).second;
        });
        if (list->size() != before) list->shrink_to_fit();
    }
    for (const uint32_t ti : tIndex) tick(threads[ti]);
    return id;
}

void Model::access(const Site& s, const std::vector<Range>& reads, const std::vector<Range>& writes) {
    m->enter(s);
    ThreadRec& t = m->thread(s.thread);
    if (t.hung) return;
    const uint32_t unit = t.unit, epoch = at(t.clock, t.unit);
    const Clock& knows = t.clock;
    m->record(s, unit, epoch, knows, -1, unit, reads, false, false);
    m->record(s, unit, epoch, knows, -1, unit, writes, true, false);
    m->tick(m->threads[m->threadOfUnit[unit]]);
}

void Model::dealloc(const Site& s, uint32_t col0, uint32_t col1) {
    m->enter(s);
    ThreadRec& t = m->thread(s.thread);
    if (t.hung) return;
    for (const OpRec& o : m->ops) {
        if (o.commitBarrier >= 0 || o.dropped || at(t.clock, o.unit) >= 1) continue;
        for (const auto* list : {&o.op.writes, &o.op.reads})
            for (const Range& r : *list) {
                if (r.space != MemSpace::TensorMemory || r.cta != s.thread.cta) continue;
                const uint64_t c0 = r.begin & 0xFFFF, c1 = c0 + (r.end - r.begin);
                if (c0 < col1 && col0 < c1) {
                    Range ov = r;
                    ov.begin = (r.begin & ~uint64_t(0xFFFF)) | std::max<uint64_t>(c0, col0);
                    ov.end = (r.begin & ~uint64_t(0xFFFF)) | std::min<uint64_t>(c1, col1);
                    m->inflightAt(s, o, "tcgen05.dealloc", &ov);
                    goto next;
                }
            }
    next:;
    }
    m->tick(t);
}

void Model::finish(const Site& s) {
    m->enter(s);
    if (m->anyHang) return; // the kernel never exits
    for (const OpRec& o : m->ops) {
        if (o.commitBarrier >= 0 || o.dropped) continue;
        bool known = false;
        for (const ThreadRec& t : m->threads) known = known || at(t.clock, o.unit) >= 1;
        if (!known) m->inflightAt(s, o, "kernel exit", nullptr);
    }
}

} // namespace layoutscope::async
