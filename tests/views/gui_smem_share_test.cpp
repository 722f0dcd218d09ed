// Shared memory keeps a legible share beside Tensor Memory (issue 24 item 7): at 1280x800 the 24,704-B
// window of tcgen05_mma_i8_128x64 (193 rows of 128 B) above Tensor Memory was fitted with square cells
// into a ~65-px high area, a 25-px column. The whole-grid fit now stretches it across (CellCanvas::
// setMinGridWidth(256): 2 px a byte column at least) while Tensor Memory keeps one pixel a lane, and folds a
// tall window's rows into bands side by side where that makes the cells larger (setRowFolding).
// LAYOUTSCOPE_SCREENSHOT_DIR=dir writes smem_share_*.png.
#include "app_settings.hpp"
#include "gui_test_util.hpp"
#include "main_window.hpp"
#include "tmem_views.hpp"

#include <catch2/catch.hpp>

#include <QDockWidget>
#include <QFileInfo>
#include <QTest>
#include <cstdio>

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
    // A tall window (193 rows above Tensor Memory) is folded into bands first (the next test case); its
    // bands' rows grow by the same rule, at most 4x.
    w.openFile(QString(LAYOUTSCOPE_ASSETS_DIR) + "/scenarios/tcgen05_mma_i8_128x64.scn");
    QTest::qWait(150);
    QCoreApplication::processEvents();
    const glm::vec2 zt = w.smemView()->camera().zoomXY();
    CHECK(w.smemView()->rowFold().folded());
    CHECK(zt.y <= 4.0f * zt.x + 1e-3f);
    AppSettings().resetLayout();
}

namespace {

/// The screen rectangle of band k of a folded shared-memory grid (row_fold.hpp: band k's first column is
/// drawn at k x (128 + gap)), clipped to the rows the band holds.
QRectF bandRect(const CellCanvas* c, uint32_t k) {
    const RowFold& f = c->rowFold();
    const float x0 = float(f.bandX(k));
    const float rows = float(std::min(f.rowsPerBand, f.rows - k * f.rowsPerBand));
    const glm::vec2 lo = c->camera().worldToScreen({x0, 0}),
                    hi = c->camera().worldToScreen({x0 + 128.0f, rows});
    return QRectF(QPointF(lo.x, lo.y), QPointF(hi.x, hi.y));
}

} // namespace

TEST_CASE("A tall shared-memory window beside Tensor Memory is folded into bands, each labelled",
          "[views][gui][layout][fit][fold]") {
    AppSettings().resetLayout();
    const QSize size = GENERATE(QSize(1280, 800), QSize(1920, 1080));
    MainWindow w;
    w.resize(size);
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    // The MMA example's 193 rows; a CuTe tutorial kernel's 385 (49,280 B).
    for (const QString& name :
         {QString(LAYOUTSCOPE_ASSETS_DIR) + "/scenarios/tcgen05_mma_i8_128x64.scn",
          QString(LAYOUTSCOPE_TEST_DATA_DIR) + "/cute_tutorials/02_mma_tma_sm100.launch.scn"}) {
        w.openFile(name);
        QTest::qWait(150);
        QCoreApplication::processEvents();
        INFO(name.toStdString() << " at " << size.width() << "x" << size.height());
        CellCanvas* c = w.smemView();
        const glm::uvec2 grid = c->gridCellCount();
        REQUIRE(grid.x == 128);
        REQUIRE(grid.y >= 150); // a tall window: 24,704 B (193 rows) and more
        const RowFold& f = c->rowFold();
        const glm::vec2 z = c->camera().zoomXY();
        INFO(f.bands << " bands of " << f.rowsPerBand << " rows, cells " << z.x << " x " << z.y
                     << " px, pane " << c->width() << " x " << c->height());
        // One strip of square cells would give at most min(width / 128, height / rows) px a row, less the
        // smallest margins (labels, legend); the pane is wide and short here (Tensor Memory below), so the
        // rows are folded and are taller than that strip's.
        const float strip = std::min((float(c->width()) - kSmemMargins.x - kSmemMargins.z) / 128.0f,
                                     (float(c->height()) - kSmemMargins.y - kSmemMargins.w) / float(grid.y));
        // (The banner of the swizzle atoms' caption takes more of the height: the bound is generous.)
        CHECK(f.folded());
        CHECK(std::min(z.x, z.y) >= 1.15f * strip);
        CHECK(z.y <= 4.0f * z.x + 1e-3f); // rows grown into the pane at most 4x a byte's width (as unfolded)
        CHECK(f.bands * f.rowsPerBand >= grid.y);
        CHECK((f.bands - 1) * f.rowsPerBand < grid.y); // no empty band
        // Bands inside the pane, side by side, at least 56 px apart (a row address, "0x6000", between).
        const OverlayList o = c->frameOverlay({float(c->width()), float(c->height())});
        std::vector<QRectF> bands;
        for (uint32_t k = 0; k < f.bands; ++k) {
            bands.push_back(bandRect(c, k));
            INFO("band " << k);
            CHECK(QRectF(c->rect()).adjusted(-0.5, -0.5, 0.5, 0.5).contains(bands.back()));
            if (k > 0) CHECK(bands[k].left() - bands[k - 1].right() >= 56.0);
        }
        // Each band has row addresses, left of it and over none of the bands' cells; no two labels meet.
        std::vector<int> labelled(f.bands, 0);
        std::vector<QRectF> labels;
        for (const OverlayList::Text& t : o.texts) {
            if (t.text.size() != 6 || t.text.rfind("0x", 0) != 0) continue;
            const QRectF box(t.pos.x, t.pos.y, approxTextWidth(t.text), 14.0);
            INFO("label " << t.text << " at " << t.pos.x << "," << t.pos.y);
            for (const QRectF& b : bands) CHECK_FALSE(box.intersects(b));
            for (const QRectF& l : labels) CHECK_FALSE(box.intersects(l));
            labels.push_back(box);
            for (uint32_t k = 0; k < f.bands; ++k)
                if (box.right() <= bands[k].left() && box.left() >= (k ? bands[k - 1].right() : 0.0) &&
                    box.center().y() >= bands[k].top() && box.center().y() <= bands[k].bottom())
                    ++labelled[k];
        }
        for (uint32_t k = 0; k < f.bands; ++k) {
            INFO("band " << k);
            CHECK(labelled[k] >= 1);
        }
        // Legend and banner rectangles meet no band.
        for (const OverlayList::Region& r : o.regions) {
            INFO(r.name);
            for (const QRectF& b : bands)
                CHECK_FALSE(QRectF(QPointF(r.lo.x, r.lo.y), QPointF(r.hi.x, r.hi.y)).intersects(b));
        }
        // Row y is drawn in band y / rowsPerBand: the last byte of the window and the first byte of band 1.
        const SmemWindow& win = w.smemScene().window;
        for (const uint32_t addr : {win.base + win.size - 1, win.base + f.rowsPerBand * 128 + 5}) {
            const auto cell = w.smemCellOf(addr);
            REQUIRE(cell);
            const QPointF p = c->cellCentre(cell->x, cell->y);
            const uint32_t band = (addr - win.base) / 128 / f.rowsPerBand;
            INFO("address " << addr << " band " << band);
            CHECK(bands[band].contains(p));
            CHECK(c->cellAt(p) == cell);
        }
        test::screenshot(w, QString("smem_fold_%1_%2x%3.png")
                                .arg(QFileInfo(name).baseName())
                                .arg(size.width())
                                .arg(size.height())
                                .toUtf8()
                                .constData());
        // Hovered at a readable zoom, a byte of the last band names its own address.
        const uint32_t addr = win.base + win.size - 128 + 7;
        const auto cell = w.smemCellOf(addr);
        REQUIRE(cell);
        test::zoomAround(c, *cell, 8.0f);
        REQUIRE(test::hover(c, c->cellCentre(cell->x, cell->y).toPoint()));
        CHECK(c->hovered() == cell);
        char hex[16];
        std::snprintf(hex, sizeof hex, "0x%04x", addr);
        CHECK(c->inspectorText().contains(hex));
        c->fitView();
    }
    AppSettings().resetLayout();
}
