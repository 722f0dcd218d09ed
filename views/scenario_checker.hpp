#pragma once
/// ScenarioChecker: the editor's re-check (parse + validate + run, Document::fromText) off the UI
/// thread (STYLE.md §3.7). request() starts a worker for the text and cancels the one before it
/// (RunOptions::cancel stops its run at the next instruction); cancel() drops the current one. Only
/// the newest request's document arrives, through the callback, on the UI thread: a generation
/// counter discards every stale result.
#include "scene/document.hpp"

#include <QObject>
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>

namespace layoutscope::views {

class ScenarioChecker : public QObject {
    Q_OBJECT
  public:
    using DoneFn = std::function<void(std::unique_ptr<Document>)>;
    explicit ScenarioChecker(DoneFn done, QObject* parent = nullptr);
    /// Cancels the running checks and waits for their threads (a cancelled run stops quickly).
    ~ScenarioChecker() override;

    /// UI thread: check `text` on a worker; the result replaces any earlier request's.
    void request(std::string text, std::string path);
    /// UI thread: discard the pending request's result (the text changed again).
    void cancel();
    /// Whether a request's result is still to come.
    [[nodiscard]] bool pending() const { return m_pending; }
    /// Prepare the views on two threads (prepareViews): for a file's open, not for the editor's re-check.
    void setTwoThreads(bool on) { m_twoThreads = on; }
    /// Requests made so far (the generation of the newest).
    [[nodiscard]] uint64_t generation() const { return m_gen; }

  private:
    struct Job {
        uint64_t gen = 0;
        std::atomic<bool> cancel{false};
    };
    void RT_check(const std::shared_ptr<Job>& job, std::string text, std::string path, bool twoThreads);
    void UI_deliver();

    DoneFn m_done;
    uint64_t m_gen = 0;
    bool m_twoThreads = false;
    bool m_pending = false;
    std::shared_ptr<Job> m_job; ///< the newest request
    std::mutex m_mutex;         ///< guards m_ready
    uint64_t m_readyGen = 0;
    std::unique_ptr<Document> m_ready; ///< a worker's result, waiting for UI_deliver
};

} // namespace layoutscope::views
