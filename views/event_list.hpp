#pragma once
/// Event list: one row per executed instruction (its PTX text, the CTAs it wrote, bytes moved, mbarrier
/// tx bytes, the provenance of the rules that placed its bytes), expandable into its sub-steps.
/// Selecting a row asks the timeline to seek: an instruction to the step after its last move, a
/// sub-step to the state right after it.
#include "layoutscope/trace.hpp"

#include <QTreeWidget>

namespace layoutscope::views {

class EventList : public QTreeWidget {
    Q_OBJECT
  public:
    enum Column { ColSteps, ColPtx, ColCta, ColBytes, ColTx, ColProvenance, ColumnCount };
    explicit EventList(QWidget* parent = nullptr);
    /// Rebuild the rows from a trace (empty trace: no rows).
    void setTrace(const Trace* trace);
    /// Highlight the row of the instruction that produced `step`'s moves (no seek is emitted).
    void showStep(uint32_t step);

  signals:
    void seekRequested(uint32_t step);

  private:
    /// Make the sub-step rows of an instruction row (on first expansion).
    void fillSubSteps(QTreeWidgetItem* row);
    bool m_updating = false;
    const Trace* m_trace = nullptr; ///< the trace of the rows (owned by the document)
};

} // namespace layoutscope::views
