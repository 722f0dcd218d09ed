#pragma once
/// The lesson panel (issue 16 items 1-2): a lesson's title, the current step's Markdown caption and
/// provenance, Back / Next ("step k of n") and the step's question. Opening a lesson opens its scenario in
/// the main window; Back / Next seek the timeline to the step's position, the caption follows the timeline
/// when the user scrubs (scene/lesson_scene.hpp: lessonStepAt), playing stops at a step that pauses (a
/// Playback break finder, source "lesson": the hook the Breakpoints dock uses), and the step's highlighted
/// cells are outlined in the SMEM, global, TMEM and Registers views (a click in any of them answers).
/// The panel runs the lesson's scenario itself, so every answer comes from the lesson's own trace.
#include "layoutscope/lesson/lesson.hpp"

#include <QDockWidget>
#include <optional>
#include <vector>

class QLabel;
class QLineEdit;
class QPushButton;
class QTextBrowser;
class QWidget;

namespace layoutscope::views {

class MainWindow;

class LessonDock : public QDockWidget {
    Q_OBJECT
  public:
    explicit LessonDock(MainWindow& w);
    ~LessonDock() override;

    /// Load a lesson file and its scenario, open the scenario in the window and show step 1. A lesson that
    /// does not load shows its diagnostics in the panel; false then.
    bool openLesson(const QString& path);
    [[nodiscard]] const Lesson* lesson() const { return m_lesson ? &*m_lesson : nullptr; }
    [[nodiscard]] size_t stepIndex() const { return m_index; }
    [[nodiscard]] size_t stepCount() const { return m_lesson ? m_lesson->steps.size() : 0; }
    /// Trace position of each step (empty without a lesson).
    [[nodiscard]] const std::vector<uint32_t>& positions() const { return m_positions; }
    /// Show step i and seek the timeline to its position.
    void goToStep(size_t i);
    void next();
    void back();

    /// Check a typed answer / a clicked cell against the engine; the verdict is shown. nullopt when the
    /// step has no question or the answer cannot be read (the reason is shown).
    std::optional<bool> checkTyped(const QString& answer);
    std::optional<bool> checkPlace(const LessonPlace& clicked);
    /// Reveal the engine's answer and its explanation.
    void showAnswer();
    /// "Click a cell": the next click in the SMEM, global or TMEM view answers the question.
    void setAwaitingClick(bool on);
    [[nodiscard]] bool awaitingClick() const { return m_awaitingClick; }

    /// What the panel shows (tests, accessibility).
    [[nodiscard]] QString captionMarkdown() const;
    [[nodiscard]] QString stepText() const;
    [[nodiscard]] QString provenanceText() const;
    [[nodiscard]] QString promptText() const;
    [[nodiscard]] QString verdictText() const;
    [[nodiscard]] QString errorText() const { return m_error; }
    /// The current step's highlighted cells, resolved at its position.
    [[nodiscard]] const std::vector<LessonCells>& highlightCells() const { return m_cells; }

  signals:
    void stepShown(int index);
    void answered(bool correct);

  private:
    void buildUi();
    void showStep(size_t i); ///< the panel only (no seek)
    void onTraceStep(uint32_t t);
    void applyHighlights(); ///< map m_cells to the views' cells
    bool showsLessonScenario() const;
    void showVerdict(const Result<LessonVerdict>& v);
    void onCellClicked(int view, int x, int y);

    MainWindow& m_w;
    std::optional<Lesson> m_lesson;
    std::optional<Run> m_run;
    std::vector<uint32_t> m_positions;
    size_t m_index = 0;
    uint32_t m_lastTrace = 0;
    bool m_seeking = false, m_awaitingClick = false, m_refreshQueued = false;
    std::vector<LessonCells> m_cells;
    QString m_error;

    QLabel* m_title = nullptr;
    QTextBrowser* m_caption = nullptr;
    QLabel* m_provenance = nullptr;
    QLabel* m_legend = nullptr;
    QLabel* m_stepLabel = nullptr;
    QPushButton* m_back = nullptr;
    QPushButton* m_next = nullptr;
    QWidget* m_question = nullptr;
    QLabel* m_prompt = nullptr;
    QLineEdit* m_answer = nullptr;
    QPushButton* m_check = nullptr;
    QPushButton* m_click = nullptr;
    QPushButton* m_reveal = nullptr;
    QTextBrowser* m_verdict = nullptr;
    QString m_verdictPlain;
    int m_wrongTries = 0; ///< wrong answers to this step's question (the first gets a hint)
    [[nodiscard]] QString answerHint() const; ///< how to work the question out, without its answer
};

} // namespace layoutscope::views
