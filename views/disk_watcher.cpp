#include "disk_watcher.hpp"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>

namespace layoutscope::views {

DiskWatcher::DiskWatcher(QObject* parent) : QObject(parent), m_watcher(new QFileSystemWatcher(this)) {
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(300);
    connect(&m_debounce, &QTimer::timeout, this, &DiskWatcher::checkNow);
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, [this] { m_debounce.start(); });
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, [this] { m_debounce.start(); });
}

QByteArray DiskWatcher::hashOf(const QByteArray& bytes) {
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256);
}

void DiskWatcher::watch(const QString& path, const QByteArray& bytes) {
    if (!m_watcher->files().isEmpty()) m_watcher->removePaths(m_watcher->files());
    if (!m_watcher->directories().isEmpty()) m_watcher->removePaths(m_watcher->directories());
    m_debounce.stop();
    m_path = path;
    m_hash = hashOf(bytes);
    m_gone = false;
    if (path.isEmpty()) return;
    m_watcher->addPath(QFileInfo(path).absolutePath());
    arm();
}

void DiskWatcher::setKnown(const QByteArray& bytes) {
    m_hash = hashOf(bytes);
    m_gone = false;
    arm(); // a save by rename dropped the file's watch
}

void DiskWatcher::arm() {
    if (!m_path.isEmpty() && QFileInfo::exists(m_path) && !m_watcher->files().contains(m_path))
        m_watcher->addPath(m_path);
}

void DiskWatcher::checkNow() {
    m_debounce.stop();
    if (m_path.isEmpty()) return;
    arm();
    QFile f(m_path);
    if (!f.exists()) {
        if (!m_gone) {
            m_gone = true;
            emit removed();
        }
        return;
    }
    if (!f.open(QIODevice::ReadOnly)) return; // being replaced: the folder's next change retries
    const QByteArray bytes = f.readAll();
    m_gone = false;
    const QByteArray h = hashOf(bytes);
    if (h == m_hash) return; // a touch, our own save, or back with the same content
    m_hash = h;              // report each new content once
    emit changed(bytes);
}

} // namespace layoutscope::views
