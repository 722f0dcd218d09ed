// Main of views_gui_tests: a QApplication (offscreen unless told otherwise) around Catch2.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "app_settings.hpp"
#include "recovery_store.hpp"

#include <QApplication>
#include <QSurfaceFormat>
#include <QTemporaryDir>

int main(int argc, char** argv) {
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
