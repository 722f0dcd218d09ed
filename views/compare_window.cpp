// CompareWindow: the window built (panes, toolbar, metrics dock), export, and the entry points that open it
// (menu action, --compare) (compare_window.hpp). Moving through the scenarios is compare_window_panes.cpp.
#include "compare_window.hpp"

#include "scene/compare_inspect.hpp"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTableWidget>
#include <QToolButton>
#include <cstdio>

namespace layoutscope::views {

namespace {

std::vector<std::string> toStd(const QStringList& l) {
    std::vector<std::string> out;
    for (const QString& s : l) out.push_back(s.toStdString());
    return out;
}

} // namespace

CompareWindow::CompareWindow(const QStringList& files, QWidget* parent) : QMainWindow(parent) {
    m_set = loadCompareSet(toStd(files));
    m_frames = compareFrames(m_set.documents());
    buildUi(files);
    buildMetricsDock();
    refresh();
}

CompareWindow::~CompareWindow() = default;

void CompareWindow::buildUi(const QStringList& files) {
    setWindowTitle("Layoutscope: compare " +
                   QStringList(files).replaceInStrings(QRegularExpression(".*/"), "").join(" | "));
    auto* central = new QWidget(this);
    auto* v = new QVBoxLayout(central);
    v->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    m_syncBox = new QComboBox(central);
    m_syncBox->addItems({"step", "instruction"});
    m_syncBox->setToolTip("What the position means in every scenario: step i (clamped to its last step), "
                          "or the state after instruction i");
    m_slider = new QSlider(Qt::Horizontal, central);
    m_spin = new QSpinBox(central);
    m_steps = new QLabel(central);
    auto* fit = new QToolButton(central);
    fit->setText("Fit");
    auto* marks = new QCheckBox("Mark differences", central);
    marks->setObjectName("markDifferences");
    marks->setChecked(true);
    marks->setToolTip(
        "Mark (magenta) the bytes and TMEM cells whose element, with its value, scenario 1 holds "
        "nowhere: another value, another element or a missing one");
    connect(marks, &QCheckBox::toggled, this, [this](bool on) {
        m_marks = on;
        refresh();
    });
    auto* reshuffles = new QCheckBox("Mark reshuffles", central);
    reshuffles->setObjectName("markReshuffles");
    reshuffles->setChecked(true);
    reshuffles->setToolTip(
        "Tint (muted) the bytes and TMEM cells whose element, with the same value, scenario 1 "
        "holds at another place");
    connect(reshuffles, &QCheckBox::toggled, this, [this](bool on) {
        m_reshuffleMarks = on;
        refresh();
    });
    bar->addWidget(new QLabel("Sync by", central));
    bar->addWidget(m_syncBox);
    bar->addWidget(m_slider, 1);
    bar->addWidget(m_spin);
    bar->addWidget(m_steps);
    bar->addWidget(marks);
    bar->addWidget(reshuffles);
    bar->addWidget(fit);
    v->addLayout(bar);
    auto* columns = new QSplitter(Qt::Horizontal, central);
    columns->setObjectName("compareColumns");
    for (size_t d = 0; d < m_set.docs.size(); ++d) {
        const bool tmem = comparesTmem(*m_set.docs[d]);
        auto* col = new QSplitter(Qt::Vertical, columns);
        auto* smem = new CellCanvas(col);
        smem->setObjectName(QString("compareSmem%1").arg(d));
        smem->setMinimumSize(300, 240); // the legend needs ~300 px across, ~210 down
        m_smem.push_back(smem);
        CellCanvas* tm = nullptr;
        if (tmem) {
            tm = new CellCanvas(col);
            tm->setObjectName(QString("compareTmem%1").arg(d));
            tm->setMinimumSize(300, 200); // ~170 px of labels and legend
            col->setStretchFactor(0, 1);
            col->setStretchFactor(1, 1);
        }
        m_tmem.push_back(tm);
        connect(smem, &CellCanvas::cameraChanged, this, [this, smem] { mirrorCamera(smem, false); });
        connect(smem, &CellCanvas::cellClicked, this, [this, d](int x, int y) {
            if (x < 0 || y < 0) {
                m_selected.reset();
                showSelection();
                return;
            }
            selectCell(d, uint32_t(x), uint32_t(y));
        });
        smem->setInspector([this, d](uint32_t x, uint32_t y) -> std::string {
            if (d >= m_panes.size()) return {};
            const ComparePanes& cp = m_panes[d];
            const size_t i = size_t(y) * 128 + x;
            if (i >= cp.content.keys.size()) return {};
            char head[96];
            std::snprintf(head, sizeof head, "shared::cta 0x%04x = 0x%02x (step %u)",
                          unsigned(cp.content.window.base + i), unsigned(cp.content.bytes[i]), cp.step);
            std::string t = head;
            t += cp.content.keys[i] ? "\n" + describeElement(*cp.content.keys[i]) : "\nnot written";
            t += matchText(cp.match, i, d, cp.content.keys[i].has_value(), [&cp, d, this](int64_t j) {
                const SmemContent& ref = d == 0 ? cp.content : m_panes[0].content;
                char at[32];
                std::snprintf(at, sizeof at, "0x%04x", unsigned(ref.window.base + uint64_t(j)));
                return std::string(at);
            });
            return t + "\nclick: select this element in every pane";
        });
        if (tm) {
            tm->setInspector([this, d](uint32_t x, uint32_t y) -> std::string {
                if (d >= m_panes.size()) return {};
                const TmemContent& c = m_panes[d].tmemContent;
                const size_t i = size_t(y) * c.width + x;
                if (!c.width || i >= c.cells.size() || !c.cells[i]) return {};
                const TmemCellRef cell = *c.cells[i];
                char head[96];
                std::snprintf(head, sizeof head, "TMEM CTA %u lane %u column %u = 0x%08x (step %u)", cell.cta,
                              cell.lane, cell.column, c.values[i], m_panes[d].step);
                std::string t = head;
                t += c.keys[i] ? "\n" + describeElement(*c.keys[i]) : "\nnot written";
                return t + matchText(m_panes[d].tmemMatch, i, d, c.keys[i].has_value(), [this](int64_t j) {
                           const TmemContent& ref = m_panes[0].tmemContent;
                           if (j < 0 || size_t(j) >= ref.cells.size() || !ref.cells[size_t(j)])
                               return std::string("?");
                           const TmemCellRef r = *ref.cells[size_t(j)];
                           return "CTA " + std::to_string(r.cta) + " lane " + std::to_string(r.lane) +
                                  " column " + std::to_string(r.column);
                       });
            });
            connect(tm, &CellCanvas::cameraChanged, this, [this, tm] { mirrorCamera(tm, true); });
            connect(tm, &CellCanvas::cellClicked, this, [this, d](int x, int y) {
                if (d >= m_panes.size()) return;
                const TmemContent& c = m_panes[d].tmemContent;
                const size_t i = size_t(std::max(y, 0)) * c.width + size_t(std::max(x, 0));
                m_selected = x >= 0 && y >= 0 && i < c.keys.size() ? c.keys[i] : std::nullopt;
                showSelection();
            });
        }
    }
    v->addWidget(columns, 1);
    setCentralWidget(central);

    connect(m_slider, &QSlider::valueChanged, this, [this](int p) { setPosition(uint32_t(p)); });
    connect(m_spin, qOverload<int>(&QSpinBox::valueChanged), this,
            [this](int p) { setPosition(uint32_t(p)); });
    connect(m_syncBox, qOverload<int>(&QComboBox::currentIndexChanged), this,
            [this](int i) { setSync(i == 1 ? CompareSync::Instruction : CompareSync::Step); });
    connect(fit, &QToolButton::clicked, this, [this] {
        for (CellCanvas* c : m_smem) c->fitView();
        for (CellCanvas* c : m_tmem)
            if (c) c->fitView();
    });
    const uint32_t last = lastPosition();
    m_slider->setRange(0, int(last));
    m_spin->setRange(0, int(last));
    m_pos = last;
    m_slider->setValue(int(last));
    m_spin->setValue(int(last));

    QMenu* file = menuBar()->addMenu("&File");
    file->addAction("&Export comparison...", QKeySequence(Qt::CTRL | Qt::Key_E), this,
                    &CompareWindow::exportDialog);
    file->addAction("&Close", QKeySequence::Close, this, &QWidget::close);
    resize(1400, 860);
}

void CompareWindow::buildMetricsDock() {
    auto* dock = new QDockWidget("Metrics (layoutscope-cli compare)", this);
    dock->setObjectName("compareMetricsDock");
    m_table = new QTableWidget(dock);
    m_table->setObjectName("compareMetrics");
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    const auto& cols = m_set.columns;
    if (cols.empty()) {
        m_table->setColumnCount(1);
        m_table->setHorizontalHeaderLabels({"error"});
        m_table->setRowCount(int(m_set.errors.size()));
        for (size_t i = 0; i < m_set.errors.size(); ++i)
            m_table->setItem(int(i), 0, new QTableWidgetItem(QString::fromStdString(m_set.errors[i])));
    } else {
        const auto& rows = cols[0].values;
        // Rows at 0 in every scenario are left out, as `layoutscope-cli compare` does, and named in the
        // tooltip (issue 24 item 8: a table of zeros hid the rows that tell the scenarios apart).
        std::vector<size_t> shown;
        QStringList hidden;
        for (size_t r = 0; r < rows.size(); ++r) {
            if (rowAllZero(cols, r))
                hidden << QString::fromStdString(rows[r].name);
            else
                shown.push_back(r);
        }
        m_hiddenMetrics = hidden;
        m_table->setColumnCount(int(cols.size()));
        m_table->setRowCount(int(shown.size()));
        // Columns are numbered like the panes ("1: name" in each pane's header); the name is the tooltip.
        QStringList labels;
        for (size_t c = 0; c < cols.size(); ++c) {
            auto* head = new QTableWidgetItem(QString::number(c + 1));
            head->setToolTip(QString::fromStdString(cols[c].name));
            m_table->setHorizontalHeaderItem(int(c), head);
        }
        for (size_t r : shown) labels << QString::fromStdString(rows[r].name);
        m_table->setVerticalHeaderLabels(labels);
        const QColor differ = palette().color(QPalette::Highlight).darker(160);
        for (size_t row = 0; row < shown.size(); ++row) {
            const size_t r = shown[row];
            const auto best = bestOfRow(cols, r);
            const bool differs = rowDiffers(cols, r);
            for (size_t c = 0; c < cols.size(); ++c) {
                auto* item =
                    new QTableWidgetItem(QString::number(cols[c].values[r].value) + (best[c] ? " *" : ""));
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                if (differs) item->setBackground(differ);
                if (best[c]) {
                    QFont f = item->font();
                    f.setBold(true);
                    item->setFont(f);
                }
                m_table->setItem(int(row), int(c), item);
            }
        }
        m_table->setToolTip(
            "* = the better value of the row; highlighted rows differ between the scenarios" +
            (hidden.isEmpty() ? QString() : "\n0 in every scenario, not shown: " + hidden.join(", ")));
    }
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    dock->setWidget(m_table);
    // Two scenarios: the table beside them; more: under them, so that each column keeps ~300 px at 1280.
    if (m_set.docs.size() <= 2) {
        addDockWidget(Qt::RightDockWidgetArea, dock);
        resizeDocks({dock}, {420}, Qt::Horizontal);
    } else {
        addDockWidget(Qt::BottomDockWidgetArea, dock);
        resizeDocks({dock}, {150}, Qt::Vertical);
    }
}

ExportResult CompareWindow::exportTo(const QString& path, QSize size) const {
    return exportComparison(m_set, m_sync, m_pos, path, size);
}

void CompareWindow::exportDialog() {
    const QString path = QFileDialog::getSaveFileName(this, "Export comparison (writes .png, .svg and .md)",
                                                      "comparison.png", "PNG + SVG + Markdown (*.png)");
    if (path.isEmpty()) return;
    const QWidget* area = centralWidget();
    const ExportResult r = exportTo(path, QSize(std::max(800, area->width()), std::max(500, area->height())));
    if (r.ok)
        statusBar()->showMessage(r.message);
    else
        QMessageBox::warning(this, "Export comparison", r.message);
}

CompareWindow* openCompareWindow(const QStringList& files) {
    auto* w = new CompareWindow(files);
    w->setAttribute(Qt::WA_DeleteOnClose);
    w->show();
    return w;
}

void addCompareAction(QMenu* file, QWidget* parent, std::function<QString()> currentPath) {
    file->addAction("&Compare with...", parent, [parent, currentPath] {
        const QString cur = currentPath ? currentPath() : QString();
        QStringList files = QFileDialog::getOpenFileNames(
            parent, cur.isEmpty() ? "Compare scenarios (pick two or more)" : "Compare " + cur + " with...",
            {}, "Scenarios (*.scn);;All files (*)");
        if (files.isEmpty()) return;
        if (!cur.isEmpty()) files.prepend(cur);
        if (files.size() < 2) {
            QMessageBox::information(parent, "Compare", "Pick at least two scenarios to compare.");
            return;
        }
        openCompareWindow(files);
    });
}

int runCompareCommand(const QStringList& files, const QString& exportPath, QSize size,
                      std::optional<uint32_t> pos) {
    if (files.size() < 2) {
        std::fprintf(stderr, "layoutscope: --compare wants two or more scenario files\n");
        return 2;
    }
    if (!exportPath.isEmpty()) {
        const CompareSet set = loadCompareSet(toStd(files));
        const uint32_t last = compareLastPosition(set.documents(), CompareSync::Step);
        const ExportResult r =
            exportComparison(set, CompareSync::Step, std::min(pos.value_or(last), last), exportPath, size);
        std::fprintf(stderr, "layoutscope: %s\n", qPrintable(r.message));
        return r.ok ? 0 : 1;
    }
    CompareWindow* w = openCompareWindow(files);
    if (pos) w->setPosition(*pos);
    return -1;
}

} // namespace layoutscope::views
