// Mismatch marks seen at the default zoom in the Operand and Tensor Memory views, a zoomed operand grid
// that never paints over its header, and fan-out / register labels that never overlap (issue 24 items 6
// and 7). Truth: the mismatch counts are the consumer check's (gui_operand_test.cpp, gui_tmem_expected_test
// derive 896 for both broken examples by hand); a marked cell's pixels are magenta (cells.frag: 80% towards
// (255, 64, 160) under 6 px, an outline in it from 6 px). LAYOUTSCOPE_SCREENSHOT_DIR=dir writes marks_*.png.
#include "gui_test_util.hpp"
#include "main_window.hpp"
#include "operand_view.hpp"
#include "scene/label_layout.hpp"
#include "scene/operand_scene.hpp"
#include "tmem_views.hpp"

#include "gui_broken_util.hpp"

#include <catch2/catch.hpp>

#include <QDockWidget>
#include <QFileInfo>
#include <QImage>
#include <QTest>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {

QImage canvasImage(CellCanvas* c) {
    QCoreApplication::processEvents();
    QTest::qWait(100);
    return c->usesGl() ? c->grabGl() : c->grab().toImage();
}

/// A pixel of a mismatch mark: the outline colour or a cell tinted 80% towards it.
bool magenta(QRgb p) {
    return qRed(p) >= 200 && qGreen(p) <= 110 && qBlue(p) >= 120 && qBlue(p) <= 190;
}

/// Magenta pixels inside the cell grid of `c`.
size_t markPixels(CellCanvas* c, const QImage& img) {
    const glm::uvec2 n = c->cellCount();
    const glm::vec2 lo = c->camera().worldToScreen({0, 0}), hi = c->camera().worldToScreen(glm::vec2(n));
    size_t k = 0;
    for (int y = std::max(0, int(lo.y)); y < std::min(img.height(), int(hi.y)); ++y)
        for (int x = std::max(0, int(lo.x)); x < std::min(img.width(), int(hi.x)); ++x)
            k += magenta(img.pixel(x, y)) ? 1 : 0;
    return k;
}

bool hasText(const OverlayList& o, const std::string& prefix) {
    for (const OverlayList::Text& t : o.texts)
        if (t.text.rfind(prefix, 0) == 0) return true;
    return false;
}

OverlayList overlayOf(const CellCanvas* c) {
    return c->frameOverlay({float(c->width()), float(c->height())});
}

} // namespace

TEST_CASE("Operand marks are seen at the default zoom, with a count badge", "[views][gui][operand][marks]") {
    MainWindow w;
    test::openBrokenExample(w, "wgmma_desc_swizzle_64B.scn");
    OperandView* v = w.operandView();
    v->dock()->raise();
    REQUIRE(v->mismatchCount() == 896);
    CellCanvas* c = v->canvas();
    c->fitView();
    const QImage img = canvasImage(c);
    REQUIRE(!img.isNull());
    const glm::vec2 z = c->camera().zoomXY();
    const double cellArea = double(z.x) * double(z.y);
    INFO("zoom " << z.x << " x " << z.y);
    // At least 40% of the marked cells' area is magenta (outline or strong tint); the old 40% tint alone
    // left none of it magenta.
    CHECK(double(markPixels(c, img)) >= 0.4 * 896.0 * cellArea);
    const OverlayList o = overlayOf(c);
    CHECK(hasText(o, "896 differ"));
    test::screenshot(w, "marks_operand_1280x800.png");
}

TEST_CASE("Zooming the operand grid never paints over its header", "[views][gui][operand][marks]") {
    MainWindow w;
    test::openBrokenExample(w, "wgmma_desc_swizzle_64B.scn");
    OperandView* v = w.operandView();
    v->dock()->raise();
    CellCanvas* c = v->canvas();
    c->fitView();
    const QImage before = canvasImage(c);
    REQUIRE(!before.isNull());
    // Zoom around the middle cell: the grid grows past the pane's top and left, under the header.
    const glm::uvec2 mid(c->cellCount().x / 2, c->cellCount().y / 2);
    test::zoomAround(c, mid, 24.0f);
    REQUIRE(c->camera().zoom() >= 20.0f);
    REQUIRE(c->camera().worldToScreen({0, 0}).y < 0.0f); // cell row 0 is above the pane now
    QEvent leave(QEvent::Leave); // the wheel left the pointer over the grid: no inspector in the picture
    QCoreApplication::sendEvent(c, &leave);
    const QImage after = canvasImage(c);
    REQUIRE(after.size() == before.size());
    // The start of the title lines (y < 40) and the left edge of the margin (x < 12, where no row label
    // reaches) show exactly what they showed before the zoom: no cell under them.
    size_t changed = 0;
    for (int y = 0; y < 40; ++y)
        for (int x = 0; x < 150; ++x) changed += before.pixel(x, y) != after.pixel(x, y) ? 1 : 0;
    for (int y = int(kOperandMargins.y); y < after.height() - int(kOperandMargins.w); ++y)
        for (int x = 0; x < 12; ++x) changed += before.pixel(x, y) != after.pixel(x, y) ? 1 : 0;
    CHECK(changed == 0);
    if (const QString dir = qEnvironmentVariable("LAYOUTSCOPE_SCREENSHOT_DIR"); !dir.isEmpty()) {
        before.save(dir + "/marks_operand_canvas_fit.png");
        after.save(dir + "/marks_operand_canvas_zoomed.png");
    }
    test::screenshot(w, "marks_operand_zoomed.png");
}

TEST_CASE("Tensor Memory marks are seen at the default zoom, with a count badge",
          "[views][gui][tmem][marks]") {
    MainWindow w;
    test::openBrokenExample(w, "cp_desc_swizzle_64B.scn");
    w.playback()->seek(w.playback()->stepCount());
    QCoreApplication::processEvents();
    TmemViews* v = w.tmemViews();
    REQUIRE(v->tmemDock()->isVisible());
    REQUIRE(v->tmemScene().expectedMarked == 896);
    CellCanvas* c = v->tmemView();
    c->fitView();
    // On a loaded machine the first grab can come before the canvas has drawn the marks (seen once in a full
    // ctest run with two other builds: 0 magenta pixels, passing alone): grab again, up to 2 s.
    QImage img = canvasImage(c);
    size_t marks = markPixels(c, img);
    for (int i = 0; i < 20 && marks == 0; ++i) img = canvasImage(c), marks = markPixels(c, img);
    REQUIRE(!img.isNull());
    const glm::vec2 z = c->camera().zoomXY();
    INFO("zoom " << z.x << " x " << z.y << ", drawn with " << (c->usesGl() ? "OpenGL" : "the CPU fallback")
                 << ", image " << img.width() << "x" << img.height()
                 << " (saved as marks_tmem_grab.png when short)");
    CHECK(double(marks) >= 0.4 * 896.0 * double(z.x) * double(z.y));
    if (double(marks) < 0.4 * 896.0 * double(z.x) * double(z.y))
        img.save("marks_tmem_grab.png"); // in the test's directory
    CHECK(hasText(overlayOf(c), "896 cells differ"));
    test::screenshot(w, "marks_tmem_1280x800.png");
}

TEST_CASE("Fan-out and register labels do not overlap at 1280x800 and 1920x1080",
          "[views][gui][tmem][labels]") {
    const QSize size = GENERATE(QSize(1280, 800), QSize(1920, 1080));
    MainWindow w;
    w.resize(size);
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    struct Case {
        QString file;
        const char* fan; ///< the fan caption's start (nullptr: no fan)
    };
    const QString dir = QString(LAYOUTSCOPE_ASSETS_DIR) + "/";
    const Case cases[] = {
        {dir + "scenarios/tcgen05_ld_16x64b.scn", nullptr},
        {dir + "scenarios/tcgen05_st_16x32bx2.scn", nullptr},
        {dir + "reviews/epilogue_16x256b_plain.scn", nullptr},
        {dir + "scenarios/broken/tmem_ld_fragment_16x256b.scn", nullptr},
        {dir + "scenarios/tcgen05_cp_64x128b_warpx2_02_13_b6.scn", ".warpx2::02_13"},
        {dir + "scenarios/tcgen05_cp_64x128b_warpx2_01_23.scn", ".warpx2::01_23"},
        {dir + "scenarios/tcgen05_cp_32x128b_warpx4.scn", ".warpx4"},
    };
    for (const Case& k : cases) {
        w.openFile(k.file);
        w.playback()->seek(w.playback()->stepCount());
        QTest::qWait(150);
        QCoreApplication::processEvents();
        INFO(k.file.toStdString() << " at " << size.width() << "x" << size.height());
        TmemViews* v = w.tmemViews();
        REQUIRE(v->tmemDock()->isVisible());
        for (CellCanvas* c : {v->tmemView(), v->registerView()}) {
            if (!c->isVisible() || c->cellCount().x == 0) continue;
            const OverlayList o = overlayOf(c);
            for (const auto& [i, j] : overlappingTexts(o))
                FAIL_CHECK("'" << o.texts[i].text << "' overlaps '" << o.texts[j].text << "'");
        }
        const OverlayList t = overlayOf(v->tmemView());
        if (k.fan) CHECK(hasText(t, k.fan)); // the fan's caption is kept
        for (const char* q : {"lanes 0-31", "lanes 32-63", "lanes 64-95", "lanes 96-127"}) {
            INFO(q);
            CHECK(hasText(t, q));
        }
        test::screenshot(w, ("labels_" + QFileInfo(k.file).baseName() + QString("_%1.png").arg(size.width()))
                                .toUtf8()
                                .constData());
    }
}
