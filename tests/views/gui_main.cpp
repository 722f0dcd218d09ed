// Main of views_gui_tests: a QApplication (offscreen unless told otherwise) around Catch2.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "app_settings.hpp"
#include "recovery_store.hpp"

#include <QApplication>
#include <QSurfaceFormat>
#include <QTemporaryDir>

#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <thread>
#include <unistd.h>

namespace {

/// Two GUI tests on one X server share its pointer: a window one maps under the pointer sends the other's
/// Leave/Motion events (seen in CI as inspectors showing another cell). Each test process takes an X server
/// no other test holds: one of LAYOUTSCOPE_TEST_DISPLAYS (scripts/test starts two), else $DISPLAY, held by an
/// flock on /tmp/layoutscope-x<display>.lock until the process exits; it waits while all are taken.
void takeDisplay() {
    QByteArray list = qgetenv("LAYOUTSCOPE_TEST_DISPLAYS").simplified();
    if (list.isEmpty()) list = qgetenv("DISPLAY").simplified();
    if (list.isEmpty()) return;
    const QList<QByteArray> displays = list.split(' ');
    for (;;) {
        bool opened = false;
        for (const QByteArray& d : displays) {
            QByteArray name = d;
            name.replace('/', '_');
            const int fd = ::open(("/tmp/layoutscope-x" + name + ".lock").constData(),
                                  O_RDWR | O_CREAT | O_CLOEXEC, 0666);
            if (fd < 0) continue;
            opened = true;
            if (::flock(fd, LOCK_EX | LOCK_NB) == 0) { // held (fd left open) until the process exits
                qputenv("DISPLAY", d);
                return;
            }
            ::close(fd);
        }
        if (!opened) return; // no lock file can be made: use $DISPLAY as it is
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

} // namespace

int main(int argc, char** argv) {
    // Listing the tests (catch_discover_tests, at build time) needs no display.
    bool listing = false;
    for (int i = 1; i < argc; ++i) listing = listing || std::strncmp(argv[i], "--list", 6) == 0;
    if (!listing) takeDisplay();
    // QOpenGLWidget needs a platform with RasterGLSurface: under an X server (xvfb-run) use xcb,
    // else stay offscreen (the canvases then draw with their raster fallback).
    if (!qEnvironmentVariableIsEmpty("DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "xcb");
    else if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QSurfaceFormat fmt;
    fmt.setVersion(3, 3);
    fmt.setProfile(QSurfaceFormat::CoreProfile);
    QSurfaceFormat::setDefaultFormat(fmt);
    QApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
    QApplication app(argc, argv);
    // Never read or write the user's window layout, theme or last file: MainWindow restores and saves
    // them (a saved layout would also move the cells the interaction tests hover).
    QTemporaryDir settingsDir;
    layoutscope::views::AppSettings::useSettingsFolder(settingsDir.path());
    // Nor the user's autosave (recovery) files: the editor tests type, so they autosave.
    QTemporaryDir recoveryDir;
    layoutscope::views::RecoveryStore::useFolder(recoveryDir.path());
    return Catch::Session().run(argc, argv);
}
