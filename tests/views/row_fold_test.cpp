// RowFold (scene/row_fold.hpp): a tall grid's rows laid out in bands side by side (issue 24 item 7).
// Expected cells and sizes are worked out by hand from the layout rule: row y of a fold into bands of R
// rows, G gap columns, C columns, is drawn at (x + (y / R) * (C + G), y % R).
#include "scene/row_fold.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope::views;

TEST_CASE("A row fold maps grid cells to drawn cells and back", "[views][fold]") {
    // 193 rows of 128 B (tcgen05_mma_i8_128x64's window) in 4 bands of 49 rows, 8 gap columns.
    const RowFold f{128, 193, 4, 49, 8};
    REQUIRE(f.folded());
    SECTION("drawn size: 4 x 128 + 3 x 8 columns by 49 rows") {
        CHECK(f.drawnSize() == glm::uvec2(536, 49));
    }
    SECTION("grid -> drawn") {
        CHECK(f.toDrawn({0, 0}) == glm::uvec2(0, 0));
        CHECK(f.toDrawn({127, 48}) == glm::uvec2(127, 48));
        CHECK(f.toDrawn({0, 49}) == glm::uvec2(136, 0));     // band 1 starts after 128 + 8 columns
        CHECK(f.toDrawn({5, 100}) == glm::uvec2(277, 2));    // band 2 (rows 98..146): 2 x 136 + 5, row 2
        CHECK(f.toDrawn({127, 192}) == glm::uvec2(535, 45)); // last row: band 3, row 192 - 147
    }
    SECTION("drawn -> grid, nothing in the gaps or past the last row") {
        CHECK(f.toGrid({277, 2}) == glm::uvec2(5, 100));
        CHECK(f.toGrid({136, 0}) == glm::uvec2(0, 49));
        CHECK_FALSE(f.toGrid({128, 0}).has_value()); // gap between band 0 and band 1
        CHECK_FALSE(f.toGrid({135, 10}).has_value());
        CHECK_FALSE(f.toGrid({408, 46}).has_value()); // band 3 holds rows 147..192: 46 rows
        CHECK(f.toGrid({408, 45}) == glm::uvec2(0, 192));
        CHECK_FALSE(f.toGrid({536, 0}).has_value());
    }
    SECTION("a range of rows crossing a band edge is two rectangles") {
        const auto r = f.drawnRects({0, 40}, {128, 56}); // rows 40..55: 40..48 in band 0, 49..55 in band 1
        REQUIRE(r.size() == 2);
        CHECK(r[0].first == glm::vec2(0, 40));
        CHECK(r[0].second == glm::vec2(128, 49));
        CHECK(r[1].first == glm::vec2(136, 0));
        CHECK(r[1].second == glm::vec2(264, 7));
    }
    SECTION("texels: each row where it is drawn, gaps and the missing rows empty") {
        std::vector<Rgba8> t(size_t(128) * 193);
        for (uint32_t y = 0; y < 193; ++y)
            for (uint32_t x = 0; x < 128; ++x) t[size_t(y) * 128 + x] = Rgba8{uint8_t(x), uint8_t(y), 1, 255};
        const Rgba8 empty{0, 0, 0, 0};
        const std::vector<Rgba8> d = f.foldTexels(t, empty);
        REQUIRE(d.size() == size_t(536) * 49);
        auto at = [&](uint32_t x, uint32_t y) { return d[size_t(y) * 536 + x]; };
        CHECK(at(277, 2) == Rgba8{5, 100, 1, 255});
        CHECK(at(130, 3) == empty);  // gap
        CHECK(at(410, 46) == empty); // past row 192
        CHECK(at(535, 45) == Rgba8{127, 192, 1, 255});
    }
}

TEST_CASE("One band is the identity", "[views][fold]") {
    const RowFold f{128, 16, 1, 16, 0};
    CHECK_FALSE(f.folded());
    CHECK(f.drawnSize() == glm::uvec2(128, 16));
    CHECK(f.toDrawn({3, 9}) == glm::uvec2(3, 9));
    CHECK(f.toGrid({3, 9}) == glm::uvec2(3, 9));
    CHECK(f.drawnRects({0, 2}, {128, 9}).size() == 1);
    const RowFold none{}; // what the overlays get by default
    CHECK(none.toDrawn({7, 300}) == glm::uvec2(7, 300));
}

TEST_CASE("The fold chosen gives the largest square cells, or none", "[views][fold]") {
    SECTION("193 rows in a 470 x 54 px area, 66 px gaps") {
        // Square zoom of k bands = min((470 - 66 (k - 1)) / (128 k), 54 / ceil(193 / k)):
        // k=1 0.280, k=2 min(1.578, 0.557) = 0.557, k=3 min(0.880, 0.831) = 0.831, k=4 min(0.531, 1.102) =
        // 0.531.
        const RowFold f = chooseRowFold(128, 193, {470, 54}, 66);
        CHECK(f.bands == 3);
        CHECK(f.rowsPerBand == 65);
        // 66 px at 0.831 px a column = 79.4 -> 80 columns (a multiple of 16: banks and 16-B chunks line up).
        CHECK(f.gap == 80);
    }
    SECTION("a short window in a tall pane is not folded") {
        const RowFold f = chooseRowFold(128, 16, {600, 400}, 66);
        CHECK_FALSE(f.folded());
        CHECK(f.drawnSize() == glm::uvec2(128, 16));
    }
    SECTION("a fold that gains less than 1.25x is not taken") {
        // 128 rows in 700 x 600: k=1 min(5.47, 4.69) = 4.69; k=2 min((700-66)/256 = 2.48, 9.4) = 2.48.
        CHECK_FALSE(chooseRowFold(128, 128, {700, 600}, 66).folded());
    }
    SECTION("a wider area takes more bands: 193 rows in 1400 x 54 px") {
        // k=5 min((1400 - 264) / 640 = 1.775, 54 / 39 = 1.385); k=6 min((1400 - 330) / 768 = 1.393,
        // 54 / 33 = 1.636) = 1.393; k=7 min(1004 / 896 = 1.121, 54 / 28) = 1.121.
        const RowFold f = chooseRowFold(128, 193, {1400, 54}, 66);
        CHECK(f.bands == 6);
        CHECK(f.rowsPerBand == 33);
        CHECK(f.gap == 48); // 66 / 1.393 = 47.4 -> 48 = 3 x 16
        CHECK(f.drawnSize() == glm::uvec2(6 * 128 + 5 * 48, 33));
    }
}
