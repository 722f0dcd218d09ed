#pragma once
/// What a timeline needs from the async model (issue 23 item 4): plain data, no Qt. Steps here are trace
/// instruction indices (TraceInstr, the scenario's instruction order), as async::Site::step names them.
///
/// * A span per asynchronous operation: issued at `issueStep`; its completion became visible at `doneStep`,
///   the wait / wait_group / tcgen05.wait (or the wait on a tcgen05.commit's barrier) that forced it in the
///   late schedule (docs/async-order.md "two schedules"), or kNever when nothing ever observed it.
/// * An mbarrier phase change: phase `phase` of the barrier completed at `step` (late schedule: when the
///   last arrival or complete_tx it needs was forced).
/// * A race: the two accesses of an order finding, by trace instruction, with the finding's index.
///
/// A kernel's timeline (the executor's model, steps = its recording's instructions) marks each step that is
/// not the event's own instruction (`...Approx`: a wait, arrive, ld.shared or fence records none; the step
/// is the next instruction the recording has). Memory stays bounded: past kMaxTimelineItems of a kind the
/// rest are only counted (`...LeftOut`).
#include "layoutscope/async/async.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace layoutscope::async {

inline constexpr uint32_t kNever = UINT32_MAX;

/// The timeline lane of an operation: one per async unit kind.
enum class Lane : uint8_t {
    Tma,         ///< TMA load / store / reduce / prefetch (cp.async.bulk.tensor)
    Mma,         ///< tcgen05.mma
    Tcgen05Copy, ///< tcgen05.cp / shift / ld / st
    Bulk,        ///< non-tensor bulk copies and cp.async (sm_80)
    Wgmma,       ///< wgmma.mma_async
};
inline constexpr int kLaneCount = 5;
[[nodiscard]] Lane laneOf(OpKind k);
[[nodiscard]] const char* laneName(Lane l);

struct OpSpan {
    OpKind kind = OpKind::TmaLoad;
    ThreadId thread;             ///< the issuing thread (the first issuer of a collective op)
    uint32_t issueStep = kNever; ///< the trace instruction that issued it
    uint32_t doneStep = kNever;  ///< where its completion became visible; kNever: never observed
    int line = 0, doneLine = 0;  ///< source lines of the issue and of the observing instruction
    std::string text;            ///< the issuing instruction
    bool issueApprox = false,
         doneApprox = false; ///< the step is the next trace instruction (Site::stepApprox)
};

struct PhaseChange {
    BarrierRef barrier;
    uint32_t phase = 0; ///< the phase that completed (the barrier moves to phase + 1)
    uint32_t step = kNever;
    bool approx = false; ///< the step is the next trace instruction after the event (Site::stepApprox)
};

struct RaceLink {
    uint32_t firstStep = kNever, secondStep = kNever; ///< the earlier access's instruction, the later one's
    int firstLine = 0, secondLine = 0;
    std::string firstText, secondText;
    size_t finding = 0;                             ///< index into Model::findings()
    bool firstApprox = false, secondApprox = false; ///< the step is the next trace instruction
};

/// Per kind, the most items a timeline keeps (a big kernel issues tens of thousands of copies).
inline constexpr size_t kMaxTimelineItems = 8192;

struct Timeline {
    std::vector<OpSpan> ops; ///< in issue order
    std::vector<PhaseChange> phases;
    std::vector<RaceLink> races;
    size_t opsLeftOut = 0, phasesLeftOut = 0, racesLeftOut = 0; ///< past kMaxTimelineItems: counted only
    bool kernel = false; ///< a kernel's (the executor's model): lines are PTX lines, steps its recording's
    [[nodiscard]] bool empty() const { return ops.empty() && races.empty(); }
};

} // namespace layoutscope::async
