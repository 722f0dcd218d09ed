#include "scenario_checker.hpp"
#include "scene/prepared_views.hpp"

#include <QThread>
#include <new>

namespace layoutscope::views {

ScenarioChecker::ScenarioChecker(DoneFn done, QObject* parent) : QObject(parent), m_done(std::move(done)) {}

ScenarioChecker::~ScenarioChecker() {
    if (m_job) m_job->cancel = true;
    // Workers are children; each may still be parsing (not cancellable) or in one instruction.
    for (QThread* t : findChildren<QThread*>(Qt::FindDirectChildrenOnly)) t->wait();
}

void ScenarioChecker::request(std::string text, std::string path) {
    if (m_job) m_job->cancel = true;
    auto job = std::make_shared<Job>();
    job->gen = ++m_gen;
    m_job = job;
    m_pending = true;
    QThread* t = QThread::create(
        [this, job, text = std::move(text), path = std::move(path), two = m_twoThreads]() mutable {
            RT_check(job, std::move(text), std::move(path), two);
        });
    t->setParent(this);
    connect(t, &QThread::finished, t, &QObject::deleteLater);
    t->start(QThread::LowPriority);
}

void ScenarioChecker::cancel() {
    if (m_job) m_job->cancel = true;
    m_job.reset();
    ++m_gen; // a result already queued is stale now
    m_pending = false;
}

void ScenarioChecker::RT_check(const std::shared_ptr<Job>& job, std::string text, std::string path,
                               bool twoThreads) {
    RunOptions options;
    options.cancel = &job->cancel;
    std::unique_ptr<Document> doc;
    try {
        doc = Document::fromText(std::move(text), path, options); // never throws bad_alloc itself
        // The views' passes over every move, here on the worker instead of the event loop.
        if (!job->cancel && doc->hasTrace()) doc->setPrepared(prepareViews(*doc, twoThreads));
    } catch (const std::bad_alloc&) {
        doc = Document::failed({}, path, outOfMemory("checking the scenario"));
    }
    {
        std::lock_guard lock(m_mutex);
        if (job->cancel) return; // superseded: drop it here, on the worker
        m_readyGen = job->gen;
        m_ready = std::move(doc);
    }
    QMetaObject::invokeMethod(this, &ScenarioChecker::UI_deliver, Qt::QueuedConnection);
}

void ScenarioChecker::UI_deliver() {
    std::unique_ptr<Document> doc;
    {
        std::lock_guard lock(m_mutex);
        doc = std::move(m_ready);
    }
    if (!doc || m_readyGen != m_gen) return; // stale (a newer request or a cancel came after it)
    {}
    m_pending = false;
    m_job.reset();
    if (m_done) m_done(std::move(doc));
}

} // namespace layoutscope::views
