// Frame-time observation (hidden: run with `views_gui_tests "[bench]"`): play the default scenario
// and report paint times and frame rate. Prints numbers; asserts only that frames were painted.
#include "main_window.hpp"
#include "window_grab.hpp"

#include <catch2/catch.hpp>

#include <QElapsedTimer>
#include <QTest>

using namespace layoutscope::views;

TEST_CASE("Frame times while playing the default scenario", "[.][bench]") {
    MainWindow w;
    w.resize(1600, 980);
    w.openFile(LAYOUTSCOPE_ASSETS_DIR "/scenarios/tma_tile_64x64_f16_sw128.scn");
    REQUIRE(w.document()->hasTrace());
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    int frames = 0;
    double sumSmem = 0, maxSmem = 0;
    QObject::connect(w.smemView(), &CellCanvas::framePainted, [&](double ms) {
        ++frames;
        sumSmem += ms;
        maxSmem = std::max(maxSmem, ms);
    });
    w.playback()->setSpeed(256);
    w.playback()->toStart();
    QElapsedTimer t;
    t.start();
    w.playback()->play();
    bool shot = false;
    while (w.playback()->playing() && t.elapsed() < 10000) {
        QTest::qWait(10);
        const QString dir = qEnvironmentVariable("LAYOUTSCOPE_SCREENSHOT_DIR");
        if (!shot && !dir.isEmpty() && w.playback()->step() > w.playback()->stepCount() / 3) {
            grabWithCanvases(w).save(dir + "/window_playing.png"); // the trail behind the arriving chunks
            shot = true;
        }
    }
    const double secs = double(t.elapsed()) / 1000.0;
    WARN("platform " << (w.smemView()->usesGl() ? "OpenGL" : "raster fallback") << ": " << frames
                     << " SMEM frames in " << secs << " s (" << frames / secs << " fps), paint mean "
                     << (frames ? sumSmem / frames : 0) << " ms, max " << maxSmem << " ms, global view mean "
                     << w.globalView()->frameMs() << " ms");
    CHECK(frames > 0);
}
