// MainWindow: the window built (docks, menus, toolbar), its layout per document kind, window events, the
// title and PNG export (main_window.hpp). Showing a document is main_window_document.cpp, the cells between
// views main_window_cells.cpp; the other main_window_*.cpp files hold the rest.
#include "main_window.hpp"
#include "compare_window.hpp"
#include "import_tensormap_dialog.hpp"
#include "operand_view.hpp"
#include "scenario_checker.hpp"
#include "scene/prepared_views.hpp"

#include "editor_dock.hpp"
#include "event_list.hpp"
#include "export.hpp"
#include "export_view.hpp"
#include "global_pane.hpp"
#include "help_menu.hpp"
#include "playback_keys.hpp"
#include "scene/inspect.hpp"

#include <QAction>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeyEvent>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QShortcut>
#include <QStatusBar>
#include <QTextBlock>
#include <QThreadPool>
#include <QVBoxLayout>

namespace layoutscope::views {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    buildUi();
    setDocument(Document::fromText(""));
}

MainWindow::~MainWindow() = default;

QSize initialWindowSize(QSize available) {
    // 1600x980 where the screen has room; else the screen's available area less a title bar's height
    // (issue 24 item 7: at 1280x800 the window opened at 1600x980, larger than the screen).
    const QSize room = available - QSize(0, kTitleBarAllowance);
    return QSize(1600, 980).boundedTo(room.isValid() ? room : QSize(1600, 980));
}

void MainWindow::buildUi() {
    setWindowTitle("Layoutscope");
    if (const QScreen* s = screen()) {
        const QRect avail = s->availableGeometry();
        resize(initialWindowSize(avail.size()));
        move(avail.topLeft());
    } else {
        resize(initialWindowSize(QSize(1600, 980 + kTitleBarAllowance)));
    }
    m_playback = new Playback(this);
    applyDockCorners(); // main_window_fit.cpp

    m_smem = new CellCanvas(this);
    m_smem->setMargins(kSmemMargins);
    m_smem->setMinimumSize(int(kSmemMinSize.x), int(kSmemMinSize.y)); // never collapsed (issue 15)
    // 2 px per byte column at least: at 1280x800 a 24 KiB buffer above Tensor Memory was a 25-px column.
    m_smem->setMinGridWidth(256.0f);
    m_smem->setMaxRowStretch(4.0f); // a short buffer in a tall pane: rows up to 4x a byte's width
    // A tall buffer in a wide, short pane (193 rows of 128 B beside Tensor Memory at 1280x800): its rows in
    // bands side by side, 66 px apart for the next band's row addresses (overlay.hpp).
    m_smem->setRowFolding(kSmemFoldGapPx);
    setCentralWidget(m_smem);

    m_global = new CellCanvas(this);
    m_global->setMargins(kGlobalMargins);
    // The legend grows a line where its items wrap (a narrow dock): the grid ends above it.
    m_global->setMarginsFn([this](glm::vec2 vp) { return globalMargins(vp.x, m_globalScene); });
    m_global->setMinimumSize(int(kGlobalMinSize.x), int(kGlobalMinSize.y));
    m_globalPane = new GlobalPane(m_global, this);
    auto* globalDock = new QDockWidget("Global tensor", this);
    globalDock->setObjectName("globalDock");
    globalDock->setWidget(m_globalPane);
    addDockWidget(Qt::LeftDockWidgetArea, globalDock);
    connect(m_globalPane, &GlobalPane::sliceChanged, this, [this](const GlobalSlice& s) {
        const bool axes = s.dimX != m_globalScene.slice.dimX || s.dimY != m_globalScene.slice.dimY;
        onStep(m_playback->step());
        if (axes) m_global->fitView();
    });
    connect(m_globalPane, &GlobalPane::tileChosen, this, [this] {
        onStep(m_playback->step());
        m_global->fitView();
    });

    m_editor = new EditorDock(this);
    m_editor->setRunHandler([this](std::unique_ptr<Document> d) { setDocument(std::move(d), true); });
    connect(m_editor, &EditorDock::modifiedChanged, this, [this](bool) { updateTitle(); });
    connect(m_editor, &EditorDock::pathChanged, this, [this](const QString&) { updateTitle(); });
    connect(m_editor, &EditorDock::reloadRequested, this, &MainWindow::reloadFile);
    m_loader = new ScenarioChecker(
        [this](std::unique_ptr<Document> doc) { // openFileInBackground's document, on the event loop
            const Loading l = std::exchange(m_loading, Loading{});
            m_editor->setEnabled(true);
            m_editor->adoptFile(l.path, l.raw);
            showOpened(l.path, std::move(doc));
        },
        this);
    m_loader->setTwoThreads(true); // the window waits for this document: both cores
    auto* srcDock =
        new QDockWidget("Scenario and diagnostics", this); // no "&": tab labels read it as a mnemonic
    srcDock->setObjectName("scenarioDock");
    srcDock->setWidget(m_editor);
    addDockWidget(Qt::RightDockWidgetArea, srcDock);

    m_timeline = new TimelineWidget(m_playback, this);
    auto* tlDock = new QDockWidget("Timeline", this);
    tlDock->setObjectName("timelineDock");
    tlDock->setWidget(m_timeline);
    tlDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::BottomDockWidgetArea, tlDock);
    m_globalDock = globalDock;
    m_srcDock = srcDock;
    m_tmemViews = new TmemViews(this); // gui-tmem: adds its docks (hidden without tcgen05 moves)

    m_ctaBox = new QComboBox(this);
    m_ctaBox->setToolTip("Which CTA's shared memory the centre view shows (%cluster_ctarank)");
    m_ctaBox->setFocusPolicy(Qt::NoFocus);
    connect(m_ctaBox, &QComboBox::activated, this, [this](int i) {
        m_cta = static_cast<uint32_t>(std::max(0, i));
        onStep(m_playback->step());
        m_smem->fitView();
    });
    m_status = new QLabel(this);
    statusBar()->addWidget(new QLabel("shared memory of", this));
    statusBar()->addWidget(m_ctaBox);
    statusBar()->addWidget(m_status, 1);
    buildDiagnosisButton(); // main_window_panels.cpp

    QMenu* file = menuBar()->addMenu("&File");
    file->addAction("&Open scenario...", QKeySequence::Open, this, [this] {
        if (!m_editor->maybeSave()) return;
        const QString p = QFileDialog::getOpenFileName(
            this, "Open scenario", {},
            "Scenarios and PTX modules (*.scn *.ptx);;Scenarios (*.scn);;PTX modules (*.ptx);;All files (*)");
        if (!p.isEmpty()) openFileInBackground(p);
    });
    file->addAction("&Save", QKeySequence::Save, m_editor, &EditorDock::save)->setObjectName("saveAction");
    file->addAction("Save &As...", QKeySequence::SaveAs, m_editor, &EditorDock::saveAs);
    file->addAction("&Reload from disk", QKeySequence(Qt::Key_F5), this, [this] {
        if (m_editor->path().isEmpty() || !m_editor->maybeSave()) return;
        openFile(m_editor->path());
    });
    file->addAction("&Import tensor map...", QKeySequence(Qt::CTRL | Qt::Key_I), this,
                    [this] {
                        ImportTensorMapDialog dlg(this);
                        if (dlg.exec() == QDialog::Accepted && !dlg.directive().isEmpty())
                            m_editor->editor()->textCursor().insertText(dlg.directive());
                    })
        ->setObjectName("importTensorMapAction");
    file->addAction("&Export PNG...", QKeySequence(Qt::CTRL | Qt::Key_E), this, &MainWindow::exportPngDialog);
    addCompareAction(file, this, [this] { return m_editor->path(); }); // compare_window.hpp
    file->addSeparator();
    file->addAction("&Quit", QKeySequence::Quit, this, &QWidget::close);
    QMenu* view = menuBar()->addMenu("&View");
    view->addAction("&Fit views", QKeySequence(Qt::Key_F), this, [this] {
        m_smem->fitView();
        m_global->fitView();
    });
    view->addAction(globalDock->toggleViewAction());
    view->addAction(srcDock->toggleViewAction());
    buildPanels(file, view);
    buildSourcePane(view); // issue 22: the Source dock (main_window_kernel.cpp)
    buildLinks();
    m_editor->setDark(AppSettings().theme() == Theme::Dark);

    // Keyboard: space play/pause, left/right step, home/end: keyPressEvent below, so the keys reach
    // the timeline from anywhere in the window except where a child uses them (the scenario editor,
    // the diagnostics list).
    auto* run = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this);
    connect(run, &QShortcut::activated, m_editor, &EditorDock::checkNow);
    run->setWhatsThis("Check and run the scenario now");
    addHelpMenu(*this, view); // last menu; View lists every dock (help_menu.hpp)

    connect(m_playback, &Playback::stepChanged, this, &MainWindow::onStep);
    connect(m_playback, &Playback::playingChanged, this, [this](bool) { onStep(m_playback->step()); });
    // Linked highlight: hovering a byte outlines its source element in the global view, and
    // hovering an element outlines the shared-memory bytes it went to.
    connect(m_smem, &CellCanvas::hoveredCell, this, [this](int x, int y) {
        updateStatus();
        m_global->setMarker(x < 0 ? std::nullopt : globalMarkerOfSmemCell(uint32_t(x), uint32_t(y)));
    });
    connect(m_global, &CellCanvas::hoveredCell, this, [this](int x, int y) {
        m_smem->setMarker(x < 0 ? std::nullopt : smemMarkerOfGlobalCell(uint32_t(x), uint32_t(y)));
    });
    for (CellCanvas* c : {m_smem, m_global})
        connect(c, &CellCanvas::framePainted, this, [this](double) {
            finishOpening(); // the file opened and drew a frame: now it may be reopened at start
            // Developer timings: a tooltip of the status line, not text beside the user's (issue 24 item 6).
            m_status->setToolTip(
                QString(m_smem->usesGl()
                            ? "paint (OpenGL, 1 cell draw call per view): SMEM %1 ms, global %2 ms"
                            : "paint (raster fallback, no OpenGL): SMEM %1 ms, global %2 ms")
                    .arg(m_smem->frameMs(), 0, 'f', 2)
                    .arg(m_global->frameMs(), 0, 'f', 2));
        });

    // m_smem's overlay (labels, legend, swizzle atoms, bank heat) is set in buildLinks().
    m_global->setOverlay(
        [this](const Camera2D& cam, glm::vec2 vp) { return buildGlobalOverlay(cam, vp, m_globalScene); });
    m_smem->setInspector([this](uint32_t x, uint32_t y) -> std::string {
        if (!m_doc || !m_replay) return {};
        const uint32_t cta = m_smemScene.window.cta;
        if (cta >= m_replay->state().smem.size()) return {};
        return inspectSmemByte(*m_doc, m_smemScene, m_replay->state().smem[cta].bytes(),
                               m_smemScene.window.base + y * 128 + x);
    });
    m_global->setInspector([this](uint32_t x, uint32_t y) -> std::string {
        if (!m_doc || !m_replay) return {};
        return inspectGlobalCell(*m_doc, m_globalScene, m_replay->state().global, x, y);
    });
}

void MainWindow::showEvent(QShowEvent* e) {
    QMainWindow::showEvent(e);
    if (m_sized) return;
    m_sized = true;
    m_smem->setFocus(); // so Space and the arrows drive the timeline, not the scenario editor
    m_layoutKind = layoutKind();
    if (AppSettings().restoreWindow(*this)) {
        const QByteArray kind = AppSettings().kindLayout(m_layoutKind);
        if (!kind.isEmpty()) restoreState(kind, AppSettings::kStateVersion);
        applyPaneVisibility(); // the saved layout may be another document's
        m_firstState = saveState(AppSettings::kStateVersion);
        m_firstKind = m_layoutKind;
        return;
    }
    sizeDockColumns(); // left ~26%, right ~27%, the centre keeping its minimum (main_window_fit.cpp)
    // The global tensor over the event list, about 60:40.
    resizeDocks({m_globalDock, m_eventDock}, {height() * 36 / 100, height() * 24 / 100}, Qt::Vertical);
    // The first layout as shown: the dock sizes asked for above are fitted to the window's areas when the
    // layout runs; saved before that, restoring it (a TMA example after a tcgen05 one, or the first example
    // of a window shown empty) gave the global tensor 303 px instead of 431 at 1280x800.
    if (layout()) layout()->activate();
    m_firstState = saveState(AppSettings::kStateVersion);
    m_firstKind = m_layoutKind;
}

QString MainWindow::layoutKind() const {
    if (!m_doc || !m_doc->hasTrace()) return {};
    bool tile = false;
    for (uint32_t i = 0; i < m_doc->trace().instrs.size() && !tile; ++i) tile = m_doc->tileOf(i) != nullptr;
    const bool tmem = m_tmemViews->hasTmem();
    return tmem ? (tile ? "mixed" : "tcgen05") : "tma";
}

void MainWindow::switchLayoutKind(const QByteArray& before) {
    const QString kind = layoutKind();
    if (!m_sized || kind.isEmpty() || kind == m_layoutKind) return;
    if (!m_layoutKind.isEmpty() && !before.isEmpty()) AppSettings().saveKindLayout(m_layoutKind, before);
    m_layoutKind = kind;
    // A kind seen before gets its layout back; TMA seen first gets the first layout (the TMEM docks'
    // space returns to the other views); tcgen05 / mixed seen first keep TmemViews' default sizes.
    QByteArray saved = AppSettings().kindLayout(kind);
    // The first layout is a TMA one when the window showed a TMA example or none; one that opened on a
    // tcgen05 example gave Tensor Memory a third of the height, which went to the timeline for TMA.
    const bool firstIsTma = m_firstKind.isEmpty() || m_firstKind == "tma";
    if (saved.isEmpty() && kind == "tma" && firstIsTma) saved = m_firstState;
    if (!saved.isEmpty()) restoreState(saved, AppSettings::kStateVersion);
    applyPaneVisibility(); // the docks this document needs, in the kind's sizes
    if (saved.isEmpty() && kind == "tma") sizeTmaLayout(); // as the first show sizes a TMA example
}

void MainWindow::keyPressEvent(QKeyEvent* e) {
    // The timeline's keys (playback_keys.hpp: one table for these keys, tooltips and Help).
    if (!(e->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier)) &&
        handlePlaybackKey(*m_playback, *e)) {
        e->accept();
        return;
    }
    QMainWindow::keyPressEvent(e);
}

void MainWindow::closeEvent(QCloseEvent* e) {
    if (!m_editor->maybeSave()) {
        e->ignore();
        return;
    }
    m_editor->closeClean(); // no recovery file after a clean close
    AppSettings().saveWindow(*this);
    AppSettings().saveKindLayout(m_layoutKind, saveState(AppSettings::kStateVersion));
    finishOpening(); // closed normally: the file did not crash us
    e->accept();
}

void MainWindow::updateTitle() {
    const QString p = m_editor->path();
    const bool ro = m_editor->isReadOnly(); // a bundled example: Save is Save As
    setWindowTitle(QString("Layoutscope - %1%2%3")
                       .arg(p.isEmpty() ? QString("(unsaved)") : QFileInfo(p).fileName(),
                            ro ? " [read-only example]" : "", m_editor->isModified() ? " *" : ""));
    if (auto* save = findChild<QAction*>("saveAction"))
        save->setText(ro ? "&Save As... (example is read-only)" : "&Save");
}

QString MainWindow::diagnosticsText() const {
    return m_editor->diagnosticsText();
}

void MainWindow::exportPngDialog() {
    if (!m_doc) return;
    // Both panes (global tensor + shared memory of the CTA shown); one view alone: right-click it.
    const QString p = QFileDialog::getSaveFileName(
        this, "Export PNG", "layoutscope.png", "PNG (*.png);;SVG, global tensor and shared memory (*.svg)");
    if (p.isEmpty()) return;
    const ExportResult r = exportView(*m_doc, ExportView::All, m_playback->step(), p, QSize(1600, 900),
                                      ViewOptions{m_cta, m_colourBy, m_chunks});
    if (!r.ok)
        QMessageBox::warning(this, "Export failed", r.message);
    else
        statusBar()->showMessage(r.message, 5000);
}

} // namespace layoutscope::views
