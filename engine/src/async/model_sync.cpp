// async::Model's synchronisation events (async.hpp): mbarrier init / arrive / complete_tx / waits, the
// async-groups (bulk, wgmma, cp.async), tcgen05.commit and tcgen05.wait, fences and the cluster barrier.
// The rules they follow are listed at the top of model.cpp; the findings' words are report.cpp's.
#include "async/model_impl.hpp"

#include <algorithm>

namespace layoutscope::async {

void Model::init(const Site& s, const BarrierRef& b, uint32_t count) {
    m->enter(s);
    ThreadRec& t = m->thread(s.thread);
    if (t.hung) return;
    BarrierRec& r = m->barriers[{b.cta, b.addr}];
    r.ref = b;
    r.initialised = true;
    r.initSite = s;
    r.count = count;
    r.pending = count;
    r.tx = r.expected = r.completedTx = 0;
    r.phase = 0;
    r.clock = t.clock;
    r.fencedAt = -1;
    r.remoteReported = false;
    m->tick(t);
}

void Model::arrive(const Site& s, const BarrierRef& b, int64_t expectTx, bool arrives) {
    m->enter(s);
    ThreadRec& t = m->thread(s.thread);
    if (t.hung) return;
    BarrierRec& r = m->barrier(s, b, arrives ? "mbarrier.arrive" : "mbarrier.expect_tx");
    m->remoteUse(r, s, s.thread.cta);
    r.tx += expectTx;
    r.expected += expectTx;
    join(r.clock, t.clock);
    if (arrives) {
        if (r.initialised && r.pending <= 0 && !r.beyondReported) {
            r.beyondReported = true;
            m->emit(Severity::Error, s.span,
                    "arrival beyond the count: mbarrier " + b.name + " was initialised with " +
                        std::to_string(r.count) + " arrival(s) and phase " + std::to_string(r.phase) +
                        " has them all (it waits only for " + std::to_string(r.tx) +
                        " tx bytes); this arrival belongs to no phase. Initialise it with the number of "
                        "arriving threads or drop the extra arrive",
                    "PTX ISA 9.2 §9.7.13.15 (pending arrival count), §9.7.13.15.13 mbarrier.arrive");
        }
        --r.pending;
    }
    m->phaseCheck(r);
    m->tick(t);
}

void Model::completeTx(const Site& s, const BarrierRef& b, int64_t bytes) {
    m->enter(s);
    ThreadRec& t = m->thread(s.thread);
    if (t.hung) return;
    BarrierRec& r = m->barrier(s, b, "mbarrier.complete_tx");
    r.tx -= bytes;
    r.completedTx += bytes;
    join(r.clock, t.clock);
    m->phaseCheck(r);
    m->tick(t);
}

bool Model::wait(const Site& s, const BarrierRef& b, std::optional<uint32_t> parity) {
    m->enter(s);
    ThreadRec& t0 = m->thread(s.thread);
    if (t0.hung) return false;
    const uint32_t tIndex = m->threadOfUnit[t0.unit];
    BarrierRec& r = m->barrier(s, b, "a wait");
    if (!r.initialised) return true;
    if (parity && (*parity & 1) != (r.phase & 1)) { // names the phase before the current one: done already
        if (r.phase == 0)
            m->parityNote(s, r, *parity);
        else
            join(m->threads[tIndex].clock, r.completed);
        m->threads[tIndex].parityAtOnce.insert_or_assign(b.cta << 24 | b.addr, std::pair{s, r.phase});
        m->tick(m->threads[tIndex]);
        return true;
    }
    const uint32_t want = r.phase;
    while (r.phase == want) { // the late schedule: complete only what this phase needs
        if (r.inflight.empty()) {
            m->hang(s, r);
            m->threads[tIndex].hung = true;
            m->anyHang = true;
            return false;
        }
        const uint32_t id = r.inflight.front();
        if (m->ops[id].lateDone)
            std::erase(r.inflight, id); // never stall on one completed elsewhere
        else
            m->complete(id);
    }
    join(m->threads[tIndex].clock, r.completed);
    m->tick(m->threads[tIndex]);
    return true;
}

void Model::commitGroup(const Site& s, Completion g) {
    m->enter(s);
    ThreadRec& t = m->thread(s.thread);
    if (t.hung) return;
    auto& open = g == Completion::BulkGroup    ? t.uncommittedBulk
                 : g == Completion::WgmmaGroup ? t.uncommittedWgmma
                                               : t.uncommittedCp;
    auto& groups = g == Completion::BulkGroup    ? t.bulkGroups
                   : g == Completion::WgmmaGroup ? t.wgmmaGroups
                                                 : t.cpGroups;
    groups.push_back(open);
    open.clear();
    m->tick(t);
}

void Model::waitGroup(const Site& s, Completion g, uint32_t n, bool /*readOnly*/) {
    m->enter(s);
    // .read: the sources have been read; the writes to global may still be in flight. Nothing in a scenario
    // reads global memory back, so the model completes the whole operation (unverified for an executor that
    // does).
    ThreadRec& t = m->thread(s.thread);
    if (t.hung) return;
    const uint32_t tIndex = m->threadOfUnit[t.unit];
    auto& groups = g == Completion::BulkGroup    ? t.bulkGroups
                   : g == Completion::WgmmaGroup ? t.wgmmaGroups
                                                 : t.cpGroups;
    while (groups.size() > n) {
        for (uint32_t id : groups.front()) {
            m->complete(id);
            m->observe(m->threads[tIndex], id);
        }
        groups.pop_front();
    }
    m->tick(m->threads[tIndex]);
}

void Model::tcgen05Commit(const Site& s, const BarrierRef& b) {
    m->enter(s);
    ThreadRec& t0 = m->thread(s.thread);
    if (t0.hung) return;
    const uint32_t tIndex = m->threadOfUnit[t0.unit];
    BarrierRec& r = m->barrier(s, b, "tcgen05.commit");
    const uint32_t id = static_cast<uint32_t>(m->ops.size());
    OpRec c;
    c.site = s;
    c.unit = m->units++;
    c.thread = t0.unit;
    // It tracks every prior async tcgen05 operation of the thread. Those completed already (by an earlier
    // commit) leave tcgenAsync for good, their clocks joined into tcgenDone: complete() would only have
    // joined their clocks, which never change after issue, so the commit's clock is the same, and N commits
    // no longer copy and walk all the operations before them (O(N^2)).
    auto& pending = m->threads[tIndex].tcgenAsync;
    for (const uint32_t id0 : pending)
        if (m->ops[id0].lateDone) join(m->threads[tIndex].tcgenDone, m->ops[id0].clock);
    std::erase_if(pending, [&](uint32_t id0) { return m->ops[id0].lateDone; });
    c.clock = m->threads[tIndex].clock;
    join(c.clock, m->threads[tIndex].tcgenDone);
    c.clock.set(c.unit, 1);
    c.op.kind = OpKind::Tcgen05Mma;
    c.op.how = Completion::Tcgen05Commit;
    c.commitBarrier = 1;
    c.barrierKey = {b.cta, b.addr};
    c.phase = r.phase;
    c.tracked = pending;
    r.inflight.push_back(id);
    m->ops.push_back(std::move(c));
    m->tick(m->threads[tIndex]);
}

void Model::tcgen05Wait(const Site& s, Completion which) {
    m->enter(s);
    ThreadRec& t = m->thread(s.thread);
    if (t.hung) return;
    std::vector<uint32_t> ids = which == Completion::Tcgen05WaitLd ? t.tcgenLd : t.tcgenSt;
    (which == Completion::Tcgen05WaitLd ? t.tcgenLd : t.tcgenSt).clear();
    const uint32_t tIndex = m->threadOfUnit[t.unit];
    for (uint32_t id : ids) {
        m->complete(id);
        m->observe(m->threads[tIndex], id);
    }
    m->tick(m->threads[tIndex]);
}

void Model::fence(const Site& s, FenceKind k) {
    m->enter(s);
    ThreadRec& t = m->thread(s.thread);
    if (t.hung) return;
    if (k == FenceKind::ProxyAsync) ++t.proxyFences;
    if (k == FenceKind::MbarrierInit)
        for (auto& [key, b] : m->barriers)
            if (key.first == s.thread.cta && b.initialised && b.fencedAt < 0) b.fencedAt = m->clusterGen;
    m->tick(t);
}

void Model::clusterBarrier(const Site& s, bool publishesInits) {
    m->enter(s);
    if (publishesInits)
        for (auto& [key, b] : m->barriers)
            if (b.initialised && b.fencedAt < 0) b.fencedAt = m->clusterGen;
    for (ThreadRec& t : m->threads)
        if (!t.hung) join(m->clusterClock, t.clock);
    for (ThreadRec& t : m->threads)
        if (!t.hung) {
            t.clock = m->clusterClock;
            m->tick(t);
        }
    ++m->clusterGen;
}

} // namespace layoutscope::async
