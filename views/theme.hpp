#pragma once
/// Light and dark themes for the widgets (View > Theme): the Fusion style with a matching palette.
/// The canvases draw their own background/grid/labels; they read the palette's Window, Mid and
/// Text roles through themeColours() so they can follow the theme.
#include "app_settings.hpp"

#include <QColor>
#include <QPalette>

namespace layoutscope::views {

struct ThemeColours {
    QColor background; ///< canvas background (the dark one matches kBackground of the cell shader)
    QColor grid;       ///< grid lines, untouched cells' outline
    QColor label;      ///< axis labels, legends
    QColor dimLabel;   ///< secondary labels (units, byte offsets)
};

[[nodiscard]] QPalette themePalette(Theme t);
[[nodiscard]] ThemeColours themeColours(Theme t);
/// The theme the live canvases draw in (clear colour, overlay text, ImGui windows); set by applyTheme.
/// Exports keep the dark look of the reference images.
[[nodiscard]] Theme canvasTheme();
/// Set the application's style (Fusion) and palette; widgets repaint.
void applyTheme(Theme t);

} // namespace layoutscope::views
