// The TMEM scene's expected-vs-actual marks (scene/tmem_expected.hpp) on the bundled broken tcgen05.cp
// example, without a window: which cells, how many, and that only the flag changes (producer colours
// stay). Truth hand-derived in tests/views/gui_tmem_expected_test.cpp: 224 chunks of 4 cells, lanes with
// m % 8 != 0, columns 0-7.
#include "scene/tmem_expected.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope;
using namespace layoutscope::views;

TEST_CASE("tcgen05.cp cells from mismatched chunks are flagged, colours kept", "[tmem][operand]") {
    auto doc = Document::fromFile(std::string(LAYOUTSCOPE_TEST_ASSETS) +
                                  "/scenarios/broken/cp_desc_swizzle_64B.scn");
    REQUIRE(doc->hasTrace());
    const TmemExpectations e = tmemExpectations(*doc);
    CHECK(e.cells.size() == 896);
    REQUIRE(e.chunksByInstr.size() == 1);
    CHECK(e.chunksByInstr.begin()->second == 224);
    const TmemScene before = tmemSceneAt(*doc, doc->trace().stepCount);
    TmemScene s = before;
    markExpectedTmem(*doc, e, s);
    CHECK(s.expectedMarked == 896);
    CHECK(s.expectedChunks == 224);
    size_t wrongFlag = 0, recoloured = 0;
    for (size_t i = 0; i < s.texels.size(); ++i) {
        const uint32_t lane = uint32_t(i / s.width()), col = uint32_t(i % s.width());
        const bool want = col < 8 && lane % 8 != 0;
        wrongFlag += bool(s.texels[i].a & kFlagDiffers) != want;
        const Rgba8 a = s.texels[i], b = before.texels[i];
        recoloured += a.r != b.r || a.g != b.g || a.b != b.b || (a.a & ~kFlagDiffers) != b.a;
    }
    CHECK(wrongFlag == 0);
    CHECK(recoloured == 0);
    const TmemWrongCell* c = expectedCellAt(*doc, e, s, 5, 1); // lane 1, column 5
    REQUIRE(c);
    CHECK(expectedCellText(*c).find("expected global (x=20, y=1), holds (x=84, y=0)") != std::string::npos);
    CHECK(!expectedCellAt(*doc, e, s, 0, 8));
    SECTION("before the cp has run nothing is marked") {
        TmemScene s0 = tmemSceneAt(*doc, 0);
        markExpectedTmem(*doc, e, s0);
        CHECK(s0.expectedMarked == 0);
    }
}

TEST_CASE("the fixed tcgen05.cp twin has no expected-vs-actual marks", "[tmem][operand]") {
    auto doc = Document::fromFile(std::string(LAYOUTSCOPE_TEST_ASSETS) +
                                  "/scenarios/broken/cp_desc_swizzle_64B_fixed.scn");
    REQUIRE(doc->hasTrace());
    CHECK(tmemExpectations(*doc).empty());
}

TEST_CASE("tcgen05.cp operands past the cap are counted as unchecked, not marked", "[tmem][operand]") {
    auto doc = Document::fromFile(std::string(LAYOUTSCOPE_TEST_ASSETS) +
                                  "/scenarios/broken/cp_desc_swizzle_64B.scn");
    REQUIRE(doc->hasTrace());
    CHECK(tmemExpectations(*doc).unchecked == 0); // its one cp is checked (224 chunks, above)
    const TmemExpectations e = tmemExpectations(*doc, 0);
    CHECK(e.unchecked == 1);
    CHECK(e.cells.empty());
    TmemScene s = tmemSceneAt(*doc, doc->trace().stepCount);
    markExpectedTmem(*doc, e, s);
    CHECK(s.expectedMarked == 0);
    CHECK(s.expectedUnchecked == 1); // what the legend reports
}
