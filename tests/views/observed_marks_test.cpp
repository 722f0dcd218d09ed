// The `observe` directive in the views (issue 13 item 4): the document compares the dump, says so in a
// diagnostic at the directive, and the shared-memory scene marks exactly the differing bytes. The expected
// bytes come from the swizzle definition (tma.md §6: chunk j of 128-B row r at position j ^ (r % 8)), not
// from the engine: assets/scenarios/tma_observed_dump.scn holds an unswizzled dump of a SWIZZLE_128B box.
#include "scene/document.hpp"
#include "scene/global_scene.hpp"
#include "scene/smem_scene.hpp"
#include "scene/tmem_scene.hpp"

#include <catch2/catch.hpp>

#include <set>

using namespace layoutscope;
using namespace layoutscope::views;

TEST_CASE("observe: bytes that differ from a dump are marked and named", "[views][observed]") {
    auto doc = Document::fromFile(std::string(LAYOUTSCOPE_TEST_ASSETS) + "/scenarios/tma_observed_dump.scn");
    REQUIRE(doc->hasTrace());
    // The two tiles from the formula: element (x, y) = y*64 + x, fp16 little-endian.
    std::vector<uint8_t> swz(1024), flat(1024);
    for (uint32_t y = 0; y < 8; ++y)
        for (uint32_t x = 0; x < 64; ++x) {
            const uint32_t v = y * 64 + x, inRow = (x % 8) * 2;
            const uint32_t a = y * 128 + (((x / 8) ^ y) * 16) + inRow, b = y * 128 + (x / 8) * 16 + inRow;
            swz[a] = uint8_t(v), swz[a + 1] = uint8_t(v >> 8);
            flat[b] = uint8_t(v), flat[b + 1] = uint8_t(v >> 8);
        }
    std::set<uint32_t> expected;
    for (uint32_t i = 0; i < 1024; ++i)
        if (swz[i] != flat[i]) expected.insert(1024 + i); // sA is the first buffer: shared::cta 1024
    REQUIRE(!expected.empty());
    CHECK(*expected.begin() == 1024 + 128); // row 0 is the same either way

    const auto& marked = doc->observedDiffers(0);
    CHECK(std::set<uint32_t>(marked.begin(), marked.end()) == expected);
    bool said = false;
    for (const Diagnostic& d : doc->diagnostics())
        if (d.severity == Severity::Warning &&
            d.message.find("observe smem sA: " + std::to_string(expected.size()) + " of 1024 bytes differ") ==
                0 &&
            d.message.find("holds element (x=0, y=1) of A; the engine predicts (x=8, y=1)") !=
                std::string::npos)
            said = true;
    CHECK(said);

    const SmemScene s = smemSceneAt(*doc, doc->trace().stepCount, {}, 0);
    CHECK(s.observedMarked == expected.size());
    for (uint32_t a : {1024u + 0u, 1024u + 127u, 1024u + 128u})
        CHECK(bool(s.texels.at(*s.indexOf(a)).a & kFlagDiffers) == bool(expected.count(a)));
}

TEST_CASE("observe tmem: the one wrong cell of a hand-written dump is marked", "[views][observed]") {
    // tests/data/observed/tmem_st_32x32b.scn: lane t column j holds t << 16 | j (32x32b, tcgen05.md §4.1);
    // its dump has lane 5 column 1 wrong.
    auto doc = Document::fromFile(std::string(LAYOUTSCOPE_TEST_ASSETS) +
                                  "/../tests/data/observed/tmem_st_32x32b.scn");
    REQUIRE(doc->hasTrace());
    const auto& cells = doc->observedTmemDiffers();
    REQUIRE(cells.size() == 1);
    CHECK((cells[0].cta == 0 && cells[0].lane == 5 && cells[0].column == 1));
    const TmemScene s = tmemSceneAt(*doc, doc->trace().stepCount, 0);
    CHECK(s.observedMarked == 1);
    const auto g = s.gridOf(TmemCellRef{0, 5, 1});
    REQUIRE(g);
    CHECK(bool(s.texels.at(size_t(g->y) * s.width() + g->x).a & kFlagDiffers));
    const auto g2 = s.gridOf(TmemCellRef{0, 5, 0});
    CHECK_FALSE(bool(s.texels.at(size_t(g2->y) * s.width() + g2->x).a & kFlagDiffers));
}

TEST_CASE("observe global: the one wrong element of a stored tile is marked in the global view",
          "[views][observed]") {
    // tests/data/observed/store_global.scn: C after the store, written by hand, element (3, 17) wrong.
    auto doc =
        Document::fromFile(std::string(LAYOUTSCOPE_TEST_ASSETS) + "/../tests/data/observed/store_global.scn");
    REQUIRE(doc->hasTrace());
    const auto& els = doc->observedGlobalDiffers();
    REQUIRE(els.size() == 1);
    CHECK((els[0].coords[0] == 3 && els[0].coords[1] == 17));
    // The store is instruction 5 (init, expect_tx, load, try_wait, fence, store).
    const GlobalScene g = globalSceneAt(*doc, 5, doc->trace().stepCount, {});
    CHECK(g.observedMarked == 1);
    const auto cell = g.cellOf({3, 17, 0, 0, 0});
    REQUIRE(cell);
    CHECK(bool(g.texels.at(size_t((*cell)[1]) * g.w + (*cell)[0]).a & kFlagDiffers));
}
