#include "lesson_menu.hpp"

#include "editor_dock.hpp"
#include "lesson_dock.hpp"
#include "main_window.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QTextStream>

namespace layoutscope::views {

LessonEntry readLessonHeader(const QString& path) {
    LessonEntry e{path, QFileInfo(path).completeBaseName(), {}};
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) return e;
    QTextStream in(&f);
    bool titled = false;
    for (int n = 0; n < 200 && !in.atEnd(); ++n) { // the header: before the first step
        QString l = in.readLine();
        if (n == 0 && l.startsWith(QChar(0xFEFF))) l.remove(0, 1);
        if (l.startsWith("## ")) break;
        if (!titled && l.startsWith("# ")) {
            e.title = l.mid(2).trimmed();
            titled = true;
        } else if (l.startsWith("topic: ")) {
            e.topic = l.mid(7).trimmed();
        }
    }
    return e;
}

std::vector<LessonEntry> listLessons(const QString& dir) {
    std::vector<LessonEntry> out;
    if (dir.isEmpty()) return out;
    const QDir d(dir);
    for (const QString& f : d.entryList({"*.lesson"}, QDir::Files, QDir::Name))
        out.push_back(readLessonHeader(d.filePath(f)));
    return out;
}

QString lessonsDir() {
    const QString env = qEnvironmentVariable("LAYOUTSCOPE_LESSONS_DIR");
    if (!env.isEmpty()) return QDir(env).exists() ? env : QString();
    const QString bin = QCoreApplication::applicationDirPath();
    const QString installed = QDir(bin).filePath("../share/layoutscope/lessons");
    if (QDir(installed).exists()) return QDir(installed).canonicalPath();
    QDir up(bin);
    for (int i = 0; i < 6; ++i) {
        if (QDir(up.filePath("assets/lessons")).exists())
            return QDir(up.filePath("assets/lessons")).canonicalPath();
        if (!up.cdUp()) break;
    }
    return {};
}

void attachLessonsMenu(QMenu* menu, const QString& dir, std::function<void(const QString&)> open) {
    menu->setToolTipsVisible(true);
    QObject::connect(menu, &QMenu::aboutToShow, menu, [menu, dir, open] {
        menu->clear();
        const auto lessons = listLessons(dir);
        if (lessons.empty()) {
            menu->addAction(dir.isEmpty() ? "(no lessons folder found; set LAYOUTSCOPE_LESSONS_DIR)"
                                          : "(no .lesson files in " + dir + ")")
                ->setEnabled(false);
            return;
        }
        for (const LessonEntry& e : lessons) {
            QAction* a = menu->addAction(e.title);
            a->setToolTip(QFileInfo(e.path).fileName() + (e.topic.isEmpty() ? "" : "\ntopic: " + e.topic));
            a->setObjectName(QFileInfo(e.path).completeBaseName());
            const QString p = e.path;
            QObject::connect(a, &QAction::triggered, menu, [open, p] { open(p); });
        }
    });
}

LessonDock* installLessons(MainWindow& w, QMenu* view) {
    auto* dock = new LessonDock(w);
    w.addDockWidget(Qt::RightDockWidgetArea, dock);
    // A tab beside the scenario editor: the caption gets the column's height (the text is one tab away).
    if (auto* src = w.findChild<QDockWidget*>("scenarioDock")) w.tabifyDockWidget(src, dock);
    dock->hide(); // shown when a lesson opens
    if (view) view->addAction(dock->toggleViewAction());
    QMenu* menu = w.menuBar()->addMenu("&Lessons");
    menu->setObjectName("lessonsMenu");
    attachLessonsMenu(menu, lessonsDir(), [&w, dock](const QString& path) {
        if (w.editorDock()->maybeSave()) dock->openLesson(path);
    });
    return dock;
}

} // namespace layoutscope::views
