#include "app_settings.hpp"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QMainWindow>
#include <QSettings>

namespace layoutscope::views {

namespace {
QSettings settings() {
    return QSettings(QSettings::IniFormat, QSettings::UserScope, "layoutscope", "layoutscope");
}
/// A settings key for a file path (slashes would make groups): its SHA-1.
QString pathKey(const QString& path) {
    return QString::fromLatin1(QCryptographicHash::hash(path.toUtf8(), QCryptographicHash::Sha1).toHex());
}
} // namespace

QString themeName(Theme t) {
    return t == Theme::Light ? "light" : "dark";
}
Theme themeFromName(const QString& name) {
    return name.compare("light", Qt::CaseInsensitive) == 0 ? Theme::Light : Theme::Dark;
}

void AppSettings::useSettingsFolder(const QString& dir) {
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir);
    QSettings::setPath(QSettings::IniFormat, QSettings::SystemScope, dir);
}

void AppSettings::saveWindow(const QMainWindow& w) const {
    QSettings s = settings();
    s.setValue("window/geometry", w.saveGeometry());
    s.setValue("window/state", w.saveState(kStateVersion));
}

bool AppSettings::restoreWindow(QMainWindow& w) const {
    const QSettings s = settings();
    const QByteArray geo = s.value("window/geometry").toByteArray(),
                     state = s.value("window/state").toByteArray();
    if (geo.isEmpty() && state.isEmpty()) return false;
    bool ok = true;
    if (!geo.isEmpty()) ok &= w.restoreGeometry(geo);
    if (!state.isEmpty()) ok &= w.restoreState(state, kStateVersion);
    return ok;
}

void AppSettings::setTheme(Theme t) const {
    settings().setValue("view/theme", themeName(t));
}
Theme AppSettings::theme() const {
    return themeFromName(settings().value("view/theme", "dark").toString());
}
void AppSettings::setLastFile(const QString& path) const {
    settings().setValue("file/last", path);
}
QString AppSettings::lastFile() const {
    return settings().value("file/last").toString();
}

void AppSettings::beginOpening(const QString& path) const {
    QSettings s = settings();
    s.setValue("file/opening", path);
    s.sync(); // on disk before the file can crash us
}

void AppSettings::finishOpening(const QString& path, bool remember) const {
    QSettings s = settings();
    if (remember) s.setValue("file/last", path);
    if (s.value("file/opening").toString() == path) s.remove("file/opening");
    s.sync();
}

QString AppSettings::openingFile() const {
    return settings().value("file/opening").toString();
}

AppSettings::Startup AppSettings::startupFile(const QString& fallback) const {
    QSettings s = settings();
    const QString crashed = s.value("file/opening").toString();
    s.remove("file/opening");
    Startup r;
    r.path = s.value("file/last").toString();
    if (!crashed.isEmpty()) {
        r.note = QString("Not reopening %1: Layoutscope ended while opening it last time.").arg(crashed);
        if (QFileInfo(r.path).absoluteFilePath() == QFileInfo(crashed).absoluteFilePath()) {
            s.remove("file/last");
            r.path.clear();
        }
    }
    if (r.path.isEmpty() || !QFileInfo::exists(r.path)) r.path = fallback;
    s.sync();
    return r;
}

void AppSettings::saveKindLayout(const QString& kind, const QByteArray& state) const {
    if (!kind.isEmpty()) settings().setValue("window/layout_" + kind, state);
}
QByteArray AppSettings::kindLayout(const QString& kind) const {
    return kind.isEmpty() ? QByteArray() : settings().value("window/layout_" + kind).toByteArray();
}

void AppSettings::saveKernelLaunch(const QString& ptx, const QVariantMap& launch) const {
    QVariantMap m = launch;
    m["path"] = ptx; // the key is a hash: the path itself, to check it
    settings().setValue("kernelLaunch/" + pathKey(ptx), m);
}

QVariantMap AppSettings::kernelLaunch(const QString& ptx) const {
    const QVariantMap m = settings().value("kernelLaunch/" + pathKey(ptx)).toMap();
    return m.value("path").toString() == ptx ? m : QVariantMap();
}

void AppSettings::resetLayout() const {
    QSettings s = settings();
    s.remove("window/geometry");
    s.remove("window/state");
    for (const char* k : {"tma", "tcgen05", "mixed"}) s.remove(QString("window/layout_") + k);
}

} // namespace layoutscope::views
