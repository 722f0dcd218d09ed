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

void MainWindow::applyDocument(std::unique_ptr<Document> doc, bool keepStep) {
    const uint32_t oldStep = m_playback->step(), oldCta = m_cta;
    const QByteArray layoutBefore =
        m_sized && !keepStep ? saveState(AppSettings::kStateVersion) : QByteArray();
    const bool wasAtEnd = oldStep >= m_playback->stepCount();
    m_playback->pause();
    m_replay.reset();
    // The old document lives until the end of this function: the views still point into it until
    // each is given the new one below, and signals emitted on the way may reach them (ASan, CI stop 18).
    std::unique_ptr<Document> previous = std::move(m_doc);
    m_doc = std::move(doc);
    // The incremental SMEM scene knows its document by address: a later document allocated where a
    // freed one was (after one without a trace, which never reaches the cache) must not look cached.
    m_smemCache = SmemSceneCache();
    // Built on the re-check's worker (prepared_views.hpp), when the editor's re-check made this document.
    std::unique_ptr<PreparedViews> prep = m_doc->hasTrace() ? m_doc->takePrepared() : nullptr;
    resetLinks(prep ? &prep->tiles : nullptr); // a new trace: old selections and tiles mean nothing in it
    if (!keepStep) m_editor->showDocument(*m_doc, false);
    updateTitle();
    const std::string name = m_doc->path().empty() ? std::string("(unsaved)") : m_doc->path();

    std::vector<TimelineWidget::Span> spans;
    // Where the trace stopped recording at its memory budget (issue 25 item 9: said, not silent); the
    // untraced instructions' rows in the event list say why they have no steps.
    m_traceNote.clear();
    if (m_doc->hasTrace())
        if (const Trace& t = m_doc->trace(); t.firstUntraced() < t.instrs.size()) {
            const uint64_t b = t.budgetBytes; // in the largest unit that divides it: 1 GiB, 10 KiB
            QString amount = QString("%1 B").arg(b);
            for (auto [shift, unit] : {std::pair{30, " GiB"}, {20, " MiB"}, {10, " KiB"}})
                if (b != 0 && b % (uint64_t(1) << shift) == 0) {
                    amount = QString::number(b >> shift) + unit;
                    break;
                }
            m_traceNote = QString("trace summarised after step %1: the %2 budget")
                              .arg(t.instrs[t.firstUntraced()].firstStep)
                              .arg(amount);
        }
    if (m_doc->hasTrace()) {
        if (prep) {
            m_frames = std::move(prep->frames);
            m_replay = std::move(prep->replay);
            m_smemCache = std::move(prep->smem);
            m_smemCache.rebindFrames(m_frames);
        } else {
            m_frames = boxFrames(*m_doc);
            m_replay = std::make_unique<Replay>(m_doc->trace(), m_doc->initial());
        }
        for (const TraceInstr& in : m_doc->trace().instrs)
            spans.push_back({in.firstStep, in.endStep, in.summary.empty() ? in.text : in.summary});
        m_smem->setMessage({}, {});
        m_global->setMessage({}, {});
    } else {
        m_frames.clear();
        std::string msg;
        for (const Diagnostic& d : m_doc->diagnostics()) msg += formatDiagnostic(d, name) + "\n";
        if (msg.empty()) msg = "Open a scenario (File > Open, or --scenario FILE).";
        const std::string title =
            m_doc->diagnostics().empty() ? "No scenario" : "Scenario failed: nothing to show";
        m_smem->setMessage(title, msg);
        m_global->setMessage(m_doc->diagnostics().empty() ? "No scenario" : "No trace",
                             "See the Diagnostics panel.");
    }
    m_cta = keepStep && oldCta < m_doc->ctaCount() ? oldCta : 0;
    m_ctaBox->clear();
    for (uint32_t c = 0; c < m_doc->ctaCount(); ++c) m_ctaBox->addItem(QString("CTA %1").arg(c));
    m_ctaBox->setCurrentIndex(int(m_cta));
    m_ctaBox->setEnabled(m_doc->ctaCount() > 1);
    // Views first, then the step count: setStepCount emits stepChanged, which they answer.
    m_timeline->setSpans(std::move(spans));
    // Async lanes: spans, barrier phases, race arrows (issue 23); built on the worker when it prepared the
    // views.
    m_timeline->setOrder(m_doc.get(), prep && m_doc->hasTrace() ? &prep->order : nullptr);
    m_globalPane->setDocument(m_doc.get());
    m_events->setTrace(m_doc->hasTrace() ? &m_doc->trace() : nullptr, m_doc->instrFamilies());
    m_operandView->setDocument(m_doc.get()); // hidden without a consumer (wgmma, tcgen05.mma / .cp)
    m_playback->setStepCount(m_doc->hasTrace() ? m_doc->trace().stepCount : 0);
    // A new file opens on the finished copy (Space replays it from step 0); an edit keeps the step.
    const uint32_t step =
        keepStep && !wasAtEnd ? std::min(oldStep, m_playback->stepCount()) : m_playback->stepCount();
    onStep(step);
    m_playback->seek(step);
    if (m_doc->hasTrace() && !m_globalScene.tile) // tcgen05-only scenarios: say why the pane is empty
        m_global->setMessage("No TMA tile copy", "This scenario reads no global tensor.");
    applyPaneVisibility(); // e.g. no global tensor pane for a tcgen05-only scenario
    if (!keepStep) {
        switchLayoutKind(layoutBefore); // TMA / tcgen05 / mixed: each kind keeps its own layout
        m_smem->fitView();
        m_global->fitView();
    }
    showKernelSource(!keepStep); // the Source dock: shown for a recorded kernel
    // Nothing points into the old document any more. Freeing a 10,000-instruction trace takes tens of
    // milliseconds: a pool thread does it, not the event loop (the editor's re-check, issue 11 item 4).
    if (previous) QThreadPool::globalInstance()->start([p = previous.release()] { delete p; });
}

void MainWindow::drawStep(uint32_t step) {
    if (m_replay) m_replay->seek(step);
    if (m_doc && m_doc->hasTrace()) {
        // A short trail behind the arriving chunks (1/8 of a second of playback at most).
        const uint32_t fade =
            m_playback->playing() ? std::clamp<uint32_t>(uint32_t(m_playback->speed() / 8), 2, 64) : 0;
        m_smemScene = m_smemCache.sceneAt(*m_doc, step, m_frames, m_cta, fade); // = smemSceneAt, incremental
        const uint32_t instr = m_globalPane->pinnedInstr().value_or(tileInstrAt(*m_doc, step));
        m_globalPane->showTile(m_doc->tileOf(instr));
        m_globalScene = globalSceneAt(*m_doc, instr, step, m_frames, m_globalPane->slice(), 8, fade);
    } else {
        m_smemScene = SmemScene{};
        m_globalScene = GlobalScene{};
        m_globalPane->showTile(nullptr);
    }
    if (m_replay && m_smemScene.window.cta < m_replay->state().smem.size()) {
        const auto bytes = m_replay->state().smem[m_smemScene.window.cta].bytes();
        const auto win = m_smemScene.window.base + m_smemScene.window.size <= bytes.size()
                             ? bytes.subspan(m_smemScene.window.base, m_smemScene.window.size)
                             : std::span<const uint8_t>();
        recolourSmem(m_smemScene, m_colourBy, win, m_doc->trace());
    }
    if (m_chunks) chunkSmem(m_smemScene);
    applySmemLayers(step); // bank heat texels, swizzle atoms (main_window_links.cpp)
    // The banner (swizzle atoms, bank heat) takes a header strip above the grid, never cells; its
    // height depends on the pane's width (wrapping), so it is asked at each fit (resizes too).
    m_smem->setMarginsFn([this](glm::vec2 vp) {
        const float banner =
            smemBannerHeight(smemBannerLines(m_atoms, m_smemTiles, m_heat ? &*m_heat : nullptr, vp.x).size());
        return smemMargins(vp.x, m_smemScene.observedMarked) + glm::vec4(0.0f, banner, 0.0f, 0.0f);
    });
    // Bank lines every 4 bytes; at chunk granularity a line every 16 bytes.
    m_smem->setCells(m_smemScene.width(), m_smemScene.height(), m_smemScene.texels,
                     ShadeParams{1, m_chunks ? 16 : 4, 0});
    m_global->setCells(m_globalScene.w, m_globalScene.h, m_globalScene.texels, ShadeParams{1, 0, 0});
    m_tmemViews->onStep(m_doc.get(), step, m_smemScene);
    showSelection(step);
    updateStatus();
}

void MainWindow::updateStatus() {
    if (!m_doc || !m_doc->hasTrace()) {
        m_status->setText(QString("%1 diagnostic(s)").arg(m_doc ? m_doc->diagnostics().size() : 0));
        return;
    }
    size_t written = 0;
    for (const Rgba8& t : m_smemScene.texels) written += (t.a & kFlagWritten) ? 1 : 0;
    m_status->setText(QString("step %1 / %2 - %3 of %4 shared bytes written")
                          .arg(m_playback->step())
                          .arg(m_doc->trace().stepCount)
                          .arg(written)
                          .arg(m_smemScene.window.size) +
                      (m_traceNote.isEmpty() ? QString() : " - " + m_traceNote));
}

std::optional<MainWindow::CellRange> MainWindow::globalMarkerOfSmemCell(uint32_t x, uint32_t y) const {
    if (!m_doc || !m_doc->hasTrace() || !m_globalScene.tile) return std::nullopt;
    const size_t i = size_t(y) * 128 + x;
    if (i >= m_smemScene.moveOf.size() || m_smemScene.moveOf[i] < 0) return std::nullopt;
    const size_t mi = size_t(m_smemScene.moveOf[i]);
    const ByteMove& m = m_doc->trace().moves[mi];
    const MemRef& r =
        (m.dst.space == MemSpace::SharedCta && m.dst.cta == m_smemScene.window.cta) ? m.dst : m.src;
    const auto cell = globalCellOfMoveByte(*m_doc, m_globalScene, mi,
                                           m_smemScene.window.base + uint32_t(i) - uint32_t(r.addr));
    if (!cell) return std::nullopt;
    const glm::uvec2 lo((*cell)[0], (*cell)[1]);
    return CellRange{lo, lo + glm::uvec2(1, 1)};
}

std::optional<MainWindow::CellRange> MainWindow::smemMarkerOfGlobalCell(uint32_t x, uint32_t y) const {
    if (!m_doc || !m_doc->hasTrace()) return std::nullopt;
    const auto span = smemOfGlobalCell(*m_doc, m_globalScene, x, y, m_smemScene.window.cta);
    if (!span) return std::nullopt;
    const auto idx = m_smemScene.indexOf(span->addr);
    if (!idx) return std::nullopt;
    const glm::uvec2 lo(*idx % 128, *idx / 128);
    return CellRange{lo, lo + glm::uvec2(span->length, 1)};
}

QString MainWindow::diagnosticsText() const {
    return m_editor->diagnosticsText();
}

std::optional<glm::uvec2> MainWindow::smemCellOf(uint32_t addr) const {
    const auto i = m_smemScene.indexOf(addr);
    if (!i) return std::nullopt;
    return glm::uvec2(*i % 128, *i / 128);
}

std::optional<glm::uvec2> MainWindow::globalCellOf(int32_t c0, int32_t c1) const {
    std::array<int32_t, 5> c = m_globalScene.slice.fixed;
    c[size_t(m_globalScene.slice.dimX)] = c0;
    c[size_t(m_globalScene.slice.dimY)] = c1;
    return globalCellOf(c);
}

std::optional<glm::uvec2> MainWindow::globalCellOf(const std::array<int32_t, 5>& c) const {
    const auto cell = m_globalScene.cellOf(c);
    if (!cell) return std::nullopt;
    return glm::uvec2((*cell)[0], (*cell)[1]);
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
