#pragma once
/// QPainter versions of the overlay, for the paths without OpenGL (CPU export, raster canvas):
/// the same OverlayList primitives the ImGui path draws, a bounded number of calls per frame.
#include "scene/overlay.hpp"

#include <QPainter>
#include <string>

namespace layoutscope::views {

/// The overlay font (DejaVu Sans Mono, 14 px), as in the ImGui path.
[[nodiscard]] QFont overlayFont();
void paintOverlay(QPainter& p, const OverlayList& o, QPoint origin = {});
/// A box with `text` next to `cursor`, kept inside `viewport`.
void paintInspector(QPainter& p, QPointF cursor, QSizeF viewport, const std::string& text);
/// A centred box with a title and text.
void paintMessage(QPainter& p, QSizeF viewport, const std::string& title, const std::string& text);

} // namespace layoutscope::views
