// MainWindow: which panes a document uses, and the dock corners that keep every pane legible at
// 1280x800 (issue 24 item 7; main_window.hpp).
#include "main_window.hpp"
#include "operand_view.hpp"

#include <QDockWidget>

namespace layoutscope::views {

bool MainWindow::usesGlobalView() const {
    // A document with no trace (it failed) keeps the pane, which says why it is empty.
    if (!m_doc || !m_doc->hasTrace()) return true;
    for (uint32_t i = 0; i < m_doc->trace().instrs.size(); ++i)
        if (m_doc->tileOf(i)) return true;
    return false;
}

void MainWindow::applyPaneVisibility() {
    // Panes a scenario does not use are hidden, so their space goes to the others (no empty band): the
    // Tensor Memory, Registers, Decompression and Multicast docks without tcgen05 / multicast moves, the
    // Operand dock without a consumer, the global tensor without a TMA tile copy.
    m_tmemViews->applyVisibility();
    m_operandView->applyVisibility();
    m_globalDock->setVisible(usesGlobalView());
}

void MainWindow::applyDockCorners() {
    // The left column (global tensor over Events) and the right one (scenario, Operand, Registers) take
    // the window's full height; the bottom docks (timeline, Tensor Memory) span the centre only. With
    // the bottom band across the whole width, at 1280x800 the left column kept ~300 px for the global
    // view and Events (one row), and Tensor Memory a strip.
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::TopLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);
}

} // namespace layoutscope::views
