// Lessons in the views (scene/lesson_scene.hpp): the caption shown at a trace step, where playing pauses,
// highlighted cells per view and the LessonPlace of a click. Independent truths: the lesson file's own
// `at:` / `pause` / `question:` lines, the SWIZZLE_128B formula (tma.md §4.2: 16-B chunk c of 128-B line r
// moves to chunk c ^ (r % 8); sA at 0x400, so element (3,5) lands at 0x400 + 3*128 + 3*16 + 10 = 0x5ba, the
// lesson's own `answer:`), the row-major global tensor of the scenario (element (c0, c1) at
// base + c1*8192 + c0*2) and TMEM grid cells (column, lane).
#include "scene/lesson_scene.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {

struct Loaded {
    Lesson lesson;
    Run run;
};

Loaded loadTile() {
    auto l = loadLesson(LAYOUTSCOPE_TEST_ASSETS "/lessons/01_tma_tile_sw128.lesson");
    REQUIRE(l);
    auto run = runScenario(*l->scenario);
    REQUIRE(run);
    return {std::move(*l), std::move(*run)};
}

SmemScene smemWindow(uint32_t cta, uint32_t base, uint32_t size) {
    SmemScene s;
    s.window = {cta, base, size};
    return s;
}

} // namespace

TEST_CASE("The caption follows the timeline: the step at the latest position at or before it",
          "[views][lesson]") {
    // Five steps as lesson 01 has them: `at: start`, `at: instr 3`, then three that inherit it (E = 10),
    // plus a sixth at 20.
    const std::vector<uint32_t> pos{0, 10, 10, 10, 10, 20};
    SECTION("scrubbing onto a position shows the first step standing there") {
        CHECK(lessonStepAt(pos, 0, 4) == 0);
        CHECK(lessonStepAt(pos, 9, 4) == 0);
        CHECK(lessonStepAt(pos, 10, 0) == 1);
        CHECK(lessonStepAt(pos, 15, 5) == 1);
        CHECK(lessonStepAt(pos, 20, 0) == 5);
        CHECK(lessonStepAt(pos, 99, 1) == 5);
    }
    SECTION("Back/Next between steps at one position keep the step chosen") {
        CHECK(lessonStepAt(pos, 10, 3) == 3);
        CHECK(lessonStepAt(pos, 12, 4) == 4);
        CHECK(lessonStepAt(pos, 10, 5) == 1); // step 5 stands at 20, not here
    }
    SECTION("before every step: the first") {
        CHECK(lessonStepAt({5, 7}, 2, 1) == 0);
        CHECK(lessonStepAt({}, 2, 0) == 0);
    }
}

TEST_CASE("Lesson 01's steps stand where its at: lines say, and playing pauses at its first question",
          "[views][lesson]") {
    const Loaded t = loadTile();
    REQUIRE(t.lesson.steps.size() == 5);
    const auto pos = lessonPositions(t.lesson, t.run);
    REQUIRE(pos);
    const uint32_t e = t.run.trace.instrs.at(2).endStep; // `at: instr 3` (docs/lessons.md)
    CHECK(e > 0);
    CHECK(*pos == std::vector<uint32_t>{0, e, e, e, e});
    // Steps 2..5 ask questions (they always pause); step 1 does not.
    CHECK(pauseStepBetween(t.lesson, *pos, 0, t.run.trace.stepCount) == std::optional<size_t>(1));
    CHECK(pauseStepBetween(t.lesson, *pos, 0, e - 1) == std::nullopt);
    CHECK(pauseStepBetween(t.lesson, *pos, e, t.run.trace.stepCount) == std::nullopt); // already there
}

TEST_CASE("A click becomes the LessonPlace the engine checks", "[views][lesson]") {
    const Loaded t = loadTile();
    SECTION("shared memory: window base + y*128 + x of the window's CTA") {
        const SmemScene s = smemWindow(0, 0x400, 16384);
        const auto p = smemPlaceAt(s, 0x3a, 3); // 0x400 + 3*128 + 0x3a = 0x5ba
        REQUIRE(p);
        CHECK(p->space == MemSpace::SharedCta);
        CHECK(p->cta == 0);
        CHECK(p->addr == 0x5ba);
        CHECK(smemPlaceAt(smemWindow(1, 0, 256), 5, 1)->addr == 133);
        CHECK(smemPlaceAt(smemWindow(1, 0, 256), 5, 1)->cta == 1);
        CHECK_FALSE(smemPlaceAt(s, 0, 128)); // past the window
        // Element (3,5) of the SW128 tile (question of step 3): both of its bytes are right, the byte
        // before (element (3,4)) is not.
        for (const auto& [x, right] :
             std::initializer_list<std::pair<uint32_t, bool>>{{0x3a, true}, {0x3b, true}, {0x39, false}}) {
            const auto v = checkAnswer(t.lesson, t.run, 2, *smemPlaceAt(s, x, 3));
            REQUIRE(v);
            CHECK(v->correct == right);
        }
    }
    SECTION("Tensor Memory: column across, lane down, cells of a CTA pair side by side") {
        TmemScene tm;
        const auto p = tmemPlaceAt(tm, 5, 3);
        REQUIRE(p);
        CHECK(p->space == MemSpace::TensorMemory);
        CHECK(p->addr == (uint64_t(3) << 16 | 5));
        tm.firstCta = 2;
        tm.ctaCount = 2;
        const auto q = tmemPlaceAt(tm, 512 + kTmemPairGap + 7, 100);
        REQUIRE(q);
        CHECK(q->cta == 3);
        CHECK(q->addr == (uint64_t(100) << 16 | 7));
        CHECK_FALSE(tmemPlaceAt(tm, 512, 0)); // the gap
    }
    SECTION("global: the element's address from the tensor map") {
        auto doc = Document::fromText(t.lesson.scenarioText);
        REQUIRE(doc->hasTrace());
        const GlobalScene g = globalSceneAt(*doc, 2, t.run.trace.stepCount, {});
        REQUIRE(g.tile);
        const auto c = g.cellOf({5, 3, 0, 0, 0});
        REQUIRE(c);
        const auto p = globalPlaceAt(g, (*c)[0], (*c)[1]);
        REQUIRE(p);
        CHECK(p->space == MemSpace::Global);
        CHECK(p->addr == g.tile->map.p.globalAddress + 3 * 8192 + 5 * 2);
    }
}

TEST_CASE("A step's highlights become outlined cells in each view", "[views][lesson]") {
    const Loaded t = loadTile();
    SECTION("shared memory: `landed A (3, 0..63)` is all of box row 3, line 0x580..0x5ff") {
        const auto cells = resolveStepHighlights(t.lesson, t.run, 2);
        REQUIRE(cells);
        const CellRanges r = smemHighlightCells(smemWindow(0, 0x400, 16384), *cells);
        CHECK(r == CellRanges{{{0, 3}, {128, 4}}});
        CHECK(smemHighlightCells(smemWindow(1, 0x400, 16384), *cells).empty()); // another CTA
    }
    SECTION("shared memory: bytes clipped to the window, runs split at row ends") {
        const std::vector<LessonCells> c{{MemSpace::SharedCta, 0, 0x47e, 4},
                                         {MemSpace::SharedCta, 0, 0x3f0, 0x12}};
        const CellRanges r = smemHighlightCells(smemWindow(0, 0x400, 1024), c);
        CHECK(r == CellRanges{{{0, 0}, {2, 1}}, {{126, 0}, {128, 1}}, {{0, 1}, {2, 2}}});
    }
    SECTION("global: `global A (0..63, 0..63)` is the box, not the margin around it") {
        const auto cells = resolveStepHighlights(t.lesson, t.run, 0);
        REQUIRE(cells);
        auto doc = Document::fromText(t.lesson.scenarioText);
        const GlobalScene g = globalSceneAt(*doc, 2, 0, {});
        const CellRanges r = globalHighlightCells(g, *cells);
        auto lit = [&](int32_t c0, int32_t c1) {
            const auto c = g.cellOf({c0, c1, 0, 0, 0});
            REQUIRE(c);
            for (const auto& [lo, hi] : r)
                if ((*c)[0] >= lo.x && (*c)[0] < hi.x && (*c)[1] >= lo.y && (*c)[1] < hi.y) return true;
            return false;
        };
        CHECK(r.size() == 64); // one run per row
        CHECK(lit(0, 0));
        CHECK(lit(63, 63));
        CHECK(lit(5, 3));
        CHECK_FALSE(lit(64, 0));
        CHECK_FALSE(lit(0, 64));
    }
    SECTION("Tensor Memory: a lanes x columns rectangle, one run per lane") {
        TmemScene tm;
        LessonCells c;
        c.space = MemSpace::TensorMemory;
        c.lane = 2;
        c.lanes = 2;
        c.column = 4;
        c.columns = 3;
        CHECK(tmemHighlightCells(tm, {c}) == CellRanges{{{4, 2}, {7, 3}}, {{4, 3}, {7, 4}}});
        c.cta = 1; // not shown
        CHECK(tmemHighlightCells(tm, {c}).empty());
    }
}

TEST_CASE("Multiplications in a caption are not Markdown emphasis", "[views][lesson]") {
    CHECK(captionForDisplay("0x400 + 3*128 + 3*16 + 10") == "0x400 + 3\\*128 + 3\\*16 + 10");
    CHECK(captionForDisplay("at (0 ^ 3)*16 and 2*(a)") == "at (0 ^ 3)\\*16 and 2\\*(a)");
    CHECK(captionForDisplay("64 * 64 * 2, *really*, `r*8`") == "64 * 64 * 2, *really*, `r*8`");
}
