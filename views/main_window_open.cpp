// MainWindow: opening files with the "last file" crash guard, and out of memory as a diagnostic
// (issue 11). A file that crashes the GUI is never reopened at the next start (AppSettings).
#include "main_window.hpp"

#include "editor_dock.hpp"

#include <QFileInfo>
#include <QStatusBar>
#include <new>

namespace layoutscope::views {

void MainWindow::openFile(const QString& path) {
    const QString abs = QFileInfo(path).absoluteFilePath();
    finishOpening(); // the previous file drew (or we would not be here)
    AppSettings().beginOpening(abs);
    auto doc = Document::fromFile(path.toStdString());
    m_opening = {abs, doc->hasTrace() || !doc->text().empty()};
    m_editor->showDocument(*doc, true);
    setDocument(std::move(doc));
}

void MainWindow::finishOpening() {
    if (m_opening.path.isEmpty()) return;
    AppSettings().finishOpening(m_opening.path, m_opening.remember);
    m_opening = {};
}

void MainWindow::showNote(const QString& text) {
    statusBar()->showMessage(text, 20000);
}

void MainWindow::setDocument(std::unique_ptr<Document> doc, bool keepStep) {
    try {
        applyDocument(std::move(doc), keepStep);
    } catch (const std::bad_alloc&) {
        // The views of this document do not fit in memory: show why, with the text kept.
        const std::string path = m_editor->path().toStdString();
        m_playback->setStepCount(0);
        m_replay.reset();
        m_doc.reset();
        applyDocument(Document::failed(m_editor->editor()->toPlainText().toStdString(), path,
                                       outOfMemory("building the views of the scenario")),
                      false);
        showNote("Out of memory while building the views: see the Diagnostics panel.");
    }
}

void MainWindow::onStep(uint32_t step) {
    try {
        drawStep(step);
    } catch (const std::bad_alloc&) {
        m_smemScene = SmemScene{};
        m_globalScene = GlobalScene{};
        m_smem->setCells(0, 0, {}, ShadeParams{});
        m_global->setCells(0, 0, {}, ShadeParams{});
        const QString msg = QString("Out of memory while drawing step %1").arg(step);
        m_smem->setMessage(msg.toStdString(), "The scenario is too large to show at this step.");
        showNote(msg);
    }
}

} // namespace layoutscope::views
