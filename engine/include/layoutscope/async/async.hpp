#pragma once
/// Time and order (issue 23): the asynchronous-completion model and its happens-before checker.
///
/// Every asynchronous operation (a TMA copy, one multicast delivery, wgmma, tcgen05.mma/cp/shift/ld/st,
/// cp.async) is a unit of its own with an issue point and a completion point. Its completion becomes
/// visible to a thread only through what PTX defines (PTX ISA 9.2 chapter "Memory Consistency Model" and its
/// "Async proxy" section; §9.7.13.15 mbarrier; §9.7.9.25.4 bulk async-groups; "wgmma.commit_group /
/// wait_group"; "tcgen05 Memory Consistency Model"; section names where this code has no verified number):
/// an mbarrier phase observed by a wait, a commit/wait group, tcgen05.commit
/// arriving on an mbarrier, tcgen05.wait::ld/::st. Accesses are checked with vector clocks over threads
/// and async units (exhaustively: every pair of overlapping accesses, one of them a write).
///
/// Two schedules run side by side: the checker's clocks, and a "late" schedule in which an operation
/// completes only when a wait forces it (the run's trace is the "early" schedule: everything completes at
/// issue). A read whose bytes differ between the two is a race even if the clocks missed it.
///
/// Front ends: the scenario runner (scenario/async_order.cpp) and, later, the PTX kernel executor. The API
/// is events in program order; each names its thread and source site.
#include "layoutscope/core/move_table.hpp"
#include "layoutscope/core/result.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace layoutscope::async {

struct Timeline; // timeline.hpp

struct ThreadId {
    uint32_t cta = 0;    ///< %cluster_ctarank
    uint32_t warp = 0;   ///< warp in the CTA
    uint32_t thread = 0; ///< thread in the CTA (%tid.x for a 1-D block)
    friend bool operator==(const ThreadId&, const ThreadId&) = default;
};

/// Where an event comes from: the thread that executes it and its source line.
struct Site {
    ThreadId thread;
    SourceSpan span;  ///< line and column in the scenario / PTX
    std::string text; ///< the instruction as written
    /// The trace instruction (step) of the event, for the timeline (timeline.hpp); UINT32_MAX: unknown.
    uint32_t step = UINT32_MAX;
    /// The step is not the event's own instruction but the next one the trace has (a kernel's wait, arrive,
    /// ld.shared or fence records no statement of its own; docs/async-order.md "Kernel lanes").
    bool stepApprox = false;
};

/// A byte range [begin, end) of one space (Tensor Memory: lane << 16 | column, end exclusive in columns).
/// Registers: thread << 16 | 4 * register; the executor's: thread << 32 | 4 * slot, named ("%r12") in `name`.
struct Range {
    MemSpace space = MemSpace::SharedCta;
    uint32_t cta = 0;
    uint64_t begin = 0, end = 0;
    std::string name;   ///< the buffer (or "registers", "TMEM"), for reports
    uint32_t lanes = 1; ///< Tensor Memory: the range covers these columns in `lanes` lanes from begin >> 16
};

enum class OpKind : uint8_t {
    TmaLoad,
    TmaStore,
    TmaReduce,
    TmaPrefetch,
    BulkCopy,
    Wgmma,
    Tcgen05Mma,
    Tcgen05Cp,
    Tcgen05Shift,
    Tcgen05Ld,
    Tcgen05St,
    CpAsync,
};
[[nodiscard]] const char* opKindName(OpKind k);

/// The mechanism through which an operation's completion becomes visible.
enum class Completion : uint8_t {
    Mbarrier,      ///< complete_tx on an mbarrier (TMA loads, each multicast delivery): §9.7.13.15
    BulkGroup,     ///< cp.async.bulk.commit_group / wait_group[.read] (TMA stores, reduces): §9.7.9.25.4
    WgmmaGroup,    ///< wgmma.commit_group / wait_group (PTX ISA "wgmma.wait_group")
    Tcgen05Commit, ///< tcgen05.commit -> mbarrier arrive (mma, cp, shift) (PTX ISA "tcgen05.commit")
    Tcgen05WaitLd, ///< tcgen05.wait::ld (PTX ISA "tcgen05.wait")
    Tcgen05WaitSt, ///< tcgen05.wait::st
    CpAsyncGroup,  ///< cp.async.commit_group / wait_group (PTX ISA "cp.async.wait_group")
};

struct BarrierRef {
    uint32_t cta = 0;
    uint32_t addr = 0; ///< shared::cta address in CTA `cta`
    std::string name;
};

enum class FenceKind : uint8_t {
    ProxyAsync,          ///< fence.proxy.async: generic-proxy writes before it are visible to the async proxy
    MbarrierInit,        ///< fence.mbarrier_init.release.cluster
    Tcgen05BeforeThread, ///< tcgen05.fence::before_thread_sync
    Tcgen05AfterThread,  ///< tcgen05.fence::after_thread_sync
};

/// An operation to issue: what it reads and writes, and how its completion is observed.
struct AsyncOp {
    OpKind kind = OpKind::TmaLoad;
    std::vector<Range> reads, writes;
    Completion how = Completion::Mbarrier;
    std::optional<BarrierRef> barrier; ///< Completion::Mbarrier: the barrier its complete_tx goes to
    int64_t txBytes = 0;               ///< Completion::Mbarrier: bytes of complete_tx
    uint32_t multicastMask = 0;        ///< a multicast delivery: the instruction's ctaMask (else 0)
    uint32_t traceInstr = UINT32_MAX;  ///< the trace instruction holding its bytes (the value cross-check)
};

class Model {
  public:
    /// Whether op `traceInstr`'s writes change any byte of `overlap` (after != before): the value
    /// cross-check between the early schedule (the trace) and the late one. Empty: no value check.
    using ValueDiffers = std::function<bool(uint32_t traceInstr, const Range& overlap)>;
    explicit Model(ValueDiffers differs = {});
    ~Model();
    Model(const Model&) = delete;
    Model& operator=(const Model&) = delete;

    /// Issue an asynchronous operation; returns its id.
    uint32_t issue(const Site& at, AsyncOp op);
    /// Issue one operation that several threads execute together (a warp's tcgen05.ld / st, a warpgroup's
    /// wgmma.mma_async): one async unit, ordered after every issuer's earlier events, named by the first
    /// issuer in reports; each issuer's own commit / wait completes it for that thread.
    uint32_t issueCollective(const std::vector<Site>& issuers, AsyncOp op);
    /// Synchronous generic-proxy accesses of a thread (ld/st.shared, register reads).
    void access(const Site& at, const std::vector<Range>& reads, const std::vector<Range>& writes);
    void init(const Site& at, const BarrierRef& b, uint32_t count);
    /// mbarrier.arrive[.expect_tx] (arrives = true) or mbarrier.expect_tx (arrives = false).
    void arrive(const Site& at, const BarrierRef& b, int64_t expectTx, bool arrives);
    void completeTx(const Site& at, const BarrierRef& b, int64_t bytes);
    /// mbarrier.try_wait / test_wait; `parity` empty: the current phase. False: the wait never completes.
    bool wait(const Site& at, const BarrierRef& b, std::optional<uint32_t> parity);
    void commitGroup(const Site& at, Completion group);
    /// wait_group N: all but the N most recent committed groups complete (`readOnly`: .read).
    void waitGroup(const Site& at, Completion group, uint32_t n, bool readOnly);
    /// tcgen05.commit: `b` receives one arrival once every prior async tcgen05 op of the thread completes.
    void tcgen05Commit(const Site& at, const BarrierRef& b);
    /// tcgen05.wait::ld (Tcgen05WaitLd) or ::st (Tcgen05WaitSt).
    void tcgen05Wait(const Site& at, Completion which);
    void fence(const Site& at, FenceKind k);
    /// barrier.cluster.arrive + wait executed by every thread of the cluster.
    /// `publishesInits`: the arrive had release semantics (barrier.cluster.arrive without .relaxed), which
    /// makes every earlier mbarrier.init visible to the other CTAs as fence.mbarrier_init would (unverified:
    /// the PTX ISA pairs fence.mbarrier_init with barrier.cluster.arrive.relaxed; CUTLASS's cluster_sync()
    /// after initialize_barrier, as in the CuTe tutorials, relies on the release arrive alone).
    void clusterBarrier(const Site& at, bool publishesInits = false);
    /// bar.warp.sync: the members' accesses before it happen before their accesses after it
    /// (warp_barrier.cpp).
    void warpBarrier(const std::vector<Site>& members);
    /// tcgen05.dealloc of TMEM columns [col0, col1) of the thread's CTA.
    void dealloc(const Site& at, uint32_t col0, uint32_t col1);
    /// Kernel exit: operations still in flight, barriers with pending transactions.
    void finish(const Site& at);

    /// Everything found, in the order found.
    [[nodiscard]] const std::vector<Diagnostic>& findings() const;
    /// Earlier accesses compared with new ones so far: the checker's work. A write covering an earlier access
    /// supersedes it, so this stays linear in the accesses when writes replace what they overwrite.
    [[nodiscard]] uint64_t comparisons() const;
    /// Every operation's issue-to-completion span, the mbarrier phase changes and the races' two accesses,
    /// by trace instruction (Site::step), for a timeline (timeline.hpp).
    [[nodiscard]] const Timeline& timeline() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> m;
};

} // namespace layoutscope::async
