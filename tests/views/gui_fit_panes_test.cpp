// The window's fit at 1280x800 and 1920x1080 (issue 24 item 7): Tensor Memory is a readable overview
// (one pixel per lane at least, its four lane quarters labelled), the Events list shows several rows,
// no pane covers another, panes a scenario does not use are hidden and switching examples leaves no
// empty band. LAYOUTSCOPE_SCREENSHOT_DIR=dir writes fit_*.png.
#include "app_settings.hpp"
#include "event_list.hpp"
#include "gui_test_util.hpp"
#include "main_window.hpp"
#include "operand_view.hpp"

#include <catch2/catch.hpp>

#include <QDockWidget>
#include <QFileInfo>
#include <QRegion>
#include <QStatusBar>
#include <QTabBar>
#include <QTest>
#include <QToolBar>

using namespace layoutscope::views;

namespace {

QString example(const char* name) {
    return QString(LAYOUTSCOPE_ASSETS_DIR) + "/scenarios/" + name;
}

void settle(int ms = 150) {
    QTest::qWait(ms);
    QCoreApplication::processEvents();
}

/// The rectangle of `w` in window coordinates.
QRect inWindow(const QWidget* w, const QMainWindow& win) {
    return QRect(w->mapTo(&win, QPoint(0, 0)), w->size());
}

/// The panes the user sees: the centre and every visible dock that is not a hidden tab.
std::vector<QWidget*> shownPanes(MainWindow& w) {
    std::vector<QWidget*> out{w.centralWidget()};
    for (QDockWidget* d : w.findChildren<QDockWidget*>())
        if (d->isVisible() && !d->visibleRegion().isEmpty() && !d->isFloating()) out.push_back(d);
    // The tab bars of tabbed docks (Events | Breakpoints, Scenario | Operand | ...) are the window's own.
    for (QTabBar* t : w.findChildren<QTabBar*>(Qt::FindDirectChildrenOnly))
        if (t->isVisible() && w.rect().contains(inWindow(t, w))) out.push_back(t);
    return out;
}

/// The grid's on-screen height of a canvas (its cells, clipped to the canvas).
float gridHeight(const CellCanvas* c) {
    const glm::uvec2 n = c->cellCount();
    if (n.x == 0 || n.y == 0) return 0.0f;
    const float lo = std::max(0.0f, c->camera().worldToScreen({0, 0}).y);
    const float hi = std::min(float(c->height()), c->camera().worldToScreen(glm::vec2(n)).y);
    return hi - lo;
}

/// Checks at the window's present state: no two panes overlap, and the panes tile the area between the
/// toolbars and the status bar with nothing but splitter lines between them (no empty band).
void checkTiling(MainWindow& w) {
    const std::vector<QWidget*> panes = shownPanes(w);
    QRegion covered;
    QRect all;
    for (size_t i = 0; i < panes.size(); ++i) {
        const QRect a = inWindow(panes[i], w);
        all = all.united(a);
        covered += a;
        for (size_t j = i + 1; j < panes.size(); ++j) {
            INFO(panes[i]->objectName().toStdString() << " and " << panes[j]->objectName().toStdString());
            CHECK_FALSE(a.intersects(inWindow(panes[j], w)));
        }
    }
    // Between the panes only separators (a few px); a hidden dock's space left empty is a band.
    for (const QRect& gap : QRegion(all).subtracted(covered)) {
        INFO("empty " << gap.width() << "x" << gap.height() << " at " << gap.x() << "," << gap.y());
        CHECK(std::min(gap.width(), gap.height()) <= 12);
    }
}

} // namespace

TEST_CASE("At 1280x800 and 1920x1080 Tensor Memory is an overview of its lanes and Events shows rows",
          "[views][gui][layout][fit]") {
    AppSettings().resetLayout();
    const QSize size = GENERATE(QSize(1280, 800), QSize(1920, 1080));
    MainWindow w;
    w.resize(size);
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    for (const char* name : {"tcgen05_cp_128x256b.scn", "tcgen05_cp_64x128b_warpx2_01_23.scn",
                             "tcgen05_cp_64x128b_warpx2_02_13_b6.scn", "tcgen05_cp_32x128b_warpx4.scn",
                             "tcgen05_ld_16x64b.scn", "tcgen05_st_16x32bx2.scn", "tcgen05_st_32x32b.scn",
                             "tcgen05_mma_i8_128x64.scn", "tma_fp4_to_tmem.scn"}) {
        w.openFile(example(name));
        settle();
        INFO(name << " at " << size.width() << "x" << size.height());
        CHECK(w.width() <= size.width());
        CHECK(w.height() <= size.height());
        CellCanvas* tmem = w.tmemViews()->tmemView();
        REQUIRE(w.tmemViews()->tmemDock()->isVisible());
        // One pixel per lane at least (the fit may stretch cells): the lanes are an overview, not a strip.
        CHECK(gridHeight(tmem) >= 127.0f);
        // Each 32-lane quarter is labelled.
        const OverlayList o = tmem->frameOverlay({float(tmem->width()), float(tmem->height())});
        for (const char* q : {"lanes 0-31", "lanes 32-63", "lanes 64-95", "lanes 96-127"}) {
            bool found = false;
            for (const OverlayList::Text& t : o.texts) found = found || t.text == q;
            INFO(q);
            CHECK(found);
        }
        // The Events list shows at least four rows (each of these has at least two instructions).
        EventList* ev = w.eventList();
        if (!ev->visibleRegion().isEmpty() && ev->topLevelItemCount() >= 2) {
            const int rowH = ev->visualItemRect(ev->topLevelItem(0)).height();
            REQUIRE(rowH > 0);
            CHECK(ev->viewport()->height() >= EventList::kMinRowsShown * rowH);
        }
        checkTiling(w);
        test::screenshot(w, QString("fit_%1_%2x%3.png")
                                .arg(QFileInfo(name).baseName())
                                .arg(size.width())
                                .arg(size.height())
                                .toUtf8()
                                .constData());
    }
    AppSettings().resetLayout();
}

TEST_CASE("Panes a scenario does not use are hidden; switching examples leaves no empty band",
          "[views][gui][layout][fit]") {
    AppSettings().resetLayout();
    const QSize size = GENERATE(QSize(1280, 800), QSize(1920, 1080));
    MainWindow w;
    w.resize(size);
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    QDockWidget* global = w.findChild<QDockWidget*>("globalDock");
    QDockWidget* tmem = w.tmemViews()->tmemDock();
    REQUIRE(global);
    struct Case {
        const char* file;
        bool global, tmem;
    };
    // tcgen05.st / ld and the MMA read no global tensor (no TMA copy); TMA-only files write no Tensor
    // Memory; the cp and fp4 examples load with TMA and copy to Tensor Memory.
    const Case cases[] = {
        {"tma_tile_64x64_f16_sw128.scn", true, false},
        {"tcgen05_st_32x32b.scn", false, true},
        {"tma_tile_sw64.scn", true, false},
        {"tcgen05_cp_128x256b.scn", true, true},
        {"tcgen05_ld_16x64b.scn", false, true},
        {"tma_gather4_rows.scn", true, false},
        {"tma_fp4_to_tmem.scn", true, true},
        {"tcgen05_st_16x32bx2.scn", false, true},
        {"tma_multicast_cluster2.scn", true, false},
    };
    for (const Case& c : cases) {
        w.openFile(example(c.file));
        settle();
        INFO(c.file << " at " << size.width() << "x" << size.height());
        CHECK(global->isVisible() == c.global);
        CHECK(tmem->isVisible() == c.tmem);
        CHECK(w.width() <= size.width());
        CHECK(w.height() <= size.height());
        checkTiling(w);
    }
    AppSettings().resetLayout();
}
