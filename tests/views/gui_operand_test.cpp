// The Operand dock (issue 12 item 5) on the bundled broken example and its fixed twin: the dock's mismatch
// count is the consumer check's (the number its diagnostic states), 0 for the fixed twin; the mismatch
// list selects its cell; hovering / clicking a cell outlines the shared-memory bytes it reads.
// LAYOUTSCOPE_SCREENSHOT_DIR=dir writes operand.png (docs/operand.png).
#include "gui_test_util.hpp"
#include "main_window.hpp"
#include "operand_view.hpp"

#include "gui_broken_util.hpp"

#include <catch2/catch.hpp>

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QListWidget>
#include <QTest>
#include <tuple>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {

void open(MainWindow& w, const QString& file) {
    test::openBrokenExample(w, file);
}

} // namespace

TEST_CASE("Operand dock: the mismatch count is the consumer diagnostic's", "[views][gui][operand]") {
    MainWindow w;
    open(w, "wgmma_desc_swizzle_64B.scn");
    OperandView* v = w.operandView();
    REQUIRE(v);
    CHECK(v->dock()->toggleViewAction()->isChecked());
    REQUIRE(v->operands().size() == 2); // wgmma A and B
    REQUIRE(v->grid());
    CHECK(v->grid()->what == "wgmma.mma_async operand A"); // the first operand with mismatches
    const auto n = test::diagnosed(*w.document(), "wgmma.mma_async operand A");
    REQUIRE(n);
    CHECK(*n == 896); // every row but m % 8 == 0 (tests/engine/operand_grid_test.cpp derives it)
    CHECK(v->mismatchCount() == *n);
    CHECK(size_t(v->mismatchList()->count()) == *n);
    CHECK(v->diagnosticLabel()->text().contains("Fix: set the descriptor's layout type to 128B"));
    // The canvas shows the 64 x 16 grid, mismatched cells flagged.
    CHECK(v->canvas()->cellCount() == glm::uvec2(16, 64));

    SECTION("operand B agrees with its tile: 0 mismatches") {
        v->showOperand(1);
        CHECK(v->grid()->what == "wgmma.mma_async operand B");
        CHECK(v->mismatchCount() == 0);
        CHECK(v->mismatchList()->count() == 0);
        CHECK(!test::diagnosed(*w.document(), "wgmma.mma_async operand B"));
    }
    SECTION("a mismatch picked in the list selects its cell and the bytes it reads") {
        v->dock()->raise();
        v->mismatchList()->setCurrentRow(0);
        QCoreApplication::processEvents();
        REQUIRE(v->mismatchList()->item(0)->text().startsWith(
            "A[m=1][k=0]: expected (x=0, y=1), reads (x=32, y=0)"));
        REQUIRE(v->canvas()->selection().size() == 1);
        CHECK(v->canvas()->selection()[0].first == glm::uvec2(0, 1)); // k = 0, m = 1
        // Linked: the shared-memory view outlines the 2 bytes the element reads (0x0440 ^ 0x00 = 0x440).
        const OperandCell& c = v->grid()->cells[16];
        CHECK(c.addr == 1024 + 64);
        const auto cell = w.smemCellOf(c.addr);
        REQUIRE(cell);
        bool outlined = false;
        for (const auto& r : w.smemView()->selection())
            outlined |=
                r.first.x <= cell->x && cell->x < r.second.x && r.first.y <= cell->y && cell->y < r.second.y;
        CHECK(outlined);
    }
    SECTION("hovering a cell outlines its bytes and the global element it reads") {
        w.markOperandCell(0, 1);
        const auto& m = w.smemView()->marker();
        REQUIRE(m);
        CHECK(m->first == *w.smemCellOf(1024 + 64));
        CHECK(m->second - m->first == glm::uvec2(2, 1));
        const auto& g = w.globalView()->marker();
        REQUIRE(g); // the global view now shows tensor A's load: element (32, 0)
        CHECK(g->first == *w.globalCellOf(32, 0));
        // The pointer off every canvas (no inspector over the views), then the picture for docs/operand.png.
        QTest::mouseMove(v->mismatchList(), QPoint(20, 20));
        QTest::qWait(100);
        w.markOperandCell(0, 1);
        test::screenshot(w, "operand.png");
        w.markOperandCell(-1, -1);
        CHECK(!w.smemView()->marker());
    }
}

TEST_CASE("Operand dock: the fixed twin reads every element it should", "[views][gui][operand]") {
    MainWindow w;
    open(w, "wgmma_desc_swizzle_64B_fixed.scn");
    OperandView* v = w.operandView();
    CHECK(v->dock()->toggleViewAction()->isChecked());
    REQUIRE(v->operands().size() == 2);
    for (int i = 0; i < 2; ++i) {
        v->showOperand(i);
        REQUIRE(v->grid());
        CHECK(v->grid()->checked);
        CHECK(v->mismatchCount() == 0);
        CHECK(v->mismatchList()->count() == 0);
        CHECK(!test::diagnosed(*w.document(), v->grid()->what));
    }
}

TEST_CASE("Operand dock: hidden for a scenario without a consumer", "[views][gui][operand]") {
    MainWindow w;
    w.resize(1280, 800);
    w.openFile(LAYOUTSCOPE_ASSETS_DIR "/scenarios/tma_tile_64x64_f16_sw128.scn");
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    CHECK(!w.operandView()->hasConsumer());
    CHECK(!w.operandView()->dock()->toggleViewAction()->isChecked());
}

TEST_CASE("Operand dock: tcgen05.cp and tcgen05.mma (one CTA, a pair) examples count what their diagnostics "
          "count",
          "[views][gui][operand]") {
    const auto [file, what, shot] = GENERATE(
        std::make_tuple("cp_desc_swizzle_64B.scn", "tcgen05.cp", "operand_cp.png"),
        std::make_tuple("tcgen05_mma_desc_swizzle_32B.scn", "tcgen05.mma operand A", "operand_umma.png"),
        std::make_tuple("tcgen05_mma_pair_desc_swizzle_64B.scn", "tcgen05.mma operand A (CTA 0 of the pair",
                        "operand_umma_pair.png"));
    MainWindow w;
    open(w, file);
    OperandView* v = w.operandView();
    REQUIRE(v->grid());
    CHECK(v->grid()->what.rfind(what, 0) == 0);
    const auto n = test::diagnosed(*w.document(), v->grid()->what);
    REQUIRE(n);
    CHECK(*n > 0);
    CHECK(v->mismatchCount() == *n);
    CHECK(size_t(v->mismatchList()->count()) == *n);
    QTest::mouseMove(v->mismatchList(), QPoint(20, 20));
    test::screenshot(w, shot);
}

TEST_CASE("Operand dock: a pair MMA shows each CTA's half of A with the operand's rows",
          "[views][gui][operand][pair]") {
    MainWindow w;
    open(w, "tcgen05_mma_pair_desc_swizzle_64B.scn");
    OperandView* v = w.operandView();
    REQUIRE(v->operands().size() == 4); // A and B, each as CTA 0's half and CTA 1's
    v->showOperand(1);
    REQUIRE(v->grid());
    const std::string what = "tcgen05.mma operand A (CTA 1 of the pair: m 128-255)";
    CHECK(v->grid()->what == what);
    CHECK(v->grid()->cta == 1);
    // By hand (the example's header): rows with m % 8 != 0 read other rows, 112 x 32 of 128 x 32.
    const auto n = test::diagnosed(*w.document(), what);
    REQUIRE(n);
    CHECK(*n == 3584);
    CHECK(v->mismatchCount() == *n);
    REQUIRE(v->mismatchList()->count() > 0);
    CHECK(v->mismatchList()->item(0)->text().startsWith(
        "A[m=129][k=0]: expected (x=0, y=129), reads (x=64, y=128)"));
    test::screenshot(w, "operand_umma_pair_cta1.png");
}

TEST_CASE("Operand dock: selecting a cell of CTA 1's half moves the shared-memory view to CTA 1",
          "[views][gui][operand][pair]") {
    MainWindow w;
    open(w, "tcgen05_mma_pair_desc_swizzle_64B.scn");
    OperandView* v = w.operandView();
    REQUIRE(v->operands().size() == 4);
    v->showOperand(1); // A, CTA 1's half
    REQUIRE(v->grid());
    REQUIRE(v->grid()->cta == 1);
    REQUIRE(w.smemCta() == 0);
    v->selectCell(0, 0); // A[m=128][k=0]: its bytes are in CTA 1's shared memory
    CHECK(w.smemCta() == 1);
    CHECK_FALSE(w.smemView()->selection().empty()); // the bytes it reads, outlined in CTA 1's view
    v->showOperand(0);                              // back to CTA 0's half
    v->selectCell(0, 0);
    CHECK(w.smemCta() == 0);
    CHECK_FALSE(w.smemView()->selection().empty());
}
