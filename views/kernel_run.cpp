#include "kernel_run.hpp"

#include "file_prompts.hpp"
#include "scene/kernel_progress.hpp"

#include <QEventLoop>
#include <QProgressDialog>
#include <QThread>
#include <QTimer>
#include <atomic>

namespace layoutscope::views {

std::unique_ptr<Document> buildKernelDocument(QWidget* parent, std::string text, std::string path,
                                              QString& cancelled) {
    cancelled.clear();
    std::atomic<bool> cancel{autoAnswer("kernel-run").compare("cancel", Qt::CaseInsensitive) == 0};
    std::atomic<uint64_t> issued{0};
    std::unique_ptr<Document> doc;
    RunOptions options;
    options.cancel = &cancel; // the kernel's warp loop and the recording's run both poll it
    QThread* worker = QThread::create([&] {
        KernelProgressScope scope(&issued);
        doc = Document::fromText(std::move(text), std::move(path), options); // never throws
    });
    QProgressDialog dlg("Running the kernel...", "Cancel", 0, 0, parent); // busy bar: no known total
    dlg.setObjectName("kernelRunProgress");
    dlg.setWindowTitle("Running the kernel");
    dlg.setWindowModality(Qt::WindowModal);
    dlg.setMinimumDuration(400);
    QEventLoop loop;
    QObject::connect(worker, &QThread::finished, &loop, [] {}); // wakes processEvents below
    QObject::connect(&dlg, &QProgressDialog::canceled, &dlg, [&] {
        cancel = true;
        dlg.setLabelText("Cancelling at the executor's next poll...");
    });
    QTimer tick;
    tick.setInterval(100);
    QObject::connect(&tick, &QTimer::timeout, &dlg, [&] {
        if (!cancel)
            dlg.setLabelText(QString("Running the kernel: %L1 warp instructions issued").arg(issued.load()));
    });
    worker->start();
    tick.start();
    // Until the dialog shows (400 ms), the window takes no input: a second File > Open must not start
    // while this one runs. The timer and the worker's `finished` wake the loop.
    while (!worker->isFinished())
        loop.processEvents((dlg.isVisible() ? QEventLoop::AllEvents : QEventLoop::ExcludeUserInputEvents) |
                           QEventLoop::WaitForMoreEvents);
    worker->wait();
    delete worker;
    tick.stop();
    dlg.reset();
    if (cancel && doc && !doc->hasTrace()) { // stopped by Cancel: say so, keep the previous document
        cancelled = doc->diagnostics().empty() ? QString("run cancelled")
                                               : QString::fromStdString(doc->diagnostics().front().message);
        return nullptr;
    }
    return doc;
}

} // namespace layoutscope::views
