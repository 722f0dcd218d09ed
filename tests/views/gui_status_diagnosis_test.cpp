// Errors where the eye is (issue 24 item 6): the status bar names the first error in red (no green
// check beside "1 diagnostic(s)"), a click goes to its line and the first wrong cell, and the paint
// timings are not in the status bar.
#include "code_editor.hpp"
#include "editor_dock.hpp"
#include "main_window.hpp"

#include <catch2/catch.hpp>

#include <QDockWidget>
#include <QLabel>
#include <QPushButton>
#include <QStatusBar>
#include <QTest>

using namespace layoutscope::views;
using layoutscope::MemSpace;

namespace {
const QString kScenarios = QStringLiteral(LAYOUTSCOPE_ASSETS_DIR) + "/scenarios/";
}

TEST_CASE("A run with an error shows it in red in the status bar; a click goes to it",
          "[views][gui][status]") {
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    SECTION("a planted bug: its diagnosis (the file's '# diagnosis:' line), red, and the line") {
        w.openFile(kScenarios + "broken/expect_tx_too_small.scn");
        QPushButton* b = w.diagnosisButton();
        REQUIRE(b);
        CHECK(b->isVisible());
        CHECK(b->text().startsWith("✘ 1 error(s)"));
        CHECK(b->text().contains("line 10: mbarrier bar")); // elided to the status bar's width...
        CHECK(b->toolTip().contains(
            "expect_tx announced 8192 B but 16384 B")); // ...whole: the file's diagnosis
        CHECK(b->styleSheet().contains("230, 60, 50"));
        QTest::mouseClick(b, Qt::LeftButton);
        const CodeEditor* ed = w.editorDock()->editor();
        int errorLine = 0;
        for (const auto& d : ed->diagnostics())
            if (d.severity == layoutscope::Severity::Error) errorLine = d.span.line;
        REQUIRE(errorLine > 0);
        CHECK(ed->textCursor().blockNumber() + 1 == errorLine);
        CHECK(ed->textCursor().hasSelection());
    }
    SECTION("an observed dump: the first byte that differs is selected") {
        // tma_observed_dump.scn's header: row 0 of the SW128 tile matches (its XOR is 0); from row 1 on
        // the kernel's chunks sit unswizzled, so the first differing byte is the first of row 1, sA+128.
        w.openFile(kScenarios + "tma_observed_dump.scn");
        REQUIRE(w.document());
        REQUIRE(w.document()->hasTrace());
        CHECK(w.diagnosisButton()->isVisible());
        QTest::mouseClick(w.diagnosisButton(), Qt::LeftButton);
        const uint32_t sA = w.document()->smemWindow(0).base;
        REQUIRE(w.selectedLocs().size() == 1);
        CHECK(w.selectedLocs()[0].space == MemSpace::SharedCta);
        CHECK(w.selectedLocs()[0].key == sA + 128);
    }
    SECTION("a tcgen05.mma D the value check finds wrong: its first Tensor Memory cell is selected") {
        // tcgen05_mma_idesc_bf16_for_f16.scn: every D element of the 128 x 64 accumulator at TMEM lane m,
        // column n is wrong (the check's diagnostic: 8192 of 8192), so the first marked cell is lane 0,
        // column 0 of CTA 0.
        w.openFile(kScenarios + "broken/tcgen05_mma_idesc_bf16_for_f16.scn");
        REQUIRE(w.document());
        REQUIRE(w.document()->hasTrace());
        CHECK(w.diagnosisButton()->isVisible());
        QTest::mouseClick(w.diagnosisButton(), Qt::LeftButton);
        REQUIRE(w.selectedLocs().size() == 1);
        CHECK(w.selectedLocs()[0].space == MemSpace::TensorMemory);
        CHECK(w.selectedLocs()[0].cta == 0u);
        CHECK(w.selectedLocs()[0].key == 0u); // lane 0 << 16 | column 0
    }
    SECTION("a clean run: no diagnosis shown") {
        w.openFile(kScenarios + "broken/expect_tx_too_small_fixed.scn");
        CHECK_FALSE(w.diagnosisButton()->isVisible());
    }
    SECTION("no paint timings in the status bar") {
        w.openFile(kScenarios + "tma_tile_64x64_f16_sw128.scn");
        QTest::qWait(200);
        for (const QLabel* l : w.statusBar()->findChildren<QLabel*>()) CHECK_FALSE(l->text().contains(" ms"));
    }
}
