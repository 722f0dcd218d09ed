#include "recovery_store.hpp"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QSet>
#include <QStandardPaths>
#include <QUrl>
#include <algorithm>
#include <cerrno>
#include <csignal>

namespace layoutscope::views {

namespace {
constexpr char kMagic[] = "layoutscope-recovery 1\n";
QString& folderOverride() {
    static QString dir;
    return dir;
}
} // namespace

namespace {
/// Owners ("<pid>-<n>") of the stores alive in this process (UI thread only).
QSet<QString>& liveOwners() {
    static QSet<QString> owners;
    return owners;
}
QString hashName(const QString& scenarioPath) {
    return scenarioPath.isEmpty()
               ? QString("untitled")
               : QString::fromLatin1(
                     QCryptographicHash::hash(scenarioPath.toUtf8(), QCryptographicHash::Sha1).toHex());
}
/// The owner in a recovery file's name HASH.OWNER.recovery (empty for HASH.recovery).
QString ownerOfFile(const QString& file) {
    const QStringList parts = QFileInfo(file).fileName().split('.');
    return parts.size() == 3 ? parts[1] : QString();
}
} // namespace

RecoveryStore::RecoveryStore() {
    static int next = 0;
    m_owner = QString("%1-%2").arg(QCoreApplication::applicationPid()).arg(next++);
    liveOwners().insert(m_owner);
    m_pool.setMaxThreadCount(1);
}

RecoveryStore::~RecoveryStore() {
    m_pool.waitForDone();
    liveOwners().remove(m_owner); // its files (a crash's) may now be offered to another window
}

bool RecoveryStore::ownerAlive(const QString& owner) {
    if (owner.isEmpty()) return false;
    const qint64 pid = owner.section('-', 0, 0).toLongLong();
    if (pid == QCoreApplication::applicationPid()) return liveOwners().contains(owner);
    return pid > 0 && (::kill(pid_t(pid), 0) == 0 || errno == EPERM);
}

void RecoveryStore::useFolder(const QString& dir) {
    folderOverride() = dir;
}

QString RecoveryStore::folder() {
    if (!folderOverride().isEmpty()) return folderOverride();
    const QString env = qEnvironmentVariable("LAYOUTSCOPE_RECOVERY_DIR");
    if (!env.isEmpty()) return env;
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/recovery";
}

QString RecoveryStore::keyOf(const QString& scenarioPath) {
    return scenarioPath.isEmpty() ? QString() : QFileInfo(scenarioPath).absoluteFilePath();
}

QString RecoveryStore::fileFor(const QString& path) const {
    return folder() + "/" + hashName(keyOf(path)) + "." + m_owner + ".recovery";
}

void RecoveryStore::write(const QString& scenarioPath, const QString& text) {
    const QString file = fileFor(scenarioPath);
    QByteArray data = kMagic;
    data += QUrl::toPercentEncoding(keyOf(scenarioPath)) + "\n";
    data += text.toUtf8();
    m_pool.start([file, data = std::move(data)] { // RT_: the store's worker thread
        QDir().mkpath(QFileInfo(file).path());
        QSaveFile f(file);
        if (f.open(QIODevice::WriteOnly) && f.write(data) == data.size()) f.commit();
    });
}

void RecoveryStore::remove(const QString& scenarioPath) {
    const QString file = fileFor(scenarioPath);
    m_pool.start([file] { QFile::remove(file); });
}

void RecoveryStore::removeOrphan(const RecoveryEntry& entry) {
    if (entry.recoveryFile.isEmpty() || entry.owner == m_owner || ownerAlive(entry.owner)) return;
    m_pool.start([file = entry.recoveryFile] { QFile::remove(file); });
}

void RecoveryStore::flush() {
    m_pool.waitForDone();
}

std::optional<RecoveryEntry> RecoveryStore::read(const QString& recoveryFile) {
    QFile f(recoveryFile);
    if (!f.open(QIODevice::ReadOnly)) return std::nullopt;
    const QByteArray all = f.readAll();
    if (!all.startsWith(kMagic)) return std::nullopt;
    const qsizetype pathStart = qsizetype(sizeof kMagic - 1);
    const qsizetype nl = all.indexOf('\n', pathStart);
    if (nl < 0) return std::nullopt;
    RecoveryEntry e;
    e.scenarioPath = QUrl::fromPercentEncoding(all.mid(pathStart, nl - pathStart));
    e.recoveryFile = recoveryFile;
    e.owner = ownerOfFile(recoveryFile);
    e.written = QFileInfo(recoveryFile).lastModified();
    e.text = QString::fromUtf8(all.mid(nl + 1));
    return e;
}

namespace {
bool isPending(const RecoveryEntry& e) {
    if (RecoveryStore::ownerAlive(e.owner)) return false; // another window's, still open
    if (e.scenarioPath.isEmpty()) return true;
    const QFileInfo scn(e.scenarioPath);
    return !scn.exists() || e.written >= scn.lastModified();
}
} // namespace

std::optional<RecoveryEntry> RecoveryStore::pendingFor(const QString& scenarioPath, const QString& fileText) {
    const QString key = keyOf(scenarioPath);
    const QString hash = hashName(key);
    const QDir dir(folder());
    std::optional<RecoveryEntry> best;
    for (const QString& f : dir.entryList({hash + ".recovery", hash + ".*.recovery"}, QDir::Files)) {
        auto e = read(dir.filePath(f));
        if (!e || e->scenarioPath != key || !isPending(*e) || e->text == fileText) continue;
        if (!best || e->written > best->written) best = std::move(e);
    }
    return best;
}

std::vector<RecoveryEntry> RecoveryStore::pending() {
    std::vector<RecoveryEntry> out;
    const QDir dir(folder());
    for (const QString& f : dir.entryList({"*.recovery"}, QDir::Files))
        if (auto e = read(dir.filePath(f)); e && isPending(*e)) out.push_back(std::move(*e));
    std::sort(out.begin(), out.end(),
              [](const RecoveryEntry& a, const RecoveryEntry& b) { return a.written > b.written; });
    return out;
}

} // namespace layoutscope::views
