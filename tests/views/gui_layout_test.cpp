// Window layout of every bundled example at 1280x800 and 1920x1080 (issue 15 item 1): no view
// collapses, banners and legends never cover the cell grid, and the space the Tensor Memory docks take
// for a tcgen05 scenario comes back when a TMA one opens; no legend line is cut at a canvas's edge
// (the main window's and the compare window's with 4 columns).
#include "app_settings.hpp"
#include "compare_window.hpp"
#include "gui_test_util.hpp"
#include "main_window.hpp"
#include "theme.hpp"

#include <catch2/catch.hpp>

#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QTest>
#include <cstdio>

using namespace layoutscope::views;

namespace {

/// Every bundled example, broken ones too.
QStringList allExamples() {
    QStringList out;
    for (const char* sub : {"/scenarios", "/scenarios/broken"}) {
        const QDir d(QString(LAYOUTSCOPE_ASSETS_DIR) + sub);
        for (const QString& f : d.entryList({"*.scn"}, QDir::Files, QDir::Name)) out << d.filePath(f);
    }
    return out;
}

/// A canvas the user can see: shown, on screen (not behind another tab) and in the window.
bool onScreen(const CellCanvas* c) {
    return c->isVisible() && !c->visibleRegion().isEmpty();
}

/// The cell grid's rectangle on `c`, clipped to the canvas (empty when it has no cells).
QRectF gridRect(const CellCanvas* c) {
    const glm::uvec2 n = c->cellCount();
    if (n.x == 0 || n.y == 0) return {};
    const glm::vec2 lo = c->camera().worldToScreen({0, 0}), hi = c->camera().worldToScreen(glm::vec2(n));
    return QRectF(QPointF(lo.x, lo.y), QPointF(hi.x, hi.y)).intersected(QRectF(c->rect()));
}

void settle(int ms = 150) {
    QTest::qWait(ms);
    QCoreApplication::processEvents();
}

} // namespace

TEST_CASE("Every example at 1280x800 and 1920x1080: no collapsed view, no text over cells",
          "[views][gui][layout]") {
    AppSettings().resetLayout();
    const auto size = GENERATE(QSize(1280, 800), QSize(1920, 1080));
    MainWindow w;
    w.resize(size);
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    for (const QString& path : allExamples()) {
        w.openFile(path);
        settle();
        const std::string where = QFileInfo(path).fileName().toStdString() +
                                  QString(" at %1x%2").arg(size.width()).arg(size.height()).toStdString();
        INFO(where);
        // The views' minimum sizes fit the window: it keeps the size asked for.
        CHECK(w.width() <= size.width());
        CHECK(w.height() <= size.height());
        if (w.height() > size.height()) {
            for (QDockWidget* d : w.findChildren<QDockWidget*>())
                if (d->isVisible())
                    std::printf("%s min %d h %d\n", d->objectName().toUtf8().constData(),
                                d->minimumSizeHint().height(), d->height());
            std::printf("window min %d central min %d\n", w.minimumSizeHint().height(),
                        w.centralWidget()->minimumSizeHint().height());
            w.resize(size); // report each example on its own
            settle();
        }
        for (CellCanvas* c : w.findChildren<CellCanvas*>()) {
            if (!onScreen(c)) continue;
            const QDockWidget* dock = nullptr;
            for (QObject* p = c->parent(); p && !dock; p = p->parent()) dock = qobject_cast<QDockWidget*>(p);
            INFO((dock ? dock->objectName() : QString("centre")).toStdString());
            CHECK(c->width() >= 200);
            CHECK(c->height() >= 140);
            // Banner and legend rectangles (overlay.hpp regions) never meet the cell grid.
            const QRectF grid = gridRect(c);
            if (grid.isEmpty()) continue;
            CHECK(std::max(grid.width(), grid.height()) >= 40.0); // a visible grid, not a sliver
            const OverlayList o = c->frameOverlay({float(c->width()), float(c->height())});
            for (const OverlayList::Region& r : o.regions) {
                INFO(r.name);
                const QRectF box(QPointF(r.lo.x, r.lo.y), QPointF(r.hi.x, r.hi.y));
                CHECK_FALSE(box.intersects(grid));
            }
            // No legend line is cut at the canvas's right or bottom edge (issue 15).
            for (const std::string& cut : test::cutLegendLines(c)) FAIL_CHECK("legend line cut: " << cut);
        }
    }
}

TEST_CASE("The space given to Tensor Memory for tcgen05 comes back for TMA, each kind keeps its layout",
          "[views][gui][layout]") {
    AppSettings().resetLayout();
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    const QString dir = QString(LAYOUTSCOPE_ASSETS_DIR) + "/scenarios/";
    w.openFile(dir + "tma_tile_64x64_f16_sw128.scn");
    settle();
    const int smemTma = w.smemView()->height(), globalTma = w.globalView()->height();
    REQUIRE(globalTma >= 200);

    w.openFile(dir + "tcgen05_cp_128x256b.scn"); // mixed: TMA load + tcgen05.cp
    settle();
    QDockWidget* tmem = w.tmemViews()->tmemDock();
    REQUIRE(tmem->isVisible());
    CHECK(w.globalView()->height() >= 140); // never collapsed
    // The user gives Tensor Memory more room.
    w.resizeDocks({tmem}, {420}, Qt::Vertical);
    settle();
    const int tmemMixed = tmem->height();
    test::screenshot(w, "layout_switch_1_tcgen05_1280x800.png");

    w.openFile(dir + "tma_tile_sw64.scn");
    settle();
    test::screenshot(w, "layout_switch_2_tma_after_tcgen05_1280x800.png");
    CHECK_FALSE(tmem->isVisible());
    CHECK(std::abs(w.smemView()->height() - smemTma) <= 8); // the space came back
    CHECK(std::abs(w.globalView()->height() - globalTma) <= 8);

    w.openFile(dir + "tcgen05_cp_32x128b_warpx4.scn"); // mixed again: the user's TMEM height returns
    settle();
    REQUIRE(tmem->isVisible());
    CHECK(std::abs(tmem->height() - tmemMixed) <= 8);
    AppSettings().resetLayout();
}

TEST_CASE("Editing a tcgen05 scenario keeps the scenario editor's tab raised", "[views][gui][layout]") {
    AppSettings().resetLayout();
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    w.openFile(QString(LAYOUTSCOPE_ASSETS_DIR) + "/scenarios/tcgen05_st_32x32b.scn");
    settle();
    auto* scenario = w.findChild<QDockWidget*>("scenarioDock");
    auto* regs = w.findChild<QDockWidget*>("registerDock");
    REQUIRE(scenario);
    REQUIRE(regs);
    CHECK_FALSE(regs->visibleRegion().isEmpty()); // a new tcgen05.ld/st file raises its registers
    scenario->raise();
    settle();
    REQUIRE_FALSE(scenario->visibleRegion().isEmpty());
    // Each edit makes a new document of the same file, as typing does.
    for (int i = 0; i < 3; ++i) {
        w.setDocument(Document::fromText(w.document()->text(), w.document()->path()), true);
        settle(50);
    }
    CHECK_FALSE(scenario->visibleRegion().isEmpty());
    CHECK(regs->visibleRegion().isEmpty());
}

TEST_CASE("The light theme applies to the canvases: light background, dark labels", "[views][gui][layout]") {
    AppSettings().resetLayout();
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    w.openFile(QString(LAYOUTSCOPE_ASSETS_DIR) + "/scenarios/tma_tile_sw64.scn");
    settle();
    w.setTheme(Theme::Light);
    CHECK(canvasTheme() == Theme::Light);
    settle();
    const QImage img = w.smemView()->grabGl();
    if (!img.isNull()) { // GL canvases (under xvfb-run); the raster fallback keeps the export look
        // The bottom-right corner is background (no cell, no legend); themeColours: (246, 246, 244).
        const QColor bg = img.pixelColor(img.width() - 3, img.height() - 3);
        CHECK(bg.lightness() > 200);
    }
    w.setTheme(Theme::Dark);
    CHECK(canvasTheme() == Theme::Dark);
}

TEST_CASE("No canvas reaches outside its dock (the swizzle explorer raised at 1280x800)",
          "[views][gui][layout]") {
    AppSettings().resetLayout();
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    w.openFile(QString(LAYOUTSCOPE_ASSETS_DIR) + "/scenarios/tcgen05_cp_128x256b.scn");
    settle();
    w.swizzleDock()->raise();
    settle();
    test::screenshot(w, "layout_swizzle_explorer_1280x800.png");
    for (CellCanvas* c : w.findChildren<CellCanvas*>()) {
        if (!onScreen(c)) continue;
        const QDockWidget* dock = nullptr;
        for (QObject* p = c->parent(); p && !dock; p = p->parent()) dock = qobject_cast<QDockWidget*>(p);
        if (!dock) continue;
        INFO(dock->objectName().toStdString());
        const QRect canvas(c->mapTo(&w, QPoint(0, 0)), c->size()),
            box(dock->mapTo(&w, QPoint(0, 0)), dock->size());
        CHECK(box.contains(canvas));
    }
}

TEST_CASE("The compare window with 4 columns at 1280x800 cuts no legend line",
          "[views][gui][layout][compare]") {
    const QString r = QString(LAYOUTSCOPE_ASSETS_DIR) + "/reviews/";
    CompareWindow w({r + "operand_sw128_one_box.scn", r + "operand_sw64_two_boxes.scn",
                     QString(LAYOUTSCOPE_ASSETS_DIR) + "/scenarios/tma_tile_sw64.scn",
                     QString(LAYOUTSCOPE_ASSETS_DIR) + "/scenarios/tma_oob_edge_tile.scn"});
    w.resize(1280, 800);
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    settle(300);
    REQUIRE(w.paneCount() == 4);
    test::screenshot(w, "compare_4_columns_1280x800.png");
    for (size_t i = 0; i < 4; ++i) {
        CellCanvas* c = w.smemCanvas(i);
        INFO("pane " << i << ": " << c->width() << " x " << c->height());
        REQUIRE(c->cellCount().x > 0);
        // Every text below the grid (the legend) ends inside the pane.
        for (const std::string& cut : test::cutLegendLines(c)) FAIL_CHECK("legend line cut: " << cut);
    }
}

TEST_CASE("A narrow global dock wraps or shortens its legend: no line cut, none over the cells",
          "[views][gui][layout]") {
    AppSettings().resetLayout();
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    auto* dock = w.findChild<QDockWidget*>("globalDock");
    REQUIRE(dock);
    for (const char* name : {"tma_tile_64x64_f16_sw128.scn", "tma_gather4_rows.scn", "tma_im2col_conv.scn",
                             "tma_oob_edge_tile.scn", "tma_tile_sw32.scn"}) {
        w.openFile(QString(LAYOUTSCOPE_ASSETS_DIR) + "/scenarios/" + name);
        settle();
        w.resizeDocks({dock}, {1}, Qt::Horizontal); // as narrow as its minimum allows
        settle();
        CellCanvas* c = w.globalView();
        INFO(name << ": global canvas " << c->width() << " x " << c->height());
        CHECK(c->width() <=
              360); // narrow indeed (the default is ~415 px; the slice controls keep im2col at 360)
        for (const std::string& cut : test::cutLegendLines(c)) FAIL_CHECK("legend line cut: " << cut);
        const QRectF grid = gridRect(c);
        const OverlayList o = c->frameOverlay({float(c->width()), float(c->height())});
        for (const OverlayList::Region& r : o.regions)
            CHECK_FALSE(QRectF(QPointF(r.lo.x, r.lo.y), QPointF(r.hi.x, r.hi.y)).intersects(grid));
        test::screenshot(w, (std::string("layout_narrow_global_") + name + ".png").c_str());
    }
    AppSettings().resetLayout();
}
