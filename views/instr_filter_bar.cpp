#include "instr_filter_bar.hpp"
#include "event_list.hpp"
#include "timeline_widget.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>

namespace layoutscope::views {

namespace {
constexpr int kAll = -1;
/// A warp item's data: cta << 16 | warp (cta + 1, so an unknown CTA -1 is 0).
int warpKey(int32_t cta, int32_t warp) {
    return (cta + 1) << 16 | warp;
}
} // namespace

InstrFilterBar::InstrFilterBar(EventList* list, TimelineWidget* timeline, QWidget* parent)
    : QWidget(parent), m_list(list), m_timeline(timeline) {
    setObjectName("instrFilterBar");
    m_warp = new QComboBox(this);
    m_warp->setObjectName("filterWarp");
    m_warp->setToolTip("Show the instructions of one warp (a recorded kernel's issuing warp)");
    m_family = new QComboBox(this);
    m_family->setObjectName("filterFamily");
    m_family->setToolTip("Show one instruction family");
    m_count = new QLabel(this);
    m_count->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    for (QComboBox* b : {m_warp, m_family}) {
        b->setFocusPolicy(Qt::NoFocus);
        // Never wider than a few words: the Events dock keeps its width at 1280x800 (the popup is wider).
        b->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        b->setMinimumContentsLength(12);
        connect(b, &QComboBox::activated, this, [this](int) { apply(); });
    }
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(4, 2, 4, 2);
    row->addWidget(new QLabel("Show:", this));
    row->addWidget(m_warp);
    row->addWidget(m_family);
    row->addWidget(m_count, 1);
    connect(list, &EventList::traceChanged, this, &InstrFilterBar::refill);
    refill();
}

InstrFilter InstrFilterBar::filter() const {
    InstrFilter f;
    const int w = m_warp->currentData().toInt();
    if (w != kAll) {
        f.cta = (w >> 16) - 1;
        f.warp = w & 0xFFFF;
    }
    const int fam = m_family->currentData().toInt();
    if (fam != kAll) f.families = 1u << uint32_t(fam);
    return f;
}

void InstrFilterBar::refill() {
    m_warp->clear();
    m_family->clear();
    m_warp->addItem("all warps", kAll);
    m_family->addItem("all instructions", kAll);
    const Trace* t = m_list->trace();
    if (t) {
        for (const IssuingWarp& w : issuingWarps(*t))
            m_warp->addItem(QString("warp %1 of CTA %2 (%3)")
                                .arg(w.warp)
                                .arg(w.cta >= 0 ? QString::number(w.cta) : QString("?"))
                                .arg(w.instrs),
                            warpKey(w.cta, w.warp));
        const std::vector<uint32_t> n = familyCounts(m_list->families());
        for (size_t f = 0; f < n.size(); ++f)
            if (n[f])
                m_family->addItem(QString("%1 (%2)").arg(instrFamilyName(InstrFamily(f))).arg(n[f]), int(f));
    }
    // Nothing to choose between: a hand-written scenario names no warps.
    m_warp->setEnabled(m_warp->count() > 1);
    m_warp->setToolTip(m_warp->count() > 1 ? "Show the instructions of one warp"
                                           : "No issuing warps: the scenario is not a recorded kernel");
    m_family->setEnabled(m_family->count() > 2);
    apply();
}

void InstrFilterBar::apply() {
    const InstrFilter f = filter();
    m_list->setFilter(f);
    const Trace* t = m_list->trace();
    const size_t total = t ? t->instrs.size() : 0;
    m_count->setText(f.all() ? QString("%1 instructions").arg(total)
                             : QString("%1 of %2 instructions").arg(m_list->shownCount()).arg(total));
    if (m_timeline) {
        std::vector<bool> shown;
        if (t && !f.all()) {
            shown.reserve(total);
            for (size_t i = 0; i < total; ++i) shown.push_back(f.passes(t->instrs[i], m_list->families()[i]));
        }
        m_timeline->setShown(std::move(shown));
    }
    emit filterChanged(f);
}

QWidget* eventPaneWithFilter(EventList* list, TimelineWidget* timeline, QWidget* parent) {
    auto* pane = new QWidget(parent);
    auto* col = new QVBoxLayout(pane);
    col->setContentsMargins(0, 0, 0, 0);
    col->setSpacing(0);
    auto* bar = new InstrFilterBar(list, timeline, pane);
    col->addWidget(bar);
    col->addWidget(list, 1);
    // The bar takes its height from the list's minimum: the Events dock needs no more than before, so
    // every view still fits a 1280x800 window (gui_layout_test.cpp).
    list->setMinimumHeight(std::max(0, list->minimumHeight() - bar->sizeHint().height()));
    return pane;
}

} // namespace layoutscope::views
