// File > Open of a kernel runs it off the UI thread with a progress dialog and Cancel (issue 25 item 3;
// kernel_run.hpp). LAYOUTSCOPE_AUTO_ANSWER `kernel-run=cancel` presses Cancel as the run starts; the kernel
// here never ends, so only Cancel stops it (at the executor's first poll), and the GUI must keep the
// document it had (a .ptx) or show the file with the "run cancelled" error (a kernel scenario).
#include "gui_test_util.hpp"
#include "launch_dialog.hpp"
#include "main_window.hpp"
#include "scene/document.hpp"
#include "scene/kernel_launch.hpp"

#include <catch2/catch.hpp>

#include <QFile>
#include <QStatusBar>
#include <QTemporaryDir>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {

struct AutoAnswer {
    QByteArray saved = qgetenv("LAYOUTSCOPE_AUTO_ANSWER");
    explicit AutoAnswer(const char* answer) {
        qputenv("LAYOUTSCOPE_AUTO_ANSWER", saved + (saved.isEmpty() ? "" : ",") + answer);
    }
    ~AutoAnswer() { qputenv("LAYOUTSCOPE_AUTO_ANSWER", saved); }
};

void write(const QString& path, const char* text) {
    QFile f(path);
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.write(text);
}

const char* kSpin = ".version 8.0\n.target sm_90a\n.address_size 64\n"
                    ".visible .entry spin()\n{\nL:\nbra.uni L;\n}\n";

} // namespace

TEST_CASE("Cancel stops a kernel that never ends; the previous document stays", "[views][gui][kernel]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString ptx = dir.filePath("spin.ptx");
    write(ptx, kSpin);
    KernelLaunch l;
    l.ptxPath = ptx.toStdString();
    l.entry = "0";
    l.grid = "1";
    l.block = "32";
    rememberLaunch(ptx, l);
    AutoAnswer a("ptx-launch=run,kernel-run=cancel");
    MainWindow w;
    REQUIRE(w.document());
    const std::string before = w.document()->text();
    const bool hadTrace = w.document()->hasTrace();
    w.openFile(ptx);
    REQUIRE(w.document());
    CHECK(w.document()->text() == before);
    CHECK(w.document()->hasTrace() == hadTrace);
    const QString msg = w.statusBar()->currentMessage();
    INFO(msg.toStdString());
    CHECK(msg.contains("cancelled"));
    CHECK(msg.contains("run cancelled after 16384 warp instructions"));
}

TEST_CASE("Cancel stops a kernel scenario's run: the file opens with the \"run cancelled\" error",
          "[views][gui][kernel]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    write(dir.filePath("spin.ptx"), kSpin);
    const QString scn = dir.filePath("spin.launch.scn");
    write(scn, "# an endless kernel\nkernel spin.ptx --grid 1 --block 32\n");
    AutoAnswer a("kernel-run=cancel");
    MainWindow w;
    w.openFile(scn);
    REQUIRE(w.document());
    CHECK_FALSE(w.document()->hasTrace());
    CHECK(w.diagnosticsText().contains("run cancelled after 16384 warp instructions"));
}
