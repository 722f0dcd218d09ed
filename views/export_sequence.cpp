#include "export_sequence.hpp"

#include "apng.hpp"

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

ExportResult exportAnimatedPng(const Document& doc, const QString& path, StepRange range, QSize size,
                               uint32_t cta, uint32_t fps,
                               const std::function<bool(uint32_t, uint32_t)>& progress) {
    ExportResult res;
    if (!doc.hasTrace()) {
        res.message = "the scenario has no trace to export (see its diagnostics)";
        return res;
    }
    if (fps == 0 || fps > 1000) {
        res.message = QString("--fps %1: want 1..1000 frames per second").arg(fps);
        return res;
    }
    ApngWriter w;
    QString err;
    const uint32_t total = range.count();
    if (!w.open(path, size, total, 1, uint16_t(fps), &err)) {
        res.message = err;
        return res;
    }
    bool gl = true;
    for (uint32_t i = 0; i < total; ++i) {
        ExportResult f = renderDocument(doc, range.first + i, size, cta);
        if (!f.ok || !w.addFrame(f.image, &err)) {
            w.abort();
            res.message =
                QString("frame %1 (step %2): %3").arg(i).arg(range.first + i).arg(f.ok ? err : f.message);
            return res;
        }
        gl = gl && f.usedGl;
        if (i == 0) res.image = f.image;
        if (progress && !progress(i + 1, total)) {
            w.abort();
            res.message = QString("cancelled after %1 of %2 frames").arg(i + 1).arg(total);
            return res;
        }
    }
    if (!w.finish(&err)) {
        res.message = err;
        return res;
    }
    res.ok = true;
    res.usedGl = gl;
    res.message = QString("wrote an animated PNG of %1 frames (steps %2..%3, %4 fps, %5x%6) to %7, %8")
                      .arg(total)
                      .arg(range.first)
                      .arg(range.last)
                      .arg(fps)
                      .arg(size.width())
                      .arg(size.height())
                      .arg(path)
                      .arg(gl ? "OpenGL" : "CPU");
    return res;
}

} // namespace layoutscope::views
