#pragma once
/// RecoveryStore: the autosave files that let unsaved edits survive a crash (issue 15, item 2).
///
/// One file per edited scenario in QStandardPaths::AppDataLocation/recovery/ (override:
/// useFolder(), or the environment variable LAYOUTSCOPE_RECOVERY_DIR), named by a hash of the
/// scenario's absolute path ("untitled" for a text with no file). It holds a header (magic line,
/// the percent-encoded path) and the editor's text as UTF-8. Writes and removals run in order on one
/// worker thread (STYLE.md §3.7: RT_ for that thread); flush() waits for them.
///
/// A recovery entry is *pending* when its file is newer than the scenario file (or the scenario has
/// no file): the edits were never saved, and the run that made them did not close cleanly.
#include <QDateTime>
#include <QString>
#include <QThreadPool>
#include <optional>
#include <vector>

namespace layoutscope::views {

struct RecoveryEntry {
    QString scenarioPath; ///< absolute; empty: an untitled text
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
    /// The recovery file of `scenarioPath` (made absolute; empty: untitled).
    [[nodiscard]] static QString fileFor(const QString& scenarioPath);
    /// The key a path is stored under: its absolute path (empty stays empty).
    [[nodiscard]] static QString keyOf(const QString& scenarioPath);

    /// UI thread: queue writing `text` as the recovery of `scenarioPath`.
    void write(const QString& scenarioPath, const QString& text);
    /// UI thread: queue removing the recovery of `scenarioPath`.
    void remove(const QString& scenarioPath);
    /// Wait until every queued write and removal is done.
    void flush();

    /// Read a recovery file (nullopt when it is missing or not one).
    [[nodiscard]] static std::optional<RecoveryEntry> read(const QString& recoveryFile);
    /// The pending recovery of `scenarioPath`, if any (see above). A recovery whose text equals the
    /// file's text is not pending.
    [[nodiscard]] static std::optional<RecoveryEntry> pendingFor(const QString& scenarioPath,
                                                                 const QString& fileText);
    /// Every pending entry, newest first (start-up: which file to reopen).
    [[nodiscard]] static std::vector<RecoveryEntry> pending();

  private:
    QThreadPool m_pool; ///< one thread: writes and removals stay in order
};

} // namespace layoutscope::views
