#pragma once
/// File > Open of a kernel (a .ptx with its launch, issue 25 item 3): the kernel runs on a worker thread
/// while a progress dialog shows the warp instructions issued so far, with Cancel; the UI stays live.
#include "scene/document.hpp"

#include <QString>
#include <memory>
#include <string>

class QWidget;

namespace layoutscope::views {

/// Document::fromText(text, path) built off the UI thread. Cancel (or LAYOUTSCOPE_AUTO_ANSWER
/// `kernel-run=cancel`, which cancels as soon as the run starts: the executor stops at its next poll,
/// exec::ExecOptions::kProgressEvery warp instructions) returns nullptr with `cancelled` set to the run's
/// "run cancelled" message: the caller keeps its previous document.
[[nodiscard]] std::unique_ptr<Document> buildKernelDocument(QWidget* parent, std::string text,
                                                            std::string path, QString& cancelled);

} // namespace layoutscope::views
