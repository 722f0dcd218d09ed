// Swizzle explorer dock (swizzle_explorer_dock.hpp).
#include "swizzle_explorer_dock.hpp"

#include "swizzle_explorer.hpp"

#include <QDockWidget>
#include <QMainWindow>

namespace layoutscope::views {

QDockWidget* addSwizzleExplorerDock(QMainWindow& window, QDockWidget* tabifyWith) {
    auto* dock = new QDockWidget("Swizzle explorer", &window);
    dock->setObjectName("swizzleExplorerDock");
    dock->setWidget(new SwizzleExplorer(dock));
    window.addDockWidget(Qt::RightDockWidgetArea, dock);
    if (tabifyWith != nullptr) {
        window.tabifyDockWidget(tabifyWith, dock);
        tabifyWith->raise(); // the explorer is a tab behind the scenario, not in the way
    }
    return dock;
}

} // namespace layoutscope::views
