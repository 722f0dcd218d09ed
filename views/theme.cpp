#include "theme.hpp"

#include <QApplication>
#include <QStyleFactory>

namespace layoutscope::views {

ThemeColours themeColours(Theme t) {
    if (t == Theme::Light)
        return {QColor(246, 246, 244), QColor(200, 200, 204), QColor(20, 20, 24), QColor(100, 100, 110)};
    return {QColor(24, 25, 28), QColor(60, 62, 68), QColor(235, 235, 235), QColor(150, 150, 155)};
}

QPalette themePalette(Theme t) {
    const ThemeColours c = themeColours(t);
    const bool dark = t == Theme::Dark;
    QPalette p;
    const QColor window = dark ? QColor(37, 38, 42) : QColor(239, 239, 237);
    const QColor base = dark ? QColor(28, 29, 32) : QColor(255, 255, 255);
    const QColor button = dark ? QColor(48, 50, 55) : QColor(228, 228, 226);
    const QColor highlight = dark ? QColor(64, 120, 200) : QColor(48, 110, 200);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, c.label);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, dark ? QColor(34, 35, 39) : QColor(246, 246, 244));
    p.setColor(QPalette::Text, c.label);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, c.label);
    p.setColor(QPalette::ToolTipBase, dark ? QColor(50, 52, 58) : QColor(255, 255, 225));
    p.setColor(QPalette::ToolTipText, c.label);
    p.setColor(QPalette::PlaceholderText, c.dimLabel);
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, QColor(255, 255, 255));
    p.setColor(QPalette::Link, highlight.lighter(dark ? 130 : 100));
    p.setColor(QPalette::Mid, c.grid);
    p.setColor(QPalette::Disabled, QPalette::Text, c.dimLabel);
    p.setColor(QPalette::Disabled, QPalette::WindowText, c.dimLabel);
    p.setColor(QPalette::Disabled, QPalette::ButtonText, c.dimLabel);
    return p;
}

namespace {
Theme s_canvasTheme = Theme::Dark;
}

Theme canvasTheme() {
    return s_canvasTheme;
}

void applyTheme(Theme t) {
    s_canvasTheme = t;
    if (QStyle* s = QStyleFactory::create("Fusion")) QApplication::setStyle(s);
    QApplication::setPalette(themePalette(t));
}

} // namespace layoutscope::views
