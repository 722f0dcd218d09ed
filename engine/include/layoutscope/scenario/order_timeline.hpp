#pragma once
/// The async model's timeline of a scenario run (issue 23 item 4; layoutscope/async/timeline.hpp): what the
/// GUI's timeline lanes draw, as plain data.
#include "layoutscope/async/timeline.hpp"
#include "layoutscope/scenario/scenario.hpp"

namespace layoutscope {

/// Feed the completed run `run` of `s` to the async model again (as runScenario does for its checks) and
/// return its timeline: steps are instruction indices (== TraceInstr indices), each race's `finding` the
/// index of its diagnostic in `run.warnings` (the model's findings end that list). Empty for a recorded
/// kernel (the executor's own model judged its run: its events have no one program order) and for a run
/// that stopped early.
[[nodiscard]] async::Timeline orderTimeline(const Scenario& s, const Run& run);

} // namespace layoutscope
