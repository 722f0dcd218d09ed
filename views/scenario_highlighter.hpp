#pragma once
/// ScenarioHighlighter: colours scenario text as the user types: directives (target, tensormap,
/// smem, mbarrier, ...), PTX opcodes and their .qualifiers, registers (%r1, p), numbers, comments.
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace layoutscope::views {

class ScenarioHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
  public:
    explicit ScenarioHighlighter(QTextDocument* doc);
    /// Light or dark palette (follows the window theme).
    void setDark(bool dark);

  protected:
    void highlightBlock(const QString& text) override;

  private:
    QTextCharFormat m_directive, m_opcode, m_qualifier, m_register, m_number, m_comment, m_key;
};

} // namespace layoutscope::views
