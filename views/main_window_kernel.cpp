// MainWindow and real kernels (issue 22 item 4): File > Open of a .ptx asks for a launch and opens the
// `kernel` scenario it composes; the Source dock follows the step; a clicked byte names the PTX and CUDA
// line that moved it.
#include "main_window.hpp"

#include "code_editor.hpp"
#include "editor_dock.hpp"
#include "kernel_run.hpp"
#include "launch_dialog.hpp"
#include "scene/source_origin.hpp"
#include "source_pane.hpp"

#include "layoutscope/ptx/module.hpp"

#include <QApplication>
#include <QDockWidget>
#include <QFileInfo>
#include <QMenu>
#include <QStatusBar>
#include <QTextDocument>
#include <QTimer>
#include <cstdlib>
#include <cxxabi.h>

namespace layoutscope::views {

QStringList kernelLabels(const PtxModule& module) {
    QStringList labels; // demangled C++ names where nvcc mangled them
    for (const PtxFunction* f : module.entries()) {
        int status = 0;
        char* d = abi::__cxa_demangle(f->name.c_str(), nullptr, nullptr, &status);
        labels << (status == 0 && d ? QString::fromUtf8(d) : QString::fromStdString(f->name));
        std::free(d);
    }
    return labels;
}

bool MainWindow::openPtx(const QString& path) {
    bool handled = true;
    const std::optional<PtxModule> module = readCheckedPtx(path, handled);
    if (!module) return handled;
    const QString abs = QFileInfo(path).absoluteFilePath();
    const PtxOpenChoice c = askKernelLaunch(this, abs, *module, kernelLabels(*module));
    if (c.kind == PtxOpenChoice::Cancel) return true;
    if (c.kind == PtxOpenChoice::Scaffold) return openPtxScaffold(path);
    if (!m_editor->maybeSave()) return true;
    finishOpening();
    // The kernel runs on a worker thread with a progress dialog and Cancel (kernel_run.hpp).
    QString cancelled;
    auto doc =
        c.error.isEmpty()
            ? buildKernelDocument(this, c.scenarioText.toStdString(), {}, cancelled)
            : Document::failed(c.scenarioText.toStdString(), {},
                               Diagnostic{Severity::Error,
                                          DiagCode::Syntax,
                                          {},
                                          "the remembered launch does not compose: " + c.error.toStdString(),
                                          "docs/exec.md (Launch)",
                                          Provenance::Assumption});
    if (!doc) { // cancelled: the previous document stays
        showNote(QString("Launch of %1 cancelled (%2); the previous document is kept.")
                     .arg(QFileInfo(path).fileName(), cancelled));
        return true;
    }
    m_editor->showDocument(*doc, false);
    setDocument(std::move(doc));
    m_editor->editor()->document()->setModified(true);
    updateTitle();
    showNote(
        QString("Launch of %1: the Source dock follows the step; Save As keeps the launch as a scenario.")
            .arg(QFileInfo(path).fileName()));
    return true;
}

void MainWindow::buildSourcePane(QMenu* view) {
    m_sourcePane = new SourcePane(this);
    m_sourceDock = new QDockWidget("Source", this);
    m_sourceDock->setObjectName("sourceDock");
    m_sourceDock->setWidget(m_sourcePane);
    addDockWidget(Qt::RightDockWidgetArea, m_sourceDock);
    tabifyDockWidget(m_srcDock, m_sourceDock); // a tab beside the scenario: shown for recorded kernels
    m_srcDock->raise();
    m_sourceDock->hide();
    view->addAction(m_sourceDock->toggleViewAction());
    connect(m_playback, &Playback::stepChanged, m_sourcePane, &SourcePane::showStep);
}

void MainWindow::showKernelSource(bool newDocument) {
    m_sourcePane->setDocument(m_doc.get());
    const bool kernel = m_doc && !m_doc->kernelPtxPath().empty();
    if (newDocument) {
        m_sourceDock->setVisible(kernel);
        // After the other docks' own choices for the new document (TmemViews raises Registers).
        if (kernel) QTimer::singleShot(0, m_sourceDock, [d = m_sourceDock] { d->raise(); });
    }
    m_sourcePane->showStep(m_playback->step());
}

void MainWindow::noteOrigin(uint32_t instr) {
    if (!m_doc || !m_doc->hasTrace() || instr >= m_doc->trace().instrs.size()) return;
    const TraceInstr& in = m_doc->trace().instrs[instr];
    if (!in.origin.known()) return;
    m_sourcePane->showInstr(int32_t(instr));
    QString text = QString::fromStdString(in.text);
    if (text.size() > 80) text = text.left(77) + "...";
    // After the selection's own summary ("selected data: ..."), which stays in front.
    const QString before = statusBar()->currentMessage();
    showNote((before.isEmpty() ? QString() : before + " - ") +
             QString("moved by `%1`: %2").arg(text, QString::fromStdString(originText(in.origin))));
}

} // namespace layoutscope::views
