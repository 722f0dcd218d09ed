// MainWindow: linked selection across views, the bank-conflict heat map and the swizzle atoms of
// the shared-memory view (main_window.hpp). Scene logic lives in scene/selection.* and
// scene/smem_tile_overlay.*; this file wires clicks, toolbar and views to it.
#include "main_window.hpp"

#include "global_pane.hpp"
#include "operand_view.hpp"
#include "path_overlay.hpp"
#include "scene/global_scene.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QStatusBar>
#include <QToolBar>
#include <algorithm>
#include <map>

namespace layoutscope::views {

namespace {

using Ranges = std::vector<std::pair<glm::uvec2, glm::uvec2>>;

/// Cells (x, y) as ranges, runs along x merged.
Ranges mergeRuns(std::vector<glm::uvec2> cells) {
    std::sort(cells.begin(), cells.end(),
              [](glm::uvec2 a, glm::uvec2 b) { return a.y != b.y ? a.y < b.y : a.x < b.x; });
    Ranges out;
    for (const glm::uvec2 c : cells) {
        if (!out.empty() && out.back().second.y == c.y + 1 && out.back().second.x == c.x) {
            out.back().second.x = c.x + 1;
            continue;
        }
        if (!out.empty() && out.back().first == c) continue;
        out.push_back({c, c + glm::uvec2(1)});
    }
    return out;
}

const char* spaceName(MemSpace s) {
    switch (s) {
    case MemSpace::Global:
        return "global";
    case MemSpace::SharedCta:
        return "shared";
    case MemSpace::TensorMemory:
        return "TMEM";
    case MemSpace::Register:
        return "registers";
    default:
        return "?";
    }
}

} // namespace

void MainWindow::buildLinks() {
    m_path = new PathOverlay(this, [this] { return pathSegments(); });
    connect(m_smem, &CellCanvas::cellClicked, this, [this](int x, int y) {
        if (x < 0) return clearSelection();
        selectSmemCell(uint32_t(x), uint32_t(y));
    });
    connect(m_global, &CellCanvas::cellClicked, this, [this](int x, int y) {
        if (x < 0) return clearSelection();
        selectGlobalCell(uint32_t(x), uint32_t(y));
    });
    connect(m_tmemViews->tmemView(), &CellCanvas::cellClicked, this, [this](int x, int y) {
        if (x < 0) return clearSelection();
        selectTmemCell(uint32_t(x), uint32_t(y));
    });
    connect(m_tmemViews->registerView(), &CellCanvas::cellClicked, this, [this](int x, int y) {
        if (x < 0) return clearSelection();
        selectRegisterCell(uint32_t(x), uint32_t(y));
    });
    // The Operand dock (issue 12 item 5): hover outlines what a cell reads, a click selects it.
    m_operandView = new OperandView(this);
    connect(m_operandView, &OperandView::cellHovered, this, &MainWindow::markOperandCell);
    connect(m_operandView, &OperandView::cellSelected, this, &MainWindow::selectOperandCell);
    connect(m_operandView, &OperandView::operandShown, this, &MainWindow::revealOperand);
    for (CellCanvas* c : {m_smem, m_global, m_tmemViews->tmemView(), m_tmemViews->registerView()})
        connect(c, &CellCanvas::framePainted, m_path, [this](double) {
            if (!m_linked.empty()) m_path->refresh(); // cameras move: the path follows its cells
        });

    // Shared-memory toolbar: bank heat for an access pattern, and swizzle atom outlines.
    auto* bar = findChild<QToolBar*>("smemToolBar");
    if (!bar) return;
    bar->addWidget(new QLabel("  bank heat: ", bar));
    auto* heat = new QComboBox(bar);
    heat->setObjectName("smemBankHeat");
    heat->setToolTip("Bank-conflict heat map of one warp access over the tile under the last clicked byte;\n"
                     "wavefronts counted the way Nsight Compute counts them");
    heat->addItem("off", -1);
    for (const AccessPattern p :
         {AccessPattern::ColumnRead, AccessPattern::RowRead, AccessPattern::VectorRow16,
          AccessPattern::ColumnChunks16, AccessPattern::Ldmatrix8x8x4})
        heat->addItem(accessPatternName(p), int(p));
    heat->setFocusPolicy(Qt::NoFocus);
    bar->addWidget(heat);
    connect(heat, &QComboBox::activated, this, [this, heat] {
        const int v = heat->currentData().toInt();
        setBankHeat(v < 0 ? std::nullopt : std::optional(AccessPattern(v)));
    });
    auto* atoms = new QCheckBox("swizzle atoms", bar);
    atoms->setObjectName("smemAtoms");
    atoms->setChecked(true);
    atoms->setFocusPolicy(Qt::NoFocus);
    atoms->setToolTip("Outline each repeat period of the tile's swizzle (SWIZZLE_128B: 1024 B = 8 rows)");
    bar->addWidget(atoms);
    connect(atoms, &QCheckBox::toggled, this, &MainWindow::setShowSwizzleAtoms);

    m_smem->setOverlay([this](const Camera2D& cam, glm::vec2 vp) {
        // No TMA tile copy (tcgen05 only): no box, so no coordinate legend (it read "0..0").
        const BoxFrame* f = m_frames.empty() || !m_globalScene.tile
                                ? nullptr
                                : &m_frames[std::min<size_t>(m_globalScene.instr, m_frames.size() - 1)];
        const bool im2col = m_globalScene.tile && m_globalScene.tile->kind == TileKind::Im2col;
        const RowFold& fold = m_smem->rowFold(); // a tall window in a short pane: rows in bands
        OverlayList o = buildSmemOverlay(cam, vp, m_smemScene, f, m_colourBy, m_chunks, im2col, fold);
        appendSmemTileOverlay(o, cam, vp, m_smemScene.window, m_atoms, m_smemTiles,
                              m_heat ? &*m_heat : nullptr, fold);
        return o;
    });
}

void MainWindow::resetLinks(std::vector<SmemTile>* prepared) {
    m_linked = {};
    m_selectedLocs.clear();
    m_heatAnchor.reset();
    m_smemTiles = prepared ? std::move(*prepared) : m_doc ? smemTiles(*m_doc) : std::vector<SmemTile>{};
    if (m_path) m_path->refresh();
}

void MainWindow::setBankHeat(std::optional<AccessPattern> p) {
    m_heatPattern = p;
    if (auto* b = findChild<QComboBox*>("smemBankHeat")) b->setCurrentIndex(b->findData(p ? int(*p) : -1));
    onStep(m_playback->step());
}

void MainWindow::setShowSwizzleAtoms(bool on) {
    m_showAtoms = on;
    if (auto* b = findChild<QCheckBox*>("smemAtoms")) b->setChecked(on);
    onStep(m_playback->step());
}

void MainWindow::applySmemLayers(uint32_t step) {
    m_atoms = m_showAtoms ? swizzleAtoms(m_smemTiles, m_smemScene.window) : std::vector<SwizzleAtom>{};
    m_heat.reset();
    if (!m_heatPattern || !m_doc || !m_doc->hasTrace()) return;
    const uint32_t cta = m_smemScene.window.cta;
    const SmemTile* tile = m_heatAnchor ? tileCovering(m_smemTiles, cta, *m_heatAnchor, step) : nullptr;
    if (!tile) { // no anchor: the last tile of this CTA started before the step, else its first
        for (const SmemTile& t : m_smemTiles)
            if (t.inCta(cta) && (!tile || t.firstStep < step)) tile = &t;
    }
    if (!tile) {
        statusBar()->showMessage("bank heat: no TMA tile copy (tile mode, byte-sized elements) in this CTA",
                                 6000);
        return;
    }
    std::pair<uint32_t, uint32_t> at{0, 0};
    if (m_heatAnchor)
        if (const auto l = logicalOf(tile->tile, *m_heatAnchor)) at = *l;
    auto h = smemHeat(*tile, *m_heatPattern, at.first, at.second);
    if (!h) {
        statusBar()->showMessage("bank heat: " + QString::fromStdString(h.diagnostics().front().message),
                                 6000);
        return;
    }
    m_heat = std::move(*h);
    applyBankHeat(m_smemScene, *m_heat);
}

void MainWindow::clearSelection() {
    m_linked = {};
    m_selectedLocs.clear();
    showSelection(m_playback->step());
}

void MainWindow::selectLocs(std::vector<DataLoc> start) {
    if (!m_doc || !m_doc->hasTrace() || start.empty()) return clearSelection();
    bool truncated = false;
    m_selectedLocs = start;
    m_linked = linkData(*m_doc, start, m_playback->step(), 4096, &truncated);
    std::map<MemSpace, size_t> n;
    for (const LinkedLoc& l : m_linked.locs) ++n[l.loc.space];
    QString msg = "selected data: ";
    for (const auto& [space, count] : n) msg += QString("%1 %2, ").arg(count).arg(spaceName(space));
    msg +=
        QString("%1 path stage(s)%2").arg(pathStages(m_linked).size()).arg(truncated ? " (truncated)" : "");
    statusBar()->showMessage(msg, 8000);
    showSelection(m_playback->step());
}

void MainWindow::selectSmemCell(uint32_t x, uint32_t y) {
    const uint32_t cta = m_smemScene.window.cta, addr = m_smemScene.window.base + y * 128 + x;
    if (m_heatPattern) {
        m_heatAnchor = addr;
        onStep(m_playback->step());
    }
    // The element the byte belongs to (element-aligned in the box image), else the byte alone.
    uint32_t lo = addr, len = 1;
    int64_t movedBy = -1; // the instruction that wrote it
    const size_t i = size_t(y) * 128 + x;
    if (m_doc && m_doc->hasTrace() && i < m_smemScene.moveOf.size() && m_smemScene.moveOf[i] >= 0) {
        const ByteMove& m = m_doc->trace().moves[size_t(m_smemScene.moveOf[i])];
        const bool tma = m.src.space == MemSpace::Global || m.src.space == MemSpace::Fill;
        len = tma ? m_doc->elemBytesOf(m.instr) : 1;
        lo = addr - (m.logicalOffset + (addr - uint32_t(m.dst.addr))) % len;
        movedBy = int64_t(m.instr);
    }
    std::vector<DataLoc> start;
    for (uint32_t k = 0; k < len; ++k) start.push_back({MemSpace::SharedCta, cta, lo + k});
    selectLocs(std::move(start));
    if (movedBy >= 0) noteOrigin(uint32_t(movedBy)); // a recorded kernel's: its PTX and CUDA line (issue 22)
}

void MainWindow::selectGlobalCell(uint32_t x, uint32_t y) {
    const size_t i = size_t(y) * m_globalScene.w + x;
    if (!m_doc || !m_doc->hasTrace() || !m_globalScene.tile || i >= m_globalScene.moveOf.size() ||
        m_globalScene.moveOf[i] < 0)
        return clearSelection();
    const ByteMove& m = m_doc->trace().moves[size_t(m_globalScene.moveOf[i])];
    const MemRef& r = m.src.space == MemSpace::Global ? m.src : m.dst;
    if (r.space != MemSpace::Global) return clearSelection();
    const uint32_t eb = m_doc->elemBytesOf(m.instr);
    const auto c = m_globalScene.coordAt(x, y);
    const uint64_t at = r.addr + uint64_t(std::max(0, c[0] - m.coord[0])) * eb; // moves run along dim 0
    std::vector<DataLoc> start;
    for (uint32_t k = 0; k < eb; ++k) start.push_back({MemSpace::Global, 0, at + k});
    selectLocs(std::move(start));
}

void MainWindow::selectTmemCell(uint32_t gx, uint32_t gy) {
    const auto c = m_tmemViews->tmemScene().cellAt(gx, gy);
    if (!c) return clearSelection();
    selectLocs({{MemSpace::TensorMemory, c->cta, uint64_t(c->lane) << 16 | c->column}});
}

void MainWindow::selectRegisterCell(uint32_t x, uint32_t y) {
    const RegScene& r = m_tmemViews->regScene();
    if (!r.valid || y / 32 >= r.warps.size() || x >= r.regCount) return clearSelection();
    const uint64_t thread = r.warps[y / 32] * 32 + y % 32;
    selectLocs({{MemSpace::Register, r.cta, thread << 16 | x}});
}

void MainWindow::revealOperand() {
    const auto& g = m_operandView->grid();
    // CTA 1's half of a .cta_group::2 operand lives in CTA 1's shared memory.
    const bool moved = g && m_doc && g->cta != m_cta && g->cta < m_doc->ctaCount();
    if (moved) {
        m_cta = g->cta;
        m_ctaBox->setCurrentIndex(int(m_cta));
    }
    if (showOperandProducer())
        m_global->fitView(); // redraws the step
    else if (moved)
        onStep(m_playback->step());
    if (moved) m_smem->fitView();
}

bool MainWindow::showOperandProducer() {
    const auto& g = m_operandView->grid();
    if (!g || !g->checked || !m_doc || !m_doc->hasTrace()) return false;
    if (m_globalScene.tile && m_globalScene.instr == g->producerInstr) return false;
    m_globalPane->pinTile(uint32_t(g->producerInstr));
    onStep(m_playback->step());
    return true;
}

void MainWindow::markOperandCell(int x, int y) {
    const auto& g = m_operandView->grid();
    if (x < 0 || !g || uint32_t(x) >= g->cols || uint32_t(y) >= g->rows) {
        m_smem->setMarker(std::nullopt);
        m_global->setMarker(std::nullopt);
        return;
    }
    if (showOperandProducer()) m_global->fitView();
    const OperandCell& c = g->cells[size_t(y) * g->cols + uint32_t(x)];
    std::optional<CellRange> bytes;
    if (c.bytes && g->cta == m_smemScene.window.cta) {
        const auto a = m_smemScene.indexOf(c.addr), b = m_smemScene.indexOf(c.addr + c.bytes - 1);
        if (a && b) bytes = CellRange{{*a % 128, *a / 128}, {*b % 128 + 1, *b / 128 + 1}};
    }
    m_smem->setMarker(bytes);
    std::optional<CellRange> element;
    if (c.actual && g->checked) {
        std::array<int32_t, 5> at{int32_t((*c.actual)[0]), int32_t((*c.actual)[1]), 0, 0, 0};
        if (const auto cell = globalCellOf(at)) element = CellRange{*cell, *cell + glm::uvec2(1)};
    }
    m_global->setMarker(element);
}

void MainWindow::selectOperandCell(int x, int y) {
    const auto& g = m_operandView->grid();
    if (x < 0 || !g || uint32_t(x) >= g->cols || uint32_t(y) >= g->rows) return clearSelection();
    revealOperand();
    const OperandCell& c = g->cells[size_t(y) * g->cols + uint32_t(x)];
    std::vector<DataLoc> start;
    for (uint32_t k = 0; k < c.bytes; ++k)
        start.push_back({MemSpace::SharedCta, g->cta, uint64_t(c.addr) + k});
    selectLocs(std::move(start));
}

void MainWindow::showSelection(uint32_t step) {
    std::vector<glm::uvec2> smem, global, tmem, regs;
    const RegScene& rs = m_tmemViews->regScene();
    for (const LinkedLoc& l : m_linked.locs) {
        if (!l.aliveAt(step)) continue;
        switch (l.loc.space) {
        case MemSpace::SharedCta:
            if (l.loc.cta == m_smemScene.window.cta)
                if (const auto i = m_smemScene.indexOf(uint32_t(l.loc.key)))
                    smem.push_back({*i % 128, *i / 128});
            break;
        case MemSpace::Global:
            if (l.coord)
                if (const auto c = m_globalScene.cellOf(*l.coord)) global.push_back({(*c)[0], (*c)[1]});
            break;
        case MemSpace::TensorMemory:
            if (const auto g = m_tmemViews->tmemCellOf(l.loc.cta, uint32_t(l.loc.key >> 16),
                                                       uint32_t(l.loc.key & 0xFFFF)))
                tmem.push_back(*g);
            break;
        case MemSpace::Register: {
            if (!rs.valid || l.loc.cta != rs.cta) break;
            const uint32_t thread = uint32_t(l.loc.key >> 16), reg = uint32_t(l.loc.key & 0xFFFF);
            const auto w = std::find(rs.warps.begin(), rs.warps.end(), thread / 32);
            if (w != rs.warps.end() && reg < rs.regCount)
                regs.push_back({reg, uint32_t(w - rs.warps.begin()) * 32 + thread % 32});
            break;
        }
        default:
            break;
        }
    }
    m_smem->setSelection(mergeRuns(std::move(smem)));
    m_global->setSelection(mergeRuns(std::move(global)));
    m_tmemViews->tmemView()->setSelection(mergeRuns(std::move(tmem)));
    m_tmemViews->registerView()->setSelection(mergeRuns(std::move(regs)));
    if (m_path) {
        m_path->setPhase(int(step % 6) * 2); // dashes march while the timeline plays
        m_path->refresh();
    }
}

std::vector<PathPiece> MainWindow::pathSegments() const {
    std::vector<PathPiece> out;
    if (m_linked.empty() || !m_doc || !m_doc->hasTrace()) return out;
    const uint32_t step = m_playback->step();
    // Window position of a location's cell in the view that shows it (clamped into the view).
    auto pointOf = [&](const DataLoc& loc,
                       const std::optional<std::array<int32_t, 5>>& coord) -> std::optional<QPointF> {
        CellCanvas* canvas = nullptr;
        std::optional<glm::uvec2> cell;
        if (loc.space == MemSpace::SharedCta && loc.cta == m_smemScene.window.cta) {
            canvas = m_smem;
            if (const auto i = m_smemScene.indexOf(uint32_t(loc.key))) cell = glm::uvec2(*i % 128, *i / 128);
        } else if (loc.space == MemSpace::Global && coord) {
            canvas = m_global;
            if (const auto c = m_globalScene.cellOf(*coord)) cell = glm::uvec2((*c)[0], (*c)[1]);
        } else if (loc.space == MemSpace::TensorMemory) {
            canvas = m_tmemViews->tmemView();
            cell = m_tmemViews->tmemCellOf(loc.cta, uint32_t(loc.key >> 16), uint32_t(loc.key & 0xFFFF));
        } else if (loc.space == MemSpace::Register) {
            const RegScene& rs = m_tmemViews->regScene();
            const uint32_t thread = uint32_t(loc.key >> 16), reg = uint32_t(loc.key & 0xFFFF);
            const auto w = std::find(rs.warps.begin(), rs.warps.end(), thread / 32);
            canvas = m_tmemViews->registerView();
            if (rs.valid && loc.cta == rs.cta && w != rs.warps.end() && reg < rs.regCount)
                cell = glm::uvec2(reg, uint32_t(w - rs.warps.begin()) * 32 + thread % 32);
        }
        if (!canvas || !cell || !canvas->isVisible() || canvas->visibleRegion().isEmpty())
            return std::nullopt;
        QPointF p = canvas->cellCentre(cell->x, cell->y);
        p.setX(std::clamp(p.x(), 0.0, double(canvas->width())));
        p.setY(std::clamp(p.y(), 0.0, double(canvas->height())));
        return canvas->mapTo(this, p);
    };
    auto coordOf = [&](const DataLoc& l) -> std::optional<std::array<int32_t, 5>> {
        for (const LinkedLoc& x : m_linked.locs)
            if (x.loc == l) return x.coord;
        return std::nullopt;
    };
    for (const PathStage& s : pathStages(m_linked)) {
        const auto a = pointOf(s.first.from, coordOf(s.first.from)),
                   b = pointOf(s.first.to, coordOf(s.first.to));
        if (!a || !b) continue;
        PathPiece seg{
            {float(a->x()), float(a->y())}, {float(b->x()), float(b->y())}, PathPiece::State::Ahead, {}};
        if (step > s.lastStep)
            seg.state = PathPiece::State::Done;
        else if (step > s.firstStep)
            seg.state = PathPiece::State::Playing;
        QString text = s.instr < m_doc->trace().instrs.size()
                           ? QString::fromStdString(m_doc->trace().instrs[s.instr].text).section(' ', 0, 0)
                           : QString();
        seg.label = QString("step %1: %2").arg(s.firstStep).arg(text).toStdString();
        out.push_back(std::move(seg));
    }
    return out;
}

} // namespace layoutscope::views
