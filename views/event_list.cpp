#include "event_list.hpp"
#include "scene/source_origin.hpp"

#include <QElapsedTimer>
#include <QHeaderView>
#include <QTimer>
#include <algorithm>
#include <set>
#include <utility>

namespace layoutscope::views {

namespace {
constexpr int kStepRole = Qt::UserRole;      // step to seek to
constexpr int kInstrRole = Qt::UserRole + 1; // instruction index

QString provenanceText(const std::set<RuleId>& rules) {
    QStringList out;
    for (RuleId r : rules) {
        const RuleInfo& ri = ruleInfo(r);
        out << QString("%1 (%2%3)")
                   .arg(ri.name, provenanceTag(ri.provenance),
                        isVerified(ri.provenance) ? "" : ", unverified");
    }
    return out.join("; ");
}
} // namespace

EventList::EventList(QWidget* parent) : QTreeWidget(parent) {
    setObjectName("eventList");
    setColumnCount(ColumnCount);
    setHeaderLabels({"steps", "PTX", "CTA", "bytes moved", "tx bytes", "rule (provenance)"});
    setUniformRowHeights(true);
    setAlternatingRowColors(true);
    // Fixed starting widths (user-resizable): ResizeToContents would measure every row of a
    // 10,000-instruction trace on each change.
    header()->setSectionResizeMode(QHeaderView::Interactive);
    header()->setStretchLastSection(true);
    for (const auto& [col, w] :
         {std::pair{ColSteps, 90}, {ColPtx, 420}, {ColCta, 40}, {ColBytes, 80}, {ColTx, 60}})
        setColumnWidth(col, w);
    // Several rows always show (issue 24 item 7: at 1280x800 the list was squeezed to one row).
    setMinimumHeight(header()->sizeHint().height() + kMinRowsShown * (fontMetrics().height() + 6) +
                     2 * frameWidth() + 2);
    connect(this, &QTreeWidget::itemExpanded, this, [this](QTreeWidgetItem* it) { fillSubSteps(it); });
    connect(this, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* it, QTreeWidgetItem*) {
        if (it && !m_updating) emit seekRequested(it->data(0, kStepRole).toUInt());
    });
}

EventList::~EventList() {
    qDeleteAll(m_graveyard);
}

void EventList::setTrace(const Trace* trace) {
    setTrace(trace, {});
}

void EventList::setTrace(const Trace* trace, std::vector<InstrFamily> families) {
    m_trace = trace;
    m_families = families.size() == (trace ? trace->instrs.size() : 0) || !trace ? std::move(families)
                                                                                 : instrFamilies(*trace, {});
    ++m_fillGen;
    m_filled = 0;
    m_txAt = 0;
    m_pendingStep.reset();
    // The old rows leave the view at once and are deleted in slices: 10,000 items take tens of ms.
    const QList<QTreeWidgetItem*> old = invisibleRootItem()->takeChildren();
    m_graveyard.insert(m_graveyard.end(), old.begin(), old.end());
    m_filter = InstrFilter{}; // a new trace has other warps: every row shows until the bar filters again
    m_shown = trace ? trace->instrs.size() : 0;
    fillSlice(m_fillGen);
    emit traceChanged();
}

void EventList::setFilter(const InstrFilter& f) {
    m_filter = f;
    m_shown = 0;
    if (!m_trace) return;
    for (size_t i = 0; i < m_trace->instrs.size(); ++i)
        m_shown += f.passes(m_trace->instrs[i], m_families[i]);
    for (int i = 0; i < topLevelItemCount(); ++i) // rows made so far; addRow filters the rest
        topLevelItem(i)->setHidden(!f.passes(m_trace->instrs[size_t(i)], m_families[size_t(i)]));
}

void EventList::fillSlice(uint64_t gen) {
    if (gen != m_fillGen) return; // a newer trace
    for (size_t n = 0; n < kRowsPerSlice && !m_graveyard.empty(); ++n) {
        delete m_graveyard.back();
        m_graveyard.pop_back();
    }
    const size_t rows = m_trace ? m_trace->instrs.size() : 0;
    m_updating = true;
    // At least kRowsPerSlice rows, then more while the slice stays under kSliceMs: each slice ends in a
    // layout pass over every row made so far, so fewer, fuller slices (a 30,000-row list took 120 slices
    // and most of its time in QTreeView's layout).
    QElapsedTimer clock;
    clock.start();
    for (size_t n = 0; m_filled < rows && (n < kRowsPerSlice || clock.elapsed() < kSliceMs); ++m_filled, ++n)
        addRow(uint32_t(m_filled));
    m_updating = false;
    if (m_filled < rows || !m_graveyard.empty()) {
        QTimer::singleShot(0, this, [this, gen] { fillSlice(gen); });
        return;
    }
    if (m_pendingStep) showStep(*std::exchange(m_pendingStep, std::nullopt));
}

void EventList::addRow(uint32_t i) {
    // The tx events are appended in instruction order: one cursor (m_txAt) over all rows.
    const TraceInstr& in = m_trace->instrs[i];
    std::set<int> ctas;
    std::set<RuleId> rules;
    int64_t tx = 0;
    auto* row = new QTreeWidgetItem(this);
    // Moves of one instruction are a contiguous range; the work per row is that range's size.
    // By runs (a run's rule is constant; a run that keeps its destination CTA names it once).
    for (const MoveTable::RunSpan& rs :
         m_trace->moves.runSpans(in.firstMove, std::min<uint64_t>(in.endMove, m_trace->moves.size()))) {
        if (rs.first.rule != RuleId::None) rules.insert(rs.first.rule);
        m_trace->moves.forSpanByField(rs, 3, [&](const ByteMove& m, uint64_t) { ctas.insert(m.dst.cta); });
    }
    rules.insert(in.alsoRules.begin(), in.alsoRules.end()); // rules no single move names
    for (; m_txAt < m_trace->txEvents.size() && m_trace->txEvents[m_txAt].instr <= i; ++m_txAt)
        if (m_trace->txEvents[m_txAt].instr == i && m_trace->txEvents[m_txAt].bytes > 0)
            tx += m_trace->txEvents[m_txAt].bytes;
    // Sub-step rows are made when the row is first expanded (fillSubSteps): a 10,000-load trace
    // has millions of steps, and one item each would cost gigabytes.
    if (in.endStep > in.firstStep) row->setChildIndicatorPolicy(QTreeWidgetItem::ShowIndicator);
    QStringList cs;
    for (int c : ctas) cs << QString::number(c);
    row->setText(ColSteps,
                 in.endStep > in.firstStep ? QString("%1..%2").arg(in.firstStep).arg(in.endStep - 1) : "-");
    row->setText(ColPtx, QString::fromStdString(in.text));
    row->setToolTip(ColPtx,
                    QString::fromStdString(in.summary.empty() ? in.text : in.text + "\n" + in.summary) +
                        (in.sourceLine > 0 ? QString("\nscenario line %1").arg(in.sourceLine) : ""));
    row->setText(ColCta, in.traced ? cs.join(",") : "?");
    if (!in.traced) // past the trace's memory budget: executed, its moves not recorded (issue 25 item 9)
        row->setToolTip(ColSteps, "not traced: the trace had reached its memory budget (the instruction "
                                  "executed, so the final state is exact; its moves were not recorded)");
    row->setText(ColBytes, QString::number(in.bytesMoved));
    row->setText(ColTx, tx ? QString::number(tx) : "");
    row->setText(ColProvenance, provenanceText(rules));
    row->setData(0, kStepRole, std::max(in.endStep, in.firstStep));
    row->setData(0, kInstrRole, i);
    if (in.origin.known()) // a recorded kernel's instruction: where it comes from
        row->setToolTip(ColPtx, row->toolTip(ColPtx) + "\n" + QString::fromStdString(originText(in.origin)));
    if (!m_filter.all()) row->setHidden(!m_filter.passes(in, m_families[i]));
}

void EventList::fillSubSteps(QTreeWidgetItem* row) {
    if (!m_trace || !row || row->parent() || row->childCount() > 0) return;
    const uint32_t i = row->data(0, kInstrRole).toUInt();
    if (i >= m_trace->instrs.size()) return;
    const TraceInstr& in = m_trace->instrs[i];
    const bool was = m_updating;
    m_updating = true;
    uint64_t k = in.firstMove;
    for (uint32_t s = in.firstStep; s < in.endStep; ++s) {
        uint64_t sb = 0, n = 0;
        std::set<int> sc;
        for (; k < in.endMove; ++k) { // the instruction's moves are in step order
            const ByteMove m = m_trace->moves[k];
            if (m.step != s) break;
            sb += m.length;
            ++n;
            sc.insert(m.dst.cta);
        }
        auto* sub = new QTreeWidgetItem(row);
        QStringList cs;
        for (int c : sc) cs << QString::number(c);
        sub->setText(ColSteps, QString::number(s));
        sub->setText(ColPtx, QString("sub-step %1 of %2: %3 move(s)")
                                 .arg(s - in.firstStep + 1)
                                 .arg(in.endStep - in.firstStep)
                                 .arg(n));
        sub->setText(ColCta, cs.join(","));
        sub->setText(ColBytes, QString::number(sb));
        sub->setData(0, kStepRole, s + 1);
        sub->setData(0, kInstrRole, i);
    }
    m_updating = was;
}

void EventList::showStep(uint32_t step) {
    if (m_trace && m_filled < m_trace->instrs.size()) { // rows still being added: when they are
        m_pendingStep = step;
        return;
    }
    if (!m_trace || m_trace->instrs.empty() || topLevelItemCount() != int(m_trace->instrs.size())) return;
    // The instruction whose moves lead to `step` (its rows seek to the state after a move, so step s
    // belongs to the instruction with firstStep < s <= endStep); instructions are in step order.
    const auto& ins = m_trace->instrs;
    const auto it = std::lower_bound(ins.begin(), ins.end(), step,
                                     [](const TraceInstr& in, uint32_t s) { return in.endStep < s; });
    if (it == ins.end() || it->firstStep >= step) return;
    QTreeWidgetItem* row = topLevelItem(int(it - ins.begin()));
    // Inside an expanded instruction, its sub-step; otherwise the instruction row (no expanding).
    const int sub = int(step - it->firstStep) - 1;
    QTreeWidgetItem* target = row->isExpanded() && sub < row->childCount() ? row->child(sub) : row;
    m_updating = true;
    setCurrentItem(target);
    m_updating = false;
}

} // namespace layoutscope::views

#include "moc_event_list.cpp"
