// Opening a PTX module in the GUI (issue 13 item 2): the scaffold of its kernel opens as an untitled,
// modified scenario that runs (docs/ptx-modules.md). tests/data/ptx holds nvcc 13 output
// (scripts/gen-ptx); tcgen05_ops_sm_100a.ptx has one .entry, tma_tile_sm_90a.ptx two.
#include "code_editor.hpp"
#include "editor_dock.hpp"
#include "main_window.hpp"
#include "scene/document.hpp"

#include <catch2/catch.hpp>

#include <QFile>
#include <QTemporaryDir>
#include <QTextDocument>

using namespace layoutscope::views;

namespace {
const QString kPtx = QStringLiteral(LAYOUTSCOPE_TEST_DATA_DIR) + "/ptx/";

/// File > Open of a .ptx asks for a launch first (issue 22 item 4): these tests take its "Scaffold a
/// scenario instead" button.
struct ChooseScaffold {
    QByteArray saved = qgetenv("LAYOUTSCOPE_AUTO_ANSWER");
    ChooseScaffold() {
        qputenv("LAYOUTSCOPE_AUTO_ANSWER", saved + (saved.isEmpty() ? "" : ",") + "ptx-launch=scaffold");
    }
    ~ChooseScaffold() { qputenv("LAYOUTSCOPE_AUTO_ANSWER", saved); }
};
} // namespace

TEST_CASE("Opening a .ptx offers the scaffold of its kernel", "[views][gui][ptx]") {
    const ChooseScaffold scaffold;
    SECTION("one kernel: its scaffold opens untitled, modified, and runs") {
        MainWindow w;
        w.openFile(kPtx + "tcgen05_ops_sm_100a.ptx");
        const QString text = w.editorDock()->editor()->toPlainText();
        CHECK(text.contains("tcgen05_ops_sm_100a.ptx"));
        CHECK(text.contains("tcgen05.alloc"));
        CHECK(w.editorDock()->path().isEmpty());
        CHECK(w.editorDock()->isModified());
        REQUIRE(w.document());
        CHECK(w.document()->hasTrace());
    }
    SECTION("two kernels: the one picked from the list opens") {
        // The choices are the demangled signatures (tmaTileLoads(...), tmaTileStores(...)); they hold commas,
        // so the automatic answer names the second by its index.
        const QByteArray saved = qgetenv("LAYOUTSCOPE_AUTO_ANSWER");
        qputenv("LAYOUTSCOPE_AUTO_ANSWER", saved + (saved.isEmpty() ? "" : ",") + "ptx-entry=#1");
        MainWindow w;
        w.openFile(kPtx + "tma_tile_sm_90a.ptx");
        qputenv("LAYOUTSCOPE_AUTO_ANSWER", saved);
        const QString text = w.editorDock()->editor()->toPlainText();
        CHECK(text.contains("cp.async.bulk.tensor.2d.global.shared::cta")); // the store kernel's
        CHECK_FALSE(text.contains("mbarrier::complete_tx"));                // not the load kernel's
        REQUIRE(w.document());
        CHECK(w.document()->hasTrace());
    }
}

TEST_CASE("Opening a .ptx that does not check shows its diagnostics, no scaffold", "[views][gui][ptx]") {
    // Issue 25 item 1: a TMA load with no operands crashed scaffoldScenario; the CLI's scaffold refuses
    // the module (ptxas too: "Arguments mismatch for instruction 'cp.async.bulk.tensor'").
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath("no_operands.ptx");
    QFile f(path);
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.write(".version 8.0\n.target sm_90a\n.address_size 64\n\n.visible .entry k(\n    .param .u64 p\n)\n{\n"
            "    cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes;\n    "
            "ret;\n}\n");
    f.close();
    MainWindow w;
    w.openFile(path);
    REQUIRE(w.document());
    CHECK_FALSE(w.document()->hasTrace());
    bool error = false;
    for (const auto& d : w.document()->diagnostics()) {
        error |= d.severity == layoutscope::Severity::Error;
        CHECK(d.span.line == 9); // the instruction's line of the module
    }
    CHECK(error);
    CHECK(w.editorDock()->editor()->toPlainText().contains("mbarrier::complete_tx::bytes;")); // the module
}
