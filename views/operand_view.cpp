#include "operand_view.hpp"

#include <QComboBox>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMainWindow>
#include <QTimer>
#include <QVBoxLayout>

namespace layoutscope::views {

OperandView::OperandView(QMainWindow* window) : QObject(window), m_window(window) {
    auto* w = new QWidget(window);
    auto* v = new QVBoxLayout(w);
    v->setContentsMargins(2, 2, 2, 2);
    v->setSpacing(2);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel("Operand:", w));
    m_picker = new QComboBox(w);
    m_picker->setObjectName("operandPicker");
    m_picker->setToolTip(
        "The consumer instruction and operand shown (wgmma / tcgen05.mma A or B, tcgen05.cp)");
    m_picker->setFocusPolicy(Qt::NoFocus);
    m_picker->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_picker->setMinimumContentsLength(24);
    row->addWidget(m_picker, 1);
    v->addLayout(row);
    m_canvas = new CellCanvas(w);
    m_canvas->setObjectName("operandCanvas");
    m_canvas->setMargins(kOperandMargins);
    m_canvas->setMinimumSize(240, int(kOperandMargins.y + kOperandMargins.w) + 40);
    v->addWidget(m_canvas, 1);
    m_diag = new QLabel(w);
    m_diag->setObjectName("operandDiagnostic");
    m_diag->setWordWrap(true);
    m_diag->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Room for the verdict and the fix (about four lines) even when the dock is short: the list shrinks
    // first (a word-wrapped label in a dock is otherwise squeezed and cut).
    m_diag->setMinimumHeight(m_diag->fontMetrics().lineSpacing() * 4 + 4);
    v->addWidget(m_diag);
    m_listTitle = new QLabel(w);
    v->addWidget(m_listTitle);
    m_list = new QListWidget(w);
    m_list->setObjectName("operandMismatches");
    m_list->setMaximumHeight(110);
    m_list->setMinimumHeight(40);
    m_list->setUniformItemSizes(true); // thousands of rows stay cheap
    v->addWidget(m_list);
    m_dock = new QDockWidget("Operand", window);
    m_dock->setObjectName("operandDock");
    m_dock->setWidget(w);
    m_dock->hide();
    if (auto* scenario = window->findChild<QDockWidget*>("scenarioDock"))
        window->tabifyDockWidget(scenario, m_dock);
    else
        window->addDockWidget(Qt::RightDockWidgetArea, m_dock);

    connect(m_picker, &QComboBox::activated, this, [this](int i) {
        showOperand(i);
        emit operandShown();
    });
    connect(m_canvas, &CellCanvas::hoveredCell, this, &OperandView::cellHovered);
    connect(m_canvas, &CellCanvas::cellClicked, this, [this](int x, int y) {
        if (x < 0) {
            m_canvas->setSelection({});
            emit cellSelected(-1, -1);
            return;
        }
        selectCell(uint32_t(x), uint32_t(y));
    });
    connect(m_list, &QListWidget::currentRowChanged, this, [this](int r) {
        QListWidgetItem* it = r >= 0 ? m_list->item(r) : nullptr;
        if (!it) return;
        const uint32_t x = it->data(Qt::UserRole).toUInt(), y = it->data(Qt::UserRole + 1).toUInt();
        if (const auto& sel = m_canvas->selection(); sel.size() == 1 && sel[0].first == glm::uvec2(x, y))
            return;
        selectCell(x, y);
    });
    m_canvas->setOverlay([this](const Camera2D& cam, glm::vec2 vp) {
        if (!m_grid) return OverlayList{};
        return buildOperandOverlay(cam, vp, *m_grid, m_scene, m_frame ? &*m_frame : nullptr, m_title);
    });
    m_canvas->setInspector([this](uint32_t x, uint32_t y) {
        return m_grid ? inspectOperandCell(*m_grid, x, y) : std::string();
    });
}

OperandView::~OperandView() = default;

void OperandView::setDocument(const Document* doc) {
    m_doc = doc;
    m_scenario = nullptr;
    m_operands.clear();
    m_grid.reset();
    m_scene = {};
    m_picker->clear();
    if (doc && doc->hasTrace() && doc->scenario()) {
        m_scenario = doc->scenario();
        m_operands = consumerOperands(*m_scenario);
    }
    int first = -1, firstBad = -1;
    for (size_t i = 0; i < m_operands.size(); ++i) {
        m_picker->addItem(QString::fromStdString(m_operands[i].label));
        if (first < 0) first = int(i);
        if (firstBad < 0 && i < 32) // each grid replays the moves before its instruction: look at a few
            if (auto g = operandGrid(*m_scenario, doc->run(), m_operands[i]); g && g->mismatched)
                firstBad = int(i);
    }
    applyVisibility();
    if (first < 0) {
        m_canvas->setCells(0, 0, {}, ShadeParams{});
        m_list->clear();
        return;
    }
    showOperand(firstBad >= 0 ? firstBad : first);
    const std::string path = doc->path();
    // Another file with a mismatch: bring the dock forward once (typing keeps the editor's tab; a file
    // whose consumers all agree keeps the tab the other docks raised, e.g. Registers).
    if (firstBad >= 0 && path != m_shownPath) {
        m_shownPath = path;
        QTimer::singleShot(0, this, [this] {
            if (m_dock->isVisible()) m_dock->raise();
        });
    }
}

void OperandView::applyVisibility() {
    m_dock->setVisible(hasConsumer());
}

void OperandView::showOperand(int index) {
    if (!m_scenario || !m_doc || index < 0 || size_t(index) >= m_operands.size()) return;
    m_picker->setCurrentIndex(index);
    const ConsumerOperandRef& ref = m_operands[size_t(index)];
    auto g = operandGrid(*m_scenario, m_doc->run(), ref);
    m_grid.reset();
    m_frame.reset();
    if (!g) {
        m_scene = {};
        m_canvas->setCells(0, 0, {}, ShadeParams{});
        m_canvas->setMessage("No operand grid", g.diagnostics().front().message);
        return;
    }
    m_grid = std::move(*g);
    if (m_grid->checked) {
        const std::vector<BoxFrame> frames = boxFrames(*m_doc);
        if (m_grid->producerInstr < frames.size()) m_frame = frames[m_grid->producerInstr];
    }
    m_scene = operandSceneOf(*m_grid, m_frame ? &*m_frame : nullptr);
    m_title = ref.label;
    m_canvas->setMessage({}, {});
    m_canvas->setSelection({});
    m_canvas->setCells(m_scene.w, m_scene.h, m_scene.texels, ShadeParams{1, 8, 8});
    // A tcgen05.cp source is 128 rows x 2 chunks: square cells would make it a 1-pixel sliver in a short
    // dock. A grid 4x longer than wide (or the reverse) stretches to fill the pane (picking follows).
    const uint32_t lo = std::max(1u, std::min(m_scene.w, m_scene.h)), hi = std::max(m_scene.w, m_scene.h);
    if (hi >= 4 * lo)
        m_canvas->setFitRegion(std::pair{glm::vec2(0.0f), glm::vec2(float(m_scene.w), float(m_scene.h))},
                               Camera2D::FitMode::Fill);
    else
        m_canvas->setFitRegion(std::nullopt);
    m_canvas->fitView();
    // The consumer check's diagnostic for this operand (its count is the grid's).
    QString diag;
    const int line = ref.instr < m_scenario->instrs.size() ? m_scenario->instrs[ref.instr].span.line : 0;
    for (const Diagnostic& d : m_doc->run().warnings)
        if (d.span.line == line && d.message.rfind(m_grid->what + " reads ", 0) == 0)
            diag = QString::fromStdString(d.message);
    if (diag.isEmpty())
        diag = m_grid->checked
                   ? QString("The consumer check finds no mismatch: every read sees the element of %1's "
                             "tile it should.")
                         .arg(QString::fromStdString(m_grid->tensor))
                   : QString("Not checked: %1.").arg(QString::fromStdString(m_grid->note));
    m_diag->setToolTip(diag);
    // The dock shows the verdict and the fix in a few lines (it shares its height with the grid); the
    // whole message is the tooltip and stays in the Diagnostics list.
    QString shortText = diag;
    if (m_grid->mismatched) {
        shortText = QString("%1 of %2 reads see another element than %3's tile.")
                        .arg(m_grid->mismatched)
                        .arg(m_scene.total)
                        .arg(QString::fromStdString(m_grid->tensor));
        const int fix = diag.indexOf(" Fix: "), none = diag.indexOf(" No single change");
        QString tail = fix >= 0 ? diag.mid(fix) : none >= 0 ? diag.mid(none) : QString();
        // A pair MMA's half: its long unverified note stays in the tooltip, a tag here.
        if (const int u = tail.indexOf(" (unverified: that .cta_group::2"); u >= 0)
            tail = tail.left(u) + " (pair split unverified)";
        shortText += tail;
    }
    m_diag->setText(shortText);
    fillList();
}

void OperandView::fillList() {
    m_list->clear();
    if (!m_grid) return;
    m_listTitle->setText(QString("Mismatches: %1 of %2 reads (click one to select its cell)")
                             .arg(m_scene.mismatched)
                             .arg(m_scene.total));
    m_list->setUpdatesEnabled(false);
    for (const OperandCell& c : m_grid->cells) {
        if (!c.mismatch) continue;
        auto* it = new QListWidgetItem(QString::fromStdString(operandCellText(*m_grid, c)), m_list);
        it->setData(Qt::UserRole, c.col);
        it->setData(Qt::UserRole + 1, c.m);
    }
    m_list->setUpdatesEnabled(true);
}

void OperandView::selectCell(uint32_t x, uint32_t y) {
    if (!m_grid || x >= m_grid->cols || y >= m_grid->rows) return;
    m_canvas->setSelection({{glm::uvec2(x, y), glm::uvec2(x + 1, y + 1)}});
    for (int r = 0; r < m_list->count(); ++r) {
        QListWidgetItem* it = m_list->item(r);
        if (it->data(Qt::UserRole).toUInt() == x && it->data(Qt::UserRole + 1).toUInt() == y) {
            if (m_list->currentRow() != r) {
                const QSignalBlocker block(m_list);
                m_list->setCurrentRow(r);
            }
            m_list->scrollToItem(it);
            break;
        }
    }
    emit cellSelected(int(x), int(y));
}

} // namespace layoutscope::views
