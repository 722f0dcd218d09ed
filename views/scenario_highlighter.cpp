#include "scenario_highlighter.hpp"

#include <QRegularExpression>

namespace layoutscope::views {

namespace {
// Words that start a scenario declaration line (not PTX): the parser's kWords in
// engine/src/scenario/parse.cpp and docs/scenario-format.md.
const QRegularExpression kDirective(
    R"(^\s*(\.?target|\.version|ptx|tensormap|smem|mbarrier|cluster|cta|warp|fill|let|regs|desc|expect|observe)(?=\s|$))");
const QRegularExpression kOpcode(R"(^\s*(?:@!?\w+\s+)?([a-z][a-z0-9_]*)((?:\.[A-Za-z0-9_:]+)*))");
const QRegularExpression kQualifier(R"(\.[A-Za-z0-9_]+(?:::[A-Za-z0-9_]+)*)");
const QRegularExpression kRegister(R"((%[A-Za-z_][A-Za-z0-9_.]*)|\b(p\d*|r\d+|rd\d+)\b)");
const QRegularExpression kNumber(R"(\b(0[xX][0-9A-Fa-f]+|\d+(?:\.\d+)?)\b)");
const QRegularExpression kKey(R"(\b([A-Za-z_]+)=)");
} // namespace

ScenarioHighlighter::ScenarioHighlighter(QTextDocument* doc) : QSyntaxHighlighter(doc) {
    setDark(true);
}

void ScenarioHighlighter::setDark(bool dark) {
    auto fmt = [](QColor c, bool bold = false, bool italic = false) {
        QTextCharFormat f;
        f.setForeground(c);
        if (bold) f.setFontWeight(QFont::Bold);
        f.setFontItalic(italic);
        return f;
    };
    m_directive = fmt(dark ? QColor(199, 146, 234) : QColor(128, 40, 160), true);
    m_opcode = fmt(dark ? QColor(97, 175, 239) : QColor(20, 80, 170), true);
    m_qualifier = fmt(dark ? QColor(86, 182, 194) : QColor(0, 120, 130));
    m_register = fmt(dark ? QColor(229, 192, 123) : QColor(150, 90, 0));
    m_number = fmt(dark ? QColor(209, 154, 102) : QColor(170, 60, 20));
    m_comment = fmt(dark ? QColor(120, 128, 140) : QColor(110, 115, 125), false, true);
    m_key = fmt(dark ? QColor(152, 195, 121) : QColor(40, 120, 40));
    rehighlight();
}

void ScenarioHighlighter::highlightBlock(const QString& text) {
    const qsizetype hash = text.indexOf('#');
    const qsizetype slashes = text.indexOf("//");
    qsizetype commentAt = hash < 0 ? slashes : (slashes < 0 ? hash : std::min(hash, slashes));
    const QString code = commentAt < 0 ? text : text.left(commentAt);
    const auto applyAll = [&](const QRegularExpression& re, const QTextCharFormat& f, int group = 0) {
        for (auto it = re.globalMatch(code); it.hasNext();) {
            const auto m = it.next();
            const int g = m.capturedStart(group) >= 0 ? group : 0;
            setFormat(int(m.capturedStart(g)), int(m.capturedLength(g)), f);
        }
    };
    applyAll(kNumber, m_number);
    applyAll(kKey, m_key, 1);
    applyAll(kRegister, m_register);
    if (const auto d = kDirective.match(code); d.hasMatch()) {
        setFormat(int(d.capturedStart(1)), int(d.capturedLength(1)), m_directive);
    } else if (const auto o = kOpcode.match(code); o.hasMatch() && o.capturedLength(2) > 0) {
        setFormat(int(o.capturedStart(1)), int(o.capturedLength(1)), m_opcode);
        const QString quals = o.captured(2);
        for (auto it = kQualifier.globalMatch(quals); it.hasNext();) {
            const auto q = it.next();
            setFormat(int(o.capturedStart(2) + q.capturedStart()), int(q.capturedLength()), m_qualifier);
        }
    }
    if (commentAt >= 0) setFormat(int(commentAt), int(text.size() - commentAt), m_comment);
}

} // namespace layoutscope::views
