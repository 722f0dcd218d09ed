// Qt Test: the global tensor's slice pickers. Change the dims across/down and a fixed coordinate,
// hover a cell, and read the N-D coordinate and the linked shared-memory bytes in the inspectors.
#include "global_pane.hpp"
#include "gui_test_util.hpp"
#include "main_window.hpp"

#include <catch2/catch.hpp>

#include <QComboBox>
#include <QSpinBox>
#include <QTest>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {

// Rank-3 fp16 tensor {32, 8, 3}, box [16, 4, 3] at {8, 2, 0}: dim 0 = 8..23, dim 1 = 2..5, dim 2 = 0..2
// (tma.md §3). Box rows are linearised with dim 1 fastest: row = (c1 - 2) + 4*c2; 32-B rows, no swizzle.
const char* kRank3 = R"(target sm_90a
tensormap T tiled FLOAT16 dims=[32,8,3] box=[16,4,3]
smem s 384 align=128
mbarrier bar
mbarrier.init.shared::cta.b64 [bar], 1;
mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 384;
cp.async.bulk.tensor.3d.shared::cta.global.tile.mbarrier::complete_tx::bytes [s], [T, {8, 2, 0}], [bar];
mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0;
)";

void hoverGlobal(MainWindow& w, const std::array<int32_t, 5>& c) {
    const auto cell = w.globalCellOf(c);
    REQUIRE(cell.has_value());
    REQUIRE(test::hover(w.globalView(), w.globalView()->cellCentre(cell->x, cell->y).toPoint()));
}

} // namespace

TEST_CASE("The global pane's pickers slice a rank-3 tensor and the inspector shows the N-D coordinate",
          "[views][gui][global]") {
    MainWindow w;
    w.resize(1500, 950);
    auto doc = Document::fromText(kRank3);
    REQUIRE(doc->hasTrace());
    w.setDocument(std::move(doc));
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    GlobalPane* pane = w.globalPane();
    REQUIRE(pane != nullptr);
    // Opens on dims 0 / 1 with a spin box for dim 2 at the box's first coordinate.
    CHECK(pane->acrossBox()->currentIndex() == 0);
    CHECK(pane->downBox()->currentIndex() == 1);
    REQUIRE(pane->fixedSpin(2) != nullptr);
    CHECK(pane->fixedSpin(2)->value() == 0);
    CHECK(pane->fixedSpin(2)->minimum() == 0);
    CHECK(pane->fixedSpin(2)->maximum() == 2);
    CHECK(pane->fixedSpin(2)->toolTip().contains("dim 2"));

    SECTION("dim 2 = 1 through the spin box: element (10, 4, 1)") {
        pane->fixedSpin(2)->setValue(1);
        QCoreApplication::processEvents();
        hoverGlobal(w, {10, 4, 1, 0, 0});
        const QString t = w.globalView()->inspectorText();
        INFO(t.toStdString());
        CHECK(t.contains("element (x=10, y=4, z=1)"));
        // row (4 - 2) + 4*1 = 6, byte (10 - 8)*2 = 4: s + 196
        const uint32_t s = w.document()->firstTile()->smemAddr;
        CHECK(t.contains(QString("smem 0x%1").arg(s + 196, 4, 16, QChar('0'))));
        // The hover link outlines the element's two bytes in the shared-memory view.
        REQUIRE(w.smemView()->marker().has_value());
        const auto cell = w.smemCellOf(s + 196);
        REQUIRE(cell.has_value());
        CHECK(w.smemView()->marker()->first == *cell);
        CHECK(w.smemView()->marker()->second == *cell + glm::uvec2(2, 1));
    }
    SECTION("down = dim 2, dim 1 = 5 through the pickers: element (9, 5, 2)") {
        emit pane->downBox()->activated(2);
        QCoreApplication::processEvents();
        CHECK(pane->downBox()->currentIndex() == 2);
        CHECK(pane->fixedSpin(2) == nullptr);
        REQUIRE(pane->fixedSpin(1) != nullptr);
        pane->fixedSpin(1)->setValue(5);
        QCoreApplication::processEvents();
        hoverGlobal(w, {9, 5, 2, 0, 0});
        const QString t = w.globalView()->inspectorText();
        INFO(t.toStdString());
        CHECK(t.contains("element (x=9, y=5, z=2)"));
        CHECK(t.contains("(dim 0, dim 1, dim 2)"));
        test::screenshot(w, "global_slice_dim0_dim2.png");
        // row (5 - 2) + 4*2 = 11, byte (9 - 8)*2 = 2: s + 354
        const uint32_t s = w.document()->firstTile()->smemAddr;
        CHECK(t.contains(QString("smem 0x%1").arg(s + 354, 4, 16, QChar('0'))));
        SECTION("picking dim 2 across swaps the axes") {
            emit pane->acrossBox()->activated(2);
            QCoreApplication::processEvents();
            CHECK(pane->acrossBox()->currentIndex() == 2);
            CHECK(pane->downBox()->currentIndex() == 0);
            hoverGlobal(w, {12, 5, 1, 0, 0});
            CHECK(w.globalView()->inspectorText().contains("element (x=12, y=5, z=1)"));
        }
    }
}
