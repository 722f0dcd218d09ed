// MainWindow's secondary panels and menus: Examples, the event list, the swizzle explorer,
// File > Export Animation and View > Theme (main_window.hpp).
#include "breakpoint_dock.hpp"
#include "code_editor.hpp"
#include "compare_window.hpp"
#include "editor_dock.hpp"
#include "event_list.hpp"
#include "examples_menu.hpp"
#include "export_dialogs.hpp"
#include "instr_filter_bar.hpp"
#include "lesson_menu.hpp"
#include "main_window.hpp"
#include "scene/cell_style.hpp"
#include "swizzle_explorer_dock.hpp"
#include "theme.hpp"
#include "tmem_views.hpp"
#include "view_export_menu.hpp"

#include <QActionGroup>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QToolBar>

namespace layoutscope::views {

void MainWindow::buildDiagnosisButton() {
    // Errors where the eye is (issue 24 item 6): red in the status bar, not a count beside a check mark;
    // a click shows the line and the first wrong cell, whatever tab hides the Diagnostics list.
    m_diagButton = new QPushButton(this);
    m_diagButton->setObjectName("diagnosisButton");
    m_diagButton->setFlat(true);
    m_diagButton->setCursor(Qt::PointingHandCursor);
    m_diagButton->setFocusPolicy(Qt::NoFocus);
    m_diagButton->hide();
    statusBar()->addPermanentWidget(m_diagButton);
    connect(m_diagButton, &QPushButton::clicked, this, &MainWindow::goToFirstError);
    connect(m_editor, &EditorDock::diagnosticsChanged, this, &MainWindow::updateDiagnosis);
}

namespace {
constexpr int kDiagnosisWidth = 520; ///< px of the status bar's diagnosis text at most
/// The diagnostic the status bar names: the first error, else the first warning (nullptr: none).
const Diagnostic* firstProblem(const std::vector<Diagnostic>& ds) {
    const Diagnostic* first = nullptr;
    for (const Diagnostic& d : ds)
        if (!first || (d.severity == Severity::Error && first->severity != Severity::Error)) first = &d;
    return first;
}
} // namespace

void MainWindow::updateDiagnosis() {
    // What the editor shows: the last check's diagnostics, also when it failed and the views keep the
    // last valid run.
    const std::vector<Diagnostic>& ds = m_editor->editor()->diagnostics();
    const Diagnostic* first = firstProblem(ds);
    int errors = 0;
    for (const Diagnostic& d : ds) errors += d.severity == Severity::Error ? 1 : 0;
    const int warnings = int(ds.size()) - errors;
    if (!first) {
        m_diagButton->hide();
        return;
    }
    QString msg = QString::fromStdString(first->message);
    if (msg.size() > 90) msg = msg.left(87) + "...";
    const QString where = first->span.valid() ? QString("line %1: ").arg(first->span.line) : QString();
    const QString count =
        errors ? QString("✘ %1 error(s)").arg(errors) : QString("⚠ %1 warning(s)").arg(warnings);
    // Elided to a width the status bar has at 1280x800 beside the step text (the tooltip has it whole).
    m_diagButton->setText(m_diagButton->fontMetrics().elidedText(QString("%1 - %2%3").arg(count, where, msg),
                                                                 Qt::ElideRight, kDiagnosisWidth));
    m_diagButton->setToolTip(
        QString::fromStdString(formatDiagnostic(*first, m_editor->path().toStdString())) +
        "\n\nClick: go to the line and the first wrong cell.");
    m_diagButton->setStyleSheet(errors ? "QPushButton { color: rgb(230, 60, 50); font-weight: bold; }"
                                       : "QPushButton { color: rgb(215, 150, 30); }");
    m_diagButton->show();
}

void MainWindow::goToFirstError() {
    const Diagnostic* first = firstProblem(m_editor->editor()->diagnostics());
    if (!first) return;
    m_srcDock->show();
    m_srcDock->raise(); // the list may sit behind the Registers or Operand tab
    m_editor->editor()->jumpTo(*first);
    if (!m_doc || !m_doc->hasTrace()) return;
    // The first cell whose bytes differ from an observation: shared memory of the CTA shown, else of any
    // CTA, else Tensor Memory.
    for (uint32_t k = 0; k < m_doc->ctaCount(); ++k) {
        const uint32_t cta = (m_cta + k) % m_doc->ctaCount();
        if (const auto& diff = m_doc->observedDiffers(cta); !diff.empty()) {
            selectLocs({{MemSpace::SharedCta, cta, diff.front()}});
            return;
        }
    }
    if (const auto& t = m_doc->observedTmemDiffers(); !t.empty()) {
        selectLocs(
            {{MemSpace::TensorMemory, t.front().cta, uint64_t(t.front().lane) << 16 | t.front().column}});
        return;
    }
    // Else the first Tensor Memory cell a check marks at this step (a tcgen05.cp from wrong chunks, a
    // tcgen05.mma D that differs from the product of the tiles), in lane-major order.
    const TmemScene& s = m_tmemViews->tmemScene();
    for (size_t k = 0; k < s.texels.size(); ++k)
        if (s.texels[k].a & kFlagDiffers)
            if (const auto c = s.cellAt(uint32_t(k % s.width()), uint32_t(k / s.width()))) {
                selectLocs({{MemSpace::TensorMemory, c->cta, uint64_t(c->lane) << 16 | c->column}});
                return;
            }
}

void MainWindow::buildPanels(QMenu* file, QMenu* view) {
    // Examples: every annotated scenario of the scenarios folder, re-listed each time it opens.
    QMenu* examples = menuBar()->addMenu("E&xamples");
    const QString dir = examplesDir();
    if (dir.isEmpty()) {
        examples->addAction("(no scenarios folder found: set LAYOUTSCOPE_SCENARIOS_DIR)")->setEnabled(false);
    } else {
        attachExamplesMenu(
            examples, dir,
            [this](const QString& path) {
                if (m_editor->maybeSave()) openFile(path);
            },
            [](const QStringList& files) { openCompareWindow(files); });
    }

    // Lessons (issue 16): the Lessons menu and the lesson panel (lesson_menu.hpp, lesson_dock.hpp).
    installLessons(*this, view);

    // Event list: one row per instruction; selecting a row seeks, playback highlights the row.
    m_events = new EventList(this);
    auto* eventDock = new QDockWidget("Events", this);
    eventDock->setObjectName("eventDock");
    eventDock->setWidget(eventPaneWithFilter(m_events, m_timeline, eventDock)); // + warp / family filter
    addDockWidget(Qt::LeftDockWidgetArea, eventDock);
    m_eventDock = eventDock;
    connect(m_events, &EventList::seekRequested, m_playback, [this](uint32_t step) {
        m_playback->pause();
        m_playback->seek(step);
    });
    connect(m_playback, &Playback::stepChanged, m_events, &EventList::showStep);

    // Swizzle explorer: a tab behind the scenario editor.
    m_swizzleDock = addSwizzleExplorerDock(*this, m_srcDock);

    // Shared-memory toolbar: what the cells' colour means, and byte or 16-B chunk cells.
    QToolBar* bar = addToolBar("Shared memory");
    bar->setObjectName("smemToolBar");
    bar->addWidget(new QLabel(" Shared memory colour: ", bar));
    auto* colourBox = new QComboBox(bar);
    colourBox->setObjectName("smemColourBy");
    for (const SmemColourBy by :
         {SmemColourBy::Source, SmemColourBy::Instruction, SmemColourBy::Value, SmemColourBy::Bank})
        colourBox->addItem(smemColourByName(by), int(by));
    colourBox->setFocusPolicy(Qt::NoFocus);
    bar->addWidget(colourBox);
    bar->addWidget(new QLabel("  cells: ", bar));
    auto* cellBox = new QComboBox(bar);
    cellBox->setObjectName("smemCells");
    cellBox->addItems({"byte", "16-B chunk"});
    cellBox->setFocusPolicy(Qt::NoFocus);
    bar->addWidget(cellBox);
    const auto apply = [this, colourBox, cellBox] {
        setSmemColouring(SmemColourBy(colourBox->currentData().toInt()), cellBox->currentIndex() == 1);
    };
    connect(colourBox, &QComboBox::activated, this, apply);
    connect(cellBox, &QComboBox::activated, this, apply);
    view->addAction(bar->toggleViewAction());

    QAction* exportAnim = new QAction("Export &Animation...", this);
    connect(exportAnim, &QAction::triggered, this, [this] {
        if (!m_doc) return;
        const ExportResult r = exportAnimationDialog(this, *m_doc, m_cta);
        if (r.ok)
            statusBar()->showMessage(r.message, 5000);
        else if (r.message != "cancelled" && r.message != "no trace")
            QMessageBox::warning(this, "Export failed", r.message);
    });
    file->insertAction(file->actions().value(file->actions().size() - 2), exportAnim);

    view->addAction(eventDock->toggleViewAction());
    view->addAction(m_swizzleDock->toggleViewAction());
    view->addSeparator();
    QMenu* theme = view->addMenu("&Theme");
    auto* group = new QActionGroup(this);
    for (const Theme t : {Theme::Dark, Theme::Light}) {
        QAction* a =
            theme->addAction(t == Theme::Dark ? "&Dark" : "&Light", this, [this, t] { setTheme(t); });
        a->setCheckable(true);
        a->setChecked(AppSettings().theme() == t);
        a->setObjectName("theme_" + themeName(t));
        group->addAction(a);
    }

    // Right-click on the shared-memory or global view: export that view alone (view_export_menu.hpp).
    const auto exportContext = [this] {
        return ViewExportContext{m_doc.get(), m_playback->step(), ViewOptions{m_cta, m_colourBy, m_chunks}};
    };
    installViewExportMenu(m_smem, ExportView::Smem, exportContext);
    installViewExportMenu(m_global, ExportView::Global, exportContext);

    // Issue 16: breakpoints (a dock tabbed with Events) and instruction stepping.
    addBreakpointDock(*this);
    installInstructionStepping(*this);
}

void MainWindow::setSmemColouring(SmemColourBy by, bool chunks) {
    m_colourBy = by;
    m_chunks = chunks;
    if (auto* b = findChild<QComboBox*>("smemColourBy")) b->setCurrentIndex(b->findData(int(by)));
    if (auto* b = findChild<QComboBox*>("smemCells")) b->setCurrentIndex(chunks ? 1 : 0);
    onStep(m_playback->step());
}

void MainWindow::setTheme(Theme t) {
    applyTheme(t);
    AppSettings().setTheme(t);
    m_editor->setDark(t == Theme::Dark);
    for (QAction* a : findChildren<QAction*>("theme_" + themeName(t))) a->setChecked(true);
    for (CellCanvas* c : findChildren<CellCanvas*>()) c->refreshView(); // canvases follow (canvasTheme)
}

} // namespace layoutscope::views
