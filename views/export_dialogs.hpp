#pragma once
/// File > Export Animation...: ask for a format (animated PNG or a folder of frames), a file or folder
/// and a step range, then write the animation or sequence
/// (exportSequence) behind a cancellable progress dialog. MainWindow adds it to its File menu with
/// one call: exportAnimationDialog(this, *document(), currentCta).
#include "export_sequence.hpp"

class QWidget;

namespace layoutscope::views {

/// Returns the export's result (not ok with message "cancelled" when the user backed out).
ExportResult exportAnimationDialog(QWidget* parent, const Document& doc, uint32_t cta,
                                   QSize size = QSize(1600, 900));

} // namespace layoutscope::views
