// MainWindow: opening files with the "last file" crash guard, and out of memory as a diagnostic
// (issue 11). A file that crashes the GUI is never reopened at the next start (AppSettings).
// Files (issue 15): the editor reads the bytes (EditorDock::loadFile keeps their format), offers a
// pending recovery of the file, and reloads it when it changes on disk.
#include "main_window.hpp"
#include "scene/file_kind.hpp"

#include "layoutscope/ptx/module.hpp"
#include "layoutscope/scenario/scaffold.hpp"

#include "code_editor.hpp"
#include "document_file.hpp"
#include "editor_dock.hpp"
#include "file_prompts.hpp"
#include "kernel_chooser.hpp"
#include "recovery_store.hpp"
#include "scenario_checker.hpp"

#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QStatusBar>
#include <algorithm>
#include <cstdlib>
#include <cxxabi.h>
#include <new>

namespace layoutscope::views {

void MainWindow::openFile(const QString& path) {
    // A FIFO, /dev/zero or a directory is never opened: loadFile shows why (issue 25 item 2).
    const bool regular = !notRegularFile(path.toStdString());
    if (regular && path.endsWith(".ptx", Qt::CaseInsensitive) && openPtx(path)) return; // launch dialog
    const QString abs = QFileInfo(path).absoluteFilePath();
    finishOpening(); // the previous file drew (or we would not be here)
    AppSettings().beginOpening(abs);
    showOpened(abs, m_editor->loadFile(path));
}

void MainWindow::showOpened(const QString& abs, std::unique_ptr<Document> doc) {
    if (!m_loading.path.isEmpty()) { // an openFileInBackground that this one replaces, or its arrival
        m_loader->cancel();
        m_loading = {};
        m_editor->setEnabled(true);
    }
    m_opening = {abs, doc->hasTrace() || !doc->text().empty()};
    m_editor->showDocument(*doc, true);
    setDocument(std::move(doc));
    m_editor->offerRecovery(); // edits of this file that a crash left unsaved
    updateTitle();
    updateDiagnosis(); // hidden while it loaded
}

void MainWindow::openFileInBackground(const QString& path) {
    const std::string p = path.toStdString();
    if (notRegularFile(p) || path.endsWith(".ptx", Qt::CaseInsensitive)) return openFile(path);
    Result<std::string> bytes = readScenarioFile(p);
    if (!bytes) return openFile(path); // its reason, shown the usual way
    std::string text = decodeFile(bytes.value()).text;
    if (EditorDock::isKernelScenario(text)) return openFile(path); // runs with its own progress dialog
    const QString abs = QFileInfo(path).absoluteFilePath();
    finishOpening();
    AppSettings().beginOpening(abs); // a worker that crashes on it: not reopened at the next start
    m_loading = {abs, QByteArray::fromStdString(bytes.value())};
    QString shown = QString::fromStdString(text);
    m_loader->request(std::move(text),
                      abs.toStdString()); // parse, run and prepareViews, cancelled by a newer open
    // The editor takes the file's text (read-only) once the window has painted a frame, while the worker
    // runs: not after the document comes, which would then wait for it (issue 25 item 11).
    connect(
        m_smem, &CellCanvas::framePainted, this,
        [this, gen = m_loader->generation(), shown = std::move(shown)](double) {
            if (!loading() || m_loader->generation() != gen) return; // it came, or another open replaced it
            const QString title = windowTitle();
            m_editor->showLoadingText(shown);
            setWindowTitle(title); // "loading ...", whatever the text's modification state did to it
        },
        Qt::SingleShotConnection);
    // The window meanwhile: the document before it (its editor read-only, so nothing typed is lost when the
    // file arrives) and the centre view saying what is happening.
    m_editor->setEnabled(false);
    m_playback->pause();
    m_smem->setMessage("Loading " + QFileInfo(path).fileName().toStdString(),
                       "Parsing and running the scenario (" +
                           std::to_string((bytes.value().size() + 1023) / 1024) +
                           " KiB) on a worker thread; the window stays responsive.");
    setWindowTitle(QString("Layoutscope - loading %1").arg(QFileInfo(path).fileName()));
    m_status->setText(QString("loading %1...").arg(QFileInfo(path).fileName()));
    m_diagButton->hide(); // the previous document's diagnosis (at start: the empty one's "no instruction")
}

bool MainWindow::loading() const {
    return !m_loading.path.isEmpty();
}

std::optional<PtxModule> MainWindow::readCheckedPtx(const QString& path, bool& handled) {
    handled = true;
    const auto text = readPtxModuleFile(path.toStdString());
    if (!text) return showPtxProblems(path, {}, text.diagnostics()), std::nullopt;
    auto module = readPtxModule(*text);
    if (!module) return showPtxProblems(path, *text, module.diagnostics()), std::nullopt;
    // A module whose instructions do not check opens as text with its errors (issue 25 item 1: scaffolding a
    // cp.async.bulk.tensor with no operands crashed; the executor would stop at the first of them anyway).
    std::vector<Diagnostic> problems = checkPtxModule(*module);
    for (const Diagnostic& d : problems)
        if (d.severity == Severity::Error)
            return showPtxProblems(path, *text, std::move(problems)), std::nullopt;
    if (module->entries().empty()) return handled = false, std::nullopt;
    return std::move(module).value();
}

bool MainWindow::openPtxScaffold(const QString& path) {
    bool handled = true;
    const std::optional<PtxModule> module = readCheckedPtx(path, handled);
    if (!module) return handled;
    QStringList names, labels; // labels: demangled C++ names where nvcc mangled them
    for (const PtxFunction* f : module->entries()) {
        names << QString::fromStdString(f->name);
        int status = 0;
        char* d = abi::__cxa_demangle(f->name.c_str(), nullptr, nullptr, &status);
        labels << (status == 0 && d ? QString::fromUtf8(d) : names.back());
        std::free(d);
    }
    int pick = 0;
    if (names.size() > 1) { // a list with search (kernel_chooser.hpp), for 2 kernels or 10,000
        pick = chooseKernel(this,
                            QString("%1 has %2 kernels. Which one becomes a scenario?")
                                .arg(QFileInfo(path).fileName())
                                .arg(names.size()),
                            labels);
        if (pick < 0 || pick >= names.size()) return true; // cancelled: nothing opens
    }
    const auto scn = scaffoldScenario(
        *module, ScaffoldOptions{names[pick].toStdString(), QFileInfo(path).fileName().toStdString()});
    if (!scn) return false;
    if (!m_editor->maybeSave()) return true;
    finishOpening();
    auto doc = Document::fromText(*scn, {});
    m_editor->showDocument(*doc, false);
    setDocument(std::move(doc));
    m_editor->editor()->document()->setModified(true);
    updateTitle();
    showNote(QString("Scaffold of kernel %1 from %2: fill in the declarations (each comment names its PTX "
                     "line), then Save As.")
                 .arg(labels[pick], QFileInfo(path).fileName()));
    return true;
}

bool MainWindow::showPtxProblems(const QString& path, const std::string& text, std::vector<Diagnostic> ds) {
    if (!m_editor->maybeSave()) return true;
    finishOpening();
    const QString abs = QFileInfo(path).absoluteFilePath();
    // The first error, with how many more there are (the CLI's check lists each).
    auto first =
        std::find_if(ds.begin(), ds.end(), [](const Diagnostic& d) { return d.severity == Severity::Error; });
    if (first == ds.end()) first = ds.begin();
    Diagnostic shown = first == ds.end() ? Diagnostic{} : *first;
    if (ds.size() > 1)
        shown.message += " (and " + std::to_string(ds.size() - 1) + " more: layoutscope-cli check " +
                         QFileInfo(path).fileName().toStdString() + " lists each)";
    auto doc = Document::failed(text, abs.toStdString(), std::move(shown));
    m_editor->showDocument(*doc, false);
    setDocument(std::move(doc));
    updateTitle();
    showNote(QString("%1 does not check as a PTX module: no scaffold (see the Diagnostics panel).")
                 .arg(QFileInfo(path).fileName()));
    return true;
}

void MainWindow::reloadFile(const QString& path) {
    const uint32_t step = m_playback->step();
    const bool atEnd = step >= m_playback->stepCount();
    openFile(path);
    if (!atEnd && step < m_playback->stepCount()) m_playback->seek(step);
    showNote(QString("Reloaded %1: it changed on disk.").arg(QFileInfo(path).fileName()));
}

bool MainWindow::openPendingRecovery() {
    const std::vector<RecoveryEntry> pending = RecoveryStore::pending();
    if (pending.empty()) return false;
    const RecoveryEntry& e = pending.front();
    if (!e.scenarioPath.isEmpty() && QFileInfo::exists(e.scenarioPath)) {
        openFile(e.scenarioPath); // offers the recovery
        return true;
    }
    // Untitled, or its file is gone: the text is all there is.
    const QString name = e.scenarioPath.isEmpty() ? QString("an untitled scenario") : e.scenarioPath;
    const int a = askUser(this, "recovery", "Recover unsaved edits",
                          QString("Layoutscope did not close cleanly: unsaved edits to %1 (autosaved %2; "
                                  "the file no longer exists) were kept in %3.\n\nRestore them?")
                              .arg(name, e.written.toString("yyyy-MM-dd hh:mm:ss"), e.recoveryFile),
                          {"&Restore", "&Discard"}, 0, -1);
    if (a == 1) m_editor->recovery().removeOrphan(e); // pending: its window is gone
    if (a != 0) return false;
    setDocument(Document::fromText(e.text.toStdString(), e.scenarioPath.toStdString()));
    m_editor->editor()->document()->setModified(true);
    m_editor->journalNow();               // this window's autosave of the text...
    m_editor->recovery().removeOrphan(e); // ...then the crashed window's (one live copy, not two)
    return true;
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
