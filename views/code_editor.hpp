#pragma once
/// CodeEditor: the scenario text with a gutter (line numbers, a marker on each line that has a
/// diagnostic), each diagnostic's exact span (line, column, length) underlined with a wavy line,
/// and a tooltip with the full message, rule and provenance when the mouse rests on it.
#include "layoutscope/core/result.hpp"

#include <QPlainTextEdit>
#include <vector>

namespace layoutscope::views {

class CodeEditor : public QPlainTextEdit {
    Q_OBJECT
  public:
    explicit CodeEditor(QWidget* parent = nullptr);

    void setDiagnostics(std::vector<Diagnostic> diags);
    [[nodiscard]] const std::vector<Diagnostic>& diagnostics() const { return m_diags; }
    /// Document position range [begin, end) a diagnostic underlines (never empty for a valid span).
    [[nodiscard]] std::pair<int, int> spanRange(const Diagnostic& d) const;
    /// The tooltip text for a document position (empty where no diagnostic is).
    [[nodiscard]] QString tooltipAt(int position) const;
    /// Put the cursor on a diagnostic's span, selecting it.
    void jumpTo(const Diagnostic& d);
    void setDark(bool dark);
    [[nodiscard]] int gutterWidth() const;
    void paintGutter(class QPaintEvent* e);

  protected:
    bool event(QEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

  private:
    void refreshSelections();
    QWidget* m_gutter;
    std::vector<Diagnostic> m_diags;
    bool m_dark = true;
};

} // namespace layoutscope::views
