#include "export_dialogs.hpp"

#include <QApplication>
#include <QFileDialog>
#include <QInputDialog>
#include <QMessageBox>
#include <QProgressDialog>

namespace layoutscope::views {

ExportResult exportAnimationDialog(QWidget* parent, const Document& doc, uint32_t cta, QSize size) {
    ExportResult none;
    none.message = "cancelled";
    if (!doc.hasTrace()) {
        QMessageBox::information(parent, "Export animation",
                                 "The scenario has errors: there is no animation to export.");
        none.message = "no trace";
        return none;
    }
    // One animated file (APNG, for slides) or a folder of frames.
    const QString kApng = "Animated PNG (one .png file that plays in browsers and slides)";
    const QString kSeq = "Image sequence (a folder of frame_0000.png...)";
    bool chose = false;
    const QString kind =
        QInputDialog::getItem(parent, "Export animation", "Format:", {kApng, kSeq}, 0, false, &chose);
    if (!chose) return none;
    const bool apng = kind == kApng;
    const QString dir =
        apng ? QFileDialog::getSaveFileName(parent, "Export animated PNG", "layoutscope.png",
                                            "Animated PNG (*.png *.apng)")
             : QFileDialog::getExistingDirectory(parent, "Export animation: folder for frame_0000.png...");
    if (dir.isEmpty()) return none;
    const uint32_t n = doc.trace().stepCount;
    std::optional<StepRange> range;
    QString spec = QString("0:%1").arg(n);
    while (!range) {
        bool ok = false;
        spec = QInputDialog::getText(
            parent, "Export animation",
            QString("Steps A:B (the trace has steps 0..%1; step 0 = before the first move):").arg(n),
            QLineEdit::Normal, spec, &ok);
        if (!ok) return none;
        QString err;
        range = parseStepRange(spec, n, &err);
        if (!range) QMessageBox::warning(parent, "Export animation", err);
    }
    QProgressDialog progress(QString("Writing %1 frames to %2").arg(range->count()).arg(dir), "Cancel", 0,
                             int(range->count()), parent);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(300);
    const auto tick = [&](uint32_t done, uint32_t) {
        progress.setValue(int(done));
        QApplication::processEvents();
        return !progress.wasCanceled();
    };
    const ExportResult r = apng ? exportAnimatedPng(doc, dir, *range, size, cta, 25, tick)
                                : exportSequence(doc, dir, *range, size, cta, tick);
    if (!r.ok && !progress.wasCanceled()) QMessageBox::warning(parent, "Export animation failed", r.message);
    return r;
}

} // namespace layoutscope::views
