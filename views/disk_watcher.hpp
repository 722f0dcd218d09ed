#pragma once
/// DiskWatcher: notices when the open scenario file changes on disk (issue 15, item 2).
///
/// A QFileSystemWatcher on the file and on its folder: editors that save by writing a new file and
/// renaming it over the old one (vim, VS Code, QSaveFile) drop the file's watch, so the folder's
/// change re-arms it. Events are debounced (a save is often several), then the file is read and
/// its SHA-256 compared with the known one: a touch or our own save (setKnown) is no change.
#include <QByteArray>
#include <QObject>
#include <QTimer>

class QFileSystemWatcher;

namespace layoutscope::views {

class DiskWatcher : public QObject {
    Q_OBJECT
  public:
    explicit DiskWatcher(QObject* parent = nullptr);
    /// Watch `path` (empty: nothing), whose content is now `bytes`.
    void watch(const QString& path, const QByteArray& bytes);
    /// The file now holds `bytes` (we saved it, or the user chose to keep their text).
    void setKnown(const QByteArray& bytes);
    [[nodiscard]] const QByteArray& knownHash() const { return m_hash; }
    [[nodiscard]] static QByteArray hashOf(const QByteArray& bytes);
    /// Compare the file with the known content now (skipping the debounce).
    void checkNow();
    void setDebounceMs(int ms) { m_debounce.setInterval(ms); }

  signals:
    /// The file's content differs from the known one; `bytes` is the new content.
    void changed(const QByteArray& bytes);
    /// The file is gone (deleted or renamed away).
    void removed();

  private:
    void arm();
    QFileSystemWatcher* m_watcher;
    QTimer m_debounce;
    QString m_path;
    QByteArray m_hash;
    bool m_gone = false;
};

} // namespace layoutscope::views
