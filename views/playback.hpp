#pragma once
/// Playback: owns the current step of the timeline and plays it at a speed (steps per second).
/// Views pull: they listen to stepChanged and rebuild their scene (STYLE.md §3.5).
#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>

namespace layoutscope::views {

class Playback : public QObject {
    Q_OBJECT
  public:
    explicit Playback(QObject* parent = nullptr);

    [[nodiscard]] uint32_t step() const { return m_step; }
    [[nodiscard]] uint32_t stepCount() const { return m_count; }
    [[nodiscard]] bool playing() const { return m_timer.isActive(); }
    [[nodiscard]] double speed() const { return m_speed; }

  public slots:
    /// Number of steps of the trace: the timeline runs over [0, count] (count = everything applied).
    void setStepCount(uint32_t count);
    void seek(uint32_t step);
    void stepForward() {
        pause();
        seek(m_step + 1);
    }
    void stepBack() {
        pause();
        seek(m_step > 0 ? m_step - 1 : 0);
    }
    void toStart() {
        pause();
        seek(0);
    }
    void toEnd() {
        pause();
        seek(m_count);
    }
    /// Instruction stepping (Shift+Left / Shift+Right): to the previous / next instruction boundary.
    void instrBack();
    void instrForward();
    void play();
    void pause();
    void togglePlay() { playing() ? pause() : play(); }
    /// Steps per second (> 0).
    void setSpeed(double stepsPerSecond);

  public:
    /// Where playing stops: the first position > `after` with a breakpoint, and why (nullopt: none).
    using BreakFinder = std::function<std::optional<std::pair<uint32_t, QString>>(uint32_t after)>;
    /// The one hook every stop goes through: each source (the Breakpoints dock, "breakpoints"; a
    /// lesson's pauses, "lesson") sets its finder under its name (an empty one removes it), and
    /// playing stops at the earliest position any of them reports (on a tie, the source named first
    /// in alphabetical order), emitting breakHit with that source.
    void setBreakFinder(const QString& source, BreakFinder f);
    /// The Breakpoints dock's finder (source "breakpoints").
    void setBreakFinder(BreakFinder f) { setBreakFinder(QStringLiteral("breakpoints"), std::move(f)); }
    /// Call when the breakpoints or the trace changed (the next stop is looked up again).
    void invalidateBreaks() { m_breakValid = false; }
    /// Instruction boundaries: (position, forward) -> the next (forward) or previous boundary.
    void setInstrStepper(std::function<uint32_t(uint32_t, bool)> f) { m_instrStepper = std::move(f); }

  signals:
    /// Playing stopped at a breakpoint at `step`; `why` names it (shown in the status bar); `source`:
    /// whose finder reported it (setBreakFinder).
    void breakHit(uint32_t step, const QString& why, const QString& source);
    void stepChanged(uint32_t step);
    void playingChanged(bool playing);

  private:
    void tick();
    QTimer m_timer;
    QElapsedTimer m_clock;
    uint32_t m_step = 0, m_count = 0;
    double m_speed = 64.0, m_carry = 0.0;
    std::map<QString, BreakFinder> m_breaks; ///< by source
    std::function<uint32_t(uint32_t, bool)> m_instrStepper;
    bool m_breakValid = false; ///< m_breakAt is the first stop after any position in
    uint32_t m_breakFrom = 0;  ///< [m_breakFrom, m_breakAt->first)
    std::optional<std::pair<uint32_t, QString>> m_breakAt;
    QString m_breakSource; ///< whose finder reported m_breakAt
};

} // namespace layoutscope::views
