// Qt Test: clicking data selects it in every view (linked selection with its path), and the bank
// heat map / swizzle atoms of the shared-memory view. Independent truths: the SWIZZLE_128B formula
// (tma.md §4.2: physical chunk = logical chunk ^ (row % 8) for a 1024-B-aligned box of 128-B rows),
// the row-major global tensor of the scenario (element (c0, c1) at c1*8192 + c0*2), and the
// tcgen05 32x32b map (tcgen05.md §4.1: register j of thread t <-> lane t, column j).
#include "gui_test_util.hpp"
#include "main_window.hpp"
#include "path_overlay.hpp"

#include <catch2/catch.hpp>

#include <QApplication>
#include <QTest>

using namespace layoutscope;
using namespace layoutscope::views;

TEST_CASE("Clicking a shared-memory byte selects its element in shared and global memory, with the path",
          "[views][gui][links]") {
    MainWindow w;
    w.resize(1700, 1000);
    w.openFile(LAYOUTSCOPE_ASSETS_DIR "/scenarios/tma_tile_64x64_f16_sw128.scn");
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    const InstrTile* tile = w.document()->firstTile();
    REQUIRE(tile);
    // Element (row 3, col 10): logical chunk 1 of row 3 -> physical chunk 1 ^ 3 = 2, byte 4 in it.
    const uint32_t addr = tile->smemAddr + 3 * 128 + 2 * 16 + 4;
    const auto cell = w.smemCellOf(addr);
    REQUIRE(cell);
    test::clickCell(w.smemView(),
                    *cell + glm::uvec2(1, 0)); // the element's second byte selects the element too
    const auto& s = w.smemView()->selection();
    REQUIRE(s.size() == 1);
    CHECK(s[0].first == *cell);
    CHECK(s[0].second == *cell + glm::uvec2(2, 1));
    const auto g = w.globalCellOf(10, 3);
    REQUIRE(g);
    CHECK(test::rangesContain(w.globalView()->selection(), *g));
    CHECK(w.globalView()->selection().size() == 1);
    REQUIRE(w.pathOverlay()->segments().size() == 1);
    CHECK(w.pathOverlay()->segments()[0].state == PathPiece::State::Done);
    test::screenshot(w, "links_smem_selected.png");
    SECTION("before the copy, the path is ahead and shared memory shows nothing yet") {
        w.playback()->seek(0);
        QCoreApplication::processEvents();
        CHECK(w.smemView()->selection().empty());
        CHECK(w.globalView()->selection().size() == 1);
        REQUIRE(w.pathOverlay()->segments().size() == 1);
        CHECK(w.pathOverlay()->segments()[0].state == PathPiece::State::Ahead);
    }
    SECTION("clicking outside the grid clears the selection") {
        QTest::mouseClick(w.smemView(), Qt::LeftButton, Qt::NoModifier, QPoint(3, 3));
        QCoreApplication::processEvents();
        CHECK(w.smemView()->selection().empty());
        CHECK(w.globalView()->selection().empty());
        CHECK(w.pathOverlay()->isHidden());
    }
}

TEST_CASE("Bank heat of a warp reading a column starts at the clicked element", "[views][gui][links]") {
    MainWindow w;
    w.resize(1700, 1000);
    w.openFile(LAYOUTSCOPE_ASSETS_DIR "/scenarios/tma_tile_64x64_f16_sw128.scn");
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    CHECK(w.swizzleAtomsShown().size() == 8); // 8192 B of SWIZZLE_128B = 8 atoms of 1024 B
    w.setBankHeat(AccessPattern::ColumnRead);
    REQUIRE(w.bankHeatShown());
    CHECK(w.bankHeatShown()->row0 == 0);
    CHECK(w.bankHeatShown()->heat.report.wavefronts == 4); // banks 4*(t%8), 4 words each
    // Element (5, 16): byte 32 of row 5 = chunk 2 -> physical chunk 2 ^ 5 = 7.
    const uint32_t addr = w.document()->firstTile()->smemAddr + 5 * 128 + 7 * 16;
    const auto cell = w.smemCellOf(addr);
    REQUIRE(cell);
    test::clickCell(w.smemView(), *cell);
    REQUIRE(w.bankHeatShown());
    CHECK(w.bankHeatShown()->row0 == 5);
    CHECK(w.bankHeatShown()->col == 16);
    // Rows 5..36, column 16: physical chunk 2 ^ (r % 8) -> 8 distinct banks, 4 rows each: 4 wavefronts.
    CHECK(w.bankHeatShown()->heat.report.wavefronts == 4);
    test::screenshot(w, "links_bank_heat.png");
    w.setShowSwizzleAtoms(false);
    CHECK(w.swizzleAtomsShown().empty());
    w.setBankHeat(std::nullopt);
    CHECK_FALSE(w.bankHeatShown());
}

TEST_CASE("Clicking a Tensor Memory cell selects the register stored there and the one loaded from it",
          "[views][gui][links]") {
    MainWindow w;
    w.resize(1700, 1100);
    w.openFile(LAYOUTSCOPE_ASSETS_DIR "/scenarios/tcgen05_st_32x32b.scn");
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    // st .x4 {r0..r3} puts r1 of thread 5 at lane 5, column 1; ld .x4 {r4..r7} reads it into r5.
    const auto cell = w.tmemViews()->tmemCellOf(0, 5, 1);
    REQUIRE(cell);
    test::clickCell(w.tmemViews()->tmemView(), *cell);
    CHECK(w.tmemViews()->tmemView()->selection().size() == 1);
    const LinkedData& d = w.linkedData();
    CHECK(d.locs.size() == 3);
    CHECK(w.pathOverlay()->segments().size() >= 1); // TMEM -> registers (the view shows the ld)
    test::screenshot(w, "links_tmem_selected.png");
}
