#include "apng.hpp"

#include <QBuffer>
#include <algorithm>
#include <array>

namespace layoutscope::views {

uint32_t pngCrc(const QByteArray& bytes) {
    static const std::array<uint32_t, 256> table = [] {
        std::array<uint32_t, 256> t{};
        for (uint32_t n = 0; n < 256; ++n) {
            uint32_t c = n;
            for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[n] = c;
        }
        return t;
    }();
    uint32_t c = 0xFFFFFFFFu;
    for (const char b : bytes) c = table[(c ^ uint8_t(b)) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

static void put32(QByteArray& a, uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) a.append(char((v >> s) & 0xFF));
}
static void put16(QByteArray& a, uint16_t v) {
    a.append(char(v >> 8)), a.append(char(v & 0xFF));
}
static uint32_t get32(const QByteArray& a, qsizetype at) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v = v << 8 | uint8_t(a[at + i]);
    return v;
}

/// The smallest rectangle holding every pixel that differs (at least 1x1 at the origin).
static QRect changedRect(const QImage& a, const QImage& b) {
    int x0 = b.width(), y0 = b.height(), x1 = -1, y1 = -1;
    for (int y = 0; y < b.height(); ++y) {
        const auto* pa = reinterpret_cast<const QRgb*>(a.constScanLine(y));
        const auto* pb = reinterpret_cast<const QRgb*>(b.constScanLine(y));
        for (int x = 0; x < b.width(); ++x)
            if (pa[x] != pb[x])
                x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
    }
    return x1 < 0 ? QRect(0, 0, 1, 1) : QRect(QPoint(x0, y0), QPoint(x1, y1));
}

bool ApngWriter::chunk(const char type[4], const QByteArray& data) {
    QByteArray out;
    put32(out, uint32_t(data.size()));
    QByteArray td(type, 4);
    td += data;
    out += td;
    put32(out, pngCrc(td));
    return m_file.write(out) == out.size();
}

bool ApngWriter::open(const QString& path, QSize size, uint32_t frames, uint16_t delayNum, uint16_t delayDen,
                      QString* err) {
    if (frames == 0 || size.isEmpty()) {
        if (err) *err = "an animation needs at least one frame of a non-empty size";
        return false;
    }
    m_file.setFileName(path);
    if (!m_file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        if (err) *err = "cannot write " + path + ": " + m_file.errorString();
        return false;
    }
    m_size = size;
    m_frames = frames;
    m_written = m_seq = 0;
    m_num = delayNum;
    m_den = delayDen ? delayDen : 100; // APNG: a zero denominator means 1/100 s
    return true;
}

bool ApngWriter::addFrame(const QImage& frame, QString* err) {
    const auto fail = [&](const QString& m) {
        if (err) *err = m;
        return false;
    };
    if (!m_file.isOpen()) return fail("the animation is not open");
    if (m_written >= m_frames) return fail(QString("more frames than the %1 announced").arg(m_frames));
    if (frame.size() != m_size)
        return fail(QString("frame %1 is %2x%3, the animation %4x%5")
                        .arg(m_written)
                        .arg(frame.width())
                        .arg(frame.height())
                        .arg(m_size.width())
                        .arg(m_size.height()));
    // Frame 0 is the whole canvas; a later frame only the rectangle that changed since the previous one
    // (dispose NONE keeps the canvas, blend SOURCE replaces the rectangle), which keeps an animation of
    // a few arriving bytes per step small.
    const QImage img = frame.convertToFormat(QImage::Format_RGB32);
    QRect r(QPoint(0, 0), m_size);
    if (m_written > 0) r = changedRect(m_prev, img);
    QByteArray png;
    QBuffer buf(&png);
    buf.open(QIODevice::WriteOnly);
    if (!img.copy(r).save(&buf, "PNG"))
        return fail("the PNG encoder failed on frame " + QString::number(m_written));
    // Walk the encoded PNG's chunks: keep IHDR and the concatenated IDAT data.
    QByteArray ihdr, idat;
    for (qsizetype at = 8; at + 12 <= png.size();) {
        const uint32_t len = get32(png, at);
        const QByteArray type = png.mid(at + 4, 4);
        if (at + 12 + qsizetype(len) > png.size()) return fail("the PNG encoder wrote a truncated chunk");
        if (type == "IHDR") ihdr = png.mid(at + 8, len);
        if (type == "IDAT") idat += png.mid(at + 8, len);
        at += 12 + qsizetype(len);
    }
    if (ihdr.size() != 13 || idat.isEmpty()) return fail("the PNG encoder wrote no IHDR or IDAT");
    if (m_written == 0) {
        m_ihdrTail = ihdr.mid(8); // bit depth, colour type, compression, filter, interlace
        static const char sig[] = "\x89PNG\r\n\x1a\n";
        if (m_file.write(sig, 8) != 8 || !chunk("IHDR", ihdr))
            return fail("cannot write " + m_file.fileName());
        QByteArray actl; // acTL: num_frames, num_plays (0 = forever)
        put32(actl, m_frames), put32(actl, 0);
        if (!chunk("acTL", actl)) return fail("cannot write " + m_file.fileName());
    } else if (ihdr.mid(8) != m_ihdrTail) {
        return fail("the PNG encoder changed the pixel format at frame " + QString::number(m_written));
    }
    QByteArray fctl; // fcTL: sequence, width, height, x, y, delay num/den, dispose, blend
    put32(fctl, m_seq++), put32(fctl, uint32_t(r.width())), put32(fctl, uint32_t(r.height()));
    put32(fctl, uint32_t(r.x())), put32(fctl, uint32_t(r.y())), put16(fctl, m_num), put16(fctl, m_den);
    fctl.append(char(0)); // APNG_DISPOSE_OP_NONE: the canvas stays as this frame left it
    fctl.append(char(0)); // APNG_BLEND_OP_SOURCE: the rectangle replaces the canvas there
    bool ok = chunk("fcTL", fctl);
    if (m_written == 0) {
        ok = ok && chunk("IDAT", idat);
    } else {
        QByteArray fdat;
        put32(fdat, m_seq++);
        fdat += idat;
        ok = ok && chunk("fdAT", fdat);
    }
    m_prev = img;
    if (!ok) return fail("cannot write " + m_file.fileName() + ": " + m_file.errorString());
    ++m_written;
    return true;
}

bool ApngWriter::finish(QString* err) {
    if (!m_file.isOpen()) return false;
    if (m_written != m_frames) {
        if (err) *err = QString("%1 of %2 frames written").arg(m_written).arg(m_frames);
        abort();
        return false;
    }
    const bool ok = chunk("IEND", {});
    m_file.close();
    if (!ok && err) *err = "cannot write " + m_file.fileName();
    return ok;
}

void ApngWriter::abort() {
    if (m_file.isOpen()) m_file.close();
    m_file.remove();
}

} // namespace layoutscope::views
