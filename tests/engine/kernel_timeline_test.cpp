// Timeline lanes for a real kernel (issue 23 "Time and order"; docs/async-order.md "Kernel lanes"): a kernel
// scenario's orderTimeline is the executor's order model, by instruction of the recording. Truth: the PTX of
// the planted pair tests/data/exec/order/mma_before_tma_wait{,_fixed}.ptx read by hand - which thread issues
// what, which wait first observes each completion, which two accesses race - and the recording's own
// instruction list (each instruction's `origin` PTX line), never the timeline code's output.
//
// What the recorder writes and what it does not (docs/exec.md "Kernel scenarios"): the TMA load, the
// mbarrier.init / arrive.expect_tx, each warp's mbarrier.try_wait that observed its phase (once, not its
// failed spins), tcgen05.alloc / mma / ld / dealloc and the threads' st.global (as pokes) are instructions of
// the recording; tcgen05.commit / wait::ld, fences and bar.sync are not. So a completion observed by an
// mbarrier wait lands on that wait's own instruction, exact, and the issue of a recorded operation on its
// own instruction, exact.
#include "layoutscope/async/timeline.hpp"
#include "layoutscope/scenario/order_timeline.hpp"
#include "layoutscope/scenario/scenario.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

using namespace layoutscope;
using async::kNever;

namespace {

const std::string kDir = std::string(LAYOUTSCOPE_TEST_DATA_DIR) + "/exec/order/";

std::string readText(const std::string& path) {
    std::ifstream f(path);
    REQUIRE(f);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// 1-based line of the first line of `text` holding `needle`.
int lineOf(const std::string& text, const std::string& needle) {
    int line = 1;
    for (size_t start = 0; start <= text.size();) {
        const size_t end = text.find('\n', start);
        if (text.substr(start, end == std::string::npos ? std::string::npos : end - start).find(needle) !=
            std::string::npos)
            return line;
        if (end == std::string::npos) break;
        start = end + 1, ++line;
    }
    FAIL("no line holds `" << needle << "`");
    return 0;
}

struct Loaded {
    Scenario s;
    Run run;
    async::Timeline t;
    std::string ptx;
    // The first recorded instruction at or after `from` that came from PTX line `line` (of warp `warp`, if
    // given): read from the recording's `origin` lines, as the trace shows them.
    uint32_t at(int line, uint32_t from = 0, int warp = -1) const {
        for (uint32_t i = from; i < s.instrs.size(); ++i)
            if (s.instrs[i].origin.ptxLine == line && (warp < 0 || s.instrs[i].origin.warp == warp)) return i;
        FAIL("no recorded instruction from PTX line " << line);
        return kNever;
    }
};

Loaded load(const std::string& name) {
    const std::string path = kDir + name + ".launch.scn";
    auto s = loadScenario(readText(path), path);
    REQUIRE(s);
    REQUIRE(s->recorded);
    auto run = runScenario(*s);
    REQUIRE(run);
    REQUIRE(run->trace.instrs.size() == s->instrs.size());
    async::Timeline t = orderTimeline(*s, *run);
    return {std::move(*s), std::move(*run), std::move(t), readText(kDir + name + ".ptx")};
}

std::vector<const async::OpSpan*> opsOf(const async::Timeline& t, async::OpKind k) {
    std::vector<const async::OpSpan*> out;
    for (const async::OpSpan& o : t.ops)
        if (o.kind == k) out.push_back(&o);
    return out;
}

} // namespace

TEST_CASE("kernel timeline: a TMA load waited on spans from its instruction to the wait that observed it",
          "[async][timeline][kernel-timeline]") {
    const Loaded k = load("mma_before_tma_wait_fixed");
    const async::Timeline& t = k.t;
    CHECK(t.kernel);
    const int tma = lineOf(k.ptx, "cp.async.bulk.tensor"), waitFull = lineOf(k.ptx, "[%r3], 0;");
    const int mma = lineOf(k.ptx, "tcgen05.mma.cta_group"), waitDone = lineOf(k.ptx, "[%r4], 0;");
    const int ld = lineOf(k.ptx, "tcgen05.ld.sync");

    SECTION("the recording's instructions, in order, as read from the PTX and the scheduling rules") {
        // Warp 0 runs first: alloc (33), relinquish (34), thread 0's two inits (35, 36), then bar.sync;
        // warps 1-3 record nothing before it. Thread 0: arrive.expect_tx (50), the TMA (51), the try_wait on
        // `full` that sees its phase (53), the MMA (56), the try_wait on `mmadone` (59); then after the
        // second bar.sync each warp in turn its tcgen05.ld (68) and its four st.global pokes (74-77); warp
        // 0's dealloc (81) last.
        const std::vector<int> want{33, 34, 35, 36, 50, 51, 53, 56, 59, 68, 74, 75, 76, 77, 68,
                                    74, 75, 76, 77, 68, 74, 75, 76, 77, 68, 74, 75, 76, 77, 81};
        std::vector<int> got;
        for (const ScenarioInstr& in : k.s.instrs) got.push_back(in.origin.ptxLine);
        CHECK(got == want);
        CHECK(k.at(tma) == 5);
        CHECK(k.at(waitFull) == 6);
        CHECK(k.at(mma) == 7);
        CHECK(k.at(waitDone) == 8);
        CHECK(k.at(ld) == 9);
    }
    SECTION("the TMA load: thread 0 issues it; the try_wait on `full` observes it, at its own step") {
        const auto loads = opsOf(t, async::OpKind::TmaLoad);
        REQUIRE(loads.size() == 1);
        const async::OpSpan& o = *loads[0];
        CHECK(o.thread.cta == 0);
        CHECK(o.thread.thread == 0);
        CHECK(o.line == tma);
        CHECK(o.issueStep == k.at(tma));
        CHECK_FALSE(o.issueApprox);
        // The try_wait that saw the phase is recorded (its failed spins are not): the span ends there.
        CHECK(o.doneLine == waitFull);
        CHECK_FALSE(o.doneApprox);
        CHECK(o.doneStep == k.at(waitFull));
        CHECK(o.issueStep == 5);
        CHECK(o.doneStep == 6);
    }
    SECTION("the MMA: issued after the wait; its commit's barrier is observed before the epilogue's loads") {
        const auto mmas = opsOf(t, async::OpKind::Tcgen05Mma);
        REQUIRE(mmas.size() == 1);
        const async::OpSpan& o = *mmas[0];
        CHECK(o.thread.thread == 0);
        CHECK(o.issueStep == k.at(mma));
        CHECK_FALSE(o.issueApprox);
        CHECK(o.issueStep > k.at(tma));
        // tcgen05.commit -> mmadone; the try_wait on it is the first observer, recorded before the epilogue.
        CHECK(o.doneLine == waitDone);
        CHECK_FALSE(o.doneApprox);
        CHECK(o.doneStep == k.at(waitDone));
        CHECK(o.doneStep < k.at(ld));
        CHECK(o.issueStep == 7);
        CHECK(o.doneStep == 8);
    }
    SECTION("only the TMA load and the MMA are spans: the executor checks a tcgen05.ld's read at issue") {
        // exec/order_mma.cpp: a kernel's tcgen05.ld is an access of the warp's first lane plus pending
        // registers (docs/exec.md "Time and order"), not an async unit: no span for it (a hand-written
        // scenario's tcgen05.ld is one).
        CHECK(t.ops.size() == 2);
        CHECK(opsOf(t, async::OpKind::Tcgen05Ld).empty());
    }
    SECTION("phases: `full` completes at the first wait, `mmadone` at the second; no race") {
        REQUIRE(t.phases.size() == 2);
        CHECK(t.phases[0].phase == 0);
        CHECK(t.phases[0].step == k.at(waitFull));
        CHECK_FALSE(t.phases[0].approx);
        CHECK(t.phases[1].phase == 0);
        CHECK(t.phases[1].step == k.at(waitDone));
        CHECK_FALSE(t.phases[1].approx);
        CHECK(t.phases[0].barrier.addr != t.phases[1].barrier.addr);
        CHECK(t.races.empty());
        CHECK(t.opsLeftOut == 0);
    }
}

TEST_CASE("kernel timeline: an MMA issued before the TMA's wait races with the load, both by instruction",
          "[async][timeline][kernel-timeline]") {
    const Loaded k = load("mma_before_tma_wait");
    const async::Timeline& t = k.t;
    const int tma = lineOf(k.ptx, "cp.async.bulk.tensor"), mma = lineOf(k.ptx, "tcgen05.mma.cta_group");
    const int waitFull = lineOf(k.ptx, "[%r3], 0;"), ld = lineOf(k.ptx, "tcgen05.ld.sync");
    // The MMA reads A and B the TMA may not have written yet: read after write, TMA first.
    REQUIRE(t.races.size() == 1);
    const async::RaceLink& r = t.races[0];
    CHECK(r.firstLine == tma);
    CHECK(r.secondLine == mma);
    CHECK(r.firstStep == k.at(tma));
    CHECK(r.secondStep == k.at(mma));
    CHECK(r.firstStep < r.secondStep);
    CHECK_FALSE(r.firstApprox);
    CHECK_FALSE(r.secondApprox);
    REQUIRE(r.finding < k.run.warnings.size());
    CHECK(k.run.warnings[r.finding].severity == Severity::Error);
    CHECK_THAT(k.run.warnings[r.finding].message, Catch::Contains("race (read after write): tcgen05.mma"));
    // The load is still observed by the try_wait after the MMA, which is recorded: its own step, after the
    // MMA's and before the epilogue's tcgen05.ld.
    const auto loads = opsOf(t, async::OpKind::TmaLoad);
    REQUIRE(loads.size() == 1);
    CHECK(loads[0]->issueStep == k.at(tma));
    CHECK(loads[0]->doneLine == waitFull);
    CHECK(loads[0]->doneStep == k.at(waitFull));
    CHECK_FALSE(loads[0]->doneApprox);
    CHECK(k.at(mma) < k.at(waitFull));
    CHECK(k.at(waitFull) < k.at(ld));
}

TEST_CASE("kernel timeline: a kernel run with the order model off has no lanes",
          "[async][timeline][kernel-timeline]") {
    const std::string path = kDir + "mma_before_tma_wait_fixed.launch.scn";
    std::string text = readText(path);
    const size_t at = text.find("--block 128");
    REQUIRE(at != std::string::npos);
    text.insert(at, "--order off ");
    auto s = loadScenario(text, path);
    REQUIRE(s);
    auto run = runScenario(*s);
    REQUIRE(run);
    CHECK(orderTimeline(*s, *run).ops.empty());
}

TEST_CASE("kernel timeline: past kMaxTimelineItems operations the timeline only counts them",
          "[async][timeline][kernel-timeline]") {
    // kMaxTimelineItems + 3 bulk copies of one thread, each into its own 16 bytes: all issued, the first
    // kMaxTimelineItems kept as spans, the other 3 counted.
    async::Model mo;
    for (uint32_t i = 0; i < async::kMaxTimelineItems + 3; ++i) {
        async::AsyncOp op;
        op.kind = async::OpKind::BulkCopy;
        op.how = async::Completion::BulkGroup;
        op.writes.push_back(async::Range{MemSpace::SharedCta, 0, 16ull * i, 16ull * i + 16, "dst"});
        mo.issue(async::Site{{0, 0, 0}, SourceSpan{1, 1, 1}, "cp.async.bulk", i}, std::move(op));
    }
    const async::Timeline& t = mo.timeline();
    CHECK(t.ops.size() == async::kMaxTimelineItems);
    CHECK(t.opsLeftOut == 3);
    CHECK(t.ops.back().issueStep == async::kMaxTimelineItems - 1);
}

TEST_CASE("kernel timeline: each warpgroup's wgmma stands at the statement its first warp recorded",
          "[async][timeline][kernel-timeline]") {
    // CuTe tutorial hopper/wgmma_tma_sm90 (docs/exec.md): one warpgroup; the recorder writes a
    // wgmma.mma_async when warp 0 reaches it, the executor runs it when the last of the 4 warps does. Truth:
    // the recording's instruction list - each wgmma span must start on a recorded wgmma.mma_async of its own
    // PTX line, one span per recorded wgmma, none approximate.
    const std::string path =
        std::string(LAYOUTSCOPE_TEST_DATA_DIR) + "/cute_tutorials/wgmma_tma_sm90.launch.scn";
    auto s = loadScenario(readText(path), path);
    REQUIRE(s);
    auto run = runScenario(*s);
    REQUIRE(run);
    const async::Timeline t = orderTimeline(*s, *run);
    size_t recorded = 0;
    for (const ScenarioInstr& in : s->instrs) recorded += in.text.rfind("wgmma.mma_async", 0) == 0;
    const auto wgmmas = opsOf(t, async::OpKind::Wgmma);
    REQUIRE(recorded > 0);
    CHECK(wgmmas.size() == recorded);
    for (const async::OpSpan* o : wgmmas) {
        REQUIRE(o->issueStep < s->instrs.size());
        const ScenarioInstr& in = s->instrs[o->issueStep];
        INFO("step " << o->issueStep << ": " << in.text);
        CHECK_FALSE(o->issueApprox);
        CHECK(in.text.rfind("wgmma.mma_async", 0) == 0);
        CHECK(in.origin.ptxLine == o->line);
        CHECK(o->thread.thread == 0); // the warpgroup's first lane names it
    }
}
