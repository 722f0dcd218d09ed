// The window fits the screen (issue 24 item 7): at 1280x800 it opened at 1600x980, larger than the
// screen. The GUI binary runs on Qt's offscreen platform with a screen of the size under test (its
// configfile option), grabs its window (--grab) and the PNG's size is the window's.
#include "main_window.hpp"

#include <catch2/catch.hpp>

#include <QFile>
#include <QImage>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>

using namespace layoutscope::views;

TEST_CASE("The first window size fits the screen's available area", "[views][gui][layout][fit]") {
    SECTION("a 1920x1080 screen has room for 1600x980") {
        CHECK(initialWindowSize(QSize(1920, 1080)) == QSize(1600, 980));
    }
    SECTION("a 1280x800 screen (a 32-px panel taken): the framed window fits") {
        const QSize s = initialWindowSize(QSize(1280, 768));
        CHECK(s.width() <= 1280);
        CHECK(s.height() + kTitleBarAllowance <= 768);
    }
}

TEST_CASE("The GUI opens within the screen at 1280x800 and 1920x1080", "[views][gui][layout][fit]") {
    const QSize screen = GENERATE(QSize(1280, 800), QSize(1920, 1080));
    const int w = screen.width(), h = screen.height();
    QTemporaryDir tmp;
    REQUIRE(tmp.isValid());
    const QString config = tmp.filePath("screen.json");
    {
        QFile f(config);
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write(QString(R"({"screens": [{"name": "test", "x": 0, "y": 0, "width": %1, "height": %2,
                           "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})")
                    .arg(w)
                    .arg(h)
                    .toUtf8());
    }
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove("DISPLAY");
    env.insert("QT_QPA_PLATFORM", "offscreen:configfile=" + config);
    env.insert("HOME", tmp.path()); // no saved geometry or last file of the user's
    env.insert("XDG_CONFIG_HOME", tmp.filePath("config"));
    env.insert("XDG_DATA_HOME", tmp.filePath("data"));
    const QString out = tmp.filePath("window.png");
    QProcess gui;
    gui.setProcessEnvironment(env);
    gui.start(LAYOUTSCOPE_GUI_BINARY,
              {"--scenario", QString(LAYOUTSCOPE_ASSETS_DIR) + "/scenarios/tma_tile_64x64_f16_sw128.scn",
               "--grab", out});
    REQUIRE(gui.waitForFinished(60000));
    INFO(gui.readAllStandardError().toStdString());
    REQUIRE(gui.exitCode() == 0);
    const QImage png(out);
    INFO("screen " << w << "x" << h << ", window " << png.width() << "x" << png.height());
    REQUIRE(!png.isNull());
    CHECK(png.width() <= w);
    CHECK(png.height() + kTitleBarAllowance <= h);
    if (w >= 1600 + 0 && h >= 980 + kTitleBarAllowance) CHECK(png.size() == QSize(1600, 980));
}
