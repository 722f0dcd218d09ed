#pragma once
/// The async model's timeline of a scenario run (issue 23 item 4; layoutscope/async/timeline.hpp): what the
/// GUI's timeline lanes draw, as plain data.
#include "layoutscope/async/timeline.hpp"
#include "layoutscope/scenario/scenario.hpp"

namespace layoutscope {

/// Feed the completed run `run` of `s` to the async model again (as runScenario does for its checks) and
/// return its timeline: steps are instruction indices (== TraceInstr indices), each race's `finding` the
/// index of its diagnostic in `run.warnings` (the model's findings end that list). Empty for a run that
/// stopped early. A recorded kernel (`kernel` scenario): the executor's own model's timeline
/// (Scenario::kernelTimeline) on the recording's instructions, races indexing its notes at the head of
/// `run.warnings`, steps of events that record no instruction marked approximate (docs/async-order.md
/// "Kernel lanes"); empty when the kernel ran with `--order off`.
[[nodiscard]] async::Timeline orderTimeline(const Scenario& s, const Run& run);

} // namespace layoutscope
