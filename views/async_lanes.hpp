#pragma once
/// AsyncLanes: the timeline's asynchronous units (issue 23 item 4), under the instruction strip, on a step
/// axis of their own (the widget's width right of the lane names; a line marks the current step). One lane
/// per async unit kind present (TMA, MMA, tcgen05 copies, bulk / cp.async, wgmma) with each operation's
/// issue-to-completion span (open-ended, to the right edge, when nothing ever observed its completion), a row
/// of mbarrier phase ticks, and for each race an arrow from one access's instruction to the other's in the
/// diagnostic colour. Tooltips name the instructions; a click goes to the instruction's step
/// (instrActivated). Hidden when the scenario has no asynchronous operation. A kernel's lanes (the executor's
/// model, async::Timeline::kernel) name PTX lines and say where a step is only approximate.
#include "layoutscope/async/timeline.hpp"
#include "layoutscope/core/result.hpp"

#include <QColor>
#include <QLineF>
#include <QRectF>
#include <QString>
#include <QWidget>
#include <utility>
#include <vector>

namespace layoutscope::views {

class AsyncLanes : public QWidget {
    Q_OBJECT
  public:
    explicit AsyncLanes(QWidget* parent);
    /// The model's timeline and the run's diagnostics (RaceLink::finding indexes them). Empty: hidden.
    void setOrder(async::Timeline order, std::vector<Diagnostic> diagnostics);
    /// Each trace instruction's [first, end) playback steps.
    void setSteps(std::vector<std::pair<uint32_t, uint32_t>> instrSteps);
    /// The step count and the current step (a line marks it).
    void setStep(uint32_t count, uint32_t step);

    /// What is drawn, in widget coordinates (hit testing, tooltips, tests).
    struct Item {
        enum Kind { Span, Tick, Race } kind = Span;
        QRectF rect;       ///< a span's bar, a tick's box, a race's bounding box
        QLineF line;       ///< a race's arrow (from the first access to the second)
        bool open = false; ///< a span never observed: runs to the right edge
        QString tip;
        uint32_t instr = 0; ///< the instruction a click goes to
        QColor colour;
    };
    [[nodiscard]] const std::vector<Item>& items() const; ///< built once per order, steps and width
    /// The lanes drawn (async::Lane in order), for tests.
    [[nodiscard]] std::vector<async::Lane> lanes() const { return m_lanes; }
    [[nodiscard]] const async::Timeline& order() const { return m_order; }
    /// "N more operations, ... not drawn" when the timeline hit async::kMaxTimelineItems (a big kernel);
    /// empty otherwise. Drawn at the lanes' bottom right and given as the tooltip away from any item.
    [[nodiscard]] QString leftOutNote() const;
    /// Full rows in a window (or, before it shows, a screen) 900 px tall or more, else compact ones.
    [[nodiscard]] QSize sizeHint() const override;
    static constexpr int kRowHeight = 13, kRaceBand = 11, kTickRow = 10, kLabelWidth = 84, kCompactRow = 9;

  signals:
    void instrActivated(uint32_t instr);

  protected:
    void paintEvent(QPaintEvent*) override;
    bool event(QEvent* e) override; ///< tooltips
    void mousePressEvent(QMouseEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

  private:
    [[nodiscard]] double xOfStep(uint32_t s) const;
    [[nodiscard]] double instrX(uint32_t instr, bool end) const;
    [[nodiscard]] double axisLeft() const;
    [[nodiscard]] double axisRight() const;
    struct Bands {
        double race = 0, row = 0, tick = 0, ticksY = 0; ///< heights of the race band, a lane, the tick row
        double arrowY = 0;                              ///< where race arrows run
        bool compact = false;                           ///< no race band or tick row of their own
    };
    [[nodiscard]] Bands bands() const; ///< scaled to the height the layout gives
    [[nodiscard]] double laneTop(async::Lane l) const;
    [[nodiscard]] const Item* hit(const QPointF& p) const;
    void buildItems() const;
    async::Timeline m_order;
    std::vector<Diagnostic> m_diags;
    std::vector<async::Lane> m_lanes;
    std::vector<std::pair<uint32_t, uint32_t>> m_instrSteps;
    uint32_t m_count = 0, m_step = 0;
    int m_fullHeight = 0;
    mutable std::vector<Item> m_items;
    mutable bool m_itemsValid = false;
};

} // namespace layoutscope::views
