#pragma once
/// One call for MainWindow::buildUi(): adds the swizzle explorer as a right-hand dock (tabbed with
/// `tabifyWith` when given) and returns it. Kept out of main_window.cpp so the owner of that file
/// needs a single line: `addSwizzleExplorerDock(*this, m_srcDock);`.
class QDockWidget;
class QMainWindow;

namespace layoutscope::views {

QDockWidget* addSwizzleExplorerDock(QMainWindow& window, QDockWidget* tabifyWith = nullptr);

} // namespace layoutscope::views
