// The editor's re-check runs off the UI thread (issue 11): typing in a 10,000-instruction scenario
// never stalls the event loop for long. A 2 ms probe timer measures the longest gap between its
// ticks while keys are typed and re-checks run and land; the bound (1 s) only guards against the old
// ~27 s freeze (CI machines are slow and shared); the number is printed (views/README.md "Benchmarks").
#include "code_editor.hpp"
#include "editor_dock.hpp"
#include "main_window.hpp"

#include <catch2/catch.hpp>

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {
/// 1 mbarrier.init + 3,333 x (expect-tx, a 32x8 fp32 tile load, wait) = 10,000 instructions.
QByteArray tenThousandInstructions() {
    QByteArray s = "target sm_90a\ntensormap A tiled FLOAT32 dims=[1024,512] box=[32,8]\nsmem sA 1024\n"
                   "mbarrier bar\nmbarrier.init.shared::cta.b64 [bar], 1;\n";
    for (int k = 0; k < 3333; ++k) {
        s += "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 1024;\n";
        s += "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [A, {" +
             QByteArray::number(32 * (k % 32)) + ", " + QByteArray::number(8 * (k % 64)) + "}], [bar];\n";
        s += "mbarrier.try_wait.parity.shared::cta.b64 p, [bar], " + QByteArray::number(k % 2) + ";\n";
    }
    return s;
}
/// 3,000 64x64 fp16 SWIZZLE_128B tile loads (issue 25 item 11: "editor stall with 3,000 64x64 loads
/// reached 64 ms"): 512 moves each, 1.5 M moves, the views' passes 150x larger than above.
QByteArray threeThousandTileLoads() {
    QByteArray s =
        "tensormap A tiled FLOAT16 dims=[8192,8192] box=[64,64] swizzle=128B\nsmem sA 8192 align=1024\n"
        "mbarrier bar\nmbarrier.init.shared::cta.b64 [bar], 1;\n";
    for (int i = 0; i < 3000; ++i) // each waited for (without, each races the last: a slow engine check)
        s += "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 8192;\n"
             "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [A, {" +
             QByteArray::number(64 * (i % 128)) + ", " + QByteArray::number(64 * ((i / 128) % 128)) +
             "}], [bar];\nmbarrier.try_wait.parity.shared::cta.b64 p, [bar], " + QByteArray::number(i % 2) +
             ";\n";
    return s;
}
} // namespace

TEST_CASE("Typing in a large scenario never stalls the window", "[views][gui][editor][robust]") {
    QTemporaryDir tmp;
    const QString path = tmp.filePath("ten_thousand.scn");
    size_t instrs = 0;
    const char* what = "";
    SECTION("10,000 instructions: 3,333 loads of 32x8 fp32") {
        instrs = 10000;
        what = "10,000 instructions (3,333 32x8 fp32 loads)";
    }
    SECTION("3,000 loads of 64x64 fp16 SW128, each waited for (1.5 M moves)") {
        instrs = 9001;
        what = "3,000 64x64 fp16 loads";
    }
    {
        QFile f(path);
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write(instrs == 10000 ? tenThousandInstructions() : threeThousandTileLoads());
    }
    MainWindow w;
    w.resize(1400, 900);
    QElapsedTimer load;
    load.start();
    w.openFile(path);
    const qint64 loadMs = load.elapsed();
    REQUIRE(w.document()->hasTrace());
    REQUIRE(w.document()->trace().instrs.size() == instrs);
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    EditorDock* dock = w.editorDock();
    CodeEditor* ed = dock->editor();
    QTextCursor c(ed->document());
    c.movePosition(QTextCursor::End);
    ed->setTextCursor(c);
    ed->setFocus();
    QTest::qWait(200);

    QElapsedTimer clock;
    qint64 last = 0, worst = 0;
    QTimer probe;
    probe.setInterval(2);
    QObject::connect(&probe, &QTimer::timeout, [&] {
        const qint64 now = clock.elapsed();
        worst = std::max(worst, now - last);
        last = now;
    });
    clock.start();
    probe.start();
    int rechecks = 0;
    for (int round = 0; round < 4; ++round) {
        const Document* before = w.document();
        for (const char* key : {"#", " ", "n", "o", "t", "e", ""}) { // a comment: the text stays valid
            if (*key)
                QTest::keyClicks(ed, key);
            else
                QTest::keyClick(ed, Qt::Key_Return);
            QTest::qWait(40); // faster than the debounce: each key cancels the pending check
        }
        QTRY_VERIFY_WITH_TIMEOUT(!dock->checking(), 30000); // the worker ran it and the views took it
        QTest::qWait(50);
        rechecks += w.document() != before ? 1 : 0;
    }
    probe.stop();
    WARN(what << ": open " << loadMs << " ms (UI thread, synchronous); while typing, longest "
              << "event-loop stall " << worst << " ms over " << clock.elapsed() << " ms, " << rechecks
              << " re-checks applied");
    CHECK(rechecks == 4);
    CHECK(w.document()->trace().instrs.size() == instrs);
#ifndef LAYOUTSCOPE_SANITIZED // a Debug ASan+UBSan build is many times slower: report only
    // Not a speed goal (that is the benchmark's 50 ms): a regression guard against the old behaviour, a
    // synchronous re-check that froze the window ~27 s per edit. 1 s holds on a loaded 2-core machine
    // (315 ms was seen there while other builds ran).
    CHECK(worst < 1000);
#endif
}
