#include "event_list.hpp"

#include <QHeaderView>
#include <algorithm>
#include <set>

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
    connect(this, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* it, QTreeWidgetItem*) {
        if (it && !m_updating) emit seekRequested(it->data(0, kStepRole).toUInt());
    });
}

void EventList::setTrace(const Trace* trace) {
    m_trace = trace;
    m_updating = true;
    clear();
    if (trace) {
        for (uint32_t i = 0; i < trace->instrs.size(); ++i) {
            const TraceInstr& in = trace->instrs[i];
            std::set<int> ctas;
            std::set<RuleId> rules;
            uint64_t bytes = 0;
            int64_t tx = 0;
            auto* row = new QTreeWidgetItem(this);
            for (uint32_t s = in.firstStep; s < in.endStep; ++s) {
                const auto [a, b] = trace->movesOfStep(s);
                uint64_t sb = 0;
                std::set<int> sc;
                for (size_t k = a; k < b; ++k) {
                    const ByteMove& m = trace->moves[k];
                    if (m.instr != i) continue;
                    sb += m.length;
                    sc.insert(m.dst.cta);
                    if (m.rule != RuleId::None) rules.insert(m.rule);
                }
                bytes += sb;
                ctas.insert(sc.begin(), sc.end());
                auto* sub = new QTreeWidgetItem(row);
                QStringList cs;
                for (int c : sc) cs << QString::number(c);
                sub->setText(ColSteps, QString::number(s));
                sub->setText(ColPtx, QString("sub-step %1 of %2: %3 move(s)")
                                         .arg(s - in.firstStep + 1)
                                         .arg(in.endStep - in.firstStep)
                                         .arg(b - a));
                sub->setText(ColCta, cs.join(","));
                sub->setText(ColBytes, QString::number(sb));
                sub->setData(0, kStepRole, s + 1);
                sub->setData(0, kInstrRole, i);
            }
            rules.insert(in.alsoRules.begin(), in.alsoRules.end()); // rules no single move names
            for (const TxEvent& t : trace->txEvents)
                if (t.instr == i && t.bytes > 0) tx += t.bytes;
            QStringList cs;
            for (int c : ctas) cs << QString::number(c);
            row->setText(ColSteps, in.endStep > in.firstStep
                                       ? QString("%1..%2").arg(in.firstStep).arg(in.endStep - 1)
                                       : "-");
            row->setText(ColPtx, QString::fromStdString(in.text));
            row->setToolTip(
                ColPtx, QString::fromStdString(in.summary.empty() ? in.text : in.text + "\n" + in.summary) +
                            (in.sourceLine > 0 ? QString("\nscenario line %1").arg(in.sourceLine) : ""));
            row->setText(ColCta, cs.join(","));
            row->setText(ColBytes, QString::number(bytes));
            row->setText(ColTx, tx ? QString::number(tx) : "");
            row->setText(ColProvenance, provenanceText(rules));
            row->setData(0, kStepRole, std::max(in.endStep, in.firstStep));
            row->setData(0, kInstrRole, i);
        }
    }
    m_updating = false;
}

void EventList::showStep(uint32_t step) {
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
