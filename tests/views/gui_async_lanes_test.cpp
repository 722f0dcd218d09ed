// The timeline's async lanes (issue 23 item 4): one lane per async unit kind present, issue-to-completion
// spans, mbarrier phase ticks, a race as an arrow between its two accesses (tooltip naming both, a click
// going to the racing instruction), hidden without asynchronous operations. Truth: the planted bug of each
// broken example (assets/scenarios/broken/*.scn, its header) and its fixed twin.
#include "async_lanes.hpp"
#include "gui_test_util.hpp"
#include "main_window.hpp"
#include "playback.hpp"
#include "scene/document.hpp"
#include "timeline_widget.hpp"

#include <catch2/catch.hpp>

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {

const QString kBroken = QStringLiteral(LAYOUTSCOPE_ASSETS_DIR) + "/scenarios/broken/";

void settle() {
    QTest::qWait(100);
    QCoreApplication::processEvents();
}

std::vector<AsyncLanes::Item> itemsOf(const AsyncLanes* l, AsyncLanes::Item::Kind k) {
    std::vector<AsyncLanes::Item> out;
    for (const AsyncLanes::Item& it : l->items())
        if (it.kind == k) out.push_back(it);
    return out;
}

} // namespace

TEST_CASE("Async lanes: a stage reloaded before the MMA released it shows its race as an arrow",
          "[views][gui][async]") {
    const QSize size = GENERATE(QSize(1280, 800), QSize(1920, 1080));
    MainWindow w;
    w.resize(size);
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    w.openFile(kBroken + "async_stage_reload_before_release.scn");
    settle();
    auto* tl = w.findChild<TimelineWidget*>();
    REQUIRE(tl);
    AsyncLanes* lanes = tl->asyncLanes();
    REQUIRE(lanes);
    CHECK(lanes->isVisible());
    // TMA loads and tcgen05.mma only: two lanes, in that order.
    CHECK(lanes->lanes() == std::vector<async::Lane>{async::Lane::Tma, async::Lane::Mma});
    CHECK(itemsOf(lanes, AsyncLanes::Item::Span).size() == 5); // 3 TMA loads, 2 MMAs
    CHECK(itemsOf(lanes, AsyncLanes::Item::Tick).size() == 3); // full 0, full 1, done 0
    const auto races = itemsOf(lanes, AsyncLanes::Item::Race);
    REQUIRE(races.size() == 1);
    const AsyncLanes::Item& race = races.front();
    CHECK(race.colour == QColor(232, 72, 64));
    // From the MMA reading sA (instruction 8) forward to the TMA reload writing it (instruction 11).
    CHECK(race.line.x1() < race.line.x2());
    CHECK(race.tip.contains("tcgen05.mma"));
    CHECK(race.tip.contains("cp.async.bulk.tensor"));
    CHECK(race.tip.contains("instruction 8"));
    CHECK(race.tip.contains("instruction 11"));
    // Everything lies inside the lanes, which overlap no other part of the timeline.
    for (const AsyncLanes::Item& it : lanes->items()) {
        INFO(it.tip.toStdString());
        CHECK(it.rect.left() >= 0);
        CHECK(it.rect.right() <= lanes->width() + 0.5);
        CHECK(it.rect.bottom() <= lanes->height() + 0.5);
    }
    for (QWidget* sib : tl->findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
        if (sib != lanes && sib->isVisible()) {
            INFO(sib->metaObject()->className());
            CHECK_FALSE(sib->geometry().intersects(lanes->geometry()));
        }
    CHECK(lanes->geometry().bottom() < tl->height());
    // Clicking the arrow goes to the racing access: the step after instruction 11.
    w.playback()->toStart();
    QSignalSpy activated(lanes, &AsyncLanes::instrActivated);
    QTest::mouseClick(lanes, Qt::LeftButton, Qt::NoModifier, race.line.center().toPoint());
    settle();
    CHECK(activated.count() == 1);
    CHECK(activated.front().front().toUInt() == 11);
    REQUIRE(w.document()->hasTrace());
    CHECK(w.playback()->step() == w.document()->trace().instrs[11].endStep);
    test::screenshot(w, size.width() == 1920 ? "async_lanes_1920.png" : "async_lanes_1280.png");

    // The fixed twin waits for the MMA's release: spans and phases, no arrow.
    w.openFile(kBroken + "async_stage_reload_before_release_fixed.scn");
    settle();
    CHECK(lanes->isVisible());
    CHECK(itemsOf(lanes, AsyncLanes::Item::Race).empty());
    CHECK_FALSE(itemsOf(lanes, AsyncLanes::Item::Span).empty());
}

TEST_CASE("Async lanes: a TMA load nobody waits for is open-ended; no async operation hides the lanes",
          "[views][gui][async]") {
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    w.openFile(kBroken + "async_no_wait_before_consumer.scn");
    settle();
    AsyncLanes* lanes = w.findChild<TimelineWidget*>()->asyncLanes();
    REQUIRE(lanes->isVisible());
    const auto spans = itemsOf(lanes, AsyncLanes::Item::Span);
    REQUIRE(spans.size() == 1);
    CHECK(spans[0].open);
    CHECK(spans[0].tip.contains("never observed"));
    CHECK(itemsOf(lanes, AsyncLanes::Item::Race).size() == 1);
    CHECK(itemsOf(lanes, AsyncLanes::Item::Tick).empty());

    QTemporaryDir dir;
    const QString path = dir.filePath("plain.scn");
    QFile f(path);
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.write("target sm_90a\nsmem sA 1024\nst.shared.v4.b32 [sA + lane * 16], {%r0, %r1, %r2, %r3};\n");
    f.close();
    w.openFile(path);
    settle();
    CHECK_FALSE(lanes->isVisible());
    CHECK(lanes->items().empty());
}

TEST_CASE(
    "Async lanes: a kernel's run shows its lanes, its race by PTX line, a click goes to the instruction",
    "[views][gui][async][kernel]") {
    // tests/data/exec/order/mma_before_tma_wait.ptx (its README): thread 0 issues the TMA load, then the
    // tcgen05.mma reading the stage before the try_wait.
    // Truth: that PTX, and the recording's instruction list (each instruction's origin PTX line).
    const QSize size = GENERATE(QSize(1280, 800), QSize(1920, 1080));
    const QString dir = QStringLiteral(LAYOUTSCOPE_TEST_DATA_DIR) + "/exec/order/";
    QFile ptx(dir + "mma_before_tma_wait.ptx");
    REQUIRE(ptx.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(ptx.readAll()).split('\n');
    auto lineOf = [&](const QString& needle) {
        for (int i = 0; i < lines.size(); ++i)
            if (lines[i].contains(needle)) return i + 1;
        return 0;
    };
    const int tmaLine = lineOf("cp.async.bulk.tensor"), mmaLine = lineOf("tcgen05.mma.cta_group");
    REQUIRE(tmaLine > 0);
    REQUIRE(mmaLine > 0);

    MainWindow w;
    w.resize(size);
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    w.openFile(dir + "mma_before_tma_wait.launch.scn");
    settle();
    REQUIRE(w.document());
    REQUIRE(w.document()->hasTrace());
    REQUIRE(w.document()->scenario());
    const Scenario& s = *w.document()->scenario();
    auto instrOf = [&](int line) {
        for (uint32_t i = 0; i < s.instrs.size(); ++i)
            if (s.instrs[i].origin.ptxLine == line) return i;
        return uint32_t(UINT32_MAX);
    };
    const uint32_t tma = instrOf(tmaLine), mma = instrOf(mmaLine);
    REQUIRE(mma < s.instrs.size());
    AsyncLanes* lanes = w.findChild<TimelineWidget*>()->asyncLanes();
    REQUIRE(lanes);
    CHECK(lanes->isVisible());
    // The TMA load and the MMA (a kernel's tcgen05.ld is checked at issue, not an async unit: no span).
    CHECK(lanes->lanes() == std::vector<async::Lane>{async::Lane::Tma, async::Lane::Mma});
    CHECK(itemsOf(lanes, AsyncLanes::Item::Span).size() == 2);
    CHECK(itemsOf(lanes, AsyncLanes::Item::Tick).size() == 2); // full 0, mmadone 0
    for (const AsyncLanes::Item& it : itemsOf(lanes, AsyncLanes::Item::Span))
        if (it.tip.startsWith("TmaLoad") || it.tip.contains("cp.async.bulk.tensor")) {
            CHECK(it.instr == tma);
            CHECK(it.tip.contains(QString("PTX line %1").arg(tmaLine)));
            // observed by the try_wait the recording now holds: its end is exact, not approximate
            CHECK_FALSE(it.tip.contains("approximate"));
        }
    const auto races = itemsOf(lanes, AsyncLanes::Item::Race);
    REQUIRE(races.size() == 1);
    const AsyncLanes::Item& race = races.front();
    CHECK(race.line.x1() < race.line.x2());
    CHECK(race.tip.contains(QString("instruction %1 (PTX line %2)").arg(tma).arg(tmaLine)));
    CHECK(race.tip.contains(QString("instruction %1 (PTX line %2)").arg(mma).arg(mmaLine)));
    CHECK(race.tip.contains("race (read after write)"));
    for (const AsyncLanes::Item& it : lanes->items()) {
        INFO(it.tip.toStdString());
        CHECK(it.rect.left() >= 0);
        CHECK(it.rect.right() <= lanes->width() + 0.5);
        CHECK(it.rect.bottom() <= lanes->height() + 0.5);
    }
    CHECK(lanes->geometry().bottom() < w.findChild<TimelineWidget*>()->height());
    w.playback()->toStart();
    QSignalSpy activated(lanes, &AsyncLanes::instrActivated);
    QTest::mouseClick(lanes, Qt::LeftButton, Qt::NoModifier, race.line.center().toPoint());
    settle();
    REQUIRE(activated.count() == 1);
    CHECK(activated.front().front().toUInt() == mma);
    CHECK(w.playback()->step() == w.document()->trace().instrs[mma].endStep);
    test::screenshot(w, size.width() == 1920 ? "async_lanes_kernel_1920.png" : "async_lanes_kernel_1280.png");
}

TEST_CASE("Async lanes: a timeline past its cap says how many items are not drawn", "[views][gui][async]") {
    // async::Timeline keeps kMaxTimelineItems of each kind and counts the rest (a big kernel); the lanes say
    // so in words. Truth: the counts set here.
    QWidget host;
    host.resize(900, 60);
    auto* lanes = new AsyncLanes(&host);
    async::Timeline t;
    t.ops.push_back(
        async::OpSpan{async::OpKind::CpAsync, {}, 0, 1, 10, 11, "cp.async.ca.shared.global", false, true});
    CHECK(lanes->leftOutNote().isEmpty());
    lanes->setOrder(t, {});
    CHECK(lanes->leftOutNote().isEmpty());
    t.opsLeftOut = 4160;
    t.phasesLeftOut = 2;
    lanes->setOrder(t, {});
    const QString note = lanes->leftOutNote();
    CHECK(note.contains("4160 more operations"));
    CHECK(note.contains("2 more phase changes"));
    CHECK_FALSE(note.contains("races"));
    CHECK(note.contains(QString::number(async::kMaxTimelineItems)));
    const auto spans = itemsOf(lanes, AsyncLanes::Item::Span);
    REQUIRE(spans.size() == 1);
    CHECK(spans[0].tip.contains("approximate")); // its completion step is marked approximate
}
