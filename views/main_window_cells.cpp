// MainWindow: cells between the views (main_window.hpp): the global-tensor cell of a shared-memory cell and
// back (the hover markers), and the cell that shows a shared-memory address or a global coordinate.
#include "main_window.hpp"
#include "scene/inspect.hpp"

namespace layoutscope::views {

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

} // namespace layoutscope::views
