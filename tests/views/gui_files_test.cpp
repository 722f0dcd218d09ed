// Files in the GUI (issue 15, item 2): bundled examples are read-only, edits are autosaved and
// recovered after a crash, a file changed on disk is reloaded or the user is asked, and a save keeps
// the file's bytes. Every file written here is in a temporary folder; assets/ is only read.
#include "app_settings.hpp"
#include "code_editor.hpp"
#include "disk_watcher.hpp"
#include "editor_dock.hpp"
#include "main_window.hpp"
#include "recovery_store.hpp"

#include <catch2/catch.hpp>

#include <QAction>
#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QFrame>
#include <QPushButton>
#include <QSaveFile>
#include <QTemporaryDir>
#include <QTest>
#include <QTextCursor>
#include <memory>

using namespace layoutscope::views;

namespace {
const QString kAssets = QStringLiteral(LAYOUTSCOPE_ASSETS_DIR);
const QString kExample = kAssets + "/scenarios/tma_tile_64x64_f16_sw128.scn";

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
void writeAll(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    REQUIRE(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    REQUIRE(f.write(bytes) == bytes.size());
}
/// Replace the file the way editors that save by rename do (a new inode).
void replaceAll(const QString& path, const QByteArray& bytes) {
    QSaveFile f(path);
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.write(bytes);
    REQUIRE(f.commit());
}
/// Insert `text` at the start of the editor as a user's edit.
void typeAtStart(EditorDock* dock, const QString& text) {
    QTextCursor c(dock->editor()->document());
    c.movePosition(QTextCursor::Start);
    dock->editor()->setTextCursor(c);
    dock->editor()->setFocus();
    const QStringList lines = text.split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        QTest::keyClicks(dock->editor(), lines[i]); // QTest has no key for '\n': Return between lines
        if (i + 1 < lines.size()) QTest::keyClick(dock->editor(), Qt::Key_Return);
    }
}
/// Set LAYOUTSCOPE_AUTO_ANSWER for one scope.
struct AutoAnswer {
    explicit AutoAnswer(const char* v) { qputenv("LAYOUTSCOPE_AUTO_ANSWER", v); }
    ~AutoAnswer() { qunsetenv("LAYOUTSCOPE_AUTO_ANSWER"); }
};
/// Recovery files of one test in a folder of their own (other tests' edits autosave too).
struct OwnRecoveryFolder {
    QTemporaryDir dir;
    QString before = RecoveryStore::folder();
    OwnRecoveryFolder() { RecoveryStore::useFolder(dir.path()); }
    ~OwnRecoveryFolder() { RecoveryStore::useFolder(before); }
};
/// A temp folder with a copy of the default example whose lines end in CRLF, after a BOM.
struct TempScenario {
    QTemporaryDir dir;
    QString path = dir.filePath("mine.scn");
    QByteArray bytes;
    TempScenario() {
        QByteArray text = readAll(kExample);
        REQUIRE(!text.isEmpty());
        bytes = "\xEF\xBB\xBF" + text.replace("\n", "\r\n");
        writeAll(path, bytes);
    }
};
} // namespace

TEST_CASE("Bundled examples open read-only: Save is Save As and assets/ is never written",
          "[views][gui][files]") {
    AutoAnswer answers("read-only=ok,unsaved=discard");
    const QByteArray before = readAll(kExample);
    const QDateTime mtime = QFileInfo(kExample).lastModified();
    QTemporaryDir tmp;
    MainWindow w;
    w.openFile(kExample);
    EditorDock* dock = w.editorDock();
    REQUIRE(dock->isReadOnly());
    CHECK(w.windowTitle().contains("read-only"));
    auto* save = w.findChild<QAction*>("saveAction");
    REQUIRE(save);
    CHECK(save->text().contains("Save As"));
    CHECK(EditorDock::isBundledPath(kAssets + "/reviews/epilogue_16x256b_plain.scn"));
    CHECK_FALSE(EditorDock::isBundledPath(tmp.filePath("x.scn")));
    typeAtStart(dock, "# my copy\n");
    QString suggested;

    SECTION("Save (Ctrl+S) asks for a new path and writes there") {
        const QString copy = tmp.filePath("copy.scn");
        dock->setSaveAsChooser([&](const QString& s) {
            suggested = s;
            return copy;
        });
        save->trigger();
        CHECK_FALSE(suggested.startsWith(kAssets)); // the dialog does not start in assets/
        CHECK(readAll(copy).startsWith("# my copy\n"));
        CHECK(dock->path() == copy);
        CHECK_FALSE(dock->isReadOnly());
        CHECK_FALSE(w.windowTitle().contains("read-only"));
        CHECK(save->text() == "&Save");
    }
    SECTION("choosing the example itself in Save As is refused") {
        dock->setSaveAsChooser([&](const QString&) { return kExample; });
        CHECK_FALSE(dock->save());
        CHECK(dock->isModified());
    }
    SECTION("cancelling Save As writes nothing") {
        dock->setSaveAsChooser([&](const QString&) { return QString(); });
        CHECK_FALSE(dock->save());
    }
    CHECK(readAll(kExample) == before);
    CHECK(QFileInfo(kExample).lastModified() == mtime);
}

TEST_CASE("Saving keeps the BOM, the CRLF line endings and the bytes of untouched lines",
          "[views][gui][files][bytes]") {
    TempScenario scn;
    MainWindow w;
    w.openFile(scn.path);
    EditorDock* dock = w.editorDock();
    CHECK_FALSE(dock->editorText().contains('\r'));
    SECTION("unedited: identical bytes") {
        REQUIRE(dock->save());
        CHECK(readAll(scn.path) == scn.bytes);
    }
    SECTION("a line added at the start: CRLF, after the BOM; the rest byte for byte") {
        typeAtStart(dock, "# added\n");
        REQUIRE(dock->save());
        CHECK(readAll(scn.path) == "\xEF\xBB\xBF# added\r\n" + scn.bytes.mid(3));
    }
}

TEST_CASE("An edit of a line with bytes that are not UTF-8 is not saved silently",
          "[views][gui][files][bytes]") {
    QTemporaryDir tmp;
    const QString path = tmp.filePath("latin1.scn");
    const QByteArray bytes = "# caf\xE9 au lait\ntarget sm_90a\n"; // 0xE9 at offset 5
    writeAll(path, bytes);
    MainWindow w;
    w.openFile(path);
    EditorDock* dock = w.editorDock();
    CHECK(dock->editorText().startsWith(QString("# caf") + QChar(0xFFFD) + " au lait\n"));
    SECTION("another line edited: the byte is kept") {
        QTextCursor c(dock->editor()->document());
        c.movePosition(QTextCursor::End);
        c.insertText("# end\n");
        REQUIRE(dock->save());
        CHECK(readAll(path) == bytes + "# end\n");
    }
    SECTION("that line edited: refused unless the user replaces the byte") {
        typeAtStart(dock, "#");
        {
            AutoAnswer answers("not-utf8=cancel");
            CHECK_FALSE(dock->save());
            CHECK(readAll(path) == bytes);
        }
        AutoAnswer answers("not-utf8=replace and save");
        CHECK(dock->save());
        CHECK(readAll(path) == "## caf\xEF\xBF\xBD au lait\ntarget sm_90a\n");
    }
}

TEST_CASE("Edits are autosaved and offered back after a crash", "[views][gui][files][recovery]") {
    OwnRecoveryFolder own;
    TempScenario scn;
    const QString abs = QFileInfo(scn.path).absoluteFilePath();
    QString recoveryFile; // the crashed window's
    QString edited;
    {
        auto w = std::make_unique<MainWindow>();
        EditorDock* dock = w->editorDock();
        recoveryFile = dock->recovery().fileFor(abs);
        dock->setAutosaveMs(50);
        w->openFile(scn.path);
        typeAtStart(dock, "# unsaved edit\n");
        edited = dock->editorText();
        REQUIRE(QTest::qWaitFor(
            [&] {
                dock->recovery().flush();
                return QFile::exists(recoveryFile);
            },
            3000));
        const auto e = RecoveryStore::read(recoveryFile);
        REQUIRE(e);
        CHECK(e->scenarioPath == abs);
        CHECK(e->text == edited);
        // The crash: the window goes away without closing (no prompt, no clean-up).
    }
    CHECK(readAll(scn.path) == scn.bytes); // the file itself was never written

    SECTION("restart, Restore: the edited text, modified, the file untouched until saved") {
        AutoAnswer answers("recovery=restore");
        MainWindow w;
        REQUIRE(w.openPendingRecovery()); // no --scenario: the crashed file is reopened
        EditorDock* dock = w.editorDock();
        CHECK(dock->path() == abs);
        CHECK(dock->editorText() == edited);
        CHECK(dock->isModified());
        REQUIRE(dock->save());
        dock->recovery().flush();
        CHECK_FALSE(QFile::exists(recoveryFile));
        CHECK(readAll(scn.path) == "\xEF\xBB\xBF# unsaved edit\r\n" + scn.bytes.mid(3));
    }
    SECTION("restart, Discard: the file's text and no recovery left") {
        AutoAnswer answers("recovery=discard");
        MainWindow w;
        w.openFile(scn.path);
        CHECK(w.editorDock()->editorText() != edited);
        CHECK_FALSE(w.editorDock()->isModified());
        w.editorDock()->recovery().flush();
        CHECK_FALSE(QFile::exists(recoveryFile));
    }
    SECTION("a clean close removes the recovery file: nothing is offered next time") {
        AutoAnswer answers("recovery=restore,unsaved=discard");
        {
            MainWindow w;
            w.openFile(scn.path); // restores, then the user closes and discards
            CHECK(w.editorDock()->isModified());
            w.close();
            AppSettings().resetLayout(); // closing saved this hidden window's layout: later tests restore it
        }
        CHECK_FALSE(QFile::exists(recoveryFile));
        MainWindow w2;
        CHECK_FALSE(w2.openPendingRecovery());
    }
    SECTION("a file saved after the autosave makes it stale: not offered") {
        QTest::qWait(20);
        writeAll(scn.path, scn.bytes + "# saved by someone else\r\n");
        QFile rf(recoveryFile);
        REQUIRE(rf.open(QIODevice::ReadWrite));
        REQUIRE(rf.setFileTime(QDateTime::currentDateTime().addSecs(-60), QFileDevice::FileModificationTime));
        rf.close();
        AutoAnswer answers("recovery=restore");
        MainWindow w;
        CHECK_FALSE(w.openPendingRecovery());
        w.openFile(scn.path);
        CHECK_FALSE(w.editorDock()->isModified());
    }
    QFile::remove(recoveryFile);
}

TEST_CASE("Two windows on one file: one autosave each, never deleted by the other",
          "[views][gui][files][recovery]") {
    // Issue 25 item 8: Discard in the second window deleted the first window's autosave, and after a
    // crash of the first its edit was gone.
    OwnRecoveryFolder own;
    TempScenario scn;
    const QString abs = QFileInfo(scn.path).absoluteFilePath();
    auto first = std::make_unique<MainWindow>();
    EditorDock* a = first->editorDock();
    a->setAutosaveMs(50);
    first->openFile(scn.path);
    typeAtStart(a, "# first window\n");
    const QString firstText = a->editorText();
    const QString firstFile = a->recovery().fileFor(abs);
    REQUIRE(QTest::qWaitFor(
        [&] {
            a->recovery().flush();
            return QFile::exists(firstFile);
        },
        3000));
    {
        AutoAnswer answers("recovery=discard");
        MainWindow second; // the first window is alive: its journal is not a crash's, not offered
        second.openFile(scn.path);
        EditorDock* b = second.editorDock();
        CHECK_FALSE(b->isModified());
        CHECK(b->recovery().fileFor(abs) != firstFile);
        b->setAutosaveMs(50);
        typeAtStart(b, "# second window\n");
        REQUIRE(QTest::qWaitFor(
            [&] {
                b->recovery().flush();
                return QFile::exists(b->recovery().fileFor(abs));
            },
            3000));
        AutoAnswer discard("unsaved=discard");
        second.close(); // Discard: its own autosave goes, the first window's stays
        b->recovery().flush();
        CHECK_FALSE(QFile::exists(b->recovery().fileFor(abs)));
        AppSettings().resetLayout();
    }
    REQUIRE(QFile::exists(firstFile));
    CHECK(RecoveryStore::read(firstFile)->text == firstText);
    first.reset(); // the crash of the first window
    AutoAnswer answers("recovery=restore");
    MainWindow third;
    third.openFile(scn.path);
    CHECK(third.editorDock()->editorText() == firstText);
    CHECK(third.editorDock()->isModified());
}

TEST_CASE("Typing is journaled within a second of the last keystroke", "[views][gui][files][recovery]") {
    // Issue 25 item 8: autosave at most every 8 s lost the last 5 s of typing on a crash.
    OwnRecoveryFolder own;
    TempScenario scn;
    MainWindow w;
    EditorDock* dock = w.editorDock();
    CHECK(dock->autosaveMs() <= 1000); // the default delay after the last keystroke
    w.openFile(scn.path);
    typeAtStart(dock, "# last keystroke");
    const QString file = dock->recovery().fileFor(QFileInfo(scn.path).absoluteFilePath());
    REQUIRE(QTest::qWaitFor(
        [&] {
            dock->recovery().flush();
            const auto e = RecoveryStore::read(file);
            return e && e->text == dock->editorText();
        },
        10000)); // bounded generously: the delay itself is checked above
}

TEST_CASE("A file changed on disk is reloaded, or the user chooses, and never overwritten silently",
          "[views][gui][files][disk]") {
    TempScenario scn;
    MainWindow w;
    w.openFile(scn.path);
    EditorDock* dock = w.editorDock();
    dock->diskWatcher()->setDebounceMs(50);
    const QByteArray theirs = "# changed elsewhere\r\n" + scn.bytes.mid(3);

    SECTION("no local edits: reloaded automatically (also when the file is replaced by rename)") {
        replaceAll(scn.path, theirs);
        REQUIRE(
            QTest::qWaitFor([&] { return dock->editorText().startsWith("# changed elsewhere\n"); }, 5000));
        CHECK_FALSE(dock->isModified());
        CHECK(dock->diskBar()->isHidden());
        writeAll(scn.path, "# second change\n" + theirs); // in place this time
        REQUIRE(QTest::qWaitFor([&] { return dock->editorText().startsWith("# second change\n"); }, 5000));
    }
    SECTION("local edits: the bar offers Reload / Keep mine") {
        typeAtStart(dock, "# mine\n");
        replaceAll(scn.path, theirs);
        REQUIRE(QTest::qWaitFor([&] { return !dock->diskBar()->isHidden(); }, 5000));
        CHECK(dock->editorText().startsWith("# mine\n")); // nothing reloaded under the edits
        SECTION("Reload takes the file's text") {
            dock->diskBar()->findChild<QPushButton*>("diskReload")->click();
            CHECK(dock->editorText().startsWith("# changed elsewhere\n"));
            CHECK_FALSE(dock->isModified());
        }
        SECTION("Keep mine, then Save asks; Cancel leaves the file, Overwrite writes it") {
            dock->diskBar()->findChild<QPushButton*>("diskKeep")->click();
            CHECK(dock->diskBar()->isHidden());
            {
                AutoAnswer answers("changed-on-disk=cancel");
                CHECK_FALSE(dock->save());
                CHECK(readAll(scn.path) == theirs);
            }
            AutoAnswer answers("changed-on-disk=overwrite");
            CHECK(dock->save());
            CHECK(readAll(scn.path).startsWith("\xEF\xBB\xBF# mine\r\n"));
        }
    }
    SECTION("a save without any change on disk does not ask") {
        AutoAnswer answers("changed-on-disk=cancel");
        typeAtStart(dock, "# mine\n");
        CHECK(dock->save());
        // Our own save is no change on disk: no reload, no bar.
        QTest::qWait(300);
        CHECK_FALSE(dock->isModified());
        CHECK(dock->editorText().startsWith("# mine\n"));
    }
}
