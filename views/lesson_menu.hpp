#pragma once
/// Lessons menu (issue 16 item 1): every assets/lessons/*.lesson listed by its `# Title`, re-read each
/// time the menu opens (like the Examples menu).
#include <QString>
#include <functional>
#include <vector>

class QMenu;

namespace layoutscope::views {

class LessonDock;
class MainWindow;

struct LessonEntry {
    QString path;
    QString title; ///< the `# Title` line (the file name when there is none)
    QString topic; ///< the `topic:` header key, if any
};

/// The title and topic of one lesson file (read from its header, not parsed in full).
[[nodiscard]] LessonEntry readLessonHeader(const QString& path);
/// Every *.lesson of `dir`, sorted by file name.
[[nodiscard]] std::vector<LessonEntry> listLessons(const QString& dir);
/// The lessons folder: $LAYOUTSCOPE_LESSONS_DIR, else <bin>/../share/layoutscope/lessons (installed), else
/// the nearest assets/lessons above the binary. Empty when none is found.
[[nodiscard]] QString lessonsDir();
/// Make `menu` list the lessons of `dir` (re-read each time it opens); choosing one calls `open`.
void attachLessonsMenu(QMenu* menu, const QString& dir, std::function<void(const QString&)> open);

/// The Lessons menu and the lesson panel of a main window (MainWindow::buildPanels calls it once).
/// The panel's show/hide action goes into `view`.
LessonDock* installLessons(MainWindow& w, QMenu* view);

} // namespace layoutscope::views
