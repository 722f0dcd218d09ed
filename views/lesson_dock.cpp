// The lesson panel (lesson_dock.hpp). Pure parts: scene/lesson_scene.hpp; the engine side:
// layoutscope/lesson/lesson.hpp (docs/lessons.md).
// Answering a step's question is lesson_dock_answer.cpp.
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
