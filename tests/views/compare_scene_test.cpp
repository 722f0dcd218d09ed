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

TEST_CASE("Compare: cells differ exactly where the two tilings hold another element", "[views][compare]") {
    const Pack1 p = loadPack1();
    REQUIRE(p.sA == p.sB);
    // Hand-derived: which element (m, k, byte) each address holds in each option.
    std::map<uint32_t, std::array<uint32_t, 3>> heldA, heldB;
    for (uint32_t m = 0; m < 128; ++m)
        for (uint32_t k = 0; k < 64; ++k)
            for (uint32_t byte = 0; byte < 2; ++byte) {
                heldA[addrA(p.sA, m, k) + byte] = {m, k, byte};
                heldB[addrB(p.sB, m, k) + byte] = {m, k, byte};
            }
    REQUIRE(heldA.size() == 16384);
    REQUIRE(heldB.size() == 16384);
    const ComparePanes& b = p.panes[1];
    size_t expectedDiffer = 0, mismatches = 0;
    for (uint32_t i = 0; i < b.content.keys.size(); ++i) {
        const uint32_t addr = b.content.window.base + i;
        const auto ia = heldA.find(addr), ib = heldB.find(addr);
        const bool inA = ia != heldA.end(), inB = ib != heldB.end();
        const bool differ = inA != inB || (inA && ia->second != ib->second);
        expectedDiffer += differ;
        mismatches += b.differs[i] != differ;
        // The texel carries the flag the shader draws.
        CHECK(bool(b.smem->texels[i].a & kFlagDiffers) == differ);
    }
    CHECK(mismatches == 0);
    CHECK(b.differCount == expectedDiffer);
    // Row 0 of both options starts with elements (0, 0..31) at the same bytes: not every byte differs.
    CHECK(expectedDiffer > 0);
    CHECK(expectedDiffer < 16384);
    // Pane 1 is marked where it differs from pane 2: the same addresses (both windows hold the same bytes).
    CHECK(p.panes[0].differCount == expectedDiffer);
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
    ref.keys[0] = other.keys[0] = key(0, 0); // same element, same byte: equal
    ref.keys[1] = key(1, 0);                 // another element: differs
    other.keys[1] = key(0, 1);
    ref.keys[2] = other.keys[2] = key(2, 0); // same element, another value: differs
    other.bytes[2] = 7;
    ref.keys[3] = key(3, 0);     // written in one only: differs
    other.keys[200] = key(9, 9); // outside the reference's window, written: differs
    const auto d = differingCells(ref, other);
    REQUIRE(d.size() == 256);
    CHECK_FALSE(d[0]);
    CHECK(d[1]);
    CHECK(d[2]);
    CHECK(d[3]);
    CHECK_FALSE(d[4]); // unwritten in both
    CHECK(d[200]);
    CHECK_FALSE(d[201]);
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

TEST_CASE("Compare: Tensor Memory cells differ where another register landed", "[views][compare][tmem]") {
    // tcgen05.st .32x32b.x4 (PTX ISA 9.2 §9.7.16.8.3): register position j of thread t lands in lane t,
    // column j. B names %r1 and %r0 in swapped positions, so columns 0 and 1 of lanes 0..31 hold
    // other registers (and, with regs pattern=index, other values); columns 2 and 3 are the same.
    auto scenario = [](const char* regs) {
        return std::string("target sm_100a\nptx 8.7\nsmem taddrBuf 16 align=16\nlet tmem = 0\nwarp 0\n"
                           "regs pattern=index\n"
                           "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], 32;\n"
                           "tcgen05.st.sync.aligned.32x32b.x4.b32 [tmem], {") +
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
    CHECK(panes[1].tmemDifferCount == 64);
    CHECK(panes[0].tmemDifferCount == 64);
    const TmemContent& cb = panes[1].tmemContent;
    for (size_t i = 0; i < cb.cells.size(); ++i) {
        if (!cb.cells[i]) continue;
        const TmemCellRef c = *cb.cells[i];
        const bool expected = c.lane < 32 && c.column < 2;
        CHECK(panes[1].tmemDiffers[i] == expected);
        if (c.lane < 32 && c.column < 4) { // the register each cell came from, and its value t<<16 | reg
            const uint32_t reg = c.column == 0 ? 1 : c.column == 1 ? 0 : c.column;
            REQUIRE(cb.keys[i]);
            CHECK(cb.keys[i]->space == MemSpace::Register);
            CHECK(cb.values[i] == (c.lane << 16 | reg));
        }
    }
    SECTION("the same scenario twice: nothing differs") {
        const std::vector<const Document*> same{a.get(), a.get()};
        const auto p = comparePanesAt(same, {"A", "A"}, compareFrames(same), CompareSync::Step,
                                      compareLastPosition(same, CompareSync::Step));
        CHECK(p[0].tmemDifferCount == 0);
        CHECK(p[1].tmemDifferCount == 0);
        CHECK(p[1].differCount == 0);
    }
}
