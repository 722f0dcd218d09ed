#pragma once
/// Help menu (issue 16 item 5): Keyboard shortcuts (generated from the window's actions, shortcuts
/// and the timeline key table, so it never goes stale), "How to read this view" per view, and About
/// with the build's version. Also keeps View listing a toggle for every dock, and puts shortcuts in
/// the tooltips of actions that have one.
#include <QString>
#include <vector>

class QMainWindow;
class QMenu;

namespace layoutscope::views {

/// One row of the shortcuts dialog.
struct ShortcutRow {
    QString what, keys;
};
/// Every QAction with a shortcut under `w` (menus and toolbars), every QShortcut (its whatsThis as the
/// description) and the timeline keys (playback_keys.hpp). No duplicates.
[[nodiscard]] std::vector<ShortcutRow> shortcutRows(const QMainWindow& w);

/// A view's "how to read" text: its title and a short HTML body.
struct ViewHelp {
    QString title, html;
};
[[nodiscard]] const std::vector<ViewHelp>& viewHelps();

/// "Layoutscope 0.1.0" (the CMake project version).
[[nodiscard]] QString versionText();

/// Add View entries for docks that lack one (now and each time View opens), the shortcut to the
/// tooltip of every action that has one, and the Help menu to w's menu bar.
void addHelpMenu(QMainWindow& w, QMenu* view);

} // namespace layoutscope::views
