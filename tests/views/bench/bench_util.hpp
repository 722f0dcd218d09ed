#pragma once
// views_bench's measuring and reporting: statistics, waiting on the event loop, and a table whose every
// row with a goal says PASS or FAIL, and whose rows that did not run say so (issue 25 item 12: a row
// that did not run must never print as a measurement). Report::exitCode() is non-zero when any row
// missed its goal or did not run.
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTimer>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace layoutscope::views::bench {

inline int64_t nowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

struct Stats {
    double median = 0, p95 = 0, max = 0, mean = 0;
    size_t n = 0;
};
inline Stats stats(std::vector<double> v) {
    Stats s;
    s.n = v.size();
    if (v.empty()) return s;
    for (double x : v) s.mean += x / double(v.size());
    std::sort(v.begin(), v.end());
    s.median = v[v.size() / 2];
    s.p95 = v[std::min(v.size() - 1, size_t(double(v.size()) * 0.95))];
    s.max = v.back();
    return s;
}

/// Runs the event loop until done() or `timeoutMs`, asleep between events as an application's loop is. (It
/// was a loop of processEvents(AllEvents, 5), which returns at once when nothing is pending: it spun a core
/// that a worker then lacked on this 2-core VM, and the 10,000-load file's background open measured ~0.4 s
/// slower than the same open done synchronously; issue 25 item 12.)
inline void waitUntil(const std::function<bool()>& done, int timeoutMs) {
    QElapsedTimer t;
    t.start();
    QTimer tick; // wakes the loop at least every 2 ms to look at done()
    tick.start(2);
    while (!done() && t.elapsed() < timeoutMs) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
}

/// Which statistic a goal bounds.
enum class Of { Median, P95, Max, Mean };

class Report {
  public:
    /// A row without a goal (a breakdown, a reference figure): printed, never a verdict, but it must have
    /// run.
    void info(const std::string& measure, bool ran, const std::string& centre,
              const std::string& spread = {}) {
        m_rows.push_back({measure, ran ? centre : "-", ran ? spread : "-", "", ran ? "" : "DID NOT RUN"});
        if (!ran) m_failed.push_back(measure + ": did not run");
    }
    /// A row with a goal: `s`'s statistic `of` must be <= `limitMs`. A row with no samples did not run.
    void goal(const std::string& measure, const Stats& s, Of of, double limitMs, const char* centreLabel = "",
              const char* spreadLabel = "p95") {
        const bool ran = s.n > 0;
        const double v = of == Of::Median ? s.median : of == Of::P95 ? s.p95 : of == Of::Max ? s.max : s.mean;
        const char* name = of == Of::Median ? "median"
                           : of == Of::P95  ? "p95"
                           : of == Of::Max  ? "max"
                                            : "mean";
        char g[64], c[64], sp[64];
        std::snprintf(g, sizeof g, "%s <= %.1f ms", name, limitMs);
        std::snprintf(c, sizeof c, "%s%.2f ms", centreLabel, s.median);
        std::snprintf(sp, sizeof sp, "%s %.2f ms", spreadLabel,
                      std::string(spreadLabel) == "max" ? s.max : s.p95);
        const bool ok = ran && v <= limitMs;
        if (of == Of::Mean) std::snprintf(c, sizeof c, "mean %.2f (median %.2f) ms", s.mean, s.median);
        m_rows.push_back({measure, ran ? c : "-", ran ? sp : "-", g,
                          !ran ? "DID NOT RUN"
                          : ok ? "PASS"
                               : "FAIL"});
        if (!ran)
            m_failed.push_back(measure + ": did not run");
        else if (!ok) {
            char why[96];
            std::snprintf(why, sizeof why, ": %s %.2f ms over the goal %.1f ms", name, v, limitMs);
            m_failed.push_back(measure + why);
        }
    }
    void print() const {
        std::printf("| measure | median | p95 / max | goal | verdict |\n|---|---|---|---|---|\n");
        for (const Row& r : m_rows)
            std::printf("| %s | %s | %s | %s | %s |\n", r.measure.c_str(), r.centre.c_str(), r.spread.c_str(),
                        r.goal.c_str(), r.verdict.c_str());
        for (const std::string& f : m_failed) std::printf("FAIL: %s\n", f.c_str());
        std::printf("views_bench: %s\n", m_failed.empty() ? "every row ran and met its goal"
                                                          : "a row did not run or missed its goal (exit 1)");
    }
    [[nodiscard]] int exitCode() const { return m_failed.empty() ? 0 : 1; }

  private:
    struct Row {
        std::string measure, centre, spread, goal, verdict;
    };
    std::vector<Row> m_rows;
    std::vector<std::string> m_failed;
};

} // namespace layoutscope::views::bench
