// Issue 23 item 4: the async model's timeline (layoutscope/async/timeline.hpp) as plain data in the run.
// Truth: spans, phase changes and race links derived by hand from the PTX rules for each scenario below
// (which instruction issues an operation, which wait is the first that makes its completion visible, which
// two accesses of a planted bug are unordered), counting the scenario's instructions from 0.
#include "layoutscope/scenario/order_timeline.hpp"
#include "scenario_test_util.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace layoutscope;
using async::kNever;

namespace {

struct Ran {
    Run run;
    async::Timeline order;
};

Ran runText(const std::string& text) {
    auto s = parseScenario(text);
    REQUIRE(s);
    auto r = runScenario(*s);
    REQUIRE(r);
    async::Timeline t = orderTimeline(*s, *r);
    return {std::move(*r), std::move(t)};
}

Ran runExample(const std::string& name) {
    test::LoadedScenario l = test::loadBrokenExample(name);
    async::Timeline t = orderTimeline(l.s, l.run);
    return {std::move(l.run), std::move(t)};
}

// One TMA load of an 8192-byte box on `bar`, then `tail` (instructions 3.. of the scenario).
std::string tmaScenario(const std::string& tail) {
    return "target sm_90a\n"
           "tensormap A tiled FLOAT16 dims=[256,256] box=[64,64] swizzle=128B\n"
           "smem sA 8192 align=1024\n"
           "mbarrier bar\n"
           "mbarrier.init.shared::cta.b64 [bar], 1;\n"                   // 0
           "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 8192;\n" // 1
           "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [A, {0, 0}], "
           "[bar];\n" + // 2
           tail;
}

} // namespace

TEST_CASE("async timeline: a TMA load waited on spans issue to wait, its phase completes at the wait",
          "[async][timeline]") {
    // PTX ISA §9.7.13.15: init count 1; arrive.expect_tx leaves 8192 tx bytes pending, so phase 0 completes
    // only with the copy's complete_tx, which the try_wait at instruction 3 is the first to observe.
    const Ran r = runText(tmaScenario("mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0;\n"       // 3
                                      "ld.shared.v4.b32 {%r0, %r1, %r2, %r3}, [sA + lane * 16];\n")); // 4
    const async::Timeline& t = r.order;
    REQUIRE(t.ops.size() == 1);
    CHECK(t.ops[0].kind == async::OpKind::TmaLoad);
    CHECK(async::laneOf(t.ops[0].kind) == async::Lane::Tma);
    CHECK(t.ops[0].issueStep == 2);
    CHECK(t.ops[0].doneStep == 3);
    CHECK(t.ops[0].thread.cta == 0);
    REQUIRE(t.phases.size() == 1);
    CHECK(t.phases[0].barrier.name == "bar");
    CHECK(t.phases[0].phase == 0);
    CHECK(t.phases[0].step == 3);
    CHECK(t.races.empty());
}

TEST_CASE("async timeline: a TMA load never waited on is open-ended and its reader races with it",
          "[async][timeline]") {
    // No wait: nothing makes the copy's completion visible (span [2, never)), phase 0 never completes, and
    // the ld.shared at instruction 3 reads its bytes unordered: a read-after-write race between 2 and 3.
    const Ran r = runText(tmaScenario("ld.shared.v4.b32 {%r0, %r1, %r2, %r3}, [sA + lane * 16];\n")); // 3
    const async::Timeline& t = r.order;
    REQUIRE(t.ops.size() == 1);
    CHECK(t.ops[0].issueStep == 2);
    CHECK(t.ops[0].doneStep == kNever);
    CHECK(t.phases.empty());
    REQUIRE(t.races.size() == 1);
    CHECK(t.races[0].firstStep == 2);
    CHECK(t.races[0].secondStep == 3);
    CHECK(t.races[0].secondText.rfind("ld.shared", 0) == 0);
    REQUIRE(t.races[0].finding < r.run.warnings.size());
    CHECK(r.run.warnings[t.races[0].finding].message.rfind("race (read after write)", 0) == 0);
}

TEST_CASE("async timeline: spans, phases and the race of a stage reloaded before the MMA released it",
          "[async][timeline]") {
    // Instructions: 0-2 init full/empty/done, 3 expect_tx full, 4 TMA sA, 5 TMA sB, 6 wait full 0, 7 alloc,
    // 8 mma (reads sA, sB), 9 commit [empty], 10 expect_tx full, 11 TMA sA again, 12 wait full 1, 13 mma,
    // 14 commit [done], 15 wait done 0, 16 dealloc. tcgen05.commit tracks every prior async tcgen05 op of
    // the thread, so the wait at 15 is the first to observe both MMAs; nobody waits on `empty`, so the
    // reload at 11 writes sA while the MMA at 8 may still read it (write after read, 8 -> 11).
    const Ran l = runExample("async_stage_reload_before_release.scn");
    const async::Timeline& t = l.order;
    struct Want {
        async::OpKind kind;
        uint32_t issue, done;
    };
    const std::vector<Want> want{{async::OpKind::TmaLoad, 4, 6},
                                 {async::OpKind::TmaLoad, 5, 6},
                                 {async::OpKind::Tcgen05Mma, 8, 15},
                                 {async::OpKind::TmaLoad, 11, 12},
                                 {async::OpKind::Tcgen05Mma, 13, 15}};
    REQUIRE(t.ops.size() == want.size());
    for (size_t i = 0; i < want.size(); ++i) {
        INFO("operation " << i);
        CHECK(t.ops[i].kind == want[i].kind);
        CHECK(t.ops[i].issueStep == want[i].issue);
        CHECK(t.ops[i].doneStep == want[i].done);
    }
    CHECK(async::laneOf(async::OpKind::Tcgen05Mma) == async::Lane::Mma);
    // full: phase 0 at 6, phase 1 at 12; done: phase 0 at 15; empty never completes (no wait forces it).
    REQUIRE(t.phases.size() == 3);
    CHECK((t.phases[0].barrier.name == "full" && t.phases[0].phase == 0 && t.phases[0].step == 6));
    CHECK((t.phases[1].barrier.name == "full" && t.phases[1].phase == 1 && t.phases[1].step == 12));
    CHECK((t.phases[2].barrier.name == "done" && t.phases[2].phase == 0 && t.phases[2].step == 15));
    REQUIRE(t.races.size() == 1);
    CHECK(t.races[0].firstStep == 8);
    CHECK(t.races[0].secondStep == 11);
    CHECK(l.run.warnings[t.races[0].finding].message.rfind("race (write after read)", 0) == 0);

    const Ran fixed = runExample("async_stage_reload_before_release_fixed.scn");
    CHECK(fixed.order.races.empty());
    CHECK_FALSE(fixed.order.ops.empty());
}

TEST_CASE("async timeline: tcgen05.ld / st complete at their tcgen05.wait", "[async][timeline]") {
    // 0 alloc, 1 st, 2 wait::st, 3 ld (writes r8..r15), 4 st (reads r8..r15: races with 3), 5 wait::st,
    // 6 wait::ld. tcgen05.wait::st completes only tcgen05.st, wait::ld only tcgen05.ld.
    const Ran l = runExample("async_tmem_ld_used_before_wait.scn");
    const async::Timeline& t = l.order;
    REQUIRE(t.ops.size() == 3);
    CHECK((t.ops[0].kind == async::OpKind::Tcgen05St && t.ops[0].issueStep == 1 && t.ops[0].doneStep == 2));
    CHECK((t.ops[1].kind == async::OpKind::Tcgen05Ld && t.ops[1].issueStep == 3 && t.ops[1].doneStep == 6));
    CHECK((t.ops[2].kind == async::OpKind::Tcgen05St && t.ops[2].issueStep == 4 && t.ops[2].doneStep == 5));
    for (const async::OpSpan& o : t.ops) CHECK(async::laneOf(o.kind) == async::Lane::Tcgen05Copy);
    CHECK(t.phases.empty());
    REQUIRE(t.races.size() == 1);
    CHECK((t.races[0].firstStep == 3 && t.races[0].secondStep == 4));
}

TEST_CASE("async timeline: a scenario without asynchronous operations has an empty timeline",
          "[async][timeline]") {
    const Ran r =
        runText("target sm_90a\nsmem sA 1024\nld.shared.v4.b32 {%r0, %r1, %r2, %r3}, [sA + lane * 16];\n");
    CHECK(r.order.empty());
    CHECK(r.order.phases.empty());
}
