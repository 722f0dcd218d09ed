// Window state persists across runs through QSettings, kept in a temporary folder here.
#include "app_settings.hpp"

#include <catch2/catch.hpp>

#include <QDockWidget>
#include <QLabel>
#include <QMainWindow>
#include <QTemporaryDir>

using namespace layoutscope::views;

namespace {
/// A main window with two named docks, as MainWindow has.
struct Win {
    QMainWindow w;
    QDockWidget *a, *b;
    Win() : a(new QDockWidget("A", &w)), b(new QDockWidget("B", &w)) {
        a->setObjectName("dockA");
        b->setObjectName("dockB");
        a->setWidget(new QLabel("a"));
        b->setWidget(new QLabel("b"));
        w.setCentralWidget(new QLabel("centre"));
        w.addDockWidget(Qt::LeftDockWidgetArea, a);
        w.addDockWidget(Qt::RightDockWidgetArea, b);
    }
};
} // namespace

TEST_CASE("Layout, theme and last file survive a restart; --reset-layout forgets the layout", "[views][gui][settings]") {
    QTemporaryDir tmp;
    AppSettings::useSettingsFolder(tmp.path());
    const AppSettings s;
    CHECK(s.theme() == Theme::Dark); // default
    CHECK(s.lastFile().isEmpty());
    {
        Win first;
        CHECK_FALSE(s.restoreWindow(first.w)); // nothing saved yet
        first.w.show();
        first.w.addDockWidget(Qt::LeftDockWidgetArea, first.b); // the user moves dock B to the left
        first.b->hide();                                         // and closes it
        s.saveWindow(first.w);
        s.setTheme(Theme::Light);
        s.setLastFile("/x/tile.scn");
    }
    {
        Win second; // "next run"
        REQUIRE(s.restoreWindow(second.w));
        CHECK(second.w.dockWidgetArea(second.b) == Qt::LeftDockWidgetArea);
        CHECK(second.b->isHidden());
        CHECK(s.theme() == Theme::Light);
        CHECK(s.lastFile() == "/x/tile.scn");
    }
    s.resetLayout();
    Win third;
    CHECK_FALSE(s.restoreWindow(third.w));
    CHECK(third.w.dockWidgetArea(third.b) == Qt::RightDockWidgetArea);
    CHECK(s.theme() == Theme::Light); // reset keeps the theme
}

TEST_CASE("Theme names round-trip", "[views][gui][settings]") {
    CHECK(themeFromName(themeName(Theme::Light)) == Theme::Light);
    CHECK(themeFromName(themeName(Theme::Dark)) == Theme::Dark);
    CHECK(themeFromName("LIGHT") == Theme::Light);
    CHECK(themeFromName("bogus") == Theme::Dark);
}
