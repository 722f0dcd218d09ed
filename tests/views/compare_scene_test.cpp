// Compare mode, the pure part (scene/compare_scene.hpp): logical-element matching between two traces
// and difference marking, against the swizzle formulas of /work/shared/ref/tma.md §4.1-4.2 (review pack 1:
// a 128 x 64 fp16 operand as one SW128 box or two SW64 boxes).
#include "scene/compare_scene.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <sstream>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {

std::string reviewPath(const char* name) {
    return std::string(LAYOUTSCOPE_TEST_ASSETS) + "/reviews/" + name;
}

/// The shared::cta address of buffer `name` as the scenario lays it out.
uint32_t bufferAddr(const std::string& path, const char* name) {
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    auto sc = parseScenario(ss.str());
    REQUIRE(sc);
    const ScenarioBuffer* b = sc->findBuffer(name);
    REQUIRE(b);
    return b->addr;
}

// tma.md §4.1: L = row * pitch + b, A = dstMem + L, P = swizzle(A); §4.2 the XOR of each mode.
uint32_t sw128(uint32_t a) {
    return a ^ (((a >> 7) & 7) << 4);
}
uint32_t sw64(uint32_t a) {
    return a ^ (((a >> 7) & 3) << 4);
}
/// Element (m = row, k = column) of the operand, fp16: its first byte in option A (one 64 x 128 box,
/// SWIZZLE_128B, 128-B rows) and option B (boxes k 0..31 and 32..63 at sA and sA + 8192, SWIZZLE_64B,
/// 64-B rows).
uint32_t addrA(uint32_t sA, uint32_t m, uint32_t k) {
    return sw128(sA + m * 128 + k * 2);
}
uint32_t addrB(uint32_t sA, uint32_t m, uint32_t k) {
    return sw64(sA + (k / 32) * 8192 + m * 64 + (k % 32) * 2);
}

struct Pack1 {
    std::unique_ptr<Document> a, b;
    uint32_t sA = 0, sB = 0;
    std::vector<ComparePanes> panes;
};

Pack1 loadPack1() {
    Pack1 p;
    p.a = Document::fromFile(reviewPath("operand_sw128_one_box.scn"));
    p.b = Document::fromFile(reviewPath("operand_sw64_two_boxes.scn"));
    REQUIRE(p.a->hasTrace());
    REQUIRE(p.b->hasTrace());
    p.sA = bufferAddr(reviewPath("operand_sw128_one_box.scn"), "sA");
    p.sB = bufferAddr(reviewPath("operand_sw64_two_boxes.scn"), "sA");
    const std::vector<const Document*> docs{p.a.get(), p.b.get()};
    const uint32_t last = compareLastPosition(docs, CompareSync::Step);
    p.panes = comparePanesAt(docs, {"A", "B"}, compareFrames(docs), CompareSync::Step, last);
    REQUIRE(p.panes.size() == 2);
    REQUIRE(p.panes[0].smem);
    REQUIRE(p.panes[1].smem);
    return p;
}

} // namespace

TEST_CASE("Compare: a cell's element is found where the other tiling put it", "[views][compare]") {
    const Pack1 p = loadPack1();
    const SmemContent& ca = p.panes[0].content;
    const SmemContent& cb = p.panes[1].content;
    size_t checked = 0;
    for (uint32_t m = 0; m < 128; ++m)
        for (uint32_t k = 0; k < 64; ++k) {
            const uint32_t ia = addrA(p.sA, m, k) - ca.window.base;
            REQUIRE(ia + 1 < ca.keys.size());
            REQUIRE(ca.keys[ia]);
            // The element: dim 0 = k (contiguous), dim 1 = m; byte 0 of the fp16 value.
            CHECK(ca.keys[ia]->coord[0] == int32_t(k));
            CHECK(ca.keys[ia]->coord[1] == int32_t(m));
            CHECK(ca.keys[ia]->byte == 0);
            const uint32_t ib = addrB(p.sB, m, k) - cb.window.base;
            const std::vector<uint32_t> expected{ib, ib + 1};
            CHECK(cellsOfElement(cb, *ca.keys[ia]) == expected);
            CHECK(cellsOfElement(ca, *ca.keys[ia]) == std::vector<uint32_t>{ia, ia + 1});
            ++checked;
        }
    CHECK(checked == 128 * 64);
    SECTION("an unwritten element matches nothing") {
        ElementKey none = *ca.keys[addrA(p.sA, 0, 0) - ca.window.base];
        none.coord[1] = 4000;
        CHECK(cellsOfElement(cb, none).empty());
    }
}

TEST_CASE("Compare: two tilings of the same tile reshuffle every element and differ in none",
          "[views][compare]") {
    const Pack1 p = loadPack1();
    REQUIRE(p.sA == p.sB);
    // Hand-derived: which element (m, k, byte) each address holds in each option, and where.
    std::map<uint32_t, std::array<uint32_t, 3>> heldA, heldB;
    std::map<std::array<uint32_t, 3>, uint32_t> whereA;
    for (uint32_t m = 0; m < 128; ++m)
        for (uint32_t k = 0; k < 64; ++k)
            for (uint32_t byte = 0; byte < 2; ++byte) {
                heldA[addrA(p.sA, m, k) + byte] = {m, k, byte};
                heldB[addrB(p.sB, m, k) + byte] = {m, k, byte};
                whereA[{m, k, byte}] = addrA(p.sA, m, k) + byte;
            }
    REQUIRE(heldA.size() == 16384);
    REQUIRE(heldB.size() == 16384);
    const ComparePanes& b = p.panes[1];
    REQUIRE(b.match.kind.size() == b.content.keys.size());
    size_t expectedReshuffled = 0, mismatches = 0, wrongPlace = 0;
    for (uint32_t i = 0; i < b.content.keys.size(); ++i) {
        const uint32_t addr = b.content.window.base + i;
        const auto ia = heldA.find(addr), ib = heldB.find(addr);
        // Both options hold the same 8192 elements: a written byte of B is either where A has it or
        // elsewhere in A (a reshuffle); never a difference.
        const bool reshuffled = ib != heldB.end() && (ia == heldA.end() || ia->second != ib->second);
        expectedReshuffled += reshuffled;
        const CellMatch want = reshuffled ? CellMatch::Reshuffled : CellMatch::Same;
        mismatches += b.match.kind[i] != want;
        if (reshuffled) // the inspector's "where pane 1 has it"
            wrongPlace += b.match.refAt[i] < 0 ||
                          p.panes[0].content.window.base + uint64_t(b.match.refAt[i]) != whereA[ib->second];
        // The texel carries the flag the shader draws.
        CHECK(bool(b.smem->texels[i].a & kFlagReshuffled) == reshuffled);
        CHECK_FALSE(b.smem->texels[i].a & kFlagDiffers);
    }
    CHECK(mismatches == 0);
    CHECK(wrongPlace == 0);
    CHECK(b.differCount == 0);
    CHECK(b.reshuffleCount == expectedReshuffled);
    // Row 0 of both options starts with elements (0, 0..31) at the same bytes: not every byte moved.
    CHECK(expectedReshuffled > 0);
    CHECK(expectedReshuffled < 16384);
    // Pane 1 is classed against pane 2: the same addresses (both windows hold the same elements).
    CHECK(p.panes[0].differCount == 0);
    CHECK(p.panes[0].reshuffleCount == expectedReshuffled);
    SECTION("the header badge and the legend say both counts") {
        std::string n = std::to_string(expectedReshuffled); // digits grouped by three, by hand
        if (n.size() > 3) n.insert(n.size() - 3, ",");
        REQUIRE(n.size() <= 7);
        Camera2D cam;
        cam.setViewport({900, 700});
        const OverlayList o = b.smem->overlay(cam, {900, 700});
        bool badge = false, legendR = false, legendD = false, differBadge = false;
        for (const auto& t : o.texts) {
            badge |= t.text == n + " reshuffled";
            differBadge |=
                t.text.find(" differ") != std::string::npos && t.text.find("differ:") == std::string::npos;
            legendR |= t.text.rfind("reshuffled: " + n + " B", 0) == 0;
            legendD |= t.text.rfind("differ: 0 B", 0) == 0;
        }
        CHECK(badge);
        CHECK_FALSE(differBadge); // no "0 differ" badge
        CHECK(legendR);
        CHECK(legendD);
    }
}

namespace {

/// A 64 x 64 fp16 tensor (pattern index: element (x, y) holds y * 64 + x) whose rows y0..y0+15 one TMA
/// load puts, unswizzled, at sA (128-B rows); `extra` lines go before the load.
std::string rowsScenario(int y0, const std::string& extra = {}) {
    return "tensormap A tiled FLOAT16 dims=[64,64] box=[64,16]\nsmem sA 2048 align=1024\nmbarrier bar\n" +
           extra +
           "mbarrier.init.shared::cta.b64 [bar], 1;\n"
           "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 2048;\n"
           "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [A, {0, " +
           std::to_string(y0) + "}], [bar];\nmbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0;\n";
}

std::vector<ComparePanes> panesOf(const Document& a, const Document& b) {
    REQUIRE(a.hasTrace());
    REQUIRE(b.hasTrace());
    const std::vector<const Document*> docs{&a, &b};
    auto panes = comparePanesAt(docs, {"A", "B"}, compareFrames(docs), CompareSync::Step,
                                compareLastPosition(docs, CompareSync::Step));
    REQUIRE(panes.size() == 2);
    REQUIRE(panes[0].smem);
    REQUIRE(panes[1].smem);
    return panes;
}

} // namespace

TEST_CASE("Compare: one element with another value differs in exactly its bytes", "[views][compare]") {
    // poke writes bytes 0xab 0xcd over element (x = 5, y = 3) of A, at byte (3 * 64 + 5) * 2 = 0x18a of the
    // tensor (first tensor at 0x7f0000000000, docs/scenario.md); unswizzled it lands at sA + 3 * 128 + 10.
    auto a = Document::fromText(rowsScenario(0));
    auto b = Document::fromText(rowsScenario(0, "poke global 0x7f000000018a=abcd\n"));
    const auto panes = panesOf(*a, *b);
    for (size_t d = 0; d < 2; ++d) {
        const ComparePanes& cp = panes[d];
        CHECK(cp.differCount == 2);
        CHECK(cp.reshuffleCount == 0);
        for (size_t i = 0; i < cp.match.kind.size(); ++i) {
            const int64_t off = int64_t(cp.content.window.base) + int64_t(i) - 1024; // sA = 1024
            const bool mine = off == 3 * 128 + 10 || off == 3 * 128 + 11;
            CHECK((cp.match.kind[i] == CellMatch::Different) == mine);
            if (mine) CHECK(cp.match.refAt[i] == int64_t(i)); // the other pane has the element, other value
        }
    }
    CHECK(panes[1].content.bytes[1024 + 3 * 128 + 10 - panes[1].content.window.base] == 0xab);
    // poke moves bytes from a register model to global memory: no Tensor Memory, so no TMEM pane.
    CHECK_FALSE(panes[1].tmem);
}

TEST_CASE("Compare: a box one row lower reshuffles 15 rows and differs in one", "[views][compare]") {
    // A holds rows 0..15 at sA + 128 * r, B rows 1..16 at sA + 128 * (r - 1). Each pane: 15 rows of 64
    // elements x 2 B that the other holds one row up or down (1,920 B reshuffled) and one row it lacks
    // (A's row 0, B's row 16: 128 B differ).
    auto a = Document::fromText(rowsScenario(0));
    auto b = Document::fromText(rowsScenario(1));
    const auto panes = panesOf(*a, *b);
    for (size_t d = 0; d < 2; ++d) {
        const ComparePanes& cp = panes[d];
        CHECK(cp.differCount == 128);
        CHECK(cp.reshuffleCount == 1920);
        for (size_t i = 0; i < cp.match.kind.size(); ++i) {
            const int64_t off = int64_t(cp.content.window.base) + int64_t(i) - 1024;
            if (off < 0 || off >= 2048) {
                CHECK(cp.match.kind[i] == CellMatch::Same);
                continue;
            }
            const int64_t row = off / 128;
            const bool lacking = d == 0 ? row == 0 : row == 15;
            CHECK(cp.match.kind[i] == (lacking ? CellMatch::Different : CellMatch::Reshuffled));
            if (!lacking) // B's smem row r holds A's smem row r + 1, and back
                CHECK(cp.match.refAt[i] == int64_t(i) + (d == 0 ? -128 : 128));
        }
    }
}

TEST_CASE("Compare: difference rules on hand-built contents", "[views][compare]") {
    auto key = [](int32_t c0, int32_t c1) {
        ElementKey k;
        k.space = MemSpace::Global;
        k.addr = 0x1000;
        k.coord = {c0, c1, 0, 0, 0};
        return k;
    };
    SmemContent ref, other;
    ref.window = {0, 1024, 128};
    ref.keys.assign(128, std::nullopt);
    ref.bytes.assign(128, 0);
    other = ref;
    other.window = {0, 1024, 256}; // one more row, beyond the reference's window
    other.keys.resize(256);
    other.bytes.resize(256);
    ref.keys[0] = other.keys[0] = key(0, 0); // same element, same byte: the same
    ref.keys[1] = key(1, 0);                 // an element the reference holds nowhere: differs
    other.keys[1] = key(0, 1);
    ref.keys[2] = other.keys[2] = key(2, 0); // same element, another value: differs
    other.bytes[2] = 7;
    ref.keys[3] = key(3, 0);     // unwritten here, and the reference's element is nowhere here: differs
    other.keys[200] = key(9, 9); // outside the reference's window, held nowhere in it: differs
    ref.keys[5] = key(5, 0);     // the reference's element 5 lands one byte further: reshuffled there,
    other.keys[6] = key(5, 0);   // and the unwritten byte 5 is not marked (the element is accounted for)
    ref.keys[7] = key(7, 0);     // element 7 one byte further with another value: both places differ
    ref.bytes[7] = 3;
    other.keys[8] = key(7, 0);
    other.bytes[8] = 4;
    const CellMatches m = matchCells(ref, other);
    REQUIRE(m.kind.size() == 256);
    using C = CellMatch;
    const std::vector<std::pair<size_t, C>> want{{0, C::Same},        {1, C::Different}, {2, C::Different},
                                                 {3, C::Different},   {4, C::Same},      {5, C::Same},
                                                 {6, C::Reshuffled},  {7, C::Different}, {8, C::Different},
                                                 {200, C::Different}, {201, C::Same}};
    for (const auto& [i, c] : want) {
        INFO("cell " << i);
        CHECK(m.kind[i] == c);
    }
    CHECK(m.refAt[1] == -1); // the reference holds element (0, 1) nowhere
    CHECK(m.refAt[2] == 2);  // ... element (2, 0) with another value at 2
    CHECK(m.refAt[3] == 3);  // ... the element this pane lacks
    CHECK(m.refAt[6] == 5);
    CHECK(m.refAt[8] == 7);
    CHECK(m.different == 6);
    CHECK(m.reshuffled == 1);
    SECTION("merging keeps the stronger class per cell") {
        CellMatches a = m;
        CellMatches other2;
        other2.kind.assign(256, C::Same);
        other2.refAt.assign(256, -1);
        other2.kind[4] = C::Reshuffled;
        other2.kind[6] = C::Different;
        mergeMatches(a, other2);
        CHECK(a.kind[4] == C::Reshuffled);
        CHECK(a.kind[6] == C::Different);
        CHECK(a.different == 7);
        CHECK(a.reshuffled == 1);
    }
}

TEST_CASE("Compare: one position drives every scenario's step", "[views][compare]") {
    auto a = Document::fromFile(reviewPath("operand_sw128_one_box.scn"));
    auto b = Document::fromFile(reviewPath("operand_sw64_two_boxes.scn"));
    REQUIRE(a->hasTrace());
    REQUIRE(b->hasTrace());
    const std::vector<const Document*> docs{a.get(), b.get()};
    SECTION("by step: clamped to each scenario's last step") {
        const uint32_t last = compareLastPosition(docs, CompareSync::Step);
        CHECK(last == std::max(a->trace().stepCount, b->trace().stepCount));
        CHECK(compareStepOf(*a, CompareSync::Step, 3) == std::min(3u, a->trace().stepCount));
        CHECK(compareStepOf(*a, CompareSync::Step, last + 10) == a->trace().stepCount);
    }
    SECTION("by instruction: the state after instruction i") {
        CHECK(compareLastPosition(docs, CompareSync::Instruction) == 5); // B has 5 instructions, A 4
        CHECK(compareStepOf(*a, CompareSync::Instruction, 0) == 0);
        for (uint32_t i = 1; i <= 4; ++i)
            CHECK(compareStepOf(*a, CompareSync::Instruction, i) == a->trace().instrs[i - 1].endStep);
        CHECK(compareStepOf(*a, CompareSync::Instruction, 5) == a->trace().stepCount);
    }
}

TEST_CASE("Compare: one element has one colour in every pane", "[views][compare]") {
    const Pack1 p = loadPack1();
    // Element (m = 70, k = 40): B's second box holds it, yet both panes colour it alike.
    const uint32_t ia = addrA(p.sA, 70, 40) - p.panes[0].content.window.base;
    const uint32_t ib = addrB(p.sB, 70, 40) - p.panes[1].content.window.base;
    const Rgba8 ca = p.panes[0].smem->texels[ia], cb = p.panes[1].smem->texels[ib];
    CHECK((ca.r == cb.r && ca.g == cb.g && ca.b == cb.b));
    const Rgba8 want = colourForCoord(70, 40, 128, 64); // hue = row 70 of 128, lightness = column 40 of 64
    CHECK((ca.r == want.r && ca.g == want.g && ca.b == want.b));
}

TEST_CASE("Compare: Tensor Memory cells are reshuffled where another register landed",
          "[views][compare][tmem]") {
    // tcgen05.st .32x32b.x4 (PTX ISA 9.2 §9.7.16.8.3): register position j of thread t lands in lane t,
    // column j. B names %r1 and %r0 in swapped positions, so columns 0 and 1 of lanes 0..31 hold the
    // register (and, with regs pattern=index, the value t<<16 | reg) that A holds in the other column:
    // reshuffled, none different; columns 2 and 3 are the same.
    auto scenario = [](const char* regs, const char* pattern = "index") {
        return std::string("target sm_100a\nptx 8.7\nsmem taddrBuf 16 align=16\nlet tmem = 0\nwarp 0\n"
                           "regs pattern=") +
               pattern +
               "\ntcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], 32;\n"
               "tcgen05.st.sync.aligned.32x32b.x4.b32 [tmem], {" +
               regs + "};\ntcgen05.wait::st.sync.aligned;\n";
    };
    auto a = Document::fromText(scenario("%r0, %r1, %r2, %r3"));
    auto b = Document::fromText(scenario("%r1, %r0, %r2, %r3"));
    REQUIRE(a->hasTrace());
    REQUIRE(b->hasTrace());
    const std::vector<const Document*> docs{a.get(), b.get()};
    const auto panes = comparePanesAt(docs, {"A", "B"}, compareFrames(docs), CompareSync::Step,
                                      compareLastPosition(docs, CompareSync::Step));
    REQUIRE(panes[0].tmem);
    REQUIRE(panes[1].tmem);
    CHECK(panes[1].tmemReshuffleCount == 64);
    CHECK(panes[1].tmemDifferCount == 0);
    CHECK(panes[0].tmemReshuffleCount == 64);
    CHECK(panes[0].tmemDifferCount == 0);
    const TmemContent& ca = panes[0].tmemContent;
    const TmemContent& cb = panes[1].tmemContent;
    for (size_t i = 0; i < cb.cells.size(); ++i) {
        if (!cb.cells[i]) continue;
        const TmemCellRef c = *cb.cells[i];
        const bool swapped = c.lane < 32 && c.column < 2;
        CHECK((panes[1].tmemMatch.kind[i] == CellMatch::Reshuffled) == swapped);
        CHECK(bool(panes[1].tmem->texels[i].a & kFlagReshuffled) == swapped);
        if (swapped) { // pane 1 holds it in the other column of the same lane
            const int64_t j = panes[1].tmemMatch.refAt[i];
            REQUIRE(j >= 0);
            REQUIRE(ca.cells[size_t(j)]);
            CHECK(ca.cells[size_t(j)]->lane == c.lane);
            CHECK(ca.cells[size_t(j)]->column == 1 - c.column);
        }
        if (c.lane < 32 && c.column < 4) { // the register each cell came from, and its value t<<16 | reg
            const uint32_t reg = c.column == 0 ? 1 : c.column == 1 ? 0 : c.column;
            REQUIRE(cb.keys[i]);
            CHECK(cb.keys[i]->space == MemSpace::Register);
            CHECK(cb.values[i] == (c.lane << 16 | reg));
        }
    }
    SECTION("other register values: every cell but lane 0 column 0 differs") {
        // pattern=lane: register j of thread t holds t; A's (pattern=index) t<<16 | j. Equal only for t = 0,
        // j = 0; elsewhere the same register with another value, which A holds nowhere.
        auto l = Document::fromText(scenario("%r0, %r1, %r2, %r3", "lane"));
        REQUIRE(l->hasTrace());
        const std::vector<const Document*> al{a.get(), l.get()};
        const auto p = comparePanesAt(al, {"A", "L"}, compareFrames(al), CompareSync::Step,
                                      compareLastPosition(al, CompareSync::Step));
        REQUIRE(p[1].tmem);
        CHECK(p[1].tmemDifferCount == 127);
        CHECK(p[1].tmemReshuffleCount == 0);
        CHECK(p[0].tmemDifferCount == 127);
    }
    SECTION("the same scenario twice: nothing differs") {
        const std::vector<const Document*> same{a.get(), a.get()};
        const auto p = comparePanesAt(same, {"A", "A"}, compareFrames(same), CompareSync::Step,
                                      compareLastPosition(same, CompareSync::Step));
        CHECK(p[0].tmemDifferCount == 0);
        CHECK(p[1].tmemDifferCount == 0);
        CHECK(p[1].differCount == 0);
        CHECK(p[1].tmemReshuffleCount == 0);
        CHECK(p[1].reshuffleCount == 0);
    }
}

TEST_CASE("Compare: a reshuffled cell is tinted, muted, and a difference wins over it", "[views][compare]") {
    // cell_style.hpp: kFlagReshuffled mixes towards kReshuffleColour (96, 108, 140) by 55% below 6 px per
    // cell and 35% from 6 px, with no outline; by hand from a black cell: 0.55 x (96, 108, 140) =
    // (53, 59, 77) and 0.35 x ... = (34, 38, 49).
    const Rgba8 black{0, 0, 0, kFlagWritten | kFlagReshuffled};
    const Rgba8 small = shadeCell(black, {0.5f, 0.5f}, {1, 1}, ShadeParams{3.0f, 0, 0});
    CHECK((int(small.r) == 53 && int(small.g) == 59 && int(small.b) == 77));
    const ShadeParams big{8.0f, 0, 0};
    const Rgba8 inside = shadeCell(black, {0.5f, 0.5f}, {4, 4}, big);
    CHECK((int(inside.r) == 34 && int(inside.g) == 38 && int(inside.b) == 49));
    const Rgba8 nearEdge = shadeCell(black, {1.5f / 8.0f, 0.5f}, {1, 4}, big); // where a difference outlines
    CHECK((int(nearEdge.r) == 34 && int(nearEdge.g) == 38 && int(nearEdge.b) == 49));
    // Both flags (never set together by comparePanesAt; the shader does the same): the difference's 80%.
    const Rgba8 both = shadeCell(Rgba8{0, 0, 0, kFlagWritten | kFlagReshuffled | kFlagDiffers}, {0.5f, 0.5f},
                                 {1, 1}, ShadeParams{3.0f, 0, 0});
    CHECK((int(both.r) == 204 && int(both.g) == 51 && int(both.b) == 128));
}
