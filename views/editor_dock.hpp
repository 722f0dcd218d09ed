#pragma once
/// EditorDock: the scenario editor (syntax highlighting, gutter, inline diagnostics) over a list of
/// diagnostics. Each edit is checked after a short pause (debounce): parse + validate + run through
/// Document::fromText on a worker thread (ScenarioChecker; the next keystroke cancels it, so typing
/// never waits for a run); the diagnostics appear inline and in the list, in the same text as
/// `layoutscope-cli check` (file:line:col: error: ...). A valid edit is handed to the owner (the
/// views follow); an invalid one only updates the diagnostics, so the views keep the last good run.
/// Unsaved edits are kept; save / save as / ask before discarding.
#include "code_editor.hpp"
#include "scene/document.hpp"

#include <QTimer>
#include <QWidget>
#include <functional>
#include <memory>

class QLabel;
class QListWidget;

namespace layoutscope::views {

class ScenarioChecker;
class ScenarioHighlighter;

class EditorDock : public QWidget {
    Q_OBJECT
  public:
    using RunFn = std::function<void(std::unique_ptr<Document>)>;
    explicit EditorDock(QWidget* parent = nullptr);

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

  signals:
    void modifiedChanged(bool modified);
    void pathChanged(const QString& path);

  private:
    bool writeTo(const QString& path);
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
};

} // namespace layoutscope::views
