// One coordinate order everywhere, labelled (issue 24 item 9): a lesson's prompt, the shared-memory and
// global Inspectors and the compare window's inspector write one element the same way, "(x=5, y=3)" with
// x = dimension 0 (core/coord_text.hpp). Independent truth: lesson 01's element in row 3, column 5 of the
// row-major 64x64 fp16 box lands, by the SWIZZLE_128B formula of tma.md §4.2 (16-B chunk c of 128-B line r
// moves to chunk c ^ (r % 8)), at sA + 3*128 + (0 ^ 3)*16 + 10 = 0x400 + 0x1ba = 0x5ba; its global
// coordinate is {5, 3} in PTX order (dimension 0 = column, the contiguous one).
#include "layoutscope/core/coord_text.hpp"
#include "layoutscope/lesson/lesson.hpp"
#include "scene/compare_inspect.hpp"
#include "scene/inspect.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope;
using namespace layoutscope::views;

TEST_CASE("Coordinates: dimension 0 first, each labelled", "[views][coord]") {
    CHECK(elementCoordText(std::array<int64_t, 2>{5, 3}) == "(x=5, y=3)");
    CHECK(elementCoordText(std::array<int32_t, 5>{0, 2, 1, 0, 0}, 4) == "(x=0, y=2, z=1, d3=0)");
    CHECK(elementCoordText(std::array<int32_t, 5>{7, 0, 0, 0, 0}, 1) == "(x=7, y=0)"); // at least x and y
}

TEST_CASE("Coordinates: a lesson and the Inspectors write one element the same way", "[views][coord]") {
    auto l = loadLesson(LAYOUTSCOPE_TEST_ASSETS "/lessons/01_tma_tile_sw128.lesson");
    REQUIRE(l);
    // The step asking where row 3, column 5 lands (the lesson writes it labelled).
    const LessonQuestion* q = nullptr;
    for (const LessonStep& s : l->steps)
        if (s.question && s.question->text.find("where A (x=5, y=3)") != std::string::npos) q = &*s.question;
    REQUIRE(q);
    const std::string prompt = questionPrompt(*q);
    CHECK_THAT(prompt, Catch::Contains("A (x=5, y=3)"));
    REQUIRE(q->selector);
    CHECK(q->selector->lo[0] == 5); // dimension 0 = column
    CHECK(q->selector->lo[1] == 3);
    SECTION("the old outermost-first form names the same element") {
        auto old = parseLesson("# t\nscenario: x.scn\n## s\nquestion: where A (3,5)\n");
        REQUIRE(old);
        REQUIRE(old->steps[0].question->selector);
        CHECK(old->steps[0].question->selector->lo == q->selector->lo);
    }

    auto doc = Document::fromFile(LAYOUTSCOPE_TEST_ASSETS "/scenarios/tma_tile_64x64_f16_sw128.scn");
    REQUIRE(doc->hasTrace());
    const uint32_t step = doc->trace().stepCount;
    SECTION("the shared-memory Inspector on the byte the swizzle formula names") {
        const SmemScene s = smemSceneAt(*doc, step, boxFrames(*doc));
        Replay replay(doc->trace(), doc->initial());
        replay.seek(step);
        const std::string text = inspectSmemByte(*doc, s, replay.state().smem[0].bytes(), 0x5ba);
        CHECK_THAT(text, Catch::Contains("element (x=5, y=3), byte 0"));
        CHECK_THAT(prompt, Catch::Contains("(x=5, y=3)"));
    }
    SECTION("the global Inspector on the element's cell") {
        uint32_t instr = 0;
        while (instr < doc->tiles().size() && !doc->tiles()[instr].valid) ++instr;
        REQUIRE(instr < doc->tiles().size());
        const GlobalScene g = globalSceneAt(*doc, instr, step, boxFrames(*doc));
        const auto cell = g.cellOf({5, 3, 0, 0, 0});
        REQUIRE(cell);
        Replay replay(doc->trace(), doc->initial());
        replay.seek(step);
        CHECK_THAT(inspectGlobalCell(*doc, g, replay.state().global, (*cell)[0], (*cell)[1]),
                   Catch::Contains("element (x=5, y=3)"));
    }
    SECTION("the compare window's inspector") {
        ElementKey k;
        k.space = MemSpace::Global;
        k.coord = {5, 3, 0, 0, 0};
        CHECK_THAT(describeElement(k), Catch::Contains("element (x=5, y=3), byte 0"));
    }
}
