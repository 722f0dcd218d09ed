#pragma once
/// Event list: one row per executed instruction (its PTX text, the CTAs it wrote, bytes moved, mbarrier
/// tx bytes, the provenance of the rules that placed its bytes), expandable into its sub-steps.
/// Selecting a row asks the timeline to seek: an instruction to the step after its last move, a
/// sub-step to the state right after it.
#include "layoutscope/core/trace.hpp"
#include "scene/instr_filter.hpp"

#include <QTreeWidget>
#include <optional>
#include <vector>

namespace layoutscope::views {

class EventList : public QTreeWidget {
    Q_OBJECT
  public:
    enum Column { ColSteps, ColPtx, ColCta, ColBytes, ColTx, ColProvenance, ColumnCount };
    explicit EventList(QWidget* parent = nullptr);
    ~EventList() override;
    /// Rebuild the rows from a trace (empty trace: no rows). The first kRowsPerSlice rows are made at
    /// once, the rest in slices between events (a 10,000-instruction trace never stalls the window).
    void setTrace(const Trace* trace);
    /// setTrace with each instruction's family (Document::instrFamilies; empty: from the texts).
    void setTrace(const Trace* trace, std::vector<InstrFamily> families);
    /// The family of each instruction of the trace shown.
    [[nodiscard]] const std::vector<InstrFamily>& families() const { return m_families; }
    static constexpr size_t kRowsPerSlice = 250; ///< rows a slice makes at least
    static constexpr qint64 kSliceMs = 8;        ///< then rows while the slice is shorter than this
    static constexpr int kMinRowsShown = 4;      ///< the minimum height shows this many rows
    /// Whether every row of the trace is made.
    [[nodiscard]] bool filled() const { return !m_trace || m_filled >= m_trace->instrs.size(); }
    /// Highlight the row of the instruction that produced `step`'s moves (no seek is emitted).
    void showStep(uint32_t step);
    /// Show only the instructions `f` passes (issue 22 item 4: by warp, by family); rows made later too.
    void setFilter(const InstrFilter& f);
    [[nodiscard]] const InstrFilter& filter() const { return m_filter; }
    /// Instructions the filter passes (all rows of the trace, made or not).
    [[nodiscard]] size_t shownCount() const { return m_shown; }
    [[nodiscard]] const Trace* trace() const { return m_trace; }

  signals:
    void seekRequested(uint32_t step);
    /// setTrace was called (the filter bar lists the new trace's warps and families).
    void traceChanged();

  private:
    /// Make the sub-step rows of an instruction row (on first expansion).
    void fillSubSteps(QTreeWidgetItem* row);
    void fillSlice(uint64_t gen); ///< the next kRowsPerSlice rows (and deletes of old ones)
    void addRow(uint32_t instr);
    bool m_updating = false;
    uint64_t m_fillGen = 0;                    ///< setTrace calls: a newer trace stops an older fill
    size_t m_filled = 0;                       ///< rows made so far
    size_t m_txAt = 0;                         ///< cursor into Trace::txEvents (instruction order)
    std::optional<uint32_t> m_pendingStep;     ///< showStep while rows were still being made
    std::vector<QTreeWidgetItem*> m_graveyard; ///< rows of the previous trace, deleted in slices
    const Trace* m_trace = nullptr;            ///< the trace of the rows (owned by the document)
    InstrFilter m_filter;                      ///< rows it does not pass are hidden
    std::vector<InstrFamily> m_families;       ///< one per instruction of m_trace
    size_t m_shown = 0;
};

} // namespace layoutscope::views
