// A kernel scenario's timeline (issue 23, "Time and order": lanes for a real kernel; docs/async-order.md
// "Kernel lanes"). The executor's order model gave each event the recording's statement of its instruction
// when the recorder wrote one before the event (TMA, mbarrier.init / expect_tx, tcgen05, wgmma, the poke of a
// thread store), else the next statement, marked approximate (exec/order.cpp orderSite). Here the steps
// meet the run's trace: statement k is scenario instruction k is trace instruction k.
#include "scenario/async_order.hpp"

#include <algorithm>

namespace layoutscope::scn {
namespace {

// Step `step` of an event at PTX line `line` on this trace: past the end (an event after the last
// statement, the kernel's exit) it is the last instruction, approximate; an exact step whose instruction
// came from another PTX line is approximate too (the recording and the model disagree: say so, not guess).
void place(const Scenario& s, size_t count, uint32_t& step, bool& approx, int line) {
    if (step == async::kNever || count == 0) return;
    if (step >= count) {
        step = uint32_t(count - 1);
        approx = true;
        return;
    }
    if (!approx && line > 0 && step < s.instrs.size() && s.instrs[step].origin.ptxLine != line) approx = true;
}

} // namespace

async::Timeline kernelTimeline(const Scenario& s, const Run& run) {
    async::Timeline t = *s.kernelTimeline;
    t.kernel = true;
    const size_t count = run.trace.instrs.size();
    if (count == 0) return async::Timeline{}; // no trace to place it on
    for (async::OpSpan& o : t.ops) {
        place(s, count, o.issueStep, o.issueApprox, o.line);
        place(s, count, o.doneStep, o.doneApprox, o.doneLine);
        if (o.doneStep != async::kNever && o.doneStep < o.issueStep) o.doneStep = o.issueStep;
    }
    for (async::PhaseChange& p : t.phases) place(s, count, p.step, p.approx, 0);
    for (async::RaceLink& r : t.races) {
        place(s, count, r.firstStep, r.firstApprox, r.firstLine);
        place(s, count, r.secondStep, r.secondApprox, r.secondLine);
    }
    return t;
}

} // namespace layoutscope::scn
