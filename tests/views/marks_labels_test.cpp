// Mismatch marks and overlay labels (issue 24 items 6 and 7), against the rules as written in
// scene/mark_badge.hpp and scene/label_layout.hpp, worked by hand here: a kFlagDiffers cell below 6 px is
// tinted 80% towards kDiffColour, from 6 px tinted 40% inside an inner outline 2 px wide up to 11-px
// cells, one px more per 8 px of cell, at most 6; overlapping labels: the first placed is kept.
#include "scene/cell_style.hpp"
#include "scene/label_layout.hpp"
#include "scene/mark_badge.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope::views;

TEST_CASE("Mismatch outline width grows with the cell size", "[views][marks]") {
    // cell px -> outline px, from "2 px up to 11-px cells, then one more per 8 px, at most 6".
    const std::pair<float, float> table[] = {{6, 2},  {11, 2}, {12, 3}, {19, 3}, {20, 4},
                                             {27, 4}, {28, 5}, {35, 5}, {36, 6}, {200, 6}};
    for (const auto& [cell, px] : table) {
        INFO("cell " << cell);
        CHECK(diffOutlinePx(cell) == px);
    }
}

TEST_CASE("A mismatched cell is shaded to be seen at any zoom", "[views][marks]") {
    const Rgba8 black{0, 0, 0, kFlagWritten | kFlagDiffers};
    SECTION("3-px cells: 80% towards (255, 64, 160) = (204, 51, 128)") {
        const Rgba8 c = shadeCell(black, {0.5f, 0.5f}, {1, 1}, ShadeParams{3.0f, 0, 0});
        CHECK(int(c.r) == 204);
        CHECK(int(c.g) == 51);
        CHECK(int(c.b) == 128);
    }
    SECTION("8-px cells: a 2-px outline, then the 40% tint (102, 26, 64)") {
        const ShadeParams p{8.0f, 0, 0};
        const Rgba8 edge = shadeCell(black, {1.5f / 8.0f, 0.5f}, {1, 4}, p);
        CHECK((edge.r == 255 && edge.g == 64 && edge.b == 160));
        const Rgba8 inside = shadeCell(black, {2.5f / 8.0f, 0.5f}, {2, 4}, p);
        CHECK((inside.r == 102 && inside.g == 26 && inside.b == 64));
    }
    SECTION("24-px cells: a 4-px outline") {
        const ShadeParams p{24.0f, 0, 0};
        const Rgba8 edge = shadeCell(black, {0.5f, 1.0f - 3.5f / 24.0f}, {12, 20}, p);
        CHECK((edge.r == 255 && edge.g == 64 && edge.b == 160));
        const Rgba8 inside = shadeCell(black, {0.5f, 1.0f - 4.5f / 24.0f}, {12, 19}, p);
        CHECK((inside.r == 102 && inside.g == 26 && inside.b == 64));
    }
    SECTION("a stretched cell (Fill fit) 14 x 3 px: the smaller side decides, 80% tint") {
        ShadeParams p{14.0f, 0, 0};
        p.zoomY = 3.0f;
        const Rgba8 c = shadeCell(black, {0.05f, 0.5f}, {1, 1}, p);
        CHECK(int(c.r) == 204);
    }
}

TEST_CASE("The mismatch badge grows with the cells and stays in the header", "[views][marks]") {
    for (const auto& [cell, h] : {std::pair{2.0f, 18.0f}, {18.0f, 18.0f}, {24.0f, 24.0f}, {60.0f, 28.0f}}) {
        const MarkBadge b = markBadge("896 differ", cell, 600.0f);
        INFO("cell " << cell);
        CHECK(b.hi.y - b.lo.y == h);
        CHECK(b.hi.x == 592.0f);
        CHECK(b.lo.y == 2.0f);
        CHECK(b.text == "896 differ");
        CHECK(b.lo.x <= b.textPos.x);
        // The text grows with the box: 14-px font at 18 px high, scaled by height / 18 (28 px: x1.56), and
        // stays inside it.
        CHECK(b.fontScale == Approx(h / 18.0f));
        CHECK(b.textPos.x + approxTextWidth(b.text) * b.fontScale <= b.hi.x);
        CHECK(b.textPos.y >= b.lo.y);
        CHECK(b.textPos.y + 16.0f * b.fontScale <= b.hi.y + 0.01f);
    }
    // A narrow pane: at most half its width, the text shortened.
    const MarkBadge n = markBadge("12345 cells differ", 10.0f, 200.0f);
    CHECK(n.hi.x - n.lo.x <= 100.0f);
}

TEST_CASE("Overlapping labels: the first placed is kept, later ones that meet it are dropped",
          "[views][labels]") {
    OverlayList o;
    o.text({0, 0}, "rows 0-31");            // 9 chars: 75.6 px wide, 16 high
    o.text({40, 8}, "rows 32-63");          // meets the first: dropped
    o.text({0, 16}, "rows 64-95");          // just below the first (touching): kept
    o.text({75.6f, 0}, "x");                // just right of the first: kept
    o.text({200, 200}, "");                 // empty: dropped
    o.text({10, 20}, "over the third");     // meets the third: dropped
    CHECK(overlappingTexts(o).size() == 5); // (1st,2nd) (2nd,3rd) (2nd,x) (2nd,last) (3rd,last)
    CHECK(dropOverlappingTexts(o) == 3);
    REQUIRE(o.texts.size() == 3);
    CHECK(o.texts[0].text == "rows 0-31");
    CHECK(o.texts[1].text == "rows 64-95");
    CHECK(o.texts[2].text == "x");
    CHECK(overlappingTexts(o).empty());
    SECTION("texts before `from` are all kept") {
        OverlayList p;
        p.text({0, 0}, "aaaa");
        p.text({1, 1}, "bbbb");
        p.text({2, 2}, "cccc");
        CHECK(dropOverlappingTexts(p, 2) == 1);
        CHECK(p.texts.size() == 2);
    }
}
