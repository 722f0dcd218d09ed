// CompareWindow: moving through the compared scenarios (compare_window.hpp): the position and its sync
// unit (step or instruction), the panes redrawn at a position with their difference counts, the element
// selected in every pane, and cameras kept in step.
#include "compare_window.hpp"

#include "scene/compare_inspect.hpp"

#include <QComboBox>
#include <QLabel>
#include <QLocale>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>

namespace layoutscope::views {

uint32_t CompareWindow::lastPosition() const {
    return compareLastPosition(m_set.documents(), m_sync);
}

void CompareWindow::setSync(CompareSync sync) {
    if (sync == m_sync) return;
    // Keep the scenarios where they are as well as the new unit allows: the first scenario's step.
    const uint32_t step = m_panes.empty() ? 0 : m_panes[0].step;
    m_sync = sync;
    uint32_t pos = 0;
    const uint32_t last = lastPosition();
    if (sync == CompareSync::Step) {
        pos = step;
    } else if (!m_set.docs.empty()) {
        while (pos < last && compareStepOf(*m_set.docs[0], sync, pos) < step) ++pos;
    }
    const QSignalBlocker b1(m_slider), b2(m_spin), b3(m_syncBox);
    m_syncBox->setCurrentIndex(sync == CompareSync::Instruction ? 1 : 0);
    m_slider->setRange(0, int(last));
    m_spin->setRange(0, int(last));
    m_pos = std::min(pos, last);
    m_slider->setValue(int(m_pos));
    m_spin->setValue(int(m_pos));
    refresh();
}

void CompareWindow::setPosition(uint32_t pos) {
    pos = std::min(pos, lastPosition());
    const QSignalBlocker b1(m_slider), b2(m_spin);
    m_slider->setValue(int(pos));
    m_spin->setValue(int(pos));
    if (pos == m_pos && !m_panes.empty()) return;
    m_pos = pos;
    refresh();
}

void CompareWindow::refresh() {
    m_panes = comparePanesAt(m_set.documents(), m_set.names, m_frames, m_sync, m_pos);
    QStringList steps;
    const auto hidden = uint8_t(~((m_marks ? 0 : kFlagDiffers) | (m_reshuffleMarks ? 0 : kFlagReshuffled)));
    for (size_t d = 0; d < m_panes.size(); ++d) {
        const ComparePanes& cp = m_panes[d];
        const uint32_t total = m_set.docs[d]->hasTrace() ? m_set.docs[d]->trace().stepCount : 0;
        steps << QString("%1/%2").arg(cp.step).arg(total);
        CellCanvas* c = m_smem[d];
        if (cp.smem) {
            std::vector<Rgba8> texels = cp.smem->texels;
            for (Rgba8& t : texels) t.a &= hidden;
            c->setMargins(cp.smem->margins);
            if (cp.smem->marginsFn) c->setMarginsFn(cp.smem->marginsFn); // legend lines wrap when narrow
            c->setOverlay(cp.smem->overlay);
            c->setCells(cp.smem->w, cp.smem->h, std::move(texels), cp.smem->shade);
            c->setMessage({}, {});
        } else {
            c->setCells(0, 0, {}, {});
            c->setMessage(cp.name, cp.error);
        }
        if (CellCanvas* t = m_tmem[d]) {
            if (cp.tmem) {
                std::vector<Rgba8> texels = cp.tmem->texels;
                for (Rgba8& x : texels) x.a &= hidden;
                t->setMargins(cp.tmem->margins);
                t->setOverlay(cp.tmem->overlay);
                t->setCells(cp.tmem->w, cp.tmem->h, std::move(texels), cp.tmem->shade);
            } else {
                t->setCells(0, 0, {}, {});
            }
        }
    }
    m_steps->setText("steps " + steps.join(" | "));
    size_t differ = 0, tmemDiffer = 0, reshuffled = 0, tmemReshuffled = 0;
    for (size_t d = 1; d < m_panes.size(); ++d) {
        differ += m_panes[d].differCount;
        tmemDiffer += m_panes[d].tmemDifferCount;
        reshuffled += m_panes[d].reshuffleCount;
        tmemReshuffled += m_panes[d].tmemReshuffleCount;
    }
    const QLocale en(QLocale::English); // 16,320 as the badges write it
    QString msg = QString("against scenario 1 at this position: shared memory %1 B differ, %2 B reshuffled")
                      .arg(en.toString(qulonglong(differ)), en.toString(qulonglong(reshuffled)));
    bool tmem = false;
    for (const ComparePanes& cp : m_panes) tmem |= cp.tmem.has_value();
    if (tmem)
        msg += QString("; Tensor Memory %1 cells differ, %2 reshuffled")
                   .arg(en.toString(qulonglong(tmemDiffer)), en.toString(qulonglong(tmemReshuffled)));
    statusBar()->showMessage(msg);
    showSelection();
}

void CompareWindow::selectCell(size_t pane, uint32_t x, uint32_t y) {
    if (pane >= m_panes.size()) return;
    const size_t i = size_t(y) * 128 + x;
    const auto& keys = m_panes[pane].content.keys;
    m_selected = i < keys.size() ? keys[i] : std::nullopt;
    showSelection();
}

void CompareWindow::showSelection() {
    for (size_t d = 0; d < m_panes.size(); ++d) {
        std::vector<std::pair<glm::uvec2, glm::uvec2>> ranges;
        if (m_selected)
            for (const uint32_t i : cellsOfElement(m_panes[d].content, *m_selected)) {
                const glm::uvec2 c(i % 128, i / 128);
                ranges.push_back({c, c + glm::uvec2(1)});
            }
        m_smem[d]->setSelection(std::move(ranges));
        if (CellCanvas* t = m_tmem[d]) { // TMEM cells holding the element (copied from shared memory)
            std::vector<std::pair<glm::uvec2, glm::uvec2>> cells;
            const TmemContent& c = m_panes[d].tmemContent;
            for (size_t i = 0; m_selected && c.width && i < c.keys.size(); ++i)
                if (c.keys[i] && c.keys[i]->sameElement(*m_selected)) {
                    const glm::uvec2 g(uint32_t(i % c.width), uint32_t(i / c.width));
                    cells.push_back({g, g + glm::uvec2(1)});
                }
            t->setSelection(std::move(cells));
        }
    }
    if (m_selected)
        statusBar()->showMessage("selected: " + QString::fromStdString(describeElement(*m_selected)));
}

void CompareWindow::mirrorCamera(CellCanvas* from, bool tmem) {
    for (CellCanvas* c : tmem ? m_tmem : m_smem)
        if (c && c != from) c->setView(from->camera().origin(), from->camera().zoom());
}

} // namespace layoutscope::views
