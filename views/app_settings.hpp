#pragma once
/// Persistent window state across runs (QSettings, organisation "layoutscope"): dock layout
/// (saveState/restoreState), geometry, theme and the last file. `--reset-layout` calls reset().
/// Tests point QSettings at a temporary folder with useSettingsFolder() so they never touch the
/// user's settings.
#include <QByteArray>
#include <QString>
#include <QVariantMap>

class QMainWindow;

namespace layoutscope::views {

enum class Theme { Dark, Light };
[[nodiscard]] QString themeName(Theme t);               ///< "dark" / "light"
[[nodiscard]] Theme themeFromName(const QString& name); ///< unknown names: Dark

class AppSettings {
  public:
    /// Bump when the dock set changes incompatibly: restoreState then ignores the old layout.
    static constexpr int kStateVersion = 1;

    /// Store every settings file (INI format) under `dir` from now on (tests, portable runs).
    static void useSettingsFolder(const QString& dir);

    void saveWindow(const QMainWindow& w) const;
    /// Restore geometry and dock layout; false when none was saved (or it was reset).
    bool restoreWindow(QMainWindow& w) const;
    void setTheme(Theme t) const;
    [[nodiscard]] Theme theme() const;
    void setLastFile(const QString& path) const;
    [[nodiscard]] QString lastFile() const;

    // Crash guard for "last file": a file that crashes the GUI must not be reopened at every start.
    /// Before opening `path`: a sentinel, written to disk at once.
    void beginOpening(const QString& path) const;
    /// Once `path` is shown and drawn: the sentinel goes and, when `remember`, it becomes lastFile().
    void finishOpening(const QString& path, bool remember) const;
    /// The file whose opening never finished (the run ended, or crashed, while opening it), or empty.
    [[nodiscard]] QString openingFile() const;
    /// What a start without --scenario opens: lastFile() (if it exists), else `fallback`; never the
    /// file a crashed run was opening, and then `note` says so. Clears the sentinel.
    struct Startup {
        QString path, note;
    };
    [[nodiscard]] Startup startupFile(const QString& fallback) const;
    /// The dock layout (saveState) kept per scenario kind ("tma", "tcgen05", "mixed"): what a user
    /// gives the TMEM docks for tcgen05 comes back to the other views for TMA (issue 15).
    void saveKindLayout(const QString& kind, const QByteArray& state) const;
    /// The layout saved for `kind`, or empty.
    [[nodiscard]] QByteArray kindLayout(const QString& kind) const;
    /// The last launch of the kernel in the .ptx at absolute path `ptx` (File > Open's launch dialog,
    /// issue 22 item 4), or an empty map.
    void saveKernelLaunch(const QString& ptx, const QVariantMap& launch) const;
    [[nodiscard]] QVariantMap kernelLaunch(const QString& ptx) const;
    /// Forget the layout and geometry (the theme and last file stay).
    void resetLayout() const;
};

} // namespace layoutscope::views
