// Robustness of the window (issue 11): a file that crashed the GUI is not reopened at the next start,
// a gather4 with rows 10^8 apart opens and draws, and huge extents never size the canvases.
#include "app_settings.hpp"
#include "main_window.hpp"

#include <catch2/catch.hpp>

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {
QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
    const QString p = dir.filePath(name);
    QFile f(p);
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.write(text);
    return p;
}
} // namespace

TEST_CASE("A file that was being opened when the GUI died is not reopened at the next start",
          "[views][gui][settings][robust]") {
    QTemporaryDir tmp;
    AppSettings::useSettingsFolder(tmp.path());
    const AppSettings s;
    const QString good = writeFile(tmp, "good.scn", "target sm_90a\n");
    const QString crash = writeFile(tmp, "crash.scn", "target sm_90a\n");
    const QString fallback = writeFile(tmp, "default.scn", "target sm_90a\n");
    SECTION("opened and drawn: it is the last file, reopened next time") {
        s.beginOpening(good);
        CHECK(s.openingFile() == good);
        s.finishOpening(good, true);
        CHECK(s.openingFile().isEmpty());
        const auto start = s.startupFile(fallback);
        CHECK(start.path == good);
        CHECK(start.note.isEmpty());
    }
    SECTION("the run ended while opening another file: the last good one opens, with a note") {
        s.setLastFile(good);
        s.beginOpening(crash); // ... and the process dies here
        const auto start = s.startupFile(fallback);
        CHECK(start.path == good);
        CHECK(start.note.contains("crash.scn"));
        CHECK(s.openingFile().isEmpty()); // one strike: the note is shown once
        CHECK(s.startupFile(fallback).note.isEmpty());
    }
    SECTION("the last file itself crashed (edited on disk since): the fallback opens, last file forgotten") {
        s.setLastFile(crash);
        s.beginOpening(crash);
        const auto start = s.startupFile(fallback);
        CHECK(start.path == fallback);
        CHECK(start.note.contains("Not reopening"));
        CHECK(s.lastFile().isEmpty());
    }
    SECTION("MainWindow records the last file only after it drew a frame") {
        MainWindow w;
        w.resize(1200, 800);
        w.openFile(good);
        CHECK(s.openingFile() == good); // not drawn yet: a crash now would not loop
        CHECK(s.lastFile() != good);
        w.show();
        REQUIRE(QTest::qWaitForWindowExposed(&w));
        QTRY_VERIFY_WITH_TIMEOUT(s.openingFile().isEmpty(), 5000);
        CHECK(s.lastFile() == good);
    }
}

TEST_CASE("A gather4 of rows 10^8 apart opens and draws; the global view stays small",
          "[views][gui][robust]") {
    MainWindow w;
    w.resize(1400, 900);
    w.openFile(LAYOUTSCOPE_TEST_DATA_DIR "/gather4_rows_far_apart.scn");
    REQUIRE(w.document()->hasTrace());
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    // 64 + 16 columns; rows: [-8, 12), gap, 50000000 +- 8, gap, 99999999 +- 8 (global_axis.hpp).
    CHECK(w.globalView()->cellCount() == glm::uvec2(80, 56));
    CHECK(w.globalCellOf(0, 99999999).has_value());
    CHECK_FALSE(w.globalCellOf(0, 1000).has_value()); // elided
    w.playback()->toStart();
    w.playback()->toEnd();
    QTest::qWait(100);
    CHECK(w.document()->hasTrace());
}
