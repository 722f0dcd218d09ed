// Shared memory keeps a legible share beside Tensor Memory (issue 24 item 7): at 1280x800 the 24,704-B
// window of tcgen05_mma_i8_128x64 (193 rows of 128 B) above Tensor Memory was fitted with square cells
// into a ~65-px high area, a 25-px column. The whole-grid fit now stretches it across (CellCanvas::
// setMinGridWidth(256): 2 px a byte column at least) while Tensor Memory keeps one pixel a lane.
// LAYOUTSCOPE_SCREENSHOT_DIR=dir writes smem_share_*.png.
#include "app_settings.hpp"
#include "gui_test_util.hpp"
#include "main_window.hpp"
#include "tmem_views.hpp"

#include <catch2/catch.hpp>

#include <QDockWidget>
#include <QFileInfo>
#include <QTest>

using namespace layoutscope::views;

namespace {

/// The on-screen size of a canvas' grid, clipped to the canvas.
glm::vec2 gridSize(const CellCanvas* c) {
    const glm::uvec2 n = c->cellCount();
    if (n.x == 0 || n.y == 0) return {0, 0};
    const glm::vec2 lo = glm::max(glm::vec2(0), c->camera().worldToScreen({0, 0}));
    const glm::vec2 hi =
        glm::min(glm::vec2(float(c->width()), float(c->height())), c->camera().worldToScreen(glm::vec2(n)));
    return hi - lo;
}

} // namespace

TEST_CASE("At 1280x800 and 1920x1080 shared memory is not a narrow column beside Tensor Memory",
          "[views][gui][layout][fit]") {
    AppSettings().resetLayout();
    const QSize size = GENERATE(QSize(1280, 800), QSize(1920, 1080));
    MainWindow w;
    w.resize(size);
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    for (const char* name : {"tcgen05_mma_i8_128x64.scn", "tcgen05_cp_128x256b.scn", "tcgen05_st_32x32b.scn",
                             "tma_fp4_to_tmem.scn", "tma_tile_64x64_f16_sw128.scn"}) {
        w.openFile(QString(LAYOUTSCOPE_ASSETS_DIR) + "/scenarios/" + name);
        QTest::qWait(150);
        QCoreApplication::processEvents();
        INFO(name << " at " << size.width() << "x" << size.height());
        const glm::vec2 smem = gridSize(w.smemView());
        INFO("shared-memory grid " << smem.x << " x " << smem.y << " px");
        // 2 px a byte column (256 px for 128 B) or the whole width the pane leaves.
        CHECK(smem.x >= std::min(256.0f, float(w.smemView()->width()) - 120.0f));
        // 40 px of rows, or 2 px a row when fewer rows need less (a one-row window is one row high).
        CHECK(smem.y >= std::min(40.0f, 2.0f * float(w.smemView()->cellCount().y)));
        if (w.tmemViews()->tmemDock()->isVisible()) {
            const glm::vec2 tmem = gridSize(w.tmemViews()->tmemView());
            INFO("Tensor Memory grid " << tmem.x << " x " << tmem.y << " px");
            CHECK(tmem.y >= 127.0f); // one pixel a lane (gui_fit_panes_test.cpp)
            CHECK(tmem.x >= 256.0f);
        }
        test::screenshot(w, QString("smem_share_%1_%2x%3.png")
                                .arg(QFileInfo(name).baseName())
                                .arg(size.width())
                                .arg(size.height())
                                .toUtf8()
                                .constData());
    }
    AppSettings().resetLayout();
}

TEST_CASE("A short shared-memory window grows its rows into the pane instead of leaving it empty",
          "[views][gui][layout][fit]") {
    AppSettings().resetLayout();
    const QSize size = GENERATE(QSize(1280, 800), QSize(1920, 1080));
    MainWindow w;
    w.resize(size);
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    INFO(size.width() << "x" << size.height());
    // tma_tile_sw64: 2,048 B = 16 rows of 128 B. Square cells would fill ~3 px a row of a ~400-px pane.
    w.openFile(QString(LAYOUTSCOPE_ASSETS_DIR) + "/scenarios/tma_tile_sw64.scn");
    QTest::qWait(150);
    QCoreApplication::processEvents();
    const CellCanvas* c = w.smemView();
    REQUIRE(c->cellCount() == glm::uvec2(128, 16));
    const glm::vec2 z = c->camera().zoomXY();
    INFO("zoom " << z.x << " x " << z.y);
    CHECK(z.y > z.x);                 // rows taller than a byte is wide
    CHECK(z.y <= 4.0f * z.x + 1e-3f); // at most 4x (MainWindow: setMaxRowStretch(4))
    const glm::vec2 grid = gridSize(c);
    CHECK(grid.x >= std::min(256.0f, float(c->width()) - 120.0f)); // the width is what it was
    CHECK(grid.y >= 3.0f * 16.0f * z.x);                           // more than square cells gave
    // The whole window is on screen, top-aligned below the header, and a cell's centre maps back to it.
    CHECK(c->camera().worldToScreen({0, 16}).y <= float(c->height()) + 0.5f);
    const glm::vec2 centre = c->camera().worldToScreen({5.5f, 3.5f});
    CHECK(glm::ivec2(glm::floor(c->camera().screenToWorld(centre))) == glm::ivec2(5, 3));
    test::screenshot(
        w, QString("smem_rows_sw64_%1x%2.png").arg(size.width()).arg(size.height()).toUtf8().constData());
    // A tall window (193 rows above Tensor Memory) is not stretched taller: rows are at most as tall as wide.
    w.openFile(QString(LAYOUTSCOPE_ASSETS_DIR) + "/scenarios/tcgen05_mma_i8_128x64.scn");
    QTest::qWait(150);
    QCoreApplication::processEvents();
    const glm::vec2 zt = w.smemView()->camera().zoomXY();
    CHECK(zt.y <= zt.x + 1e-3f);
    AppSettings().resetLayout();
}
