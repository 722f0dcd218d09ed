#pragma once
/// RecoveryStore: the autosave files that let unsaved edits survive a crash (issue 15, item 2).
///
/// One file per window (store) and edited scenario in QStandardPaths::AppDataLocation/recovery/
/// (override: useFolder(), or the environment variable LAYOUTSCOPE_RECOVERY_DIR), named by a hash of
/// the scenario's absolute path ("untitled" for a text with no file) and the store's owner id
/// "<pid>-<n>": HASH.OWNER.recovery. It holds a header (magic line, the percent-encoded path) and the
/// editor's text as UTF-8. Writes and removals run in order on one worker thread (STYLE.md §3.7: RT_
/// for that thread); flush() waits for them.
///
/// A store writes and removes only its own files (issue 25 item 8: with two windows on one file,
/// Discard in the second deleted the first window's autosave). A recovery entry is *pending* when its
/// owner is gone (a store of this process that was destroyed, or a process that no longer runs; files
/// without an owner, HASH.recovery, are from older versions) and its file is newer than the scenario
/// file (or the scenario has no file): the edits were never saved, and the window that made them did
/// not close cleanly. Another live window's autosave is never offered, nor deleted.
#include <QDateTime>
#include <QString>
#include <QThreadPool>
#include <optional>
#include <vector>

namespace layoutscope::views {

struct RecoveryEntry {
    QString scenarioPath; ///< absolute; empty: an untitled text
    QString owner;        ///< the store that wrote it ("<pid>-<n>"; empty: an older version's file)
    QString recoveryFile; ///< where the text is kept
    QDateTime written;    ///< when the autosave wrote it
    QString text;         ///< the edited text
};

class RecoveryStore {
  public:
    RecoveryStore();
    ~RecoveryStore(); ///< waits for the queued writes

    /// Keep every recovery file under `dir` from now on (tests; empty: back to the default).
    static void useFolder(const QString& dir);
    [[nodiscard]] static QString folder();
    /// This store's recovery file of `scenarioPath` (made absolute; empty: untitled).
    [[nodiscard]] QString fileFor(const QString& scenarioPath) const;
    /// "<pid>-<n>": whose files these are.
    [[nodiscard]] const QString& owner() const { return m_owner; }
    /// Whether the store `owner` is alive (in this process, or a process that still runs).
    [[nodiscard]] static bool ownerAlive(const QString& owner);
    /// The key a path is stored under: its absolute path (empty stays empty).
    [[nodiscard]] static QString keyOf(const QString& scenarioPath);

    /// UI thread: queue writing `text` as the recovery of `scenarioPath`.
    void write(const QString& scenarioPath, const QString& text);
    /// UI thread: queue removing this store's recovery of `scenarioPath`.
    void remove(const QString& scenarioPath);
    /// UI thread: queue removing `entry`'s file, if its owner is gone (a recovery restored or discarded);
    /// a live window's file is left alone.
    void removeOrphan(const RecoveryEntry& entry);
    /// Wait until every queued write and removal is done.
    void flush();

    /// Read a recovery file (nullopt when it is missing or not one).
    [[nodiscard]] static std::optional<RecoveryEntry> read(const QString& recoveryFile);
    /// The newest pending recovery of `scenarioPath`, if any (see above). A recovery whose text equals
    /// the file's text is not pending.
    [[nodiscard]] static std::optional<RecoveryEntry> pendingFor(const QString& scenarioPath,
                                                                 const QString& fileText);
    /// Every pending entry, newest first (start-up: which file to reopen).
    [[nodiscard]] static std::vector<RecoveryEntry> pending();

  private:
    QString m_owner;
    QThreadPool m_pool; ///< one thread: writes and removals stay in order
};

} // namespace layoutscope::views
