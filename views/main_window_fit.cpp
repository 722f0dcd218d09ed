// MainWindow: which panes a document uses, and the dock corners that keep every pane legible at
// 1280x800 (issue 24 item 7; main_window.hpp).
#include "main_window.hpp"
#include "operand_view.hpp"

#include <QDockWidget>
#include <algorithm>

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

void MainWindow::sizeDockColumns() {
    // Shared memory (the centre) gets most of the width: the left column ~26%, the right ~27%, each no
    // narrower than its docks need, and the left one narrower where the centre column (its timeline and
    // Tensor Memory) would not keep its minimum: at 1280 px 26% + the right column's 415 px + the
    // timeline's minimum made a window 25 px wider than the screen.
    int leftMin = 0, rightMin = 0, centreMin = centralWidget()->minimumSizeHint().width();
    for (QDockWidget* d : findChildren<QDockWidget*>()) {
        if (d->isHidden() || d->isFloating()) continue;
        const int m = d->minimumSizeHint().width();
        switch (dockWidgetArea(d)) {
        case Qt::LeftDockWidgetArea:
            leftMin = std::max(leftMin, m);
            break;
        case Qt::RightDockWidgetArea:
            rightMin = std::max(rightMin, m);
            break;
        default:
            centreMin = std::max(centreMin, m);
            break;
        }
    }
    const int right = std::max(width() * 27 / 100, rightMin);
    const int left = std::max(leftMin, std::min(width() * 26 / 100, width() - right - centreMin - 24));
    resizeDocks({m_eventDock, m_srcDock}, {left, right}, Qt::Horizontal);
}

void MainWindow::sizeTmaLayout() {
    // What showEvent gives a TMA example (its columns, the global tensor over Events), for a window whose
    // first layout was a tcgen05 one.
    sizeDockColumns(); // left ~26%, right ~27%, the centre keeping its minimum
    // The global tensor over the event list, about 60:40.
    resizeDocks({m_globalDock, m_eventDock}, {height() * 36 / 100, height() * 24 / 100}, Qt::Vertical);
    // The bottom band back to the timeline's own height: after a tcgen05 example the Tensor Memory dock's
    // third of the height stayed with the timeline when that dock hid (an empty band under the transport).
    if (auto* tl = findChild<QDockWidget*>("timelineDock"))
        resizeDocks({tl}, {tl->sizeHint().height()}, Qt::Vertical);
}

} // namespace layoutscope::views
