#include "export_sequence.hpp"

#include <QDir>

namespace layoutscope::views {

std::optional<StepRange> parseStepRange(const QString& spec, uint32_t stepCount, QString* err) {
    const auto fail = [&](const QString& m) -> std::optional<StepRange> {
        if (err) *err = m;
        return std::nullopt;
    };
    const QString s = spec.trimmed();
    if (s.isEmpty()) return StepRange{0, stepCount};
    const qsizetype colon = s.indexOf(':');
    const QString a = colon < 0 ? s : s.left(colon), b = colon < 0 ? s : s.mid(colon + 1);
    if (colon >= 0 && b.contains(':')) return fail(QString("--steps %1: want A:B (one colon)").arg(spec));
    bool okA = true, okB = true;
    const uint32_t first = a.isEmpty() ? 0u : a.toUInt(&okA);
    const uint32_t last = b.isEmpty() ? stepCount : b.toUInt(&okB);
    if (!okA || !okB) return fail(QString("--steps %1: A and B must be non-negative integers").arg(spec));
    if (last > stepCount)
        return fail(QString("--steps %1: the trace has steps 0..%2").arg(spec).arg(stepCount));
    if (first > last) return fail(QString("--steps %1: A must not be after B").arg(spec));
    return StepRange{first, last};
}

QString sequenceFrameName(uint32_t i) {
    return QString("frame_%1.png").arg(i, 4, 10, QChar('0'));
}

ExportResult exportSequence(const Document& doc, const QString& dir, StepRange range, QSize size,
                            uint32_t cta, const std::function<bool(uint32_t, uint32_t)>& progress) {
    ExportResult res;
    if (!doc.hasTrace()) {
        res.message = "the scenario has no trace to export (see its diagnostics)";
        return res;
    }
    if (!QDir().mkpath(dir)) {
        res.message = "cannot create the folder " + dir;
        return res;
    }
    const QDir d(dir);
    const uint32_t total = range.count();
    bool gl = true;
    for (uint32_t i = 0; i < total; ++i) {
        const QString path = d.filePath(sequenceFrameName(i));
        ExportResult f = exportImage(doc, range.first + i, path, size, cta);
        if (!f.ok) {
            res.message = QString("frame %1 (step %2): %3").arg(i).arg(range.first + i).arg(f.message);
            return res;
        }
        gl = gl && f.usedGl;
        if (i == 0) res.image = f.image;
        if (progress && !progress(i + 1, total)) {
            res.message = QString("cancelled after %1 of %2 frames").arg(i + 1).arg(total);
            return res;
        }
    }
    res.ok = true;
    res.usedGl = gl;
    res.message = QString("wrote %1 frames (steps %2..%3) to %4/frame_%5..%6, %7")
                      .arg(total)
                      .arg(range.first)
                      .arg(range.last)
                      .arg(dir)
                      .arg(0, 4, 10, QChar('0'))
                      .arg(total - 1, 4, 10, QChar('0'))
                      .arg(gl ? "OpenGL" : "CPU");
    return res;
}

} // namespace layoutscope::views
