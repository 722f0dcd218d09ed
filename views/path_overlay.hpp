#pragma once
/// PathOverlay: a transparent widget over the whole main window that draws the linked selection's
/// path across views (global tensor -> shared memory -> Tensor Memory -> registers): one segment
/// per stage, solid once its moves have played, pulsing while they play, dashed before. It takes
/// no mouse input, and is hidden (costing nothing) while nothing is selected.
#include <QWidget>
#include <functional>
#include <vector>

namespace layoutscope::views {

struct PathSegment {
    QPointF a, b; ///< window coordinates
    enum class State { Done, Playing, Ahead } state = State::Ahead;
    QString label; ///< e.g. "step 17: cp.async.bulk.tensor..."
};

class PathOverlay : public QWidget {
    Q_OBJECT
  public:
    using SegmentsFn = std::function<std::vector<PathSegment>()>;
    PathOverlay(QWidget* window, SegmentsFn fn);
    /// Recompute the segments and repaint (after a step, a camera move or a new selection). The GL
    /// canvases are native windows stacked above this widget: each gets the segments to draw the
    /// part over itself (CellCanvas::setPathPieces), and repaints only when they change.
    void refresh();
    /// Dash offset of playing segments (px); the owner advances it with the step, so a paused
    /// path stands still and costs no frames.
    void setPhase(int phase) { m_phase = phase; }
    [[nodiscard]] const std::vector<PathSegment>& segments() const { return m_segments; }

  protected:
    void paintEvent(QPaintEvent* e) override;
    bool eventFilter(QObject* o, QEvent* e) override;

  private:
    SegmentsFn m_fn;
    std::vector<PathSegment> m_segments;
    int m_phase = 0; ///< dash offset of the playing segments
};

} // namespace layoutscope::views
