#pragma once
/// InstrFilterBar: above the event list, which instructions the event list and the timeline show
/// (issue 22 item 4): a warp (each issuing warp of a recorded kernel, "warp W of CTA C", with its
/// instruction count) and an instruction family (TMA, mbarrier, tcgen05.mma, ...; those the trace holds).
/// A new trace resets it to everything.
#include "scene/instr_filter.hpp"

#include <QWidget>

class QComboBox;
class QLabel;

namespace layoutscope::views {

class EventList;
class TimelineWidget;

class InstrFilterBar : public QWidget {
    Q_OBJECT
  public:
    /// Filters `list` and dims what it hides on `timeline`'s instruction strip (nullptr: none).
    InstrFilterBar(EventList* list, TimelineWidget* timeline, QWidget* parent = nullptr);
    [[nodiscard]] QComboBox* warpBox() const { return m_warp; }
    [[nodiscard]] QComboBox* familyBox() const { return m_family; }
    [[nodiscard]] InstrFilter filter() const;

  signals:
    void filterChanged(const layoutscope::views::InstrFilter& f);

  private:
    void refill(); ///< the trace changed: list its warps and families, show everything
    void apply();
    EventList* m_list;
    TimelineWidget* m_timeline;
    QComboBox* m_warp;
    QComboBox* m_family;
    QLabel* m_count;
};

/// The Events dock's widget: the filter bar over `list`.
[[nodiscard]] QWidget* eventPaneWithFilter(EventList* list, TimelineWidget* timeline, QWidget* parent);

} // namespace layoutscope::views
