// Swizzle explorer dock (swizzle_explorer_dock.hpp).
#include "swizzle_explorer_dock.hpp"

#include "swizzle_explorer.hpp"

#include <QDockWidget>
#include <QMainWindow>
#include <QScrollArea>

namespace layoutscope::views {

QDockWidget* addSwizzleExplorerDock(QMainWindow& window, QDockWidget* tabifyWith) {
    auto* dock = new QDockWidget("Swizzle explorer", &window);
    dock->setObjectName("swizzleExplorerDock");
    // In a scroll area: the explorer's tables must not widen the dock area it shares with the
    // scenario editor (that took the centre view's width away).
    auto* scroll = new QScrollArea(dock);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(new SwizzleExplorer(scroll));
    dock->setWidget(scroll);
    window.addDockWidget(Qt::RightDockWidgetArea, dock);
    if (tabifyWith != nullptr) {
        window.tabifyDockWidget(tabifyWith, dock);
        tabifyWith->raise(); // the explorer is a tab behind the scenario, not in the way
    }
    return dock;
}

} // namespace layoutscope::views
