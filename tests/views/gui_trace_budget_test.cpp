// A trace that stopped recording at its memory budget says so in the GUI (issue 25 item 9): the status bar
// names the step and the budget, and the untraced instructions' rows say why they have no steps.
#include "event_list.hpp"
#include "main_window.hpp"
#include "scene/document.hpp"

#include <catch2/catch.hpp>

#include <QLabel>
#include <QStatusBar>
#include <QTest>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {

// 20 SW128 32x32 fp16 loads into one buffer: 2 KiB before + 2 KiB after each with every byte stored, so a
// 10 KiB budget stops recording during the third load (tests/engine/move_table_test.cpp).
std::string loads() {
    std::string text = "tensormap A tiled FLOAT16 dims=[1024,1024] box=[32,32] swizzle=64B\n"
                       "smem sA 2048 align=1024\nmbarrier bar\nmbarrier.init.shared::cta.b64 [bar], 1;\n";
    for (int i = 0; i < 20; ++i)
        text += "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [A, {" +
                std::to_string(32 * i) + ", " + std::to_string(32 * (i % 7)) + "}], [bar];\n";
    return text;
}

QString statusText(MainWindow& w) {
    QString all;
    for (const QLabel* l : w.statusBar()->findChildren<QLabel*>()) all += l->text() + "\n";
    return all;
}

} // namespace

TEST_CASE("A trace summarised at its memory budget says so in the status bar and the event list",
          "[views][gui][status][budget]") {
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    RunOptions o;
    o.compactTrace = false;
    SECTION("over the budget: the step where recording stopped and the budget") {
        o.traceBudgetBytes = 10 * 1024;
        w.setDocument(Document::fromText(loads(), "budget.scn", o));
        REQUIRE(w.document());
        REQUIRE(w.document()->hasTrace());
        const Trace& t = w.document()->trace();
        const size_t cut = t.firstUntraced();
        REQUIRE(cut < t.instrs.size());
        const QString want =
            QString("trace summarised after step %1: the 10 KiB budget").arg(t.instrs[cut].firstStep);
        CHECK(statusText(w).contains(want));
        const QTreeWidgetItem* row = w.eventList()->topLevelItem(int(cut));
        REQUIRE(row);
        CHECK(row->toolTip(EventList::ColSteps).contains("memory budget"));
        CHECK(w.eventList()->topLevelItem(0)->toolTip(EventList::ColSteps).isEmpty()); // traced
    }
    SECTION("within the budget: no note") {
        w.setDocument(Document::fromText(loads(), "budget.scn", o));
        REQUIRE(w.document()->hasTrace());
        CHECK(w.document()->trace().firstUntraced() == w.document()->trace().instrs.size());
        CHECK_FALSE(statusText(w).contains("summarised"));
    }
}
