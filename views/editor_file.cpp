// EditorDock's file handling (issue 15, item 2): bytes preserved on save, read-only examples,
// autosave and recovery, changes on disk. The pure byte logic is in document_file.*.
#include "code_editor.hpp"
#include "disk_watcher.hpp"
#include "editor_dock.hpp"
#include "examples_menu.hpp"
#include "file_prompts.hpp"
#include "kernel_run.hpp"
#include "recovery_store.hpp"
#include "scenario_checker.hpp"
#include "scene/file_kind.hpp"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSaveFile>
#include <QTextCursor>

namespace layoutscope::views {

namespace {
QString canonicalDir(const QString& dir) {
    return dir.isEmpty() ? QString() : QFileInfo(dir).canonicalFilePath();
}
bool isUnder(const QString& file, const QString& dir) {
    return !dir.isEmpty() && file.startsWith(dir + "/");
}
} // namespace

void EditorDock::buildFileUi() {
    m_recovery = std::make_unique<RecoveryStore>();
    m_autosave.setSingleShot(true);
    m_autosave.setInterval(kAutosaveDebounceMs);
    connect(&m_autosave, &QTimer::timeout, this, &EditorDock::autosaveNow);
    connect(m_editor, &QPlainTextEdit::textChanged, this, [this] {
        if (m_loading) return;
        // Journaled within a second of the last keystroke (issue 25 item 8: at most every 8 s lost the
        // last 5 s of typing): kAutosaveDebounceMs after typing stops, and at least every 2 debounce
        // intervals while typing goes on. The write runs on the store's thread.
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        if (m_dirtySince < 0) m_dirtySince = now;
        if (now - m_dirtySince >= 2 * m_autosave.interval())
            autosaveNow();
        else
            m_autosave.start();
    });
    connect(m_editor->document(), &QTextDocument::modificationChanged, this, [this](bool modified) {
        if (!modified && !m_loading) m_recovery->remove(m_path); // undone back to the saved text
    });

    m_disk = new DiskWatcher(this);
    connect(m_disk, &DiskWatcher::changed, this, &EditorDock::onDiskChanged);
    connect(m_disk, &DiskWatcher::removed, this, &EditorDock::onDiskRemoved);
    m_bar = new QFrame(this);
    m_bar->setObjectName("diskChangeBar");
    m_bar->setFrameShape(QFrame::StyledPanel);
    m_bar->setStyleSheet("#diskChangeBar { background: #7a5a10; color: white; }");
    auto* row = new QHBoxLayout(m_bar);
    row->setContentsMargins(6, 2, 6, 2);
    m_barText = new QLabel(m_bar);
    m_barText->setWordWrap(true);
    m_reloadBtn = new QPushButton("Reload", m_bar);
    m_reloadBtn->setObjectName("diskReload");
    m_reloadBtn->setToolTip("Read the file again (your edits are discarded)");
    auto* keep = new QPushButton("Keep mine", m_bar);
    keep->setObjectName("diskKeep");
    keep->setToolTip("Keep your text; Save will still ask before overwriting the file");
    row->addWidget(m_barText, 1);
    row->addWidget(m_reloadBtn);
    row->addWidget(keep);
    m_bar->hide();
    connect(m_reloadBtn, &QPushButton::clicked, this, [this] {
        m_bar->hide();
        m_recovery->remove(m_path);
        emit reloadRequested(m_path);
    });
    connect(keep, &QPushButton::clicked, m_bar, &QWidget::hide);
}

EditorDock::~EditorDock() = default; // m_recovery finishes its queued writes (a crash keeps them)

QString EditorDock::editorText() const {
    QString t = m_editor->document()->toRawText();
    t.replace(QChar::ParagraphSeparator, '\n');
    return t;
}

bool EditorDock::isBundledPath(const QString& path) {
    const QString file = QFileInfo(path).absoluteFilePath();
    const QString canon = QFileInfo(path).exists() ? QFileInfo(path).canonicalFilePath() : file;
    const QString ex = canonicalDir(examplesDir());
    if (ex.isEmpty()) return false;
    const QString reviews = canonicalDir(QDir(ex).filePath("../reviews"));
    for (const QString& f : {file, canon})
        if (isUnder(f, ex) || isUnder(f, reviews)) return true;
    return false;
}

void EditorDock::setFileState(const QString& path, const QByteArray& bytes, bool readable) {
    DecodedFile d = decodeFile(std::string_view(bytes.constData(), size_t(bytes.size())));
    m_statePath = path;
    m_format = std::move(d.format);
    m_loadedText = std::move(d.text);
    m_hasFile = readable;
    m_baseHash = readable ? DiskWatcher::hashOf(bytes) : QByteArray();
    m_readOnly = !path.isEmpty() && isBundledPath(path);
    m_autosave.stop(); // a pending autosave belongs to the text before this file
    m_dirtySince = -1;
    m_bar->hide();
    m_disk->watch(readable ? path : QString(), bytes);
}

std::unique_ptr<Document> EditorDock::loadFile(const QString& path) {
    if (auto bad =
            notRegularFile(path.toStdString())) { // a FIFO or /dev/zero: never opened (issue 25 item 2)
        setFileState(path, {}, false);
        return Document::failed({}, path.toStdString(), std::move(*bad));
    }
    Result<std::string> bytes = readScenarioFile(path.toStdString());
    if (!bytes) {
        setFileState(path, {}, false);
        return Document::failed({}, path.toStdString(), bytes.diagnostics().front());
    }
    const QByteArray raw = QByteArray::fromStdString(bytes.value());
    setFileState(path, raw, true);
    m_shownText.clear(); // set by showDocument(doc, true)
    // A kernel scenario runs its kernel off the UI thread, with a progress dialog and Cancel (issue 25
    // item 3); cancelled, the file opens with the run's "run cancelled" error and no trace.
    if (isKernelScenario(m_loadedText)) {
        QString cancelled;
        if (auto doc = buildKernelDocument(this, m_loadedText, path.toStdString(), cancelled)) return doc;
        return Document::failed(m_loadedText, path.toStdString(),
                                Diagnostic{Severity::Error,
                                           DiagCode::Unsupported,
                                           {},
                                           cancelled.toStdString(),
                                           "docs/exec.md (kernel scenarios)",
                                           Provenance::ToolFormat});
    }
    return Document::fromText(m_loadedText, path.toStdString());
}

bool EditorDock::isKernelScenario(const std::string& text) {
    if (text.find("kernel") == std::string::npos)
        return false; // most files: no copy of megabytes to a QString
    static const QRegularExpression kernelLine("^\\s*kernel\\s", QRegularExpression::MultilineOption);
    return QString::fromStdString(text).contains(kernelLine);
}

void EditorDock::adoptFile(const QString& path, const QByteArray& bytes) {
    setFileState(path, bytes, true);
    m_shownText.clear(); // set by showDocument(doc, true)
}

void EditorDock::showLoadingText(const QString& text) {
    if (m_autosave.isActive()) autosaveNow(); // the text before, under its own path
    m_timer.stop();
    m_checker->cancel(); // a re-check of the text before must not arrive over the file
    m_loading = true;
    m_editor->setDiagnostics({}); // the text before's marks; the file's come with its document
    m_editor->setPlainText(text);
    m_loading = false;
}

void EditorDock::autosaveNow() {
    m_autosave.stop();
    m_dirtySince = -1;
    if (isModified())
        m_recovery->write(m_path, editorText());
    else
        m_recovery->remove(m_path);
}

void EditorDock::closeClean() {
    m_autosave.stop();
    m_dirtySince = -1;
    m_recovery->remove(m_path);
    m_recovery->flush();
}

void EditorDock::replaceText(const QString& text) {
    QTextCursor c(m_editor->document());
    c.select(QTextCursor::Document);
    c.insertText(text); // one undoable edit; textChanged re-checks and autosaves it
    m_editor->document()->setModified(true);
}

bool EditorDock::offerRecovery() {
    const auto e = RecoveryStore::pendingFor(m_path, editorText());
    if (!e) return false;
    const QString name = m_path.isEmpty() ? QString("an untitled scenario") : QFileInfo(m_path).fileName();
    const int a =
        askUser(this, "recovery", "Recover unsaved edits",
                QString("Layoutscope did not close cleanly: unsaved edits to %1 (autosaved %2) were kept "
                        "in %3.\n\nRestore them? (Discard deletes the autosave.)")
                    .arg(name, e->written.toString("yyyy-MM-dd hh:mm:ss"), e->recoveryFile),
                {"&Restore", "&Discard"}, 0, -1);
    // Discard deletes the autosave only when no live window owns it (another window's journal stays).
    if (a == 1) m_recovery->removeOrphan(*e);
    if (a != 0) return false;
    replaceText(e->text);
    autosaveNow();                // journaled as this window's...
    m_recovery->removeOrphan(*e); // ...then the crashed window's copy goes (queued in that order)
    return true;
}

void EditorDock::onDiskChanged() {
    if (!isModified()) {
        emit reloadRequested(m_path); // nothing of ours to lose
        return;
    }
    m_barText->setText(QString("%1 changed on disk. Reload it (dropping your edits) or keep your text?")
                           .arg(QFileInfo(m_path).fileName()));
    m_reloadBtn->show();
    m_bar->show();
}

void EditorDock::onDiskRemoved() {
    m_barText->setText(QString("%1 was deleted or moved on disk; Save writes your text there again.")
                           .arg(QFileInfo(m_path).fileName()));
    m_reloadBtn->hide();
    m_bar->show();
}

bool EditorDock::writeTo(const QString& path) {
    if (isBundledPath(path)) {
        askUser(this, "read-only", "Read-only example",
                QString("%1 is a bundled example; it is never overwritten. Choose a file outside %2.")
                    .arg(path, QFileInfo(path).absolutePath()),
                {"OK"}, 0, 0);
        return false;
    }
    const bool samePath = QFileInfo(path).absoluteFilePath() == QFileInfo(m_statePath).absoluteFilePath();
    if (samePath && m_hasFile && QFileInfo::exists(path)) {
        QFile disk(path);
        if (disk.open(QIODevice::ReadOnly) && DiskWatcher::hashOf(disk.readAll()) != m_baseHash) {
            const int a = askUser(this, "changed-on-disk", "File changed on disk",
                                  QString("%1 changed on disk since it was read. Overwrite it with your "
                                          "text, or save your text elsewhere?")
                                      .arg(path),
                                  {"&Overwrite", "Save &As...", "&Cancel"}, 2, 2);
            if (a == 1) return saveAs();
            if (a != 0) return false;
        }
    }
    const QString now = editorText();
    const std::string text = now == m_shownText ? m_loadedText : now.toStdString();
    EncodeResult enc = encodeFile(text, m_format);
    if (enc.error) {
        const int a = askUser(this, "not-utf8", "Bytes that are not UTF-8",
                              QString("Cannot save %1 unchanged: %2.\n\nUndo the edit of that line to keep "
                                      "the bytes, or replace them.")
                                  .arg(path, QString::fromStdString(enc.error->message)),
                              {"&Replace and save", "&Cancel"}, 1, 1);
        if (a != 0) return false;
        enc = encodeFile(text, m_format, true);
    }
    const QByteArray bytes = QByteArray::fromStdString(enc.bytes);
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
        QMessageBox::warning(this, "Save failed", QString("Cannot write %1: %2").arg(path, f.errorString()));
        return false;
    }
    const QString oldPath = m_path;
    m_recovery->remove(oldPath);
    if (path != oldPath) m_recovery->remove(path);
    m_autosave.stop();
    m_dirtySince = -1;
    setFileState(path, bytes, true);
    m_shownText = now;
    m_loadedText = now.toStdString();
    m_editor->document()->setModified(false);
    if (path != m_path) {
        m_path = path;
        emit pathChanged(m_path);
        checkNow(); // diagnostics now name the file
    }
    return true;
}

bool EditorDock::save() {
    return m_readOnly || m_path.isEmpty() || m_path.startsWith(":/") ? saveAs() : writeTo(m_path);
}

bool EditorDock::saveAs() {
    QString suggested = m_path;
    if (m_readOnly || m_path.startsWith(":/") || m_path.isEmpty())
        suggested =
            QDir::home().filePath(m_path.isEmpty() ? QString("scenario.scn") : QFileInfo(m_path).fileName());
    const QString p =
        m_chooser
            ? m_chooser(suggested)
            : QFileDialog::getSaveFileName(this, m_readOnly ? "Save a copy of the example" : "Save scenario",
                                           suggested, "Scenarios (*.scn);;All files (*)");
    return !p.isEmpty() && writeTo(p);
}

bool EditorDock::maybeSave() {
    if (!isModified()) return true;
    const int a = askUser(this, "unsaved", "Unsaved scenario",
                          QString("The scenario %1 has unsaved edits. Save them?")
                              .arg(m_path.isEmpty() ? QString("(unsaved)") : m_path),
                          {m_readOnly ? "&Save As..." : "&Save", "&Discard", "&Cancel"}, 0, 2);
    if (a == 0) return save();
    if (a == 1) m_recovery->remove(m_path);
    return a == 1;
}

} // namespace layoutscope::views
