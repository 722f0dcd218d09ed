#pragma once
/// PathOverlay: a transparent widget over the whole main window that draws the linked selection's
/// path across views (global tensor -> shared memory -> Tensor Memory -> registers): one segment
/// per stage, solid once its moves have played, dashed and marching while they play, grey before
/// (scene/path_primitives.hpp). It takes no mouse input, and is hidden (costing nothing) while
/// nothing is selected.
///
/// The GL canvases are native windows, which X stacks above this widget: it shows the path between
/// them, and hands the segments to each canvas to draw the part over itself
/// (CellCanvas::setPathPieces), from the same primitives.
#include "scene/path_primitives.hpp"

#include <QWidget>
#include <functional>
#include <vector>

namespace layoutscope::views {

class PathOverlay : public QWidget {
    Q_OBJECT
  public:
    /// The segments in window coordinates.
    using SegmentsFn = std::function<std::vector<PathPiece>()>;
    PathOverlay(QWidget* window, SegmentsFn fn);
    /// Recompute the segments and repaint (after a step, a camera move or a new selection); the
    /// canvases repaint only when their part changes.
    void refresh();
    /// Dash offset of playing segments (px); the owner advances it with the step, so a paused
    /// path stands still and costs no frames.
    void setPhase(int phase) { m_phase = phase; }
    [[nodiscard]] const std::vector<PathPiece>& segments() const { return m_segments; }

  protected:
    void paintEvent(QPaintEvent* e) override;
    bool eventFilter(QObject* o, QEvent* e) override;

  private:
    SegmentsFn m_fn;
    std::vector<PathPiece> m_segments;
    int m_phase = 0; ///< dash offset of the playing segments
};

} // namespace layoutscope::views
