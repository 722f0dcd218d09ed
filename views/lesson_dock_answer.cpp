// The lesson panel's questions (lesson_dock.hpp): a typed or clicked answer checked, the verdict with a hint
// after a first wrong answer, the answer shown on request, and the click-a-cell mode. The rest of the
// panel is lesson_dock.cpp.
#include "lesson_dock.hpp"

#include "cell_canvas.hpp"
#include "main_window.hpp"
#include "scene/lesson_scene.hpp"

#include <QLineEdit>
#include <QPushButton>
#include <QTextBrowser>

namespace layoutscope::views {

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

} // namespace

void LessonDock::showVerdict(const Result<LessonVerdict>& v) {
    if (!v) {
        m_verdictPlain = "Could not read that answer: " + q(v.diagnostics().front().message);
        m_verdict->setPlainText(m_verdictPlain);
        return;
    }
    const QString head = v->correct ? "Correct." : "Incorrect.";
    // A first wrong answer gets a hint and a retry; the answer comes with the second (or Show answer)
    // (issue 24 item 9: a wrong answer revealed the answer at once).
    if (!v->correct && m_wrongTries++ == 0) {
        m_verdictPlain = head + " Hint: " + answerHint() + " Try again, or press Show answer.";
        m_verdict->setHtml(QString("<b style='color:#d23c3c'>%1</b> %2")
                               .arg(head, m_verdictPlain.mid(head.size() + 1).toHtmlEscaped()));
        emit answered(false);
        return;
    }
    m_verdictPlain = head + " " + q(v->explanation);
    m_verdict->setHtml(QString("<b style='color:%1'>%2</b> %3")
                           .arg(v->correct ? "#2e9e44" : "#d23c3c", head, q(v->explanation).toHtmlEscaped()));
    emit answered(v->correct);
}

QString LessonDock::answerHint() const {
    using K = LessonQuestion::Kind;
    const LessonStep& s = m_lesson->steps[m_index];
    QString hint;
    switch (s.question->kind) {
    case K::Where:
        hint = "follow the element's bytes: hover it in the global view (the linked outline shows where they "
               "landed), or work out its box offset and apply the layout the caption names.";
        break;
    case K::Wavefronts:
        hint = "find the bank (address / 4 % 32) of each thread's bytes; threads on one bank at different "
               "addresses need one wavefront each.";
        break;
    case K::Bytes:
        hint =
            "count the bytes the instruction moves: its box or shape times the element size (the event list "
            "shows each instruction).";
        break;
    case K::Value:
        hint = "read the bytes at that place, little-endian (hover them: the Inspector shows each byte).";
        break;
    case K::Lanes:
        hint = "a warp reaches the 32 Tensor Memory lanes of its quarter: warp id % 4.";
        break;
    case K::Metric:
    case K::Fact:
        hint = "the caption and its reference state it.";
        break;
    }
    const std::vector<std::string>& refs = s.refs.empty() ? m_lesson->refs : s.refs;
    if (!refs.empty()) hint += " See " + q(refs.front()) + " (docs/ref).";
    return hint;
}

std::optional<bool> LessonDock::checkTyped(const QString& answer) {
    if (!m_lesson || !m_lesson->steps[m_index].question) return std::nullopt;
    const auto v = checkAnswer(*m_lesson, *m_run, m_index, answer.trimmed().toStdString());
    showVerdict(v);
    return v ? std::optional(v->correct) : std::nullopt;
}

std::optional<bool> LessonDock::checkPlace(const LessonPlace& clicked) {
    if (!m_lesson || !m_lesson->steps[m_index].question) return std::nullopt;
    const auto v = checkAnswer(*m_lesson, *m_run, m_index, clicked);
    showVerdict(v);
    if (v) m_answer->setText(q(placeText(clicked)));
    return v ? std::optional(v->correct) : std::nullopt;
}

void LessonDock::showAnswer() {
    if (!m_lesson || !m_lesson->steps[m_index].question) return;
    const auto a = expectedAnswer(*m_lesson, *m_run, m_index);
    m_verdictPlain = a ? "Answer: " + q(a->display()) + ". " + q(a->explanation)
                       : "No answer: " + q(a.diagnostics().front().message);
    m_verdict->setPlainText(m_verdictPlain);
}

void LessonDock::setAwaitingClick(bool on) {
    m_awaitingClick = on && m_lesson && m_lesson->steps[m_index].question;
    if (m_click->isChecked() != m_awaitingClick) m_click->setChecked(m_awaitingClick);
    if (m_awaitingClick) m_w.showNote("Lesson: click the cell that answers the question.");
}

void LessonDock::onCellClicked(int view, int x, int y) {
    if (!m_awaitingClick || x < 0 || !showsLessonScenario()) return;
    std::optional<LessonPlace> p;
    if (view == 0) p = smemPlaceAt(m_w.smemScene(), uint32_t(x), uint32_t(y));
    if (view == 1) p = globalPlaceAt(m_w.globalScene(), uint32_t(x), uint32_t(y));
    if (view == 2) p = tmemPlaceAt(m_w.tmemViews()->tmemScene(), uint32_t(x), uint32_t(y));
    if (view == 3) p = regPlaceAt(m_w.tmemViews()->regScene(), uint32_t(x), uint32_t(y));
    if (!p) return;
    setAwaitingClick(false);
    checkPlace(*p);
}

} // namespace layoutscope::views
