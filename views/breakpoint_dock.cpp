#include "breakpoint_dock.hpp"

#include "main_window.hpp"
#include "playback.hpp"

#include <QDockWidget>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QStatusBar>
#include <QVBoxLayout>

namespace layoutscope::views {

BreakpointPanel::BreakpointPanel(Playback* pb, std::function<const Document*()> doc,
                                 std::function<std::vector<DataLoc>()> selection, QWidget* parent)
    : QWidget(parent), m_pb(pb), m_doc(std::move(doc)), m_selection(std::move(selection)) {
    m_list = new QListWidget(this);
    m_list->setObjectName("breakpointList");
    m_list->setToolTip("Playing stops at the first enabled breakpoint; untick one to keep it but skip it");
    auto* cell = new QPushButton("Break when selected cell is written", this);
    cell->setObjectName("breakCell");
    cell->setToolTip("Click a cell in the shared-memory, global, TMEM or register view first");
    auto* bank = new QPushButton("Bank conflicts >", this);
    bank->setObjectName("breakBank");
    bank->setToolTip("Stop at a ld.shared / st.shared / ldmatrix whose excess wavefronts exceed N");
    m_n = new QSpinBox(this);
    m_n->setRange(0, 1024);
    m_n->setToolTip("N: excess wavefronts (wavefronts - ideal, Nsight Compute's bank conflicts)");
    auto* rule = new QPushButton("Unverified rule used", this);
    rule->setObjectName("breakRule");
    rule->setToolTip("Stop where a move or instruction relies on a rule not confirmed by hardware or a tool");
    auto* remove = new QPushButton("Remove", this);
    remove->setObjectName("breakRemove");

    auto* col = new QVBoxLayout(this);
    col->setContentsMargins(4, 4, 4, 4);
    col->addWidget(m_list, 1);
    col->addWidget(cell);
    auto* row = new QHBoxLayout;
    row->addWidget(bank);
    row->addWidget(m_n);
    col->addLayout(row);
    auto* row2 = new QHBoxLayout;
    row2->addWidget(rule, 1);
    row2->addWidget(remove);
    col->addLayout(row2);

    connect(cell, &QPushButton::clicked, this, [this] {
        std::vector<DataLoc> locs = m_selection ? m_selection() : std::vector<DataLoc>{};
        if (locs.empty()) {
            emit message("breakpoints: select a cell in a view first");
            return;
        }
        Breakpoint b;
        b.locs = std::move(locs);
        addBreakpoint(std::move(b));
    });
    connect(bank, &QPushButton::clicked, this, [this] {
        Breakpoint b;
        b.kind = Breakpoint::Kind::BankExcess;
        b.maxExcess = uint32_t(m_n->value());
        addBreakpoint(std::move(b));
    });
    connect(rule, &QPushButton::clicked, this, [this] {
        Breakpoint b;
        b.kind = Breakpoint::Kind::UnverifiedRule;
        addBreakpoint(std::move(b));
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (m_list->currentRow() >= 0) removeBreakpoint(size_t(m_list->currentRow()));
    });
    connect(m_list, &QListWidget::itemChanged, this, [this](QListWidgetItem* it) {
        const int i = m_list->row(it);
        if (i < 0 || size_t(i) >= m_bps.size()) return;
        m_bps[size_t(i)].enabled = it->checkState() == Qt::Checked;
        m_pb->invalidateBreaks();
    });
    m_pb->setBreakFinder([this](uint32_t after) -> std::optional<std::pair<uint32_t, QString>> {
        auto h = nextStop(after);
        if (!h) return std::nullopt;
        return std::pair{h->position, QString::fromStdString(h->why)};
    });
}

std::optional<BreakHit> BreakpointPanel::nextStop(uint32_t after) {
    const Document* d = m_doc ? m_doc() : nullptr;
    if (!d || !d->hasTrace() || m_bps.empty()) return std::nullopt;
    if (d != m_excessDoc || d->text() != m_excessText) { // the bank model, once per document
        m_excessDoc = d;
        m_excessText = d->text();
        m_excess.clear();
        if (const Scenario* sc = d->scenario()) m_excess = bankExcessPerInstr(d->trace(), *sc);
    }
    return nextBreak(d->trace(), m_bps, m_excess, after);
}

void BreakpointPanel::addBreakpoint(Breakpoint b) {
    m_bps.push_back(std::move(b));
    rebuildList();
    m_pb->invalidateBreaks();
    emit message("breakpoint added: " + QString::fromStdString(describeBreakpoint(m_bps.back())));
}

void BreakpointPanel::removeBreakpoint(size_t i) {
    if (i >= m_bps.size()) return;
    m_bps.erase(m_bps.begin() + std::ptrdiff_t(i));
    rebuildList();
    m_pb->invalidateBreaks();
}

void BreakpointPanel::rebuildList() {
    const QSignalBlocker block(m_list);
    m_list->clear();
    for (const Breakpoint& b : m_bps) {
        auto* it = new QListWidgetItem(QString::fromStdString(describeBreakpoint(b)), m_list);
        it->setFlags(it->flags() | Qt::ItemIsUserCheckable);
        it->setCheckState(b.enabled ? Qt::Checked : Qt::Unchecked);
    }
}

BreakpointPanel* addBreakpointDock(MainWindow& w) {
    auto* panel = new BreakpointPanel(
        w.playback(), [&w] { return w.document(); }, [&w] { return w.selectedLocs(); }, &w);
    auto* dock = new QDockWidget("Breakpoints", &w);
    dock->setObjectName("breakpointDock");
    panel->setMinimumHeight(
        40); // a tab of Events: the views above keep their minimums at 1280x800 (issue 15)
    dock->setWidget(panel);
    w.addDockWidget(Qt::LeftDockWidgetArea, dock);
    if (auto* events = w.findChild<QDockWidget*>("eventDock")) w.tabifyDockWidget(events, dock);
    if (auto* events = w.findChild<QDockWidget*>("eventDock")) events->raise();
    QObject::connect(panel, &BreakpointPanel::message, &w,
                     [&w](const QString& m) { w.statusBar()->showMessage(m, 8000); });
    QObject::connect(w.playback(), &Playback::breakHit, &w, [&w](uint32_t step, const QString& why) {
        w.statusBar()->showMessage(QString("stopped at step %1: %2").arg(step).arg(why), 20000);
    });
    return panel;
}

void installInstructionStepping(MainWindow& w) {
    w.playback()->setInstrStepper([&w](uint32_t pos, bool forward) {
        const Document* d = w.document();
        if (!d || !d->hasTrace()) return pos;
        return forward ? nextInstrPosition(d->trace(), pos) : prevInstrPosition(d->trace(), pos);
    });
}

} // namespace layoutscope::views
