// The canvases draw in native GL windows (GlSurface): check what the X screen shows, not what the
// widgets render. A canvas whose window was left behind by a reparent, stacked under a native
// sibling, or not repainted after a resize shows the dock's plain background there instead.
#include "cell_canvas.hpp"
#include "main_window.hpp"
#include "swizzle_explorer.hpp"
#include "window_grab.hpp"

#include <catch2/catch.hpp>

#include <QDockWidget>
#include <QGuiApplication>
#include <QScreen>
#include <QTest>
#include <set>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {

/// Distinct colours of the screen's pixels inside the canvas (every 3rd pixel).
size_t screenColours(CellCanvas* c) {
    const QPoint g = c->mapToGlobal(QPoint(0, 0));
    const QImage img =
        QGuiApplication::primaryScreen()->grabWindow(0, g.x(), g.y(), c->width(), c->height()).toImage();
    std::set<QRgb> colours;
    for (int y = 0; y < img.height(); y += 3)
        for (int x = 0; x < img.width(); x += 3) colours.insert(img.pixel(x, y));
    return colours.size();
}

bool waitPainted(CellCanvas* c) {
    bool painted = false;
    const auto conn = QObject::connect(c, &CellCanvas::framePainted, [&](double) { painted = true; });
    c->fitView(); // asks the GL window for a frame
    const bool ok = QTest::qWaitFor([&] { return painted; }, 3000);
    QObject::disconnect(conn);
    QTest::qWait(100); // the swap reaches the X server
    return ok;
}

} // namespace

TEST_CASE("Every visible GL canvas shows its frame on the screen, a tabbed dock's once raised",
          "[views][gui][native]") {
    if (QGuiApplication::platformName() != "xcb") {
        WARN("skipped: needs an X server (run under xvfb-run) to read back the screen");
        return;
    }
    MainWindow w;
    w.resize(1500, 950);
    w.setDocument(
        Document::fromFile(std::string(LAYOUTSCOPE_ASSETS_DIR) + "/scenarios/tma_tile_64x64_f16_sw128.scn"));
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    QTest::qWait(500);
    SECTION("shared memory (central) and the global tensor (in a dock)") {
        for (CellCanvas* c : {w.smemView(), w.globalView()}) {
            REQUIRE(c->usesGl());
            REQUIRE(waitPainted(c));
            // Cells, labels and legends: many colours. A blank window or the dock background: 1 or 2.
            CHECK(screenColours(c) > 20);
        }
    }
    SECTION("the swizzle explorer, tabbed behind the scenario editor, once its tab is raised") {
        auto* e = w.findChild<SwizzleExplorer*>();
        REQUIRE(e != nullptr);
        REQUIRE(w.swizzleDock() != nullptr);
        w.swizzleDock()->raise();
        QTest::qWait(300);
        REQUIRE(e->canvas()->isVisible());
        REQUIRE(waitPainted(e->canvas()));
        CHECK(screenColours(e->canvas()) > 20);
    }
}
