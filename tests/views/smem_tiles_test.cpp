// Tile boxes in shared memory, swizzle atoms and the bank-conflict heat map of the SMEM view.
// Independent truth: the SWIZZLE_128B formula of tma.md §4.2 (P = A ^ (((A >> 7) & 7) << 4) on the
// absolute address) and the bank rule bank = (addr / 4) mod 32, worked by hand below.
#include "scene/smem_tile_overlay.hpp"
#include "scene/smem_tiles.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {
std::unique_ptr<Document> sw128Doc() {
    auto d = Document::fromFile(LAYOUTSCOPE_TEST_ASSETS "/scenarios/tma_tile_64x64_f16_sw128.scn");
    REQUIRE(d->hasTrace());
    return d;
}
} // namespace

TEST_CASE("A 64x64 fp16 SWIZZLE_128B box sits in shared memory as (64,64):(64,1) with 128-B rows",
          "[views][smem-tiles]") {
    auto doc = sw128Doc();
    const auto tiles = smemTiles(*doc);
    REQUIRE(tiles.size() == 1);
    const SmemTile& t = tiles[0];
    CHECK(t.ctas == std::vector<uint32_t>{0});
    CHECK(t.tile.rows == 64);
    CHECK(t.tile.cols == 64);
    CHECK(t.tile.elemBytes == 2);
    CHECK(t.tile.pitch == 128);
    CHECK(t.tile.swizzle == TensorSwizzle::S128B);
    CHECK(t.tile.base % 1024 == 0); // align=1024 in the scenario
    CHECK(t.bytes() == 8192);
    CHECK(tileLayoutText(t.tile) == "(64,64):(64,1)");
    SECTION("logicalOf inverts the swizzle") {
        // Element (3, 10): bytes 20..21 of row 3, chunk 1; physical chunk 1 ^ 3 = 2, byte 4 in it.
        CHECK(logicalOf(t.tile, t.tile.base + 3 * 128 + 2 * 16 + 4) == std::pair<uint32_t, uint32_t>{3, 10});
        CHECK(logicalOf(t.tile, t.tile.base + 3 * 128 + 2 * 16 + 5) == std::pair<uint32_t, uint32_t>{3, 10});
        // Element (9, 0): row 9 % 8 = 1, chunk 0 -> physical chunk 1.
        CHECK(logicalOf(t.tile, t.tile.base + 9 * 128 + 16) == std::pair<uint32_t, uint32_t>{9, 0});
        CHECK_FALSE(logicalOf(t.tile, t.tile.base + 8192).has_value());
    }
    SECTION("tileCovering finds it inside, not outside") {
        CHECK(tileCovering(tiles, 0, t.tile.base + 100, doc->trace().stepCount) == &tiles[0]);
        CHECK(tileCovering(tiles, 0, t.tile.base + 8192, doc->trace().stepCount) == nullptr);
        CHECK(tileCovering(tiles, 1, t.tile.base, doc->trace().stepCount) == nullptr);
    }
}

TEST_CASE("SWIZZLE_128B atoms are 1024-B blocks aligned in the absolute address space",
          "[views][smem-tiles]") {
    auto doc = sw128Doc();
    const auto tiles = smemTiles(*doc);
    REQUIRE(tiles.size() == 1);
    const uint32_t base = tiles[0].tile.base;
    SECTION("whole window: 8 atoms of 8 rows") {
        const auto atoms = swizzleAtoms(tiles, SmemWindow{0, base, 8192});
        REQUIRE(atoms.size() == 8);
        for (uint32_t k = 0; k < 8; ++k) {
            CHECK(atoms[k].lo == base + 1024 * k);
            CHECK(atoms[k].hi == base + 1024 * (k + 1));
            CHECK(atoms[k].index == k);
        }
    }
    SECTION("a window that starts mid-atom clips the first atom") {
        const auto atoms = swizzleAtoms(tiles, SmemWindow{0, base + 512, 1024});
        REQUIRE(atoms.size() == 2);
        CHECK(atoms[0].lo == base + 512);
        CHECK(atoms[0].hi == base + 1024);
        CHECK(atoms[1].lo == base + 1024);
        CHECK(atoms[1].hi == base + 1536);
    }
    SECTION("another CTA has none") {
        CHECK(swizzleAtoms(tiles, SmemWindow{1, base, 8192}).empty());
    }
    SECTION("caption gives the byte and element forms") {
        CHECK(swizzleAtomCaption(TensorSwizzle::S128B, 2) ==
              "SWIZZLE_128B = Sw<3,4,3> on bytes = Sw<3,3,3> on 2-B elements, atom 1024 B (8 rows x 128 B)");
    }
}

TEST_CASE("Bank heat of a warp reading a column of the SWIZZLE_128B tile", "[views][smem-tiles]") {
    auto doc = sw128Doc();
    const auto tiles = smemTiles(*doc);
    REQUIRE(tiles.size() == 1);
    // Thread t reads element (t, 0): physical chunk (0 ^ t%8) of row t -> bank 4*(t%8): 8 banks,
    // each asked for 4 distinct words (rows t, t+8, t+16, t+24) -> 4 wavefronts, 3 excess.
    auto h = smemHeat(tiles[0], AccessPattern::ColumnRead, 0, 0);
    REQUIRE(h);
    CHECK(h->heat.report.wavefronts == 4);
    CHECK(h->heat.report.ideal == 1);
    CHECK(h->heat.report.excess == 3);
    for (uint32_t b = 0; b < 32; ++b) CHECK(h->heat.report.wordsPerBank[b] == (b % 4 == 0 ? 4u : 0u));
    const auto lines = smemHeatLines(*h);
    REQUIRE(lines.size() >= 2);
    CHECK(lines[1].rfind("4 wavefronts (ideal 1, 3 excess", 0) == 0);
    SECTION("an unswizzled tile of 128-B rows puts the whole column in bank 0") {
        SmemTile flat = tiles[0];
        flat.tile.swizzle = TensorSwizzle::NONE;
        auto f = smemHeat(flat, AccessPattern::ColumnRead, 0, 0);
        REQUIRE(f);
        CHECK(f->heat.report.wavefronts == 32);
        CHECK(f->heat.report.wordsPerBank[0] == 32);
    }
    SECTION("the scene: touched bytes take the heat colour, other written bytes are dimmed") {
        const auto frames = boxFrames(*doc);
        SmemScene s = smemSceneAt(*doc, doc->trace().stepCount, frames);
        const SmemScene before = s;
        applyBankHeat(s, *h);
        const uint32_t base = tiles[0].tile.base;
        // Thread 3 reads row 3, physical chunk 3: bytes base + 3*128 + 48 .. +49, bank 12 (4 words, worst 4:
        // red).
        const auto i = s.indexOf(base + 3 * 128 + 48);
        REQUIRE(i);
        CHECK(s.texels[*i].r == heatColour(4, 4).r);
        CHECK(s.texels[*i].g == heatColour(4, 4).g);
        CHECK((s.texels[*i].a & kFlagWritten) != 0);
        const auto j = s.indexOf(base + 3 * 128); // chunk 0 of row 3 holds element (3, 24..31): not read
        REQUIRE(j);
        CHECK(s.texels[*j].r == before.texels[*j].r / 3);
    }
}
