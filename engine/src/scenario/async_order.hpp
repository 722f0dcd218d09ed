#pragma once
// The scenario front end of the async model (issue 23; engine/include/layoutscope/async/async.hpp).
#include "layoutscope/async/timeline.hpp"
#include "layoutscope/scenario/scenario.hpp"

#include <vector>

namespace layoutscope::scn {

/// Feed a completed run's instructions to async::Model in program order (one thread per CTA) and append
/// its findings (races, hangs, barrier accounting, operations in flight at dealloc or exit) to `out`.
/// `timeline` (if given) receives the model's timeline, steps being instruction indices and each race's
/// `finding` the index of its diagnostic in `out`.
void checkAsyncOrder(const Scenario& s, const Run& run, std::vector<Diagnostic>& out,
                     async::Timeline* timeline = nullptr);

/// A kernel scenario's timeline (Scenario::kernelTimeline, the executor's model; kernel_timeline.cpp) on
/// `run`'s trace: steps past the trace's end end at its last instruction, and a step whose instruction did
/// not come from the event's PTX line is marked approximate.
[[nodiscard]] async::Timeline kernelTimeline(const Scenario& s, const Run& run);

} // namespace layoutscope::scn
