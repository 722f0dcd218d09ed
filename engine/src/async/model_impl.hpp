#pragma once
// The state behind async::Model (async.hpp): vector clocks of threads and async units, mbarrier phases,
// commit groups, and the access history the race checks walk. model.cpp drives it; report.cpp words
// what it finds.
#include "async/clock.hpp"
#include "async/history.hpp"
#include "layoutscope/async/async.hpp"
#include "layoutscope/async/timeline.hpp"

#include <deque>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

namespace layoutscope::async {

/// One access in the history: `unit` at `epoch` (its own clock component then) read or wrote `range`.
struct AccessRec {
    uint32_t unit = 0, epoch = 0;
    bool write = false;
    bool asyncProxy = false;    ///< made by an async operation (the async proxy)
    int op = -1;                ///< the operation's id, or -1 for a thread's own access
    uint32_t proxyFences = 0;   ///< generic writes: the writer's fence.proxy.async count at the write
    uint32_t thread = 0;        ///< the thread unit (the issuer, for an operation)
    uint32_t name = 0;          ///< the range's name: Impl::names[name]
    Extent range;               ///< the range, less its name
    const Site* site = nullptr; ///< in Impl::sites, shared by the ranges of one event (a Site holds its text)
};

struct OpRec {
    AsyncOp op;
    Site site;
    uint32_t unit = 0;                          ///< its own clock component
    uint32_t thread = 0;                        ///< the issuing thread's unit
    Clock clock;                                ///< what it knows: the issuer's clock at issue, plus itself
    bool lateDone = false;                      ///< completed in the late schedule
    bool dropped = false;                       ///< issued by a hung thread: never runs
    int commitBarrier = -1;                     ///< a tcgen05.commit pseudo-op: the barrier it arrives on
    std::pair<uint32_t, uint32_t> barrierKey{}; ///< Mbarrier / commit: (CTA, address) of its barrier
    uint32_t phase = 0;                         ///< Mbarrier / commit: the barrier's phase when it was issued
    std::vector<uint32_t> tracked;              ///< a tcgen05.commit pseudo-op: the operations it waits for
    int span = -1;                              ///< its entry in Impl::tl.ops (none for a commit pseudo-op)
};

struct BarrierRec {
    BarrierRef ref;
    bool initialised = false;
    Site initSite;
    uint32_t count = 0;
    int64_t pending = 0;                   ///< arrivals still expected in the current phase
    int64_t tx = 0;                        ///< tx-count of the current phase
    int64_t expected = 0, completedTx = 0; ///< bytes announced / arrived in the current phase
    uint32_t phase = 0;                    ///< the current (incomplete) phase
    Clock clock;                           ///< what arrivals and completions of the current phase carry
    Clock completed;                       ///< the clock of the last completed phase
    int fencedAt = -1; ///< cluster-barrier generation when fence.mbarrier_init covered its init
    bool remoteReported = false, uninitReported = false;
    std::vector<uint32_t> inflight; ///< ops whose completion arrives here
    bool beyondReported = false;
};

struct ThreadRec {
    ThreadId id;
    uint32_t unit = 0;
    Clock clock;
    uint32_t proxyFences = 0;
    bool hung = false;
    std::vector<uint32_t> uncommittedBulk, uncommittedWgmma, uncommittedCp;
    std::deque<std::vector<uint32_t>> bulkGroups, wgmmaGroups, cpGroups;
    std::vector<uint32_t> tcgenAsync; ///< mma / cp / shift not yet covered by a completed commit
    Clock tcgenDone; ///< the clocks of the mma / cp / shift that left tcgenAsync completed (tcgen05Commit)
    std::vector<uint32_t> tcgenLd, tcgenSt;
    int lastPipelined = -1; ///< the last mma / cp / shift: the next one is ordered after it
    std::map<uint32_t, std::pair<Site, uint32_t>> parityAtOnce; ///< barrier -> wait completed at once, phase
};

struct Model::Impl {
    ValueDiffers differs;
    std::vector<Diagnostic> out;
    uint32_t units = 0;
    std::vector<ThreadRec> threads;
    std::map<uint32_t, uint32_t> threadOfUnit;
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t>
        threadIndex;       ///< (cta, warp, thread) -> index
    std::deque<OpRec> ops; ///< a deque: an operation's site stays put, its accesses' records point to it
    std::map<std::pair<uint32_t, uint32_t>, BarrierRec> barriers;
    IndexedHistory<AccessRec> history;
    std::deque<Site> sites;         ///< the sites of the history's accesses, one per event (addresses stable)
    uint64_t events = 0;            ///< public events entered so far (enter)
    uint64_t siteEvent = 0;         ///< the event whose site sites.back() is (its reads and writes share it)
    std::vector<std::string> names; ///< the history's range names, each once
    std::unordered_map<std::string, uint32_t> nameIds; ///< name -> its index in names
    uint32_t nameId(const std::string& name);          ///< the index of `name` in names (added if new)
    std::vector<uint32_t> candidates; ///< record()'s scratch: the history entries an access may overlap
    uint64_t comparisons = 0;         ///< history entries compared with a new access (Model::comparisons)
    std::set<std::tuple<int, int, int, int>> reported; ///< (unit a, unit b, kind) pairs reported
    int clusterGen = 0;
    Clock clusterClock;
    std::vector<uint32_t> multicastOps; ///< deliveries, for the hang report
    bool anyHang = false;
    bool capped = false; ///< the history reached kMaxHistory: later accesses are not checked
    /// Memory bound: an access is compared only with the earlier ones in its granules (history.hpp).
    static constexpr size_t kMaxHistory = 2000000;
    std::set<std::pair<uint32_t, std::string>> inflightReported;
    Timeline tl;               ///< spans, phase changes and races by trace instruction (timeline.hpp)
    uint32_t now = kNever;     ///< the step of the event being processed (Site::step)
    int nowLine = 0;           ///< and its source line
    bool nowApprox = false;    ///< and whether the step is only the next trace instruction (Site::stepApprox)
    void enter(const Site& s); ///< every public event first: sets now / nowLine
    /// The race emitted as finding `finding` (emit's index), for the timeline.
    void link(const AccessRec& a, const AccessRec& b, size_t finding);

    ThreadRec& thread(const ThreadId& t);
    BarrierRec& barrier(const Site& at, const BarrierRef& b, const char* use);
    void tick(ThreadRec& t);
    uint32_t issueOp(const std::vector<Site>& at, AsyncOp op);
    /// Complete op `id` in the late schedule (and, for a commit, what it tracks).
    void complete(uint32_t id);
    void phaseCheck(BarrierRec& b);
    /// Record accesses and check them against the history.
    /// `stable`: a copy of `at` that lives as long as the model (an operation's own site), shared, not
    /// copied.
    void record(const Site& at, uint32_t unit, uint32_t epoch, const Clock& knows, int op,
                uint32_t threadUnit, const std::vector<Range>& ranges, bool write, bool asyncProxy,
                const Site* stable = nullptr);
    void observe(ThreadRec& t, uint32_t id); ///< t learns op id completed
    void remoteUse(BarrierRec& b, const Site& at, uint32_t fromCta);

    // report.cpp
    void race(const AccessRec& a, const AccessRec& b, const Range& overlap, bool valueDiffers);
    void proxyRace(const AccessRec& w, const AccessRec& r, const Range& overlap);
    void valueOnly(const AccessRec& w, const AccessRec& r, const Range& overlap);
    void hang(const Site& at, const BarrierRec& b);
    void parityNote(const Site& at, const BarrierRec& b, uint32_t parity);
    void inflightAt(const Site& at, const OpRec& o, const char* where, const Range* overlap);
    /// Append a finding; its index in `out`.
    size_t emit(Severity sev, const SourceSpan& span, std::string msg, std::string ref);
    [[nodiscard]] std::string who(const AccessRec& a) const;
    [[nodiscard]] std::string fixFor(const OpRec& o, const ThreadRec* reader) const;
};

[[nodiscard]] std::string hexAddr(uint64_t v);
[[nodiscard]] std::string rangeText(const Range& r);
[[nodiscard]] std::string threadText(const ThreadId& t);

} // namespace layoutscope::async
