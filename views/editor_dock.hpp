#pragma once
/// EditorDock: the scenario editor (syntax highlighting, gutter, inline diagnostics) over a list of
/// diagnostics. Each edit is checked after a short pause (debounce): parse + validate + run through
/// Document::fromText on a worker thread (ScenarioChecker; the next keystroke cancels it, so typing
/// never waits for a run); the diagnostics appear inline and in the list, in the same text as
/// `layoutscope-cli check` (file:line:col: error: ...). A valid edit is handed to the owner (the
/// views follow); an invalid one only updates the diagnostics, so the views keep the last good run.
/// Unsaved edits are kept; save / save as / ask before discarding.
///
/// Files (issue 15, item 2; editor_file.cpp): the file's bytes are decoded by decodeFile and written
/// back by encodeFile, so line endings, the BOM and untouched lines keep their bytes. Bundled
/// examples are read-only (Save is Save As). Edits are autosaved to this window's RecoveryStore file within a
/// second of the last keystroke; a clean close or a save removes it (never another window's). A DiskWatcher
/// notices the file changing on disk: with no edits the file is reloaded, with edits a bar offers Reload /
/// Keep mine; Save asks before overwriting a file that changed since it was read.
#include "code_editor.hpp"
#include "document_file.hpp"
#include "scene/document.hpp"

#include <QTimer>
#include <QWidget>
#include <functional>
#include <memory>

class QFrame;
class QLabel;
class QListWidget;
class QPushButton;

namespace layoutscope::views {

class DiskWatcher;
class RecoveryStore;
class ScenarioChecker;
class ScenarioHighlighter;

class EditorDock : public QWidget {
    Q_OBJECT
  public:
    using RunFn = std::function<void(std::unique_ptr<Document>)>;
    explicit EditorDock(QWidget* parent = nullptr);
    ~EditorDock() override;

    /// Called with each valid document an edit produces (it has a trace).
    void setRunHandler(RunFn fn) { m_run = std::move(fn); }
    /// Show a document's text (when it differs from the editor's), path and diagnostics.
    /// `fromDisk`: the text is the file's, so the editor is not modified.
    void showDocument(const Document& doc, bool fromDisk);
    /// Check the current text now (skipping the debounce); the result arrives asynchronously.
    void checkNow();
    /// Whether a check's result is still to come (tests wait on it).
    [[nodiscard]] bool checking() const;
    [[nodiscard]] CodeEditor* editor() const { return m_editor; }
    [[nodiscard]] QListWidget* diagnosticsList() const { return m_list; }
    /// Every diagnostic in the list, one per line (as the CLI prints them).
    [[nodiscard]] QString diagnosticsText() const;
    [[nodiscard]] QString path() const { return m_path; }
    [[nodiscard]] bool isModified() const;
    /// Save to the current path (asks for one when there is none). False when cancelled or failed.
    bool save();
    bool saveAs();
    /// Before discarding the text: true when it is saved, the user saved it or chose to discard.
    bool maybeSave();
    void setDark(bool dark);
    void setDebounceMs(int ms) { m_timer.setInterval(ms); }

    // --- Files (editor_file.cpp) ---
    /// Read `path` (bounded like readScenarioFile), remember its format and watch it; the document of
    /// its text (an Io diagnostic when it cannot be read). Show it with showDocument(doc, true).
    [[nodiscard]] std::unique_ptr<Document> loadFile(const QString& path);
    /// The half of loadFile after a parse and run done elsewhere (MainWindow::openFileInBackground): remember
    /// `path`'s format from the `bytes` read, and watch it. Show the document with showDocument(doc, true).
    void adoptFile(const QString& path, const QByteArray& bytes);
    /// While that file's parse and run go on elsewhere: show its `text` now (the caller keeps the dock
    /// disabled), so showDocument finds it there when the document comes and need not set it then (30,000
    /// highlighted lines take ~0.2 s of the UI thread, issue 25 item 11). No re-check, autosave or recovery
    /// change follows from it; an autosave still due for the text before is written first.
    void showLoadingText(const QString& text);
    /// Whether scenario text runs a kernel (a `kernel` line): loadFile runs it with a progress dialog.
    [[nodiscard]] static bool isKernelScenario(const std::string& text);
    /// Whether `path` is a bundled example or review pack (under examplesDir() or its ../reviews).
    [[nodiscard]] static bool isBundledPath(const QString& path);
    /// The open file is a bundled example: Save is Save As, and no bundled file is ever written.
    [[nodiscard]] bool isReadOnly() const { return m_readOnly; }
    [[nodiscard]] const FileFormat& fileFormat() const { return m_format; }
    /// The editor's text with '\n' line breaks, exactly (no-break spaces kept, unlike toPlainText).
    [[nodiscard]] QString editorText() const;
    /// Offer the pending recovery of the open file (askUser id "recovery"); true when restored.
    bool offerRecovery();
    /// Replace the text by `text` as one undoable edit (a restored recovery): the editor is modified.
    void replaceText(const QString& text);
    /// A clean close: stop autosaving and remove the recovery file.
    void closeClean();
    /// Save As asks this for the path (tests; default: a file dialog). Empty: cancelled.
    void setSaveAsChooser(std::function<QString(const QString& suggested)> f) { m_chooser = std::move(f); }
    /// Autosave this long after the last keystroke (default kAutosaveDebounceMs; tests shorten it).
    void setAutosaveMs(int ms) { m_autosave.setInterval(ms); }
    [[nodiscard]] int autosaveMs() const { return m_autosave.interval(); }
    /// Default autosave delay: typing is on disk within a second of the last keystroke (issue 25 item 8).
    static constexpr int kAutosaveDebounceMs = 500;
    /// Write the autosave now (a restored recovery becomes this window's journal).
    void journalNow() { autosaveNow(); }
    [[nodiscard]] RecoveryStore& recovery() const { return *m_recovery; }
    [[nodiscard]] DiskWatcher* diskWatcher() const { return m_disk; }
    /// The non-modal "changed on disk" bar (hidden unless the file changed under local edits).
    [[nodiscard]] QFrame* diskBar() const { return m_bar; }

  signals:
    void modifiedChanged(bool modified);
    void pathChanged(const QString& path);
    /// The file changed on disk and should be read again (no local edits, or the user chose Reload).
    void reloadRequested(const QString& path);
    /// The Diagnostics list was filled again (a check, or a document shown): editor()->diagnostics().
    void diagnosticsChanged();

  private:
    bool writeTo(const QString& path);
    void buildFileUi(); ///< editor_file.cpp: autosave timer, disk watcher, the change bar
    void autosaveNow();
    void onDiskChanged();
    void onDiskRemoved();
    void setFileState(const QString& path, const QByteArray& bytes, bool readable);
    void applyCheck(std::unique_ptr<Document> doc); ///< UI thread: a worker's result
    void fillList(const std::vector<Diagnostic>& diags, bool hasTrace);
    [[nodiscard]] std::string displayName() const;

    CodeEditor* m_editor;
    ScenarioHighlighter* m_highlighter;
    QListWidget* m_list;
    QLabel* m_state;
    QTimer m_timer;
    ScenarioChecker* m_checker;
    RunFn m_run;
    QString m_path;
    bool m_loading = false;
    // Files (editor_file.cpp)
    QString m_statePath;      ///< the file m_format and m_baseHash describe
    FileFormat m_format;      ///< its bytes, line endings and BOM as read
    std::string m_loadedText; ///< its decoded text
    QString m_shownText;      ///< editorText() right after showing it (unedited: write m_format's bytes)
    QByteArray m_baseHash;    ///< SHA-256 of the bytes our text is based on (read or saved)
    bool m_hasFile = false;   ///< the file existed and was read
    bool m_readOnly = false;
    std::unique_ptr<RecoveryStore> m_recovery;
    QTimer m_autosave;
    qint64 m_dirtySince = -1; ///< ms since epoch of the first edit not yet autosaved
    DiskWatcher* m_disk = nullptr;
    QFrame* m_bar = nullptr;
    QLabel* m_barText = nullptr;
    QPushButton* m_reloadBtn = nullptr;
    std::function<QString(const QString&)> m_chooser;
};

} // namespace layoutscope::views
