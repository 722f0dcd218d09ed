#pragma once
/// Animated PNG writer (APNG, https://wiki.mozilla.org/APNG_Specification): one file a user can drop
/// into slides; browsers and most viewers play it, and others show its first frame.
///
/// Each frame is encoded by Qt's PNG encoder (one QImage::save per frame); its IDAT data is copied
/// into the animation: frame 0 keeps IDAT (it is also the default image), later frames become fdAT
/// holding only the rectangle that changed since the previous frame (dispose NONE, blend SOURCE).
/// Chunk order: signature, IHDR, acTL, fcTL 0, IDAT..., {fcTL, fdAT}..., IEND; fcTL and fdAT share
/// one sequence number counter from 0. Frames are streamed to the file, so memory stays one frame.
#include <QFile>
#include <QImage>
#include <QString>
#include <cstdint>

namespace layoutscope::views {

class ApngWriter {
  public:
    /// Start `path` for `frames` frames (>= 1) of `size`, each shown delayNum/delayDen seconds,
    /// looping forever (num_plays 0).
    bool open(const QString& path, QSize size, uint32_t frames, uint16_t delayNum, uint16_t delayDen,
              QString* err);
    /// Append a frame (converted to opaque 8-bit RGB; must be `size`).
    bool addFrame(const QImage& frame, QString* err);
    /// Write IEND. Fails (and removes the file) unless every announced frame was added.
    bool finish(QString* err);
    /// Drop a partial file (cancelled export).
    void abort();
    [[nodiscard]] uint32_t framesWritten() const { return m_written; }

  private:
    bool chunk(const char type[4], const QByteArray& data);
    QFile m_file;
    QSize m_size;
    uint32_t m_frames = 0, m_written = 0, m_seq = 0;
    uint16_t m_num = 1, m_den = 25;
    QImage m_prev;         ///< the previous frame (the canvas so far)
    QByteArray m_ihdrTail; ///< frame 0's bit depth .. interlace: every frame must match
};

/// CRC-32 of PNG chunks (ISO 3309, polynomial 0xEDB88320) over `type` then `data`.
[[nodiscard]] uint32_t pngCrc(const QByteArray& typeAndData);

} // namespace layoutscope::views
