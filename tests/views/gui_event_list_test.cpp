// Event list: one row per instruction with its bytes, expandable into sub-steps; selecting seeks.
#include "event_list.hpp"
#include "scene/document.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope;
using namespace layoutscope::views;

TEST_CASE("The event list has a row per instruction and seeks on selection", "[views][gui][events]") {
    // tma_tile_noswizzle.scn: a 32x8 fp32 box = 32*8*4 = 1024 B copied by one TMA load.
    auto doc = Document::fromFile(LAYOUTSCOPE_ASSETS_DIR "/scenarios/tma_tile_noswizzle.scn");
    REQUIRE(doc->hasTrace());
    const Trace& t = doc->trace();
    EventList list;
    list.setTrace(&t);
    REQUIRE(list.topLevelItemCount() == int(t.instrs.size()));
    int load = -1;
    for (int i = 0; i < list.topLevelItemCount(); ++i)
        if (list.topLevelItem(i)->text(EventList::ColPtx).contains("cp.async.bulk.tensor")) load = i;
    REQUIRE(load >= 0);
    QTreeWidgetItem* row = list.topLevelItem(load);
    CHECK(row->text(EventList::ColBytes) == "1024");
    CHECK(row->text(EventList::ColCta) == "0");
    CHECK(row->childCount() == 0); // sub-steps are made on first expansion (a large trace has millions)
    row->setExpanded(true);
    CHECK(row->childCount() == int(t.instrs[size_t(load)].endStep - t.instrs[size_t(load)].firstStep));
    std::vector<uint32_t> seeks;
    QObject::connect(&list, &EventList::seekRequested, [&](uint32_t s) { seeks.push_back(s); });
    list.setCurrentItem(row);
    REQUIRE(seeks.size() == 1);
    CHECK(seeks[0] == t.instrs[size_t(load)].endStep);
    list.setCurrentItem(row->child(0));
    REQUIRE(seeks.size() == 2);
    CHECK(seeks[1] == t.instrs[size_t(load)].firstStep + 1);
    list.showStep(t.instrs[size_t(load)].firstStep + 1); // following the timeline emits nothing
    CHECK(seeks.size() == 2);
}

TEST_CASE("Following the timeline selects the instruction row, or its sub-step when expanded",
          "[views][gui][events]") {
    auto doc = Document::fromFile(LAYOUTSCOPE_ASSETS_DIR "/scenarios/tma_tile_noswizzle.scn");
    REQUIRE(doc->hasTrace());
    const Trace& t = doc->trace();
    EventList list;
    list.setTrace(&t);
    int load = -1;
    for (int i = 0; i < list.topLevelItemCount(); ++i)
        if (list.topLevelItem(i)->text(EventList::ColPtx).contains("cp.async.bulk.tensor")) load = i;
    REQUIRE(load >= 0);
    const TraceInstr& in = t.instrs[size_t(load)];
    REQUIRE(in.endStep - in.firstStep >= 3);
    QTreeWidgetItem* row = list.topLevelItem(load);
    std::vector<uint32_t> seeks;
    QObject::connect(&list, &EventList::seekRequested, [&](uint32_t s) { seeks.push_back(s); });
    SECTION("collapsed: the row, left collapsed") {
        row->setExpanded(false);
        list.showStep(in.firstStep + 3); // the state after the load's third step
        CHECK(list.currentItem() == row);
        CHECK_FALSE(row->isExpanded());
    }
    SECTION("expanded: the sub-step that led to the step") {
        row->setExpanded(true);
        list.showStep(in.firstStep + 3);
        CHECK(list.currentItem() == row->child(2));
        list.showStep(in.endStep);
        CHECK(list.currentItem() == row->child(row->childCount() - 1));
    }
    SECTION("step 0 (before any move) selects nothing new") {
        QTreeWidgetItem* before = list.currentItem();
        list.showStep(0);
        CHECK(list.currentItem() == before);
    }
    CHECK(seeks.empty()); // following the timeline never seeks
}

TEST_CASE("The event list names the rules an instruction rests on that no single move carries",
          "[views][gui][events]") {
    // The decompressing warpx2 cp: its moves carry the decompression rule; the warpx2 pairing and the
    // source walk hold for the whole instruction (open questions 20 and 3) and must be shown too.
    auto doc = Document::fromFile(LAYOUTSCOPE_ASSETS_DIR "/scenarios/tcgen05_cp_64x128b_warpx2_02_13_b6.scn");
    REQUIRE(doc->hasTrace());
    EventList list;
    list.setTrace(&doc->trace());
    QString prov;
    for (int i = 0; i < list.topLevelItemCount(); ++i)
        if (list.topLevelItem(i)->text(EventList::ColPtx).startsWith("tcgen05.cp"))
            prov = list.topLevelItem(i)->text(EventList::ColProvenance);
    INFO(prov.toStdString());
    CHECK(prov.contains("decompress b6x16_p32"));
    CHECK(prov.contains("tcgen05.cp warpx2 ("));
    CHECK(prov.contains("tcgen05.cp source walk ("));
    CHECK(prov.count("unverified") >= 3);
}
