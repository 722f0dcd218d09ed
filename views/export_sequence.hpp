#pragma once
/// Export of the whole animation as an image sequence or one animated PNG (exportAnimatedPng):
/// DIR/frame_0000.png, frame_0001.png, ... one frame per timeline step of a range (steps 0..stepCount; step 0
/// = before the first move, stepCount = the finished copy), each rendered as renderDocument does for a single
/// export.
#include "export.hpp"

#include <QSize>
#include <QString>
#include <functional>
#include <optional>

namespace layoutscope::views {

/// Inclusive range of timeline steps.
struct StepRange {
    uint32_t first = 0, last = 0;
    [[nodiscard]] uint32_t count() const { return last - first + 1; }
};

/// Parse "A:B", "A:" (to the end), ":B" (from 0) or "A" (one step) against a trace of `stepCount`
/// steps (valid steps 0..stepCount). Empty spec: every step. On error returns nullopt and sets `err`.
[[nodiscard]] std::optional<StepRange> parseStepRange(const QString& spec, uint32_t stepCount, QString* err);

/// The file name of frame `i` of a sequence: frame_0000.png (at least 4 digits).
[[nodiscard]] QString sequenceFrameName(uint32_t i);

/// Render every step of `range` into `dir` (created when missing). `progress(done, total)` is
/// called after each frame; returning false from it stops the export (result: not ok, "cancelled").
[[nodiscard]] ExportResult exportSequence(const Document& doc, const QString& dir, StepRange range,
                                          QSize size = QSize(1600, 900), uint32_t cta = 0,
                                          const std::function<bool(uint32_t, uint32_t)>& progress = {});

/// The same frames as exportSequence, as one animated PNG file (apng.hpp) that plays at `fps` frames
/// per second and loops. `progress` as for exportSequence; a cancelled export leaves no file.
[[nodiscard]] ExportResult exportAnimatedPng(const Document& doc, const QString& path, StepRange range,
                                             QSize size = QSize(1600, 900), uint32_t cta = 0,
                                             uint32_t fps = 25,
                                             const std::function<bool(uint32_t, uint32_t)>& progress = {});

} // namespace layoutscope::views
