// The operand view's scene (scene/operand_scene.hpp) on a hand-built 2 x 2 grid: each cell in the colour of
// the element it reads (the SMEM view's colourForCoord over the producer's box), mismatches flagged, the
// legend's counts, and text that fits a narrow dock.
#include "scene/operand_scene.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {

OperandGrid grid() {
    OperandGrid g;
    g.what = "wgmma.mma_async operand A";
    g.indexName = "m";
    g.rows = g.cols = 2;
    g.checked = true;
    g.tensor = "A";
    g.elemBytes = 2;
    using C = std::array<int64_t, 2>;
    // (m, k): (0,0) reads its element; (0,1) reads (x=3, y=2); (1,0) reads its element; (1,1) reads nothing
    // known.
    g.cells = {{0, 0, 0, 0x400, 2, C{0, 0}, C{0, 0}, false},
               {0, 1, 1, 0x402, 2, C{1, 0}, C{3, 2}, true},
               {1, 0, 0, 0x480, 2, C{0, 1}, C{0, 1}, false},
               {1, 1, 1, 0x482, 2, C{1, 1}, std::nullopt, true}};
    g.mismatched = 2;
    return g;
}

} // namespace

TEST_CASE("Operand scene: cells coloured by the element read, mismatches flagged", "[views][operand]") {
    const OperandGrid g = grid();
    BoxFrame f;
    f.lo = {0, 0};
    f.hi = {4, 4};
    const OperandScene s = operandSceneOf(g, &f);
    REQUIRE(s.w == 2);
    REQUIRE(s.h == 2);
    CHECK(s.total == 4);
    CHECK(s.mismatched == 2);
    CHECK(s.unwritten == 1);
    const auto rgb = [](Rgba8 c) { return Rgba8{c.r, c.g, c.b, 255}; };
    CHECK(rgb(s.texels[0]) == colourForCoord(0, 0, 4, 4));
    CHECK(rgb(s.texels[1]) == colourForCoord(2, 3, 4, 4)); // element (3, 2): box row 2, column 3
    CHECK(rgb(s.texels[2]) == colourForCoord(1, 0, 4, 4));
    CHECK(rgb(s.texels[3]) == rgb(kUntouched));
    CHECK(!(s.texels[0].a & kFlagDiffers));
    CHECK(s.texels[1].a & kFlagDiffers);
    CHECK(!(s.texels[2].a & kFlagDiffers));
    CHECK(s.texels[3].a & kFlagDiffers);

    SECTION("the legend counts them and every line fits the 400-px dock of a 1280x800 window") {
        Camera2D cam;
        const glm::vec2 vp{400, 480};
        const OverlayList o = buildOperandOverlay(cam, vp, g, s, &f, "line 18: wgmma.mma_async operand A");
        bool ok = false, bad = false;
        for (const auto& t : o.texts) {
            ok |= t.text == "reads its element: 2";
            bad |= t.text == "reads another: 2 of 4 (1 unwritten)";
            CHECK(t.pos.x + approxTextWidth(t.text) <= vp.x);
        }
        CHECK(ok);
        CHECK(bad);
    }
    SECTION("the inspector and the list name expected and actual elements") {
        CHECK(inspectOperandCell(g, 1, 0).find("MISMATCH") != std::string::npos);
        CHECK(inspectOperandCell(g, 0, 0).find("matches") != std::string::npos);
        CHECK(operandCellText(g, g.cells[1]) ==
              "A[m=0][k=1]: expected (x=1, y=0), reads (x=3, y=2) at 0x0402");
        CHECK(operandCellText(g, g.cells[3]) ==
              "A[m=1][k=1]: expected (x=1, y=1), reads bytes no TMA load wrote at 0x0482");
    }
}
