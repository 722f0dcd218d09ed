#include "recovery_store.hpp"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>
#include <QUrl>
#include <algorithm>

namespace layoutscope::views {

namespace {
constexpr char kMagic[] = "layoutscope-recovery 1\n";
QString& folderOverride() {
    static QString dir;
    return dir;
}
} // namespace

RecoveryStore::RecoveryStore() {
    m_pool.setMaxThreadCount(1);
}

RecoveryStore::~RecoveryStore() {
    m_pool.waitForDone();
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

QString RecoveryStore::fileFor(const QString& path) {
    const QString scenarioPath = keyOf(path);
    const QString name =
        scenarioPath.isEmpty()
            ? QString("untitled")
            : QString::fromLatin1(
                  QCryptographicHash::hash(scenarioPath.toUtf8(), QCryptographicHash::Sha1).toHex());
    return folder() + "/" + name + ".recovery";
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
    e.written = QFileInfo(recoveryFile).lastModified();
    e.text = QString::fromUtf8(all.mid(nl + 1));
    return e;
}

namespace {
bool isPending(const RecoveryEntry& e) {
    if (e.scenarioPath.isEmpty()) return true;
    const QFileInfo scn(e.scenarioPath);
    return !scn.exists() || e.written >= scn.lastModified();
}
} // namespace

std::optional<RecoveryEntry> RecoveryStore::pendingFor(const QString& scenarioPath, const QString& fileText) {
    auto e = read(fileFor(scenarioPath));
    if (!e || e->scenarioPath != keyOf(scenarioPath) || !isPending(*e) || e->text == fileText)
        return std::nullopt;
    return e;
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
