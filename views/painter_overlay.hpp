#pragma once
/// QPainter versions of the overlay, for the paths without OpenGL (CPU export, raster canvas):
/// the same OverlayList primitives the ImGui path draws, a bounded number of calls per frame.
#include "scene/overlay.hpp"

#include <QImage>
#include <QPainter>
#include <string>
#include <vector>

namespace layoutscope::views {

/// Shade the cells of a w x h grid into `pane` of `img` (Format_RGB32) pixel by pixel with
/// views::shadeCell, the C++ mirror of cells.frag (hatch, borders, bank lines included).
/// Pixels outside the grid are left as they are. Used where there is no OpenGL.
void paintCellsCpu(QImage& img, QRect pane, const Camera2D& cam, uint32_t w, uint32_t h,
                   const std::vector<Rgba8>& texels, ShadeParams params);

/// The overlay font (DejaVu Sans Mono, 14 px), as in the ImGui path.
[[nodiscard]] QFont overlayFont();
void paintOverlay(QPainter& p, const OverlayList& o, QPoint origin = {});
/// A box with `text` next to `cursor`, kept inside `viewport`.
void paintInspector(QPainter& p, QPointF cursor, QSizeF viewport, const std::string& text);
/// A centred box with a title and text.
void paintMessage(QPainter& p, QSizeF viewport, const std::string& title, const std::string& text);

} // namespace layoutscope::views
