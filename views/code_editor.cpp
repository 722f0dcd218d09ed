#include "code_editor.hpp"

#include "layoutscope/core/provenance.hpp"

#include <QHelpEvent>
#include <QPainter>
#include <QTextBlock>
#include <QToolTip>

namespace layoutscope::views {

namespace {
class Gutter : public QWidget {
  public:
    explicit Gutter(CodeEditor* e) : QWidget(e), m_e(e) {}
    QSize sizeHint() const override { return {m_e->gutterWidth(), 0}; }

  protected:
    void paintEvent(QPaintEvent* ev) override { m_e->paintGutter(ev); }

  private:
    CodeEditor* m_e;
};

QColor severityColour(Severity s) {
    return s == Severity::Error     ? QColor(232, 72, 64)
           : s == Severity::Warning ? QColor(230, 170, 40)
                                    : QColor(90, 150, 230);
}
const char* severityName(Severity s) {
    return s == Severity::Error ? "error" : s == Severity::Warning ? "warning" : "note";
}
} // namespace

CodeEditor::CodeEditor(QWidget* parent) : QPlainTextEdit(parent), m_gutter(new Gutter(this)) {
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setMouseTracking(true);
    connect(this, &QPlainTextEdit::blockCountChanged, this,
            [this] { setViewportMargins(gutterWidth(), 0, 0, 0); });
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect& r, int dy) {
        if (dy)
            m_gutter->scroll(0, dy);
        else
            m_gutter->update(0, r.y(), m_gutter->width(), r.height());
    });
    setViewportMargins(gutterWidth(), 0, 0, 0);
}

int CodeEditor::gutterWidth() const {
    int digits = 1;
    for (int n = std::max(1, blockCount()); n >= 10; n /= 10) ++digits;
    return 14 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * std::max(digits, 2) + 6;
}

void CodeEditor::resizeEvent(QResizeEvent* e) {
    QPlainTextEdit::resizeEvent(e);
    const QRect cr = contentsRect();
    m_gutter->setGeometry(QRect(cr.left(), cr.top(), gutterWidth(), cr.height()));
}

void CodeEditor::setDark(bool dark) {
    m_dark = dark;
    refreshSelections();
    m_gutter->update();
}

void CodeEditor::paintGutter(QPaintEvent* e) {
    QPainter p(m_gutter);
    p.fillRect(e->rect(), m_dark ? QColor(36, 37, 42) : QColor(236, 236, 240));
    // Worst severity per line.
    std::vector<int> worst(size_t(blockCount()) + 1, -1);
    for (const Diagnostic& d : m_diags)
        if (d.span.valid() && d.span.line <= blockCount()) {
            int& w = worst[size_t(d.span.line)];
            const int s = 2 - int(d.severity); // Error=2, Warning=1, Note=0
            w = std::max(w, s);
        }
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    const int h = fontMetrics().height();
    while (block.isValid() && top <= e->rect().bottom()) {
        const int line = block.blockNumber() + 1;
        if (block.isVisible()) {
            p.setPen(m_dark ? QColor(120, 124, 134) : QColor(140, 140, 150));
            p.drawText(0, top, m_gutter->width() - 4, h, Qt::AlignRight | Qt::AlignVCenter,
                       QString::number(line));
            if (worst[size_t(line)] >= 0) {
                p.setRenderHint(QPainter::Antialiasing);
                p.setPen(Qt::NoPen);
                p.setBrush(severityColour(Severity(2 - worst[size_t(line)])));
                p.drawEllipse(QRectF(3, top + h / 2.0 - 4, 8, 8));
            }
        }
        block = block.next();
        top += qRound(blockBoundingRect(block).height());
    }
}

std::pair<int, int> CodeEditor::spanRange(const Diagnostic& d) const {
    const QTextBlock b = document()->findBlockByNumber(d.span.line - 1);
    if (!b.isValid()) return {-1, -1};
    const int len = b.length() - 1; // without the paragraph separator
    int col = std::clamp(d.span.column - 1, 0, len);
    int n = d.span.length > 0 ? d.span.length : 1;
    if (col >= len) col = std::max(0, len - 1); // a span at the end of the line: underline its last character
    n = std::clamp(n, 1, std::max(1, len - col));
    if (len == 0) n = b.position() + 1 < document()->characterCount() ? 1 : 0; // an empty line: its separator
    return {b.position() + col, b.position() + col + n};
}

void CodeEditor::refreshSelections() {
    QList<QTextEdit::ExtraSelection> sels;
    for (const Diagnostic& d : m_diags) {
        if (!d.span.valid()) continue;
        const auto [a, b] = spanRange(d);
        if (a < 0) continue;
        QTextEdit::ExtraSelection line;
        line.format.setBackground(d.severity == Severity::Error
                                      ? (m_dark ? QColor(80, 30, 32) : QColor(255, 228, 226))
                                      : (m_dark ? QColor(70, 60, 20) : QColor(255, 244, 210)));
        line.format.setProperty(QTextFormat::FullWidthSelection, true);
        line.cursor = QTextCursor(document()->findBlockByNumber(d.span.line - 1));
        sels.push_back(line);
    }
    for (const Diagnostic& d : m_diags) {
        if (!d.span.valid()) continue;
        const auto [a, b] = spanRange(d);
        if (a < 0) continue;
        QTextEdit::ExtraSelection wave;
        wave.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
        wave.format.setUnderlineColor(severityColour(d.severity));
        wave.cursor = QTextCursor(document());
        wave.cursor.setPosition(a);
        wave.cursor.setPosition(b, QTextCursor::KeepAnchor);
        sels.push_back(wave);
    }
    setExtraSelections(sels);
}

void CodeEditor::setDiagnostics(std::vector<Diagnostic> diags) {
    m_diags = std::move(diags);
    refreshSelections();
    m_gutter->update();
}

QString CodeEditor::tooltipAt(int position) const {
    QStringList parts;
    for (const Diagnostic& d : m_diags) {
        if (!d.span.valid()) continue;
        const auto [a, b] = spanRange(d);
        if (position < a || position >= b) continue;
        QString t = QString("<b>%1</b> (line %2, column %3): %4")
                        .arg(severityName(d.severity))
                        .arg(d.span.line)
                        .arg(d.span.column)
                        .arg(QString::fromStdString(d.message).toHtmlEscaped());
        if (!d.ruleRef.empty()) t += "<br>rule: " + QString::fromStdString(d.ruleRef).toHtmlEscaped();
        t += QString("<br>kind: %1").arg(diagCodeName(d.code));
        t += QString("<br>provenance: %1%2")
                 .arg(provenanceTag(d.provenance), isVerified(d.provenance) ? "" : " (unverified)");
        parts << t;
    }
    return parts.join("<hr>");
}

bool CodeEditor::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(e);
        const QPoint vp = viewport()->mapFrom(this, he->pos());
        const QTextCursor c = cursorForPosition(vp);
        const QString tip = tooltipAt(c.position());
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(he->globalPos(), tip, this);
        return true;
    }
    return QPlainTextEdit::event(e);
}

void CodeEditor::jumpTo(const Diagnostic& d) {
    if (!d.span.valid()) return;
    const auto [a, b] = spanRange(d);
    if (a < 0) return;
    QTextCursor c(document());
    c.setPosition(a);
    c.setPosition(b, QTextCursor::KeepAnchor);
    setTextCursor(c);
    centerCursor();
    setFocus();
}

} // namespace layoutscope::views
