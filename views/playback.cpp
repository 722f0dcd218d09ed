#include "playback.hpp"

#include <algorithm>
#include <cmath>

namespace layoutscope::views {

Playback::Playback(QObject* parent) : QObject(parent) {
    m_timer.setInterval(16); // display rate; steps advance by elapsed time x speed
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &Playback::tick);
}

void Playback::setStepCount(uint32_t count) {
    m_count = count;
    m_breakValid = false; // a new trace: look the next stop up again
    if (m_step > m_count) seek(m_count);
}

void Playback::seek(uint32_t step) {
    step = std::min(step, m_count);
    if (step == m_step) return;
    m_step = step;
    emit stepChanged(m_step);
}

void Playback::play() {
    if (playing() || m_count == 0) return;
    if (m_step >= m_count) seek(0); // replay from the start
    m_carry = 0.0;
    m_clock.start();
    m_timer.start();
    emit playingChanged(true);
}

void Playback::pause() {
    if (!playing()) return;
    m_timer.stop();
    emit playingChanged(false);
}

void Playback::setSpeed(double stepsPerSecond) {
    m_speed = std::max(0.01, stepsPerSecond);
}

void Playback::setBreakFinder(const QString& source, BreakFinder f) {
    if (f)
        m_breaks[source] = std::move(f);
    else
        m_breaks.erase(source);
    m_breakValid = false;
}

void Playback::instrBack() {
    pause();
    if (m_instrStepper) seek(m_instrStepper(m_step, false));
}

void Playback::instrForward() {
    pause();
    if (m_instrStepper) seek(m_instrStepper(m_step, true));
}

void Playback::tick() {
    m_carry += m_speed * double(m_clock.restart()) / 1000.0;
    const double whole = std::floor(m_carry);
    if (whole < 1.0) return;
    m_carry -= whole;
    const uint64_t next = std::min<uint64_t>(uint64_t(m_step) + uint64_t(whole), m_count);
    if (!m_breaks.empty()) { // the next stop after the current position, cached while playing towards it
        if (!m_breakValid || m_step < m_breakFrom || (m_breakAt && m_step >= m_breakAt->first)) {
            m_breakAt.reset();
            for (const auto& [source, find] : m_breaks) // the earliest stop of any source
                if (auto at = find(m_step); at && (!m_breakAt || at->first < m_breakAt->first)) {
                    m_breakAt = std::move(at);
                    m_breakSource = source;
                }
            m_breakFrom = m_step;
            m_breakValid = true;
        }
        if (m_breakAt && m_breakAt->first <= next) {
            const auto hit = *m_breakAt;
            const QString source = m_breakSource;
            seek(hit.first);
            pause();
            emit breakHit(hit.first, hit.second, source);
            return;
        }
    }
    seek(static_cast<uint32_t>(next));
    if (m_step >= m_count) pause();
}

} // namespace layoutscope::views
