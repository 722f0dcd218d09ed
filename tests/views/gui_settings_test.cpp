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

TEST_CASE("Layout, theme and last file survive a restart; --reset-layout forgets the layout",
          "[views][gui][settings]") {
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
        first.b->hide();                                        // and closes it
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

#include "theme.hpp"

#include <QApplication>
#include <cmath>

TEST_CASE("The light and dark themes give readable, opposite palettes", "[views][gui][settings][theme]") {
    // WCAG 2 relative luminance: linearised sRGB channels, weighted.
    const auto lin = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    const auto lum = [&](const QColor& c) {
        return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF());
    };
    for (Theme t : {Theme::Dark, Theme::Light}) {
        const QPalette p = themePalette(t);
        INFO(themeName(t).toStdString());
        // Text against its background: WCAG relative-luminance contrast of at least 7:1 (AAA).
        const double a = lum(p.color(QPalette::Text)), b = lum(p.color(QPalette::Base));
        CHECK((std::max(a, b) + 0.05) / (std::min(a, b) + 0.05) >= 7.0);
        const bool darkBg = lum(p.color(QPalette::Window)) < 0.5;
        CHECK(darkBg == (t == Theme::Dark));
        CHECK((lum(themeColours(t).background) < 0.5) == (t == Theme::Dark));
    }
    const QPalette before = QApplication::palette();
    applyTheme(Theme::Light);
    CHECK(QApplication::palette().color(QPalette::Window) ==
          themePalette(Theme::Light).color(QPalette::Window));
    QApplication::setPalette(before);
}
