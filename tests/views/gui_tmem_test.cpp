// Qt Test interaction with the Tensor Memory / Registers / Decompression docks on hand-built tcgen05
// fixtures (tmem_fixture.hpp): hover a TMEM cell -> inspector text; linked selection register <-> cell.
#include "gui_test_util.hpp"
#include "main_window.hpp"
#include "scene/tmem_overlay.hpp"
#include "tmem_fixture.hpp"

#include <catch2/catch.hpp>

#include <QApplication>
#include <QDockWidget>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>
#include <cmath>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {
/// Zoom in around `cell`, then hover it.
void hover(CellCanvas* c, glm::uvec2 cell) {
    test::zoomAround(c, cell, 14.0f);
    REQUIRE(test::hover(c, c->cellCentre(cell.x, cell.y).toPoint()));
}
} // namespace

TEST_CASE("Hovering a TMEM cell shows lane, column, address, value, source register and rule",
          "[views][gui][tmem]") {
    MainWindow w;
    w.resize(1800, 1100);
    w.setDocument(test::makeTmemStDocument());
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    TmemViews* v = w.tmemViews();
    REQUIRE(v->tmemDock()->isVisible());
    test::screenshot(w, "tmem_st_initial.png");
    const auto cell = v->tmemCellOf(0, 39, 2); // tcgen05.st 32x32b: thread 39 (warp 1, lane 7), r2
    REQUIRE(cell);
    hover(v->tmemView(), *cell);
    const QString t = v->tmemView()->inspectorText();
    INFO(t.toStdString());
    CHECK(t.contains("lane 39, column 2"));
    CHECK(t.contains("0x00270002"));
    CHECK(t.contains("warps 1, 5, 9"));
    CHECK(t.contains("value:   0x3f800702"));
    CHECK(t.contains("register r2 of thread 39"));
    CHECK(t.contains("ld/st thread map"));
    SECTION("linked selection: the TMEM cell outlines its register, and the register its cell") {
        const auto& m = v->registerView()->marker();
        REQUIRE(m);
        CHECK(m->first == glm::uvec2(2, 7));
        QSignalSpy spy(v, &TmemViews::registerHovered);
        hover(v->registerView(), {1, 20}); // thread 32+20 = 52, r1 -> lane 52, column 1
        REQUIRE(spy.count() >= 1);
        CHECK(spy.last().at(0).toInt() == 52);
        CHECK(spy.last().at(1).toInt() == 1);
        const auto& tm = v->tmemView()->marker();
        REQUIRE(tm);
        CHECK(tm->first == *v->tmemCellOf(0, 52, 1));
        CHECK(v->registerView()->inspectorText().contains("TMEM lane 52, column 1"));
        v->selectTmemCell(0, 33, 3);
        CHECK(v->registerView()->marker()->first == glm::uvec2(3, 1));
        test::screenshot(w, "tmem_st_window.png");
        for (int i = 0; i < 12 && v->tmemView()->camera().zoom() < 80.0f;
             ++i) { // until the cells show their values
            const QPointF p = v->tmemView()->cellCentre(2, 39);
            QWheelEvent e(p, v->tmemView()->mapToGlobal(p), QPoint(), QPoint(0, 120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
            QCoreApplication::sendEvent(v->tmemView(), &e);
        }
        hover(v->tmemView(), *v->tmemCellOf(0, 39, 2));
        test::screenshot(w, "tmem_st_values.png");
    }
}

TEST_CASE("Fit to allocation fills the TMEM pane with the allocated columns x 128 lanes; picking follows "
          "the stretched cells",
          "[views][gui][tmem][camera]") {
    MainWindow w;
    w.resize(1800, 1100);
    w.setDocument(test::makeTmemStDocument()); // one tcgen05.alloc of 128 columns at column 0
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    QCoreApplication::processEvents();
    TmemViews* v = w.tmemViews();
    REQUIRE(v->fitToAllocation());
    CellCanvas* c = v->tmemView();
    c->fitView();
    // Columns 0..127 and lanes 0..127 exactly cover the canvas less its margins (left, top, right, bottom).
    const glm::vec2 size(float(c->width()), float(c->height()));
    const glm::vec2 a = c->camera().worldToScreen({0, 0}), b = c->camera().worldToScreen({128, 128});
    CHECK(a.x == Approx(kTmemMargins.x).margin(0.01));
    CHECK(a.y == Approx(kTmemMargins.y).margin(0.01));
    CHECK(b.x == Approx(size.x - kTmemMargins.z).margin(0.01));
    CHECK(b.y == Approx(size.y - kTmemMargins.w).margin(0.01));
    const glm::vec2 z = c->camera().zoomXY();
    INFO("zoom " << z.x << " x " << z.y << " px per cell, canvas " << size.x << " x " << size.y);
    REQUIRE(std::abs(z.x - z.y) > 1.0f); // the cells are not square here
    SECTION("each pixel picks the cell drawn under it, hover and click report it") {
        // Pixels a little inside each corner of a cell (whole pixels, as the mouse gives them).
        for (const glm::uvec2 cell :
             {glm::uvec2(0, 0), glm::uvec2(2, 39), glm::uvec2(127, 127), glm::uvec2(64, 100)}) {
            const glm::vec2 lo = c->camera().worldToScreen(glm::vec2(cell)),
                            hi = c->camera().worldToScreen(glm::vec2(cell) + 1.0f);
            const QPointF inLo(std::ceil(lo.x + 0.01f), std::ceil(lo.y + 0.01f)),
                inHi(std::floor(hi.x - 0.01f), std::floor(hi.y - 0.01f));
            INFO("cell " << cell.x << "," << cell.y);
            if (inLo.x() <= inHi.x() && inLo.y() <= inHi.y()) { // the cell owns at least one pixel
                CHECK(c->cellAt(inLo) == cell);
                CHECK(c->cellAt(inHi) == cell);
            }
            CHECK(c->cellAt(c->cellCentre(cell.x, cell.y)) == cell);
        }
        // A column boundary: one pixel left and right of it are neighbouring columns, the same lane.
        const glm::vec2 edge = c->camera().worldToScreen({10, 64.5f});
        CHECK(c->cellAt(QPointF(edge.x - 1, edge.y)) == glm::uvec2(9, 64));
        CHECK(c->cellAt(QPointF(edge.x + 1, edge.y)) == glm::uvec2(10, 64));
        const QPoint p = c->cellCentre(2, 39).toPoint();
        REQUIRE(test::hover(c, p));
        CHECK(c->hovered() == glm::uvec2(2, 39));
        CHECK(c->inspectorText().contains("lane 39, column 2"));
        QSignalSpy clicks(c, &CellCanvas::cellClicked);
        QTest::mouseClick(c, Qt::LeftButton, Qt::NoModifier, p);
        REQUIRE(clicks.count() == 1);
        CHECK(clicks.first().at(0).toInt() == 2);
        CHECK(clicks.first().at(1).toInt() == 39);
    }
    SECTION("Fit TMEM to allocation off: all 512 columns, square cells") {
        v->setFitToAllocation(false);
        CHECK(c->camera().zoomXY().x == Approx(c->camera().zoomXY().y));
    }
}

TEST_CASE("tcgen05.cp fixtures show the pair, the multicast fan and the decompression dock",
          "[views][gui][tmem]") {
    MainWindow w;
    w.resize(1800, 1100);
    SECTION(".cta_group::2 .warpx2::01_23") {
        w.setDocument(test::makeTmemCpDocument(false, true));
        w.show();
        REQUIRE(QTest::qWaitForWindowExposed(&w));
        CHECK(w.tmemViews()->tmemScene().ctaCount == 2);
        w.playback()->seek(40); // mid-copy: rows 0..39 have landed in both CTAs
        test::screenshot(w, "tmem_cp_pair_step40.png");
        w.playback()->seek(w.document()->trace().stepCount);
        const auto cell = w.tmemViews()->tmemCellOf(1, 40, 0); // lane 40 <- source row 8 (second replica)
        REQUIRE(cell);
        hover(w.tmemViews()->tmemView(), *cell);
        const QString t = w.tmemViews()->tmemView()->inspectorText();
        INFO(t.toStdString());
        CHECK(t.contains("cta 1, lane 40, column 0"));
        CHECK(t.contains("source row 8"));
        CHECK(t.contains("unverified (open question"));
        test::screenshot(w, "tmem_cp_pair_window.png");
    }
    SECTION("b4x16_p64 decompression") {
        w.setDocument(test::makeTmemCpDocument(true));
        w.show();
        REQUIRE(QTest::qWaitForWindowExposed(&w));
        w.playback()->seek(1);
        QDockWidget* d = w.tmemViews()->decompDock();
        CHECK(d->isVisible());
        d->raise();
        test::screenshot(w, "tmem_decomp_window.png");
    }
}

TEST_CASE("The tcgen05 docks stay hidden for TMA scenarios; a multicast load shows the TMA fan",
          "[views][gui][tmem]") {
    MainWindow w;
    w.resize(1600, 1000);
    w.openFile(LAYOUTSCOPE_ASSETS_DIR "/scenarios/tma_tile_64x64_f16_sw128.scn");
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    CHECK_FALSE(w.tmemViews()->tmemDock()->isVisible());
    CHECK_FALSE(w.tmemViews()->tmaFanDock()->isVisible());
    w.openFile(LAYOUTSCOPE_ASSETS_DIR "/scenarios/tma_multicast_cluster2.scn");
    QCoreApplication::processEvents();
    CHECK(w.tmemViews()->tmaFanDock()->isVisible());
    REQUIRE(w.tmemViews()->tmaFan().valid);
    CHECK(w.tmemViews()->tmaFan().ctas == std::vector<uint32_t>{0, 1});
    test::screenshot(w, "tma_multicast_window.png");
}
