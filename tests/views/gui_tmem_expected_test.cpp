// The Tensor Memory view's expected-vs-actual overlay (issue 12 item 5) on the bundled broken tcgen05.cp
// example and its fixed twin: the cells the cp filled from chunks that hold another element than the tile
// are marked, the legend counts them as the consumer check's diagnostic does, and a marked cell's hover
// says what it should hold and what it holds. LAYOUTSCOPE_SCREENSHOT_DIR=dir writes tmem_expected.png.
//
// Truth (hand-derived, as in tests/engine/operand_grid_test.cpp): cp_desc_swizzle_64B.scn reads a
// 128 x 128 B SWIZZLE_128B box through a SWIZZLE_64B descriptor; source row m (q = m % 8, g = m / 8),
// chunk c (bytes 16c..16c+15) holds box row 8g + q/2, bytes (q % 2)*64 + 16c.. : the expected row m only
// when q = 0, so 128*2 - 16*2 = 224 chunks mismatch. tcgen05.cp .128x256b puts source row m in lane m and
// byte b of it in column b / 4 (taddr 0): each chunk is 4 cells, 896 cells marked. Lane 1, column 5 is
// byte 4 of chunk 1 of row 1: expected global (x=20, y=1), holds (x=64 + 16 + 4, y=0) = (84,0).
#include "gui_test_util.hpp"
#include "main_window.hpp"
#include "scene/tmem_overlay.hpp"
#include "tmem_views.hpp"

#include "gui_broken_util.hpp"

#include <catch2/catch.hpp>

#include <QDockWidget>
#include <QTest>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {

void openAtEnd(MainWindow& w, const QString& file) {
    test::openBrokenExample(w, file);
    w.playback()->seek(w.playback()->stepCount());
    QCoreApplication::processEvents();
    REQUIRE(w.tmemViews()->tmemDock()->isVisible());
}

bool marked(const TmemViews* v, uint32_t lane, uint32_t column) {
    const auto g = v->tmemCellOf(0, lane, column);
    REQUIRE(g);
    const TmemScene& s = v->tmemScene();
    return s.texels.at(size_t(g->y) * s.width() + g->x).a & kFlagDiffers;
}

bool legendHas(const CellCanvas* c, const std::string& text) {
    const glm::vec2 vp(float(c->width()), float(c->height()));
    for (const OverlayList::Text& t : c->frameOverlay(vp).texts)
        if (t.text.find(text) != std::string::npos) return true;
    return false;
}

} // namespace

TEST_CASE("TMEM view: cells a tcgen05.cp filled from mismatched chunks are marked, counted as the check "
          "counts",
          "[views][gui][tmem][operand]") {
    MainWindow w;
    openAtEnd(w, "cp_desc_swizzle_64B.scn");
    TmemViews* v = w.tmemViews();
    const auto n = test::diagnosed(*w.document(), "tcgen05.cp");
    REQUIRE(n);
    CHECK(*n == 224);
    const TmemScene& s = v->tmemScene();
    CHECK(s.expectedChunks == *n);
    CHECK(s.expectedMarked == 4 * 224);
    CHECK(s.observedMarked == 0);
    // Rows with m % 8 == 0 agree (lanes 0, 8, 16, ...), every other row's 8 cells are marked.
    for (uint32_t lane : {0u, 8u, 120u})
        for (uint32_t col = 0; col < 8; ++col) CHECK(!marked(v, lane, col));
    for (uint32_t lane : {1u, 7u, 9u, 127u})
        for (uint32_t col = 0; col < 8; ++col) CHECK(marked(v, lane, col));
    CHECK(!marked(v, 1, 8)); // past the 32 bytes the cp writes per lane
    CHECK(legendHas(v->tmemView(), "(224"));
    CHECK(test::cutLegendLines(v->tmemView()).empty());

    SECTION("hovering a marked cell says what it should hold and what it holds") {
        const auto cell = v->tmemCellOf(0, 1, 5);
        REQUIRE(cell);
        test::zoomAround(v->tmemView(), *cell, 14.0f);
        REQUIRE(test::hover(v->tmemView(), v->tmemView()->cellCentre(cell->x, cell->y).toPoint()));
        const QString t = v->tmemView()->inspectorText();
        INFO(t.toStdString());
        CHECK(t.contains("lane 1, column 5"));
        CHECK(t.contains(
            "holds another element than the tile: expected global (x=20, y=1), holds (x=84, y=0)"));
        CHECK(t.contains("source row 1, chunk 1 (byte 4 of it"));
    }
    SECTION("an agreeing cell's hover has no such line") {
        const auto cell = v->tmemCellOf(0, 8, 0);
        REQUIRE(cell);
        test::zoomAround(v->tmemView(), *cell, 14.0f);
        REQUIRE(test::hover(v->tmemView(), v->tmemView()->cellCentre(cell->x, cell->y).toPoint()));
        const QString t = v->tmemView()->inspectorText();
        CHECK(t.contains("lane 8, column 0"));
        CHECK(!t.contains("holds another element"));
    }
}

TEST_CASE("TMEM view: the fixed tcgen05.cp twin marks no cell", "[views][gui][tmem][operand]") {
    MainWindow w;
    openAtEnd(w, "cp_desc_swizzle_64B_fixed.scn");
    TmemViews* v = w.tmemViews();
    CHECK(!test::diagnosed(*w.document(), "tcgen05.cp"));
    const TmemScene& s = v->tmemScene();
    CHECK(s.expectedChunks == 0);
    CHECK(s.expectedMarked == 0);
    for (uint32_t lane = 0; lane < 128; ++lane)
        for (uint32_t col = 0; col < 8; ++col) CHECK(!marked(v, lane, col));
    CHECK(!legendHas(v->tmemView(), "holds another element"));
}

TEST_CASE("TMEM view with the expected-vs-actual overlay at 1280x800: legend not cut", "[views][gui][tmem]") {
    MainWindow w;
    openAtEnd(w, "cp_desc_swizzle_64B.scn");
    TmemViews* v = w.tmemViews();
    v->tmemDock()->raise();
    QTest::mouseMove(&w, QPoint(640, 20)); // the pointer off the grids: no inspector over the shot
    QTest::qWait(100);
    CHECK(test::cutLegendLines(v->tmemView()).empty());
    test::screenshot(w, "tmem_expected.png");
    // Zoomed in, hovering a marked cell: tint and outline over the producer colour, and its hover text.
    const auto cell = v->tmemCellOf(0, 1, 5);
    REQUIRE(cell);
    test::zoomAround(v->tmemView(), *cell, 24.0f);
    QEvent leave(QEvent::Leave); // the wheel left a hover at the cell: no inspector over this shot
    QCoreApplication::sendEvent(v->tmemView(), &leave);
    QTest::qWait(100);
    CHECK(test::cutLegendLines(v->tmemView()).empty());
    test::screenshot(w, "tmem_expected_zoom.png");
    REQUIRE(test::hover(v->tmemView(), v->tmemView()->cellCentre(cell->x, cell->y).toPoint()));
    test::screenshot(w, "tmem_expected_hover.png");
}
