// The GUI for real kernels (issue 22 item 4): a kernel scenario opens through loadScenario, File > Open
// of a .ptx asks for a launch (remembered per module), the Source dock follows the step, a clicked byte
// names the line that moved it, and the event list / timeline filter by warp and family. The recorded
// trace is the hand-built fixture (kernel_fixture.hpp); the module and CUDA file are written here, so
// each highlighted line's text is the file's own ("// line N").
#include "code_editor.hpp"
#include "editor_dock.hpp"
#include "event_list.hpp"
#include "gui_test_util.hpp"
#include "instr_filter_bar.hpp"
#include "kernel_fixture.hpp"
#include "launch_dialog.hpp"
#include "main_window.hpp"
#include "source_pane.hpp"
#include "timeline_widget.hpp"

#include <catch2/catch.hpp>

#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTextBlock>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {
const QString kPtx = QStringLiteral(LAYOUTSCOPE_TEST_DATA_DIR) + "/ptx/";

/// LAYOUTSCOPE_AUTO_ANSWER with `answer` added for the scope.
struct AutoAnswer {
    QByteArray saved = qgetenv("LAYOUTSCOPE_AUTO_ANSWER");
    explicit AutoAnswer(const char* answer) {
        qputenv("LAYOUTSCOPE_AUTO_ANSWER", saved + (saved.isEmpty() ? "" : ",") + answer);
    }
    ~AutoAnswer() { qputenv("LAYOUTSCOPE_AUTO_ANSWER", saved); }
};

QString copyInto(const QTemporaryDir& dir, const QString& from, const QString& name) {
    const QString to = dir.filePath(name);
    QFile::copy(from, to);
    return to;
}

/// The text of the line an editor highlights (its first extra selection).
QString highlighted(const CodeEditor* e) {
    const auto sels = e->extraSelections();
    return sels.isEmpty() ? QString() : sels.front().cursor.block().text();
}
} // namespace

TEST_CASE("A kernel scenario opens through loadScenario: its errors show like parse errors",
          "[views][gui][kernel]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString scn = dir.filePath("launch.scn");
    QFile f(scn);
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.write("# a launch of a module that is not there\nkernel missing.ptx --grid 1 --block 32\n");
    f.close();
    MainWindow w;
    w.openFile(scn);
    REQUIRE(w.document());
    CHECK_FALSE(w.document()->hasTrace());
    REQUIRE_FALSE(w.document()->diagnostics().empty());
    const Diagnostic& d = w.document()->diagnostics().front();
    CHECK(d.severity == Severity::Error);
    CHECK(d.span.line == 2); // at the directive, in the editor and the list like a parse error
    CHECK(w.diagnosticsText().contains("launch.scn:2:"));
    CHECK(w.diagnosisButton()->isVisibleTo(&w));
}

TEST_CASE("The launch dialog offers the module's kernels and their parameters", "[views][gui][kernel]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString ptx = copyInto(dir, kPtx + "tma_tile_sm_90a.ptx", "two.ptx");
    const auto text = readPtxModuleFile(ptx.toStdString());
    REQUIRE(text.ok());
    const auto module = readPtxModule(*text);
    REQUIRE(module.ok());
    const QStringList labels = kernelLabels(*module);
    REQUIRE(labels.size() == 2);
    CHECK(labels[1].startsWith("tmaTileStores(")); // demangled

    LaunchDialog dlg(nullptr, ptx, *module, labels);
    CHECK(dlg.entryBox()->count() == 2);
    // One line per parameter of kernel 0 (lines 19-26 of the module), by name, with its type.
    const QStringList lines = dlg.argsEdit()->toPlainText().split('\n');
    REQUIRE(lines.size() == 8);
    CHECK(lines[0] == "--arg _Z12tmaTileLoads14CUtensorMap_stS_S_S_S_iiPf_param_0=    # .b8[128] align 128");
    CHECK(lines[7] == "--arg _Z12tmaTileLoads14CUtensorMap_stS_S_S_S_iiPf_param_7=    # .u64");

    SECTION("another kernel: its parameters (lines 132-135)") {
        dlg.entryBox()->setCurrentIndex(1);
        emit dlg.entryBox()->activated(1);
        const QStringList l1 = dlg.argsEdit()->toPlainText().split('\n');
        REQUIRE(l1.size() == 4);
        CHECK(l1[2] == "--arg _Z13tmaTileStores14CUtensorMap_stS_ii_param_2=    # .u32");
    }
    SECTION("parameters left without a value: the dialog says which line and stays open") {
        dlg.tryAccept();
        CHECK(dlg.result() != QDialog::Accepted);
        CHECK(dlg.errorLabel()->isVisibleTo(&dlg));
        CHECK(dlg.errorLabel()->text().startsWith("argument line 1: `--arg _Z12tmaTileLoads"));
    }
    SECTION("a complete launch composes, is remembered for this module and offered next time") {
        dlg.field("grid")->setText("2,1,1");
        dlg.field("block")->setText("64");
        dlg.field("smem")->setText("1024");
        dlg.argsEdit()->setPlainText("--arg 5=1\n--arg 6=2\n--arg 7=tensor:f32[64]:zeros\n--arg 0=fields:");
        dlg.tryAccept();
        CHECK(dlg.result() == QDialog::Accepted);
        const QString s = dlg.scenarioText();
        CHECK(s.contains("\nkernel " + ptx + " \\\n    --entry 0 \\\n    --grid 2,1,1 --block 64 \\\n"));
        CHECK(s.contains("    --dynamic-smem 1024 \\\n"));
        CHECK(s.endsWith("    --arg 0=fields:\n"));
        LaunchDialog again(nullptr, ptx, *module, labels);
        CHECK(again.field("grid")->text() == "2,1,1");
        CHECK(again.field("smem")->text() == "1024");
        CHECK(again.argsEdit()->toPlainText().startsWith("--arg 5=1\n"));
        // Another module is not offered this one's launch.
        const QString other = copyInto(dir, kPtx + "tma_tile_sm_90a.ptx", "other.ptx");
        LaunchDialog fresh(nullptr, other, *module, labels);
        CHECK(fresh.field("grid")->text() == "1,1,1");
    }
}

TEST_CASE("File > Open of a .ptx opens the composed kernel scenario", "[views][gui][kernel]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString ptx = copyInto(dir, kPtx + "tma_tile_sm_90a.ptx", "launch_me.ptx");
    SECTION("the remembered launch runs (ptx-launch=run)") {
        KernelLaunch l;
        l.ptxPath = ptx.toStdString();
        l.entry = "1";
        l.grid = "1";
        l.block = "32";
        l.argLines = {"--arg 2=0", "--arg 3=0"};
        rememberLaunch(ptx, l);
        AutoAnswer a("ptx-launch=run");
        MainWindow w;
        w.openFile(ptx);
        const QString text = w.editorDock()->editor()->toPlainText();
        CHECK(text.startsWith("# A launch of kernel tmaTileStores("));
        CHECK(text.contains("kernel " + ptx + " \\\n    --entry 1 \\\n    --grid 1 --block 32 \\\n"));
        CHECK(w.editorDock()->path().isEmpty()); // untitled: Save As keeps it as a .scn
        CHECK(w.editorDock()->isModified());
        REQUIRE(w.document());
        CHECK(w.document()->text() == text.toStdString());
    }
    SECTION("a launch that does not compose opens with its error") {
        AutoAnswer a("ptx-launch=run"); // no launch remembered: the parameter lines have no values
        MainWindow w;
        w.openFile(ptx);
        REQUIRE(w.document());
        CHECK_FALSE(w.document()->hasTrace());
        CHECK(w.diagnosticsText().contains("the remembered launch does not compose: argument line 1"));
    }
    SECTION("cancel opens nothing") {
        AutoAnswer a("ptx-launch=cancel");
        MainWindow w;
        const std::string before = w.document()->text();
        w.openFile(ptx);
        CHECK(w.document()->text() == before);
    }
}

TEST_CASE("The Source dock shows the PTX and CUDA lines of the step's instruction", "[views][gui][kernel]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    SourcePane* pane = w.sourcePane();
    REQUIRE(pane);
    SECTION("a hand-written scenario: no Source dock") {
        w.openFile(LAYOUTSCOPE_ASSETS_DIR "/scenarios/tma_tile_64x64_f16_sw128.scn");
        CHECK_FALSE(w.sourceDock()->isVisible());
        CHECK(pane->ptxStatus().startsWith("Not a recorded kernel"));
    }
    SECTION("PTX and .cu beside it, followed step by step, each file read once") {
        const std::string ptx = test::writeRecordedSources(dir.path().toStdString(), true);
        w.setDocument(test::makeRecordedDocument(ptx));
        CHECK(w.sourceDock()->isVisible());
        w.playback()->seek(2); // instr 0: PTX line 12, src/kernel.cu:7
        CHECK(pane->ptxLine() == 12);
        CHECK(highlighted(pane->ptxView()) == "// line 12");
        CHECK(pane->cudaLine() == 7);
        CHECK(highlighted(pane->cudaView()) == "// cu line 7");
        CHECK(pane->cudaStatus() == "kernel.cu, line 7");
        CHECK(pane->ptxStatus() == "kernel.ptx:12  instr 1/4  warp 0 of CTA 0");
        test::screenshot(w, "kernel_source_1280x800.png");
        w.playback()->seek(5); // instr 2: line 20, kernel.cu:11
        CHECK(highlighted(pane->ptxView()) == "// line 20");
        CHECK(highlighted(pane->cudaView()) == "// cu line 11");
        w.playback()->seek(6); // instr 3: line 24, no CUDA line
        CHECK(highlighted(pane->ptxView()) == "// line 24");
        CHECK(pane->cudaStatus().startsWith("no line info"));
        const int reads = pane->fileReads();
        CHECK(reads == 2); // the module and the .cu, once each
        for (uint32_t s = 0; s <= 6; ++s) w.playback()->seek(s);
        CHECK(pane->fileReads() == reads);
        // An edit's re-run of the same kernel keeps the module loaded.
        w.setDocument(test::makeRecordedDocument(ptx), true);
        CHECK(pane->fileReads() == reads);
    }
    SECTION("a module with no CUDA line info: the PTX takes the whole dock") {
        const std::string ptx = test::writeRecordedSources(dir.path().toStdString(), false);
        w.setDocument(test::makeRecordedDocument(ptx, false));
        w.playback()->seek(2);
        QCoreApplication::processEvents();
        CHECK(highlighted(pane->ptxView()) == "// line 12");
        CHECK_FALSE(pane->cudaView()->isVisibleTo(pane));
        CHECK(pane->ptxView()->width() > pane->width() * 3 / 4);
        CHECK(pane->cudaStatus().startsWith("no line info"));
        // A module with CUDA lines shows the CUDA side again.
        const std::string withCu = test::writeRecordedSources(dir.path().toStdString(), true);
        w.setDocument(test::makeRecordedDocument(withCu));
        w.playback()->seek(2);
        CHECK(pane->cudaView()->isVisibleTo(pane));
        CHECK(pane->cudaStatus() == "kernel.cu, line 7");
    }
    SECTION("the .cu is not found: said plainly") {
        const std::string ptx = test::writeRecordedSources(dir.path().toStdString(), false);
        w.setDocument(test::makeRecordedDocument(ptx));
        w.playback()->seek(2);
        CHECK(highlighted(pane->ptxView()) == "// line 12");
        CHECK(pane->cudaStatus().startsWith("source not found: src/kernel.cu"));
        CHECK(pane->cudaView()->toPlainText().isEmpty());
    }
    SECTION("a 5,000-line module: a step moves the highlight, nothing is read again") {
        const QString big = dir.filePath("kernel.ptx");
        QFile f(big);
        REQUIRE(f.open(QIODevice::WriteOnly));
        for (int i = 1; i <= 5000; ++i) f.write(QString("// line %1\n").arg(i).toUtf8());
        f.close();
        w.setDocument(test::makeRecordedDocument(big.toStdString()));
        const int reads = pane->fileReads();
        for (int round = 0; round < 20; ++round)
            for (uint32_t s = 0; s <= 6; ++s) w.playback()->seek(s);
        CHECK(pane->fileReads() == reads);
        CHECK(pane->ptxView()->document()->blockCount() >= 5000);
        CHECK(highlighted(pane->ptxView()) == "// line 24");
    }
}

TEST_CASE("Clicking a byte names the instruction and lines that moved it", "[views][gui][kernel]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const std::string ptx = test::writeRecordedSources(dir.path().toStdString(), true);
    MainWindow w;
    w.setDocument(test::makeRecordedDocument(ptx));
    w.playback()->seek(6); // every byte written; the step's instruction is instr 3 (line 24)
    CHECK(w.sourcePane()->ptxLine() == 24);
    const auto cell = w.smemCellOf(0x505); // written by st.shared.v4 of warp 1 (PTX line 20)
    REQUIRE(cell);
    w.selectSmemCell(cell->x, cell->y);
    const QString msg = w.statusBar()->currentMessage();
    CHECK(msg.contains("st.shared.v4.u32"));
    CHECK(msg.contains("PTX line 20, kernel.cu:11, warp 1 of CTA 0"));
    CHECK(w.sourcePane()->ptxLine() == 20);
    CHECK(highlighted(w.sourcePane()->cudaView()) == "// cu line 11");
}

TEST_CASE("The event list and the timeline filter by warp and by family", "[views][gui][kernel]") {
    MainWindow w;
    w.setDocument(test::makeRecordedDocument());
    EventList* list = w.eventList();
    REQUIRE(QTest::qWaitFor([list] { return list->filled(); }, 5000));
    auto* bar = w.findChild<InstrFilterBar*>();
    REQUIRE(bar);
    auto* tl = w.findChild<TimelineWidget*>();
    REQUIRE(tl);
    auto hiddenRows = [list] {
        std::vector<bool> h;
        for (int i = 0; i < list->topLevelItemCount(); ++i) h.push_back(list->topLevelItem(i)->isHidden());
        return h;
    };
    QComboBox* warp = bar->warpBox();
    QComboBox* family = bar->familyBox();
    REQUIRE(warp->count() == 4);
    CHECK(warp->itemText(0) == "all warps");
    CHECK(warp->itemText(2) == "warp 1 of CTA 0 (2)");
    CHECK(hiddenRows() == std::vector<bool>{false, false, false, false});
    SECTION("warp 1: its two instructions") {
        warp->setCurrentIndex(2);
        emit warp->activated(2);
        CHECK(hiddenRows() == std::vector<bool>{true, false, false, true});
        CHECK(tl->shown() == std::vector<bool>{false, true, true, false});
        CHECK(list->shownCount() == 2);
    }
    SECTION("a family: ld/st") {
        const int i = family->findText("ld/st (2)");
        REQUIRE(i > 0);
        family->setCurrentIndex(i);
        emit family->activated(i);
        CHECK(hiddenRows() == std::vector<bool>{true, true, false, false});
        SECTION("and warp 2") {
            warp->setCurrentIndex(3);
            emit warp->activated(3);
            CHECK(hiddenRows() == std::vector<bool>{true, true, true, false});
        }
    }
    SECTION("a new document shows everything again") {
        warp->setCurrentIndex(1);
        emit warp->activated(1);
        w.setDocument(test::makeRecordedDocument());
        REQUIRE(QTest::qWaitFor([list] { return list->filled(); }, 5000));
        CHECK(hiddenRows() == std::vector<bool>{false, false, false, false});
        CHECK(tl->shown().empty());
        CHECK(bar->warpBox()->currentIndex() == 0);
    }
}

TEST_CASE("The Source dock and the filter bar fit 1280x800 and 1920x1080", "[views][gui][kernel]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const std::string ptx = test::writeRecordedSources(dir.path().toStdString(), true);
    for (const QSize size : {QSize(1280, 800), QSize(1920, 1080)}) {
        INFO(size.width() << "x" << size.height());
        MainWindow w;
        w.resize(size);
        w.show();
        REQUIRE(QTest::qWaitForWindowExposed(&w));
        w.setDocument(test::makeRecordedDocument(ptx));
        w.playback()->seek(5);
        auto* bar = w.findChild<InstrFilterBar*>();
        REQUIRE(bar);
        bar->warpBox()->setCurrentIndex(2);
        emit bar->warpBox()->activated(2);
        QCoreApplication::processEvents();
        CHECK(w.sourceDock()->isVisible());
        CHECK_FALSE(w.sourcePane()->visibleRegion().isEmpty()); // its tab is the one shown
        CHECK(w.sourcePane()->ptxView()->width() > 100);
        CHECK(w.sourcePane()->cudaView()->width() > 100);
        CHECK(bar->isVisible());
        CHECK(bar->width() >= bar->minimumSizeHint().width());
        CHECK(w.width() <= size.width()); // nothing new widened the window
        test::screenshot(w, size.width() == 1280 ? "kernel_1280x800.png" : "kernel_1920x1080.png");
    }
}

namespace {
/// A file of `n` lines "// cu line K" at `path` (parents made): a stand-in for a CUDA source the test
/// machine does not have, so the highlighted line's text says which line it is.
void writeNumberedFile(const QString& path, int n) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    REQUIRE(f.open(QIODevice::WriteOnly));
    for (int i = 1; i <= n; ++i) f.write(QString("// cu line %1\n").arg(i).toUtf8());
}
} // namespace

TEST_CASE("A CuTe tutorial kernel opens as a kernel scenario with its source", "[views][gui][kernel][cute]") {
    // hopper/wgmma_sm90.cu's gemm_nt at m = n = 128, k = 256: the launch line of docs/exec.md.
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    copyInto(dir, QStringLiteral(LAYOUTSCOPE_TEST_DATA_DIR) + "/cute_tutorials/wgmma_sm90.ptx",
             "wgmma_sm90.ptx");
    const QString scn = dir.filePath("wgmma.scn");
    QFile f(scn);
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.write("# CuTe tutorial hopper/wgmma_sm90.cu, gemm_nt (docs/exec.md)\n"
            "kernel wgmma_sm90.ptx --entry 0 --grid 1,1 --block 128 --dynamic-smem 98304 \\\n"
            "  --tensor A=tensor:f16[256,128]:int:1 --tensor B=tensor:f16[256,128]:int:2 \\\n"
            "  --tensor C=tensor:f16[128,128]:zeros --arg 0=fields:0=s32:128,4=s32:128,8=s32:256 \\\n"
            "  --arg 1=fields: --arg 2=fields:0=ptr:A --arg 3=fields:0=s32:128 --arg 4=fields: --arg "
            "5=fields: \\\n"
            "  --arg 6=fields:0=ptr:B --arg 7=fields:0=s32:128 --arg 8=fields: --arg 9=fields: \\\n"
            "  --arg 10=fields:0=ptr:C --arg 11=fields:0=s32:128 --arg 12=fields:0=u32:1 \\\n"
            "  --arg 13=fields:0=f16:1 --arg 14=fields:0=f16:0\n");
    f.close();
    // The module's text, line by line (the truth the Source dock's highlight is checked against).
    QFile m(dir.filePath("wgmma_sm90.ptx"));
    REQUIRE(m.open(QIODevice::ReadOnly));
    const QStringList ptxLines = QString::fromUtf8(m.readAll()).split('\n');

    MainWindow w;
    w.resize(1280, 800);
    w.show();
    w.openFile(scn);
    REQUIRE(w.document());
    INFO(w.diagnosticsText().toStdString());
    REQUIRE(w.document()->hasTrace());
    CHECK(QString::fromStdString(w.document()->kernelPtxPath()).endsWith("wgmma_sm90.ptx"));
    CHECK(w.sourceDock()->isVisible());
    const Trace& t = w.document()->trace();
    // The first instruction that moved shared bytes (a cp.async of the mainloop, recorded as a poke).
    size_t k = 0;
    while (k < t.instrs.size() &&
           !(t.instrs[k].endStep > t.instrs[k].firstStep && t.instrs[k].origin.known()))
        ++k;
    REQUIRE(k < t.instrs.size());
    const SourceOrigin o = t.instrs[k].origin;
    REQUIRE(o.ptxLine <= ptxLines.size());
    // The CUDA file the origin names, made beside the module (as written, relative to its folder).
    REQUIRE_FALSE(o.cudaFile.empty());
    writeNumberedFile(dir.filePath(QString::fromStdString(o.cudaFile)), o.cudaLine + 10);
    w.playback()->seek(t.instrs[k].endStep);
    SourcePane* pane = w.sourcePane();
    CHECK(pane->ptxLine() == o.ptxLine);
    CHECK(highlighted(pane->ptxView()) == ptxLines[o.ptxLine - 1]);
    CHECK(highlighted(pane->cudaView()) == QString("// cu line %1").arg(o.cudaLine));
    // Its family from the module's line: what nvcc wrote there.
    const InstrFamily fam = w.document()->instrFamilies()[k];
    CHECK(fam == instrFamilyOf(ptxLines[o.ptxLine - 1].toStdString()));
    // Four warps issued instructions; filtering on one hides every other's rows.
    auto* bar = w.findChild<InstrFilterBar*>();
    REQUIRE(bar);
    CHECK(bar->warpBox()->count() == 5); // all + warps 0..3 of CTA 0
    EventList* list = w.eventList();
    REQUIRE(QTest::qWaitFor([list] { return list->filled(); }, 20000));
    bar->warpBox()->setCurrentIndex(2);
    emit bar->warpBox()->activated(2);
    size_t shown = 0, wrong = 0;
    for (int i = 0; i < list->topLevelItemCount(); ++i) {
        if (list->topLevelItem(i)->isHidden()) continue;
        ++shown;
        wrong += t.instrs[size_t(i)].origin.warp != 1;
    }
    CHECK(shown > 0);
    CHECK(wrong == 0);
    test::screenshot(w, "cute_wgmma_1280x800.png");
    w.resize(1920, 1080);
    test::screenshot(w, "cute_wgmma_1920x1080.png");
}
