// The lesson panel (lesson_dock.hpp). Pure parts: scene/lesson_scene.hpp; the engine side:
// layoutscope/lesson/lesson.hpp (docs/lessons.md).
#include "lesson_dock.hpp"
#include "scene/file_kind.hpp"

#include "cell_canvas.hpp"
#include "code_editor.hpp"
#include "editor_dock.hpp"
#include "main_window.hpp"
#include "scene/lesson_scene.hpp"

#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTextBrowser>
#include <QTextDocument>
#include <QVBoxLayout>
#include <cstdint>

namespace layoutscope::views {

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

QString diagText(const std::vector<Diagnostic>& ds, const QString& file) {
    QStringList out;
    for (const Diagnostic& d : ds) out << q(formatDiagnostic(d, file.toStdString()));
    return out.join('\n');
}

} // namespace

LessonDock::LessonDock(MainWindow& w) : QDockWidget("Lesson", &w), m_w(w) {
    setObjectName("lessonDock");
    buildUi();
    connect(w.playback(), &Playback::stepChanged, this, &LessonDock::onTraceStep);
    // Lesson pauses stop playing through Playback's breakpoint hook, as the Breakpoints dock's do:
    // the next step that pauses (`pause: yes` or a question) after the position, while the window
    // shows the lesson's scenario.
    w.playback()->setBreakFinder(
        QStringLiteral("lesson"), [this](uint32_t after) -> std::optional<std::pair<uint32_t, QString>> {
            if (!m_lesson || !showsLessonScenario()) return std::nullopt;
            const auto i = pauseStepBetween(*m_lesson, m_positions, after, UINT32_MAX);
            if (!i) return std::nullopt;
            return std::pair{m_positions[*i], QString("lesson step %1 of %2 pauses: %3")
                                                  .arg(*i + 1)
                                                  .arg(m_lesson->steps.size())
                                                  .arg(q(m_lesson->steps[*i].title))};
        });
    connect(w.playback(), &Playback::breakHit, this,
            [this](uint32_t t, const QString&, const QString& source) {
                if (source != "lesson" || !m_lesson || t == 0) return;
                // The step that pauses there; shown once the views have drawn this step (not inside its
                // emit).
                if (const auto i = pauseStepBetween(*m_lesson, m_positions, t - 1, t))
                    QMetaObject::invokeMethod(
                        this, [this, i = *i] { goToStep(i); }, Qt::QueuedConnection);
            });
    connect(w.smemView(), &CellCanvas::cellClicked, this, [this](int x, int y) { onCellClicked(0, x, y); });
    connect(w.globalView(), &CellCanvas::cellClicked, this, [this](int x, int y) { onCellClicked(1, x, y); });
    connect(w.tmemViews()->tmemView(), &CellCanvas::cellClicked, this,
            [this](int x, int y) { onCellClicked(2, x, y); });
    connect(w.tmemViews()->registerView(), &CellCanvas::cellClicked, this,
            [this](int x, int y) { onCellClicked(3, x, y); });
}

LessonDock::~LessonDock() = default;

void LessonDock::buildUi() {
    auto* body = new QWidget(this);
    auto* v = new QVBoxLayout(body);
    m_title = new QLabel("No lesson open: choose one from the Lessons menu.", body);
    m_title->setObjectName("lessonTitle");
    m_title->setWordWrap(true);
    QFont f = m_title->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.2);
    m_title->setFont(f);
    v->addWidget(m_title);

    m_caption = new QTextBrowser(body);
    m_caption->setObjectName("lessonCaption");
    m_caption->setOpenExternalLinks(true);
    v->addWidget(m_caption, 3);
    m_provenance = new QLabel(body);
    m_provenance->setObjectName("lessonProvenance");
    m_provenance->setWordWrap(true);
    m_provenance->setTextInteractionFlags(Qt::TextSelectableByMouse);
    v->addWidget(m_provenance);
    m_legend = new QLabel(
        QString("<span style='color:#ff50dc'>\u25ad</span> lesson highlight: the cells this "
                "step is about, outlined in the shared-memory, global, Tensor Memory and Registers views"),
        body);
    m_legend->setObjectName("lessonLegend");
    m_legend->setWordWrap(true);
    m_legend->hide();
    v->addWidget(m_legend);

    auto* nav = new QHBoxLayout;
    m_back = new QPushButton("\u25c0 Back", body);
    m_back->setObjectName("lessonBack");
    m_back->setToolTip("The previous step of the lesson (seeks the timeline to it)");
    m_stepLabel = new QLabel(body);
    m_stepLabel->setObjectName("lessonStep");
    m_stepLabel->setAlignment(Qt::AlignCenter);
    m_next = new QPushButton("Next \u25b6", body);
    m_next->setObjectName("lessonNext");
    m_next->setToolTip("The next step of the lesson (seeks the timeline to it)");
    nav->addWidget(m_back);
    nav->addWidget(m_stepLabel, 1);
    nav->addWidget(m_next);
    v->addLayout(nav);
    connect(m_back, &QPushButton::clicked, this, &LessonDock::back);
    connect(m_next, &QPushButton::clicked, this, &LessonDock::next);

    m_question = new QWidget(body);
    auto* qv = new QVBoxLayout(m_question);
    qv->setContentsMargins(0, 6, 0, 0);
    m_prompt = new QLabel(m_question);
    m_prompt->setObjectName("lessonPrompt");
    m_prompt->setWordWrap(true);
    qv->addWidget(m_prompt);
    auto* row = new QHBoxLayout;
    m_answer = new QLineEdit(m_question);
    m_answer->setObjectName("lessonAnswer");
    m_answer->setPlaceholderText("a number, smem 0x5ba, tmem lane 3 col 5, 32..63");
    m_check = new QPushButton("Check", m_question);
    m_check->setObjectName("lessonCheck");
    row->addWidget(m_answer, 1);
    row->addWidget(m_check);
    qv->addLayout(row);
    auto* row2 = new QHBoxLayout;
    m_click = new QPushButton("Click a cell", m_question);
    m_click->setObjectName("lessonClick");
    m_click->setCheckable(true);
    m_click->setToolTip(
        "Answer by clicking the cell in the shared-memory, global, Tensor Memory or Registers view");
    m_reveal = new QPushButton("Show answer", m_question);
    m_reveal->setObjectName("lessonReveal");
    row2->addWidget(m_click);
    row2->addStretch(1);
    row2->addWidget(m_reveal);
    qv->addLayout(row2);
    m_verdict = new QTextBrowser(m_question);
    m_verdict->setObjectName("lessonVerdict");
    m_verdict->setMaximumHeight(140);
    qv->addWidget(m_verdict);
    v->addWidget(m_question, 2);
    connect(m_check, &QPushButton::clicked, this, [this] { checkTyped(m_answer->text()); });
    connect(m_answer, &QLineEdit::returnPressed, this, [this] { checkTyped(m_answer->text()); });
    connect(m_click, &QPushButton::toggled, this, &LessonDock::setAwaitingClick);
    connect(m_reveal, &QPushButton::clicked, this, &LessonDock::showAnswer);

    setWidget(body);
    m_back->setEnabled(false);
    m_next->setEnabled(false);
    m_question->hide();
}

bool LessonDock::openLesson(const QString& path) {
    m_lesson.reset();
    m_run.reset();
    m_positions.clear();
    m_cells.clear();
    m_error.clear();
    m_w.playback()->invalidateBreaks();
    applyHighlights();
    show();
    raise();
    auto fail = [this, &path](const QString& why) {
        m_error = why;
        m_title->setText("Lesson " + QFileInfo(path).fileName() + " did not load");
        m_caption->setPlainText(why);
        m_provenance->clear();
        m_stepLabel->clear();
        m_back->setEnabled(false);
        m_next->setEnabled(false);
        m_question->hide();
        m_w.showNote("Lesson " + QFileInfo(path).fileName() +
                     ": see the Lesson panel for why it did not load.");
        return false;
    };
    if (auto bad = notRegularFile(path.toStdString())) // a FIFO or a device: never opened (issue 25 item 2)
        return fail(diagText({*bad}, path));
    auto l = loadLesson(path.toStdString());
    if (!l) return fail(diagText(l.diagnostics(), path));
    auto run = runScenario(*l->scenario);
    if (!run) return fail(diagText(run.diagnostics(), path + " (scenario)"));
    auto pos = lessonPositions(*l, *run);
    if (!pos) return fail(diagText(pos.diagnostics(), path));
    m_lesson = std::move(*l);
    m_run = std::move(*run);
    m_positions = std::move(*pos);
    m_w.playback()->invalidateBreaks(); // the pauses of this lesson

    // The scenario into the window, as opening a scenario does (an embedded one: its text, untitled).
    if (!m_lesson->scenarioPath.empty()) {
        m_w.openFile(QFileInfo(path).dir().absoluteFilePath(q(m_lesson->scenarioPath)));
    } else {
        auto doc = Document::fromText(m_lesson->scenarioText, "");
        m_w.editorDock()->showDocument(*doc, false);
        m_w.setDocument(std::move(doc));
        m_w.editorDock()->editor()->document()->setModified(false);
    }
    // Opening the scenario may switch the window to another kind's saved layout (restoreState), which
    // can hide this dock: show and raise it again afterwards.
    show();
    raise();
    m_title->setText(q(m_lesson->title));
    m_title->setToolTip(QFileInfo(path).fileName() +
                        (m_lesson->topic.empty() ? "" : "\ntopic: " + q(m_lesson->topic)));
    goToStep(0);
    return true;
}

void LessonDock::goToStep(size_t i) {
    if (!m_lesson || i >= m_lesson->steps.size()) return;
    showStep(i);
    Playback* p = m_w.playback();
    p->pause();
    m_seeking = true;
    p->seek(m_positions[i]);
    m_seeking = false;
    m_lastTrace = p->step();
    applyHighlights();
}

void LessonDock::next() {
    if (m_lesson && m_index + 1 < m_lesson->steps.size()) goToStep(m_index + 1);
}

void LessonDock::back() {
    if (m_lesson && m_index > 0) goToStep(m_index - 1);
}

void LessonDock::showStep(size_t i) {
    m_index = i;
    const LessonStep& s = m_lesson->steps[i];
    m_error.clear();
    auto cells = resolveStepHighlights(*m_lesson, *m_run, i);
    m_cells = cells ? std::move(*cells) : std::vector<LessonCells>{};
    if (!cells) m_error = diagText(cells.diagnostics(), "highlight");

    QString md;
    if (i == 0 && !m_lesson->intro.empty()) md += q(m_lesson->intro) + "\n\n";
    md += "### " + q(s.title) + "\n\n" + q(captionForDisplay(s.caption));
    if (!m_error.isEmpty()) md += "\n\n*(" + m_error + ")*";
    m_caption->setMarkdown(md);

    QStringList prov;
    QString where = QString("trace step %1").arg(m_positions[i]);
    if (const auto instr = lessonInstr(*m_lesson, *m_run, i); instr && *instr < m_run->trace.instrs.size())
        where +=
            QString(", after instruction %1: %2").arg(*instr + 1).arg(q(m_run->trace.instrs[*instr].text));
    const std::vector<std::string>& refs = s.refs.empty() ? m_lesson->refs : s.refs;
    for (const std::string& r : refs) prov << q(r);
    m_provenance->setText("At " + where + (prov.isEmpty() ? "" : "\nProvenance: " + prov.join("; ")));
    m_legend->setVisible(!m_cells.empty());
    m_stepLabel->setText(QString("step %1 of %2").arg(i + 1).arg(m_lesson->steps.size()));
    m_back->setEnabled(i > 0);
    m_next->setEnabled(i + 1 < m_lesson->steps.size());

    setAwaitingClick(false);
    m_verdict->clear();
    m_verdictPlain.clear();
    m_wrongTries = 0;
    m_answer->clear();
    m_question->setVisible(s.question.has_value());
    if (s.question) {
        m_prompt->setText("<b>Question:</b> " + q(questionPrompt(*s.question)).toHtmlEscaped());
        m_click->setVisible(s.question->kind == LessonQuestion::Kind::Where);
    }
    emit stepShown(int(i));
}

bool LessonDock::showsLessonScenario() const {
    const Document* d = m_w.document();
    if (!m_run || !d || !d->hasTrace()) return false;
    const Trace& a = d->trace();
    const Trace& b = m_run->trace;
    return a.stepCount == b.stepCount && a.instrs.size() == b.instrs.size() &&
           a.moves.size() == b.moves.size();
}

void LessonDock::onTraceStep(uint32_t t) {
    if (!m_lesson || m_seeking) return;
    // Playing stops at a step that pauses through Playback's breakpoint hook (the constructor).
    m_lastTrace = t;
    if (const size_t i = lessonStepAt(m_positions, t, m_index); i != m_index) showStep(i);
    if (!m_refreshQueued) { // after the window has rebuilt its scenes for step t
        m_refreshQueued = true;
        QMetaObject::invokeMethod(
            this,
            [this] {
                m_refreshQueued = false;
                applyHighlights();
            },
            Qt::QueuedConnection);
    }
}

void LessonDock::applyHighlights() {
    // Nothing is highlighted over another scenario (the user opened or edited one).
    const bool on = m_lesson && showsLessonScenario();
    m_w.smemView()->setHighlights(on ? smemHighlightCells(m_w.smemScene(), m_cells) : CellRanges{});
    m_w.globalView()->setHighlights(on ? globalHighlightCells(m_w.globalScene(), m_cells) : CellRanges{});
    m_w.tmemViews()->tmemView()->setHighlights(on ? tmemHighlightCells(m_w.tmemViews()->tmemScene(), m_cells)
                                                  : CellRanges{});
    m_w.tmemViews()->registerView()->setHighlights(
        on ? regHighlightCells(m_w.tmemViews()->regScene(), m_cells) : CellRanges{});
}

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

QString LessonDock::captionMarkdown() const {
    return m_caption->toMarkdown();
}
QString LessonDock::stepText() const {
    return m_stepLabel->text();
}
QString LessonDock::provenanceText() const {
    return m_provenance->text();
}
QString LessonDock::promptText() const {
    return m_lesson && m_lesson->steps[m_index].question ? m_prompt->text() : QString();
}
QString LessonDock::verdictText() const {
    return m_verdictPlain;
}

} // namespace layoutscope::views
