// Linked selection: the clicked data followed through the trace. Independent truths: the TMA tile
// walk (element (c0, c1) of a row-major tensor is at globalAddress + c1*stride + c0*2) with the
// SWIZZLE_128B formula of tma.md §4.2, and the tcgen05 32x32b map of tcgen05.md §4.1 (register j
// of thread t <-> lane t, column j of the taddr's lane/column 0).
#include "scene/selection.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {
bool has(const LinkedData& d, DataLoc l) {
    return std::any_of(d.locs.begin(), d.locs.end(), [&](const LinkedLoc& x) { return x.loc == l; });
}
const LinkedLoc* find(const LinkedData& d, DataLoc l) {
    for (const LinkedLoc& x : d.locs)
        if (x.loc == l) return &x;
    return nullptr;
}
} // namespace

TEST_CASE("Selecting a shared-memory element links its global source through SWIZZLE_128B",
          "[views][selection]") {
    auto doc = Document::fromFile(LAYOUTSCOPE_TEST_ASSETS "/scenarios/tma_tile_64x64_f16_sw128.scn");
    REQUIRE(doc->hasTrace());
    const InstrTile* tile = doc->firstTile();
    REQUIRE(tile);
    const uint32_t base = tile->smemAddr;
    const uint64_t g = tile->map.p.globalAddress;
    // Element (row 3, col 10): logical bytes 3*128 + 20; chunk 1 -> physical chunk 1 ^ 3 = 2.
    const uint32_t phys = base + 3 * 128 + 2 * 16 + 4;
    const LinkedData d = linkData(*doc, {{MemSpace::SharedCta, 0, phys}, {MemSpace::SharedCta, 0, phys + 1}},
                                  doc->trace().stepCount);
    REQUIRE(d.locs.size() == 4);
    const uint64_t src = g + 3 * 8192 + 10 * 2; // strides=[8192] bytes
    for (uint64_t k = 0; k < 2; ++k) {
        const LinkedLoc* gl = find(d, {MemSpace::Global, 0, src + k});
        REQUIRE(gl);
        CHECK(gl->since == 0);
        REQUIRE(gl->coord);
        CHECK((*gl->coord)[0] == 10);
        CHECK((*gl->coord)[1] == 3);
        const LinkedLoc* sl = find(d, {MemSpace::SharedCta, 0, phys + k});
        REQUIRE(sl);
        CHECK(sl->since >= 1);
        CHECK(sl->until == UINT32_MAX);
    }
    const auto stages = pathStages(d);
    REQUIRE(stages.size() == 1);
    CHECK(stages[0].fromSpace == MemSpace::Global);
    CHECK(stages[0].toSpace == MemSpace::SharedCta);
    CHECK(stages[0].count == 2);
    SECTION("selecting the global bytes gives the same data") {
        const LinkedData e = linkData(*doc, {{MemSpace::Global, 0, src}, {MemSpace::Global, 0, src + 1}}, 0);
        CHECK(has(e, {MemSpace::SharedCta, 0, phys}));
        CHECK(has(e, {MemSpace::SharedCta, 0, phys + 1}));
        CHECK(e.locs.size() == 4);
    }
    SECTION("before the copy the shared bytes are not there yet") {
        const LinkedLoc* sl = find(d, {MemSpace::SharedCta, 0, phys});
        REQUIRE(sl);
        CHECK_FALSE(sl->aliveAt(0));
        CHECK(sl->aliveAt(doc->trace().stepCount));
    }
}

TEST_CASE("Selecting a register links its Tensor Memory cell and the register it is loaded back into",
          "[views][selection]") {
    // tcgen05_st_32x32b.scn, warp 0: st .x4 {r0..r3} -> lane t, columns 0..3; ld .x4 -> {r4..r7}.
    auto doc = Document::fromFile(LAYOUTSCOPE_TEST_ASSETS "/scenarios/tcgen05_st_32x32b.scn");
    REQUIRE(doc->hasTrace());
    const uint64_t thread = 5, reg = 1;
    const LinkedData d =
        linkData(*doc, {{MemSpace::Register, 0, thread << 16 | reg}}, doc->trace().stepCount);
    CHECK(has(d, {MemSpace::Register, 0, thread << 16 | reg}));
    CHECK(has(d, {MemSpace::TensorMemory, 0, thread << 16 | reg}));   // lane 5, column 1
    CHECK(has(d, {MemSpace::Register, 0, thread << 16 | (reg + 4)})); // loaded into r5
    CHECK(d.locs.size() == 3);
    const auto stages = pathStages(d);
    REQUIRE(stages.size() == 2);
    CHECK(stages[0].fromSpace == MemSpace::Register);
    CHECK(stages[0].toSpace == MemSpace::TensorMemory);
    CHECK(stages[1].fromSpace == MemSpace::TensorMemory);
    CHECK(stages[1].toSpace == MemSpace::Register);
    SECTION("selecting the TMEM cell finds both registers") {
        const LinkedData e =
            linkData(*doc, {{MemSpace::TensorMemory, 0, thread << 16 | reg}}, doc->trace().stepCount);
        CHECK(has(e, {MemSpace::Register, 0, thread << 16 | reg}));
        CHECK(has(e, {MemSpace::Register, 0, thread << 16 | (reg + 4)}));
        CHECK(e.locs.size() == 3);
    }
}

TEST_CASE("Selecting a byte nothing wrote links only itself", "[views][selection]") {
    auto doc = Document::fromFile(LAYOUTSCOPE_TEST_ASSETS "/scenarios/tma_tile_64x64_f16_sw128.scn");
    REQUIRE(doc->hasTrace());
    const LinkedData d = linkData(*doc, {{MemSpace::SharedCta, 0, 0xBFFF0}}, doc->trace().stepCount);
    REQUIRE(d.locs.size() == 1);
    CHECK(d.hops.empty());
}
