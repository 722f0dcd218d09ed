// Qt Test interaction: hover a known shared-memory cell and read the inspector; keyboard playback;
// malformed scenarios open with their diagnostics.
#include "fake_trace.hpp"
#include "gui_test_util.hpp"
#include "main_window.hpp"

#include <catch2/catch.hpp>

#include <QApplication>
#include <QTest>
#include <QWheelEvent>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {
void hoverSmem(MainWindow& w, uint32_t addr) {
    const auto cell = w.smemCellOf(addr);
    REQUIRE(cell.has_value());
    const QPoint p = w.smemView()->cellCentre(cell->x, cell->y).toPoint();
    REQUIRE(test::hover(w.smemView(), p));
}
} // namespace

TEST_CASE("Hovering a shared-memory cell shows its inspector", "[views][gui][inspector]") {
    MainWindow w;
    w.resize(1400, 900);
    w.setDocument(test::makeFakeSw128Document());
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    SECTION("an in-bounds byte: 0x4b2 holds element (17, 49) through SWIZZLE_128B") {
        hoverSmem(w, 0x4b2);
        test::screenshot(w, "window_hover_0x4b2.png");
        const QString t = w.smemView()->inspectorText();
        INFO(t.toStdString());
        CHECK(t.contains("0x04b2"));
        CHECK(t.contains("bank:    12"));
        CHECK(t.contains("element (x=17, y=49)"));
        CHECK(t.contains("fp16"));
        CHECK(t.contains("SWIZZLE_128B"));
        CHECK(t.contains("verified on H100"));
    }
    SECTION("a zero-filled byte names the OOB rule") {
        w.playback()->seek(300);
        hoverSmem(w, 0x0c44);
        test::screenshot(w, "window_step300.png");
        w.playback()->seek(w.document()->trace().stepCount);
        hoverSmem(w, 0x2240);
        test::screenshot(w, "window_hover_oob.png");
        const QString t = w.smemView()->inspectorText();
        INFO(t.toStdString());
        CHECK(t.contains("element (x=0, y=108)"));
        CHECK(t.contains("OOB zero fill"));
    }
    SECTION("hovering a global element names the shared-memory byte it went to") {
        // element (17, 49) = box row 1, byte 34: logical 0x4a2 -> physical 0x4a2 ^ (1 << 4) = 0x4b2
        const auto cell = w.globalCellOf(17, 49);
        REQUIRE(cell.has_value());
        REQUIRE(test::hover(w.globalView(), w.globalView()->cellCentre(cell->x, cell->y).toPoint()));
        const QString t = w.globalView()->inspectorText();
        INFO(t.toStdString());
        CHECK(t.contains("element (x=17, y=49)"));
        CHECK(t.contains("smem 0x04b2"));
        CHECK(t.contains("bank 12"));
        test::screenshot(w, "window_hover_global.png");
    }
    SECTION("keyboard: Home, Right, End move the timeline and the inspector follows") {
        hoverSmem(w, 0x4b2);
        QTest::keyClick(&w, Qt::Key_Home);
        CHECK(w.playback()->step() == 0);
        CHECK(w.smemView()->inspectorText().contains("untouched"));
        QTest::keyClick(&w, Qt::Key_Right);
        CHECK(w.playback()->step() == 1);
        QTest::keyClick(&w, Qt::Key_End);
        CHECK(w.playback()->step() == w.document()->trace().stepCount);
        CHECK(w.smemView()->inspectorText().contains("element (x=17, y=49)"));
        QTest::keyClick(&w, Qt::Key_Left);
        CHECK(w.playback()->step() == w.document()->trace().stepCount - 1);
    }
    SECTION("Space plays from the start and pauses") {
        QTest::keyClick(&w, Qt::Key_Home);
        QTest::keyClick(&w, Qt::Key_Space);
        CHECK(w.playback()->playing());
        QTest::qWait(300); // 64 steps/s by default
        QTest::keyClick(&w, Qt::Key_Space);
        CHECK_FALSE(w.playback()->playing());
        const uint32_t s = w.playback()->step();
        CHECK(s > 0);
        CHECK(s < w.document()->trace().stepCount);
        QTest::qWait(100);
        CHECK(w.playback()->step() == s); // paused means paused
    }
    SECTION("the keys reach the timeline from the start: the editor does not have the focus") {
        QApplication::setActiveWindow(&w);
        QTest::qWait(50);
        QWidget* f = QApplication::focusWidget();
        CHECK((f == nullptr || f == w.smemView()));
    }
}

TEST_CASE("A malformed scenario opens the window with its diagnostics", "[views][gui][diagnostics]") {
    MainWindow w;
    w.resize(1200, 800);
    w.setDocument(
        Document::fromText("target sm_90a\ntensormap A tiled FLOAT16 dims=[64 box=[64,64]\n", "bad.scn"));
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    REQUIRE_FALSE(w.document()->hasTrace());
    const QString d = w.diagnosticsText();
    INFO(d.toStdString());
    CHECK(d.contains("bad.scn:2:")); // file:line:col
    test::screenshot(w, "window_malformed.png");
    CHECK_FALSE(w.smemCellOf(0x400).has_value()); // no cells: nothing to inspect, and nothing crashes
    REQUIRE(test::hover(w.smemView(), w.smemView()->rect().center()));
    CHECK(w.smemView()->inspectorText().isEmpty());
    QTest::keyClick(&w, Qt::Key_Space);
    CHECK_FALSE(w.playback()->playing());
}

TEST_CASE("Canvases pan with a drag and zoom with the wheel around the cursor", "[views][gui][camera]") {
    MainWindow w;
    w.resize(1400, 900);
    w.setDocument(test::makeFakeSw128Document());
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    CellCanvas* c = w.smemView();
    const QPoint p = c->cellCentre(40, 20).toPoint();
    SECTION("wheel: the byte under the cursor stays under it, cells get bigger") {
        const float z0 = c->camera().zoom();
        const auto before = c->cellAt(p);
        QWheelEvent e(QPointF(p), c->mapToGlobal(QPointF(p)), QPoint(), QPoint(0, 240), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(c, &e);
        CHECK(c->camera().zoom() == Approx(z0 * 1.44f)); // two notches of 1.2
        CHECK(c->cellAt(p) == before);
    }
    SECTION("drag: the content follows the mouse") {
        const QPointF cell = c->cellCentre(40, 20);
        QTest::mousePress(c, Qt::LeftButton, Qt::NoModifier, p);
        QTest::mouseMove(c, p + QPoint(60, 25));
        QTest::mouseRelease(c, Qt::LeftButton, Qt::NoModifier, p + QPoint(60, 25));
        const QPointF moved = c->cellCentre(40, 20) - cell;
        CHECK(moved.x() == Approx(60).margin(0.5));
        CHECK(moved.y() == Approx(25).margin(0.5));
    }
}
