#pragma once
/// TimelineWidget: play/pause, step and instruction forward/back, start/end, a scrub slider over [0,
/// stepCount], the speed, and which instruction the current step belongs to.
#include "layoutscope/async/timeline.hpp"
#include "playback.hpp"

#include <QWidget>
#include <string>
#include <vector>

class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace layoutscope::views {

class TimelineWidget : public QWidget {
    Q_OBJECT
  public:
    TimelineWidget(Playback* playback, QWidget* parent = nullptr);
    /// Instruction summaries with their [first, end) steps, shown under the slider.
    struct Span {
        uint32_t first = 0, end = 0;
        std::string text;
    };
    void setSpans(std::vector<Span> spans);
    /// Which spans the event filter shows (one per span; empty: all): the strip draws the others grey
    /// and unlabelled (issue 22 item 4). setSpans clears it.
    void setShown(std::vector<bool> shown);
    [[nodiscard]] const std::vector<bool>& shown() const { return m_shown; }
    /// The async lanes (issue 23 item 4: spans, phases, race arrows) of `doc`'s run; hidden without
    /// asynchronous operations (and for recorded kernels, whose order the executor judged). Call after
    /// setSpans. `prepared`: the timeline already built on a worker (PreparedViews::order), else built here.
    void setOrder(const class Document* doc, async::Timeline* prepared = nullptr);
    [[nodiscard]] class AsyncLanes* asyncLanes() const { return m_lanes; }

  protected:
    void changeEvent(QEvent* e) override;       ///< redraws the transport icons when the theme changes
    void resizeEvent(QResizeEvent* e) override; ///< re-elides the instruction line to the new width

  private:
    void onStep(uint32_t step);
    void updateIcons();
    void showInstrText(); ///< m_instrText elided to the label's width (full text in the tooltip)
    Playback* m_pb;
    QSlider* m_slider;
    QLabel* m_stepLabel;
    QLabel* m_instrLabel;
    QString m_instrText;
    QToolButton* m_play;
    std::vector<QToolButton*> m_transport; ///< start, instr back, back, play, forward, instr forward, end
    QComboBox* m_speed;
    class InstrStrip* m_strip = nullptr;
    class AsyncLanes* m_lanes = nullptr;
    std::vector<Span> m_spans;
    std::vector<bool> m_shown;
};

} // namespace layoutscope::views
