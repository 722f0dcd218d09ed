// Swizzle explorer dock (swizzle_explorer_dock.hpp).
#include "swizzle_explorer_dock.hpp"

#include "swizzle_explorer.hpp"

#include <QDockWidget>
#include <QMainWindow>

namespace layoutscope::views {

QDockWidget* addSwizzleExplorerDock(QMainWindow& window, QDockWidget* tabifyWith) {
    auto* dock = new QDockWidget("Swizzle explorer", &window);
    dock->setObjectName("swizzleExplorerDock");
    // No scroll area: the explorer's canvas is a native GL window, which a scroll area does not clip
    // (it painted over the Timeline, issue 15). The explorer's texts shrink instead of widening the
    // dock area it shares with the scenario editor.
    dock->setWidget(new SwizzleExplorer(dock));
    window.addDockWidget(Qt::RightDockWidgetArea, dock);
    if (tabifyWith != nullptr) {
        window.tabifyDockWidget(tabifyWith, dock);
        tabifyWith->raise(); // the explorer is a tab behind the scenario, not in the way
    }
    return dock;
}

} // namespace layoutscope::views
