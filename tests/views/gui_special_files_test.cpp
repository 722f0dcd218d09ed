// Never block on a special file (issue 25 item 2): a FIFO or /dev/zero named as a scenario, module or
// lesson froze the GUI before its window appeared. Only regular files are read; anything else is a
// diagnostic naming what it is. (A regression blocks in open(): the test's timeout reports it.)
#include "lesson_dock.hpp"
#include "main_window.hpp"

#include <catch2/catch.hpp>

#include <QProcess>
#include <QTemporaryDir>
#include <sys/stat.h>

using namespace layoutscope::views;

namespace {
/// The first diagnostic of the window's document ("" when none).
std::string firstMessage(const MainWindow& w) {
    return w.document() && !w.document()->diagnostics().empty() ? w.document()->diagnostics().front().message
                                                                : std::string();
}
} // namespace

TEST_CASE("Opening a FIFO or a device shows why, without reading it", "[views][gui][files][special]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString fifo = dir.filePath("pipe.scn");
    REQUIRE(::mkfifo(fifo.toLocal8Bit().constData(), 0600) == 0); // no writer: an open() would block
    MainWindow w;
    SECTION("a FIFO named .scn") {
        w.openFile(fifo);
        CHECK_FALSE(w.document()->hasTrace());
        CHECK(firstMessage(w).find("a FIFO (named pipe), not a regular file") != std::string::npos);
    }
    SECTION("a FIFO named .ptx") {
        const QString ptx = dir.filePath("pipe.ptx");
        REQUIRE(::mkfifo(ptx.toLocal8Bit().constData(), 0600) == 0);
        w.openFile(ptx);
        CHECK(firstMessage(w).find("a FIFO (named pipe)") != std::string::npos);
    }
    SECTION("/dev/zero (endless)") {
        w.openFile("/dev/zero");
        CHECK(firstMessage(w).find("a device, not a regular file") != std::string::npos);
    }
    SECTION("a directory") {
        w.openFile(dir.path());
        CHECK(firstMessage(w).find("a directory, not a regular file") != std::string::npos);
    }
    SECTION("a FIFO as a lesson") {
        auto* lesson = w.findChild<LessonDock*>();
        REQUIRE(lesson);
        CHECK_FALSE(lesson->openLesson(fifo));
    }
}

TEST_CASE("The GUI binary given a FIFO exits with the reason instead of hanging",
          "[views][gui][files][special]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString fifo = dir.filePath("pipe.scn");
    REQUIRE(::mkfifo(fifo.toLocal8Bit().constData(), 0600) == 0);
    QProcess gui;
    gui.start(LAYOUTSCOPE_GUI_BINARY, {"--scenario", fifo, "--export", dir.filePath("out.png")});
    const bool finished = gui.waitForFinished(30000);
    if (!finished) gui.kill();
    REQUIRE(finished);
    CHECK(gui.exitCode() != 0);
    CHECK(gui.readAllStandardError().contains("not a regular file"));
}
