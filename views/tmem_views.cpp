#include "tmem_views.hpp"
#include "scene/tmem_dvalues.hpp"

#include "scene/tmem_inspect.hpp"
#include "scene/tmem_overlay.hpp"
#include "scene/view_pane.hpp"
#include "view_export_menu.hpp"

#include <QDockWidget>
#include <QMainWindow>
#include <QTimer>
#include <QToolBar>
#include <cstdio>

namespace layoutscope::views {

static CellCanvas* canvas(QMainWindow* w, glm::vec4 margins) {
    auto* c = new CellCanvas(w);
    c->setMargins(margins);
    return c;
}

static QDockWidget* dock(QMainWindow* w, const char* title, const char* name, QWidget* content) {
    auto* d = new QDockWidget(title, w);
    d->setObjectName(name);
    d->setWidget(content);
    d->hide();
    return d;
}

/// Tensor Memory before the first instruction: the run's `tmemInitial` once the scenario runner
/// records it (helper tcscen's Run contract), else zero-filled cells for `ctas` CTAs.
template <class R>
static TmemState initialTmemOf(const R& run, uint32_t ctas) {
    if constexpr (requires { run.tmemInitial.ctas.size(); }) {
        if (run.tmemInitial.ctas.size() >= ctas) return run.tmemInitial;
    }
    return TmemState(ctas);
}

TmemViews::TmemViews(QMainWindow* window) : QObject(window), m_window(window) {
    m_tmem = canvas(window, kTmemMargins);
    m_regs = canvas(window, kRegMargins);
    m_decomp = canvas(window, kDecompMargins);
    m_tmemDock = dock(window, "Tensor Memory", "tmemDock", m_tmem);
    m_regDock = dock(window, "Registers (tcgen05.ld/st, wgmma D)", "registerDock", m_regs);
    m_decompDock = dock(window, "Decompression (tcgen05.cp)", "decompDock", m_decomp);
    // Usable minimums: a dock never squeezes its grid to nothing (issue 15).
    // Margins (labels, legend) plus at least 40 px of cells (all of it fits a 1280x800 window); Tensor
    // Memory one pixel per lane at least, so its four lane quarters stay labelled (issue 24 item 7: a
    // 28-px strip showed lane 0 only).
    m_tmem->setMinimumSize(260, int(kTmemMargins.y + kTmemMargins.w) + int(kTmemMinGridHeight));
    m_regs->setMinimumSize(200, int(kRegMargins.y + kRegMargins.w) + 40);
    m_decomp->setMinimumSize(260, int(kDecompMargins.y + kDecompMargins.w) + 28);
    // TMEM is 4:1 wide: a band under the centre view (MainWindow::applyDockCorners), with the timeline.
    // Registers and decompression share the right-hand area with the scenario editor (tabs), raised when a
    // document has tcgen05 moves.
    window->addDockWidget(Qt::BottomDockWidgetArea, m_tmemDock, Qt::Vertical);
    if (auto* scenario = window->findChild<QDockWidget*>("scenarioDock")) {
        window->tabifyDockWidget(scenario, m_regDock);
    } else {
        window->addDockWidget(Qt::RightDockWidgetArea, m_regDock);
    }
    window->tabifyDockWidget(m_tmemDock, m_decompDock); // 128 bits across: it needs the full width too
    m_tmaFanView = canvas(window, kTmaFanMargins);
    m_tmaFanView->setMinimumSize(260, int(kTmaFanMargins.y + kTmaFanMargins.w) + 40);
    m_tmaFanDock = dock(window, "Multicast (TMA)", "tmaMulticastDock", m_tmaFanView);
    window->tabifyDockWidget(m_tmemDock, m_tmaFanDock);
    m_tmaFanView->setOverlay([this](const Camera2D& cam, glm::vec2 vp) {
        // The fan may still describe the previous document for a frame after a switch (it is rebuilt on
        // the next step change): name the instruction only when its index is one of this trace's.
        const bool known = m_doc && m_tmaFan.valid && m_tmaFan.instr < m_doc->trace().instrs.size();
        const std::string text = known ? m_doc->trace().instrs[m_tmaFan.instr].text : std::string();
        return buildTmaFanOverlay(cam, vp, m_tmaFan, text);
    });
    m_tmaFanView->setInspector([this](uint32_t x, uint32_t y) -> std::string {
        if (!m_tmaFan.valid || y >= m_tmaFan.rows) return {};
        if (x < 8)
            return "box row " + std::to_string(y) + " (dim 1 offset in the box)\nsent to " +
                   std::to_string(m_tmaFan.ctas.size()) + " CTAs (ctaMask)\n";
        for (size_t k = 0; k < m_tmaFan.ctas.size(); ++k)
            if (x >= TmaFan::ctaX(k) && x < TmaFan::ctaX(k) + 8) {
                const bool here = m_tmaFan.texels[size_t(y) * m_tmaFan.width() + x].a & kFlagWritten;
                return "CTA " + std::to_string(m_tmaFan.ctas[k]) + ", box row " + std::to_string(y) + "\n" +
                       (here ? "landed" : "not landed yet") +
                       "\nrule: multicast to every CTA of ctaMask, same CTA-relative offset (tma.md §10)\n";
            }
        return {};
    });

    // Tensor Memory toolbar: fit the view to the allocated columns (default) or to all 512.
    m_toolBar = window->addToolBar("Tensor Memory");
    m_toolBar->setObjectName("tmemToolBar");
    QAction* fit = m_toolBar->addAction("Fit TMEM to allocation");
    fit->setObjectName("tmemFitToAllocation");
    fit->setCheckable(true);
    fit->setChecked(true);
    fit->setToolTip("Tensor Memory view: show the allocated columns (tcgen05.alloc), not all 512");
    connect(fit, &QAction::toggled, this, &TmemViews::setFitToAllocation);
    QAction* byValue = m_toolBar->addAction("Colour D by value");
    byValue->setObjectName("tmemDByValue");
    byValue->setCheckable(true);
    byValue->setToolTip(
        "Tensor Memory view: colour a tcgen05.mma accumulator by D's value (blue = smallest, "
        "yellow = largest) instead of by element; cells the value check finds wrong stay marked");
    connect(byValue, &QAction::toggled, this, &TmemViews::setDByValue);
    m_toolBar->hide();

    // Right-click: export the whole view at the current step (view_export_menu.hpp).
    const auto context = [this] { return ViewExportContext{m_doc, m_step, ViewOptions{m_cta}}; };
    installViewExportMenu(m_tmem, ExportView::Tmem, context);
    installViewExportMenu(m_regs, ExportView::Registers, context);
    installViewExportMenu(m_decomp, ExportView::Decompression, context);
    installViewExportMenu(m_tmaFanView, ExportView::Multicast, context);

    m_tmem->setOverlay([this](const Camera2D& cam, glm::vec2 vp) {
        const TmemValueFn value = [this](uint32_t x, uint32_t y) -> std::optional<uint32_t> {
            const auto c = m_tmemScene.cellAt(x, y);
            if (!c || !m_tmemReplay || c->cta >= m_tmemReplay->state().ctas.size()) return std::nullopt;
            return m_tmemReplay->state().ctas[c->cta].cell(c->lane, c->column);
        };
        return buildTmemOverlay(cam, vp, m_tmemScene, m_fans.valid ? &m_fans : nullptr, value);
    });
    m_regs->setOverlay([this](const Camera2D& cam, glm::vec2 vp) {
        const std::string text =
            m_doc && m_regScene.valid ? m_doc->trace().instrs[m_regScene.instr].text : std::string();
        return buildRegOverlay(cam, vp, m_regScene, text);
    });
    m_decomp->setOverlay([this](const Camera2D& cam, glm::vec2 vp) {
        return m_hasDecomp ? buildDecompOverlay(cam, vp, m_decompScene, m_decompTitle) : OverlayList{};
    });
    m_tmem->setInspector([this](uint32_t x, uint32_t y) -> std::string {
        if (!m_doc || !m_tmemReplay) return {};
        std::string t = inspectTmemCell(*m_doc, m_tmemScene, m_tmemReplay->state(), x, y);
        // The check's verdict second, under the cell's name: the inspector is cut at the pane's bottom.
        if (const TmemWrongCell* c = expectedCellAt(*m_doc, m_expected, m_tmemScene, x, y))
            t.insert(t.find('\n') + 1, expectedCellText(*c));
        if (const std::string d = mmaDValueText(*m_doc, m_mmaChecks, m_tmemScene, x, y); !d.empty())
            t.insert(t.find('\n') + 1, d + "\n");
        return t;
    });
    m_regs->setInspector([this](uint32_t x, uint32_t y) -> std::string {
        if (m_doc && m_regScene.wgmma) return wgmmaRegisterText(*m_doc, m_regScene, m_wgmmaChecks, x, y);
        if (!m_doc || !m_tmemReplay) return {};
        return inspectRegisterCell(*m_doc, m_regScene, m_tmemScene, m_tmemReplay->state(), x, y);
    });
    m_decomp->setInspector([this](uint32_t x, uint32_t y) -> std::string {
        if (!m_hasDecomp || (y != 0 && y != 7)) return {};
        const int field = y == 0 ? m_decompScene.srcField[x]
                                 : (m_decompScene.dstSrcBit[x] >= 0
                                        ? m_decompScene.srcField[size_t(m_decompScene.dstSrcBit[x])]
                                        : -1);
        std::string t = y == 0
                            ? "source bit " + std::to_string(x) + " (byte " + std::to_string(x / 8) +
                                  " bit " + std::to_string(x % 8) + ")\n"
                            : "container " + std::to_string(x / 8) + " bit " + std::to_string(x % 8) + "\n";
        if (field < 0)
            return t + (y == 0 ? "padding: ignored\n" : "padding: zero (unverified: open question 28)\n");
        return t + "field " + std::to_string(field) + ": " + decompFieldText(m_decompScene, uint32_t(field)) +
               "\nrule: " +
               ruleInfo(m_decompScene.kind == CpDecompress::B8x16_B6x16_p32 ? RuleId::Tcgen05Decompress6to8
                                                                            : RuleId::Tcgen05Decompress4to8)
                   .name +
               "\nstatus: unverified (open questions 3, 28)\n";
    });
    connect(m_tmem, &CellCanvas::hoveredCell, this, [this](int x, int y) {
        const auto c = x < 0 ? std::nullopt : m_tmemScene.cellAt(uint32_t(x), uint32_t(y));
        const auto r = c ? m_regScene.registerOf(*c) : std::nullopt;
        m_regs->setMarker(r ? std::optional(std::pair{*r, *r + glm::uvec2(1)}) : std::nullopt);
        if (c)
            emit tmemCellHovered(int(c->cta), int(c->lane), int(c->column));
        else
            emit tmemCellHovered(-1, -1, -1);
    });
    connect(m_regs, &CellCanvas::hoveredCell, this, [this](int x, int y) {
        const RegLink* l = x < 0 ? nullptr : m_regScene.linkAt(uint32_t(x), uint32_t(y));
        const auto g = l ? m_tmemScene.gridOf(l->tmem) : std::nullopt;
        m_tmem->setMarker(g ? std::optional(std::pair{*g, *g + glm::uvec2(1)}) : std::nullopt);
        if (x >= 0 && m_regScene.valid && uint32_t(y) < m_regScene.height())
            emit registerHovered(int(32 * m_regScene.warps[uint32_t(y) / 32] + uint32_t(y) % 32), x);
        else
            emit registerHovered(-1, -1);
    });
}

TmemViews::~TmemViews() = default;

void TmemViews::selectTmemCell(int cta, int lane, int column) {
    const auto g =
        cta < 0 ? std::nullopt : m_tmemScene.gridOf({uint32_t(cta), uint32_t(lane), uint32_t(column)});
    m_tmem->setMarker(g ? std::optional(std::pair{*g, *g + glm::uvec2(1)}) : std::nullopt);
    const auto r =
        cta < 0 ? std::nullopt : m_regScene.registerOf({uint32_t(cta), uint32_t(lane), uint32_t(column)});
    m_regs->setMarker(r ? std::optional(std::pair{*r, *r + glm::uvec2(1)}) : std::nullopt);
}

void TmemViews::selectRegisterCell(int x, int y) {
    const RegLink* l = x < 0 ? nullptr : m_regScene.linkAt(uint32_t(x), uint32_t(y));
    m_regs->setMarker(x >= 0 ? std::optional(std::pair{glm::uvec2(x, y), glm::uvec2(x + 1, y + 1)})
                             : std::nullopt);
    const auto g = l ? m_tmemScene.gridOf(l->tmem) : std::nullopt;
    m_tmem->setMarker(g ? std::optional(std::pair{*g, *g + glm::uvec2(1)}) : std::nullopt);
}

void TmemViews::resetDocument(const Document* doc) {
    m_doc = doc;
    m_tmaFan.valid = false; // it described the previous document's trace (its instruction index is stale)
    m_fragments = doc ? fragmentExpectations(*doc) : std::map<uint32_t, FragmentExpectation>{};
    m_expected = {};
    m_tmemReplay.reset();
    m_smemReplay.reset();
    m_hasTmem = false;
    m_hasWgmmaD = false;
    m_wgmmaChecks.clear();
    m_mmaChecks.clear();
    m_allocEnd = 0;
    uint32_t ctas = 1;
    if (doc && doc->hasTrace()) {
        // tcgen05 instructions move to or from TMEM / registers, every move of theirs; TMA ones none:
        // an instruction's first move tells, so a 10,000-load trace costs no pass over its moves.
        const Trace& t = doc->trace();
        auto tmemSide = [](const MemRef& r) {
            return r.space == MemSpace::TensorMemory || r.space == MemSpace::Register;
        };
        for (const TraceInstr& in : t.instrs) {
            if (in.endMove <= in.firstMove) continue;
            const ByteMove first = t.moves[in.firstMove];
            if (first.rule == RuleId::WgmmaValues) { // Hopper: D into registers, no Tensor Memory
                m_hasWgmmaD = true;
                continue;
            }
            // A kernel scenario's thread stores (`poke`) come from registers into shared or global memory:
            // no tcgen05 instruction among them, so they do not open the Tensor Memory and Registers docks.
            if (!tmemSide(first.dst) && first.src.space != MemSpace::TensorMemory) continue;
            for (uint64_t i = in.firstMove; i < in.endMove; ++i) {
                const ByteMove m = t.moves[i];
                for (const MemRef* r : {&m.dst, &m.src})
                    if (tmemSide(*r)) {
                        m_hasTmem = true;
                        ctas = std::max<uint32_t>(ctas, r->cta + 1u);
                        if (r->space == MemSpace::TensorMemory) // also columns written without an alloc
                            m_allocEnd = std::max(
                                m_allocEnd, decodeTmemAddress(static_cast<uint32_t>(r->addr)).column + 1);
                    }
            }
        }
        if (m_hasTmem) {
            // A 128 x 512 x 4-byte Tensor Memory per CTA in each copy it keeps (replay_cache.hpp).
            m_tmemReplay = std::make_unique<ReplayCache<TmemReplay>>(
                doc->trace(), TmemReplay(doc->trace(), initialTmemOf(doc->run(), ctas)), nullptr,
                uint64_t(ctas) * kTmemLanes * kTmemColumns * 4);
            m_expected = tmemExpectations(*doc); // the consumer check's mismatches, where the cp put them
            // The tcgen05.mma value check (issue 24 item 4), only when the scenario has an MMA to check.
            if (const Scenario* sc = doc->scenario();
                sc &&
                std::any_of(sc->instrs.begin(), sc->instrs.end(), [](const auto& in) { return in.umma; }))
                m_mmaChecks = mmaDValues(*sc, doc->run());
        }
    }
    m_cache.reset();
    m_hasFans = m_hasTmem && multicastFansAt(*doc, 0).valid;
    m_hasDecomp = doc && decompMoveAt(*doc, 0).has_value();
    // Box frames (a pass over every move) only when there is a multicast TMA load to show: whether
    // there is one does not depend on them (placeholder frames).
    m_frames.clear();
    m_hasTmaFan =
        doc && doc->hasTrace() && tmaFanAt(*doc, 0, std::vector<BoxFrame>(doc->trace().instrs.size())).valid;
    if (m_hasTmaFan) m_frames = boxFrames(*doc);
    if (m_hasDecomp) m_smemReplay = std::make_unique<Replay>(doc->trace(), doc->initial());
    // The Registers dock only for tcgen05.ld/st: a cp-only scenario keeps the scenario editor raised.
    m_regInstrs = m_hasTmem || m_hasWgmmaD ? registerInstrs(*doc) : std::vector<uint32_t>{};
    if (m_hasWgmmaD && doc->scenario()) m_wgmmaChecks = wgmmaDValues(*doc->scenario(), doc->run());
    const bool hasRegs = !m_regInstrs.empty();
    m_hasRegs = hasRegs;
    // Every allocation the trace makes and every column it touches (the view does not move while playing).
    if (m_hasTmem)
        for (const TmemAllocBox& a : tmemAllocationsMade(*doc, doc->trace().stepCount + 1)) // freed ones too
            m_allocEnd = std::max(m_allocEnd, a.column + a.nCols);
    applyVisibility();
    // Raise and size the docks only for another file or when they appear: an edit of the same file
    // (each keystroke makes a new document) keeps the tab the user is typing in.
    const std::string path = doc ? doc->path() : std::string();
    const bool fresh = path != m_raisedPath || m_hasTmem != m_raisedTmem || hasRegs != m_raisedRegs;
    m_raisedPath = path;
    m_raisedTmem = m_hasTmem;
    m_raisedRegs = hasRegs;
    if (!fresh) return;
    if (m_hasTmaFan && !m_hasTmem)
        m_window->resizeDocks({m_tmaFanDock}, {m_window->height() * 30 / 100}, Qt::Vertical);
    if (m_hasTmem) // after the docks are shown
        QTimer::singleShot(0, this, [this, hasRegs] {
            if (hasRegs) m_regDock->raise();
            m_tmemDock->raise();
        });
    if (m_hasTmem) {
        // A third of the height: the docks above keep room beyond their minimums (no collapsed view).
        m_window->resizeDocks({m_tmemDock}, {m_window->height() * 33 / 100}, Qt::Vertical);
        m_tmem->fitView();
    }
}

void TmemViews::setDByValue(bool on) {
    m_dByValue = on;
    if (auto* a = m_toolBar->findChild<QAction*>("tmemDByValue")) a->setChecked(on);
    if (m_doc && m_lastSmem) onStep(m_doc, m_step, *m_lastSmem);
}

void TmemViews::setFitToAllocation(bool on) {
    m_fitAlloc = on;
    if (auto* a = m_toolBar->findChild<QAction*>("tmemFitToAllocation")) a->setChecked(on);
    if (m_tmemFull.ctaCount == 2) { // a pair: its scene is narrowed to the allocation, or shown whole
        m_tmemScene = pairShown(m_tmemFull);
        m_tmem->setCells(m_tmemScene.width(), m_tmemScene.height(), m_tmemScene.texels,
                         ShadeParams{1, 32, 32});
    }
    updateFitRegion();
    m_tmem->fitView();
}

uint32_t TmemViews::allocColumns() const {
    return std::clamp<uint32_t>((m_allocEnd + 31) / 32 * 32, 32, 512);
}

TmemScene TmemViews::pairShown(const TmemScene& full) const {
    if (!m_fitAlloc || m_allocEnd == 0 || full.ctaCount != 2) return full;
    return narrowPair(full, allocColumns());
}

void TmemViews::updateFitRegion() {
    // With allocations: each CTA's columns [0, end of the last allocation), at least 32 across (a pair's
    // scene has only those, pairShown), x 128 lanes filling the pane: cells stretch (x and y zoom apart).
    if (!m_fitAlloc || m_allocEnd == 0) {
        m_tmem->setFitRegion(std::nullopt);
        return;
    }
    const float end = m_tmemScene.ctaCount == 1 ? float(allocColumns()) : float(m_tmemScene.width());
    m_tmem->setFitRegion(std::pair{glm::vec2(0, 0), glm::vec2(end, 128)}, Camera2D::FitMode::Fill);
}

void TmemViews::applyVisibility() {
    m_toolBar->setVisible(m_hasTmem);
    m_tmaFanDock->setVisible(m_hasTmaFan);
    m_tmemDock->setVisible(m_hasTmem);
    m_regDock->setVisible(m_hasRegs);
    m_decompDock->setVisible(m_hasDecomp);
}

void TmemViews::updateDecomp(uint32_t step) {
    if (!m_doc || !m_smemReplay) return;
    auto d = decompViewAt(*m_doc, step, *m_smemReplay); // shared with the view export
    if (!d) return;
    m_decompScene = std::move(d->scene);
    m_decompTitle = std::move(d->title);
}

void TmemViews::onStep(const Document* doc, uint32_t step, const SmemScene& smem) {
    if (doc != m_doc) resetDocument(doc);
    m_step = step;
    m_cta = smem.window.cta;
    m_lastSmem = &smem;
    if (m_hasTmaFan && doc) {
        m_tmaFan = tmaFanAt(*doc, step, m_frames);
        m_tmaFanView->setCells(m_tmaFan.width(), m_tmaFan.rows, m_tmaFan.texels, ShadeParams{1, 0, 0});
    }
    if (!doc) return;
    if (!m_hasTmem) { // a wgmma's D registers (sm_90a) are the only register view: no Tensor Memory
        if (!m_hasWgmmaD) return;
        m_tmemScene = TmemScene{};
        const auto ri = regInstrAt(doc->trace(), m_regInstrs, step);
        m_regScene = ri ? regSceneAt(*doc, *ri, step, m_tmemScene) : RegScene{};
        markWgmmaD(m_wgmmaChecks, m_regScene);
        m_regs->setCells(m_regScene.width(), m_regScene.height(), m_regScene.texels, ShadeParams{1, 0, 32});
        m_regs->setMessage(m_regScene.valid ? "" : "No wgmma D yet", "");
        return;
    }
    m_tmemReplay->seek(step);
    const SmemColourFn colour = smemSourceColours(*doc, smem); // shared with the view export
    if (!m_cache || m_cacheCta != smem.window.cta) {
        m_cache = std::make_unique<TmemSceneCache>(*doc, smem.window.cta);
        m_cacheCta = smem.window.cta;
    }
    TmemScene full = m_cache->seek(step, colour);
    markExpectedTmem(*doc, m_expected, full);
    if (m_dByValue) colourMmaDByValue(*doc, m_mmaChecks, full);
    markMmaDValues(*doc, m_mmaChecks, full); // a D the value check finds wrong
    if (full.ctaCount == 2) { // a .cta_group::2 pair: both CTAs' allocated columns side by side
        m_tmemFull = std::move(full);
        m_tmemScene = pairShown(m_tmemFull);
    } else {
        m_tmemFull = TmemScene{};
        m_tmemScene = std::move(full);
    }
    updateFitRegion();
    const auto ri = regInstrAt(doc->trace(), m_regInstrs, step);
    m_regScene = ri ? regSceneAt(*doc, *ri, step, m_tmemScene) : RegScene{};
    markFragment(*doc, m_fragments, m_regScene); // registers the epilogue reads as another cell
    markWgmmaD(m_wgmmaChecks, m_regScene);       // (a trace has wgmma or tcgen05, not both: no-op here)
    m_fans = m_hasFans ? multicastFansAt(*doc, step) : MulticastFans{};
    m_tmem->setCells(m_tmemScene.width(), m_tmemScene.height(), m_tmemScene.texels, ShadeParams{1, 32, 32});
    m_regs->setCells(m_regScene.width(), m_regScene.height(), m_regScene.texels, ShadeParams{1, 0, 32});
    m_regs->setMessage(m_regScene.valid ? "" : "No tcgen05.ld / tcgen05.st",
                       m_regScene.valid ? "" : "This scenario moves no registers to or from Tensor Memory.");
    if (m_hasDecomp) {
        updateDecomp(step);
        m_decomp->setCells(DecompScene::width(), DecompScene::height(), m_decompScene.texels,
                           ShadeParams{1, 8, 0});
    }
}

} // namespace layoutscope::views
