// Differences by logical element (analysis/compare_match.hpp, issue 24 item 8), what `layoutscope-cli
// compare` prints, against a model of where each tiling puts each element, written from the swizzle
// formulas of /work/shared/ref/tma.md §4.1-4.2 (review pack 1: a 128 x 64 fp16 operand as one SW128 box
// or two SW64 boxes).
#include "layoutscope/analysis/compare_match.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <set>

using namespace layoutscope;

namespace {

std::string review(const char* name) {
    return std::string(LAYOUTSCOPE_ASSETS_DIR) + "/reviews/" + name;
}
std::string data(const char* name) {
    return std::string(LAYOUTSCOPE_TEST_DATA_DIR) + "/compare/" + name;
}

// tma.md §4.1: L = row * pitch + b, A = dstMem + L, P = swizzle(A); §4.2 the XOR of each mode. Both
// buffers are 1024-aligned, so offsets from the buffer swizzle as addresses do.
uint32_t sw128(uint32_t a) {
    return a ^ (((a >> 7) & 7) << 4);
}
uint32_t sw64(uint32_t a) {
    return a ^ (((a >> 7) & 3) << 4);
}

using Key = std::array<uint32_t, 3>; // (m, k, byte) of the fp16 element at row m (dim 1), column k (dim 0)

/// Option A: one 64 x 128 box, SWIZZLE_128B, 128-B rows: offset of each byte -> its element.
std::map<uint32_t, Key> optionA() {
    std::map<uint32_t, Key> held;
    for (uint32_t m = 0; m < 128; ++m)
        for (uint32_t k = 0; k < 64; ++k)
            for (uint32_t b = 0; b < 2; ++b) held[sw128(m * 128 + k * 2) + b] = {m, k, b};
    return held;
}
/// Option B: boxes k 0..31 at offset 0 and k 32..63 at 8192, SWIZZLE_64B, 64-B rows; the second box's
/// rows start at tensor row `row1` (0 as written, 1 with the wrong coordinate {32, 1}).
std::map<uint32_t, Key> optionB(uint32_t row1) {
    std::map<uint32_t, Key> held;
    for (uint32_t r = 0; r < 128; ++r)
        for (uint32_t k = 0; k < 64; ++k)
            for (uint32_t b = 0; b < 2; ++b) {
                const uint32_t m = k < 32 ? r : r + row1;
                held[sw64((k / 32) * 8192 + r * 64 + (k % 32) * 2) + b] = {m, k, b};
            }
    return held;
}
/// The model's counts of `other` against `ref`: same place, elsewhere, nowhere (every value is the tensor's,
/// the same in both).
ElementCounts modelCounts(const std::map<uint32_t, Key>& ref, const std::map<uint32_t, Key>& other) {
    std::set<Key> refKeys;
    for (const auto& [off, key] : ref) refKeys.insert(key);
    ElementCounts n;
    n.cells = other.size();
    for (const auto& [off, key] : other) {
        const auto it = ref.find(off);
        if (it != ref.end() && it->second == key)
            ++n.same;
        else if (refKeys.count(key))
            ++n.reshuffled;
        else
            ++n.different;
    }
    return n;
}

void checkCounts(const ElementCounts& got, const ElementCounts& want) {
    CHECK(got.cells == want.cells);
    CHECK(got.same == want.same);
    CHECK(got.reshuffled == want.reshuffled);
    CHECK(got.different == want.different);
}

} // namespace

TEST_CASE("compare: two tilings of one tile reshuffle 16,320 bytes and differ in none", "[compare]") {
    // By hand: both options hold the same 8,192 elements x 2 B, so nothing differs. A byte is at the same
    // offset in both only in the same 128-B row (both swizzles XOR bits [4,7) inside a row): option B's row
    // r of box 0 lies in A's row r / 2 (r = 0 only), box 1's row r in A's row 64 + r / 2 (holds m = r, never
    // 64 + r / 2). Row 0, k = 0..31: offsets 0..63 unswizzled in both = 64 B the same; 16,384 - 64 =
    // 16,320 reshuffled, each way (the compare window's numbers, tests/views/compare_scene_test.cpp).
    const ElementCounts want{16384, 64, 16320, 0};
    checkCounts(modelCounts(optionA(), optionB(0)), want);
    checkCounts(modelCounts(optionB(0), optionA()), want);
    auto c = compareElements({review("operand_sw128_one_box.scn"), review("operand_sw64_two_boxes.scn")});
    REQUIRE(c);
    REQUIRE(c->smem.size() == 2);
    checkCounts(c->smem[1], want);
    checkCounts(c->smem[0], want); // pane 1 against every other: here the same pairs, the other way
    CHECK_FALSE(c->hasTmem);       // TMA only: no Tensor Memory rows
    CHECK(c->names == std::vector<std::string>{"operand_sw128_one_box.scn", "operand_sw64_two_boxes.scn"});
}

TEST_CASE("compare: a wrong box coordinate differs in the 64 bytes of the row it fetched wrongly",
          "[compare]") {
    // By hand: the second box at {32, 1} holds rows m = 1..128 of k = 32..63. Row m = 128 is in no place of
    // option A: 32 elements x 2 B = 64 B differ; A's row m = 0, k = 32..63 is nowhere in B: 64 B differ the
    // other way. Same place: row 0, k = 0..31 (64 B, as before) and box 1's row r = 126 (m = 127) at offsets
    // 16,256..16,319, the first half of A's row 127: SW64 XORs it with 3 << 4, SW128 XORs A's second half
    // (64 + x) with 7 << 4, and (64 | x) ^ 0x70 = x ^ 0x30: 64 B more. 16,384 - 128 - 64 = 16,192 reshuffled.
    const ElementCounts want{16384, 128, 16192, 64};
    checkCounts(modelCounts(optionA(), optionB(1)), want);
    checkCounts(modelCounts(optionB(1), optionA()), want);
    auto c =
        compareElements({review("operand_sw128_one_box.scn"), data("operand_sw64_two_boxes_wrong_row.scn")});
    REQUIRE(c);
    REQUIRE(c->smem.size() == 2);
    checkCounts(c->smem[1], want);
    checkCounts(c->smem[0], want);
    SECTION("a run against itself: every written byte the same") {
        auto self =
            compareElements({review("operand_sw128_one_box.scn"), review("operand_sw128_one_box.scn")});
        REQUIRE(self);
        checkCounts(self->smem[1], ElementCounts{16384, 16384, 0, 0});
    }
}

TEST_CASE("compare: the element counts in every format", "[compare]") {
    auto c = compareElements({review("operand_sw128_one_box.scn"), review("operand_sw64_two_boxes.scn")});
    REQUIRE(c);
    SECTION("text") {
        const std::string t = formatElementComparison(*c, "text");
        CHECK(t.find("2: operand_sw64_two_boxes.scn against 1 (operand_sw128_one_box.scn), shared memory "
                     "(16,384 B): same 64, reshuffled 16,320, different 0") != std::string::npos);
    }
    SECTION("md") {
        const std::string t = formatElementComparison(*c, "md");
        CHECK(t.find("| operand_sw64_two_boxes.scn | 1 (operand_sw128_one_box.scn) | shared memory | 64 | "
                     "16,320 | 0 |") != std::string::npos);
    }
    SECTION("csv: rows of the metrics table, one value per scenario") {
        const std::string t = formatElementComparison(*c, "csv");
        CHECK(t.find("shared-memory bytes reshuffled (by logical element; 1: against every other; k: against "
                     "1),16320,16320\n") != std::string::npos);
    }
    SECTION("json") {
        const std::string t = formatElementComparison(*c, "json");
        CHECK(
            t.find(
                "{\"scenario\": \"operand_sw64_two_boxes.scn\", \"against\": \"operand_sw128_one_box.scn\", "
                "\"memory\": \"smem\", \"cells\": 16384, \"same\": 64, \"reshuffled\": 16320, "
                "\"different\": 0}") != std::string::npos);
    }
    SECTION("one scenario: nothing to compare") {
        auto one = compareElements({review("operand_sw128_one_box.scn")});
        REQUIRE(one);
        CHECK(formatElementComparison(*one, "text").empty());
    }
}

TEST_CASE("compare: a file that does not run gives its diagnostics and its path", "[compare]") {
    std::string failed;
    auto c = compareElements({review("operand_sw128_one_box.scn"), data("no_such_file.scn")}, &failed);
    REQUIRE_FALSE(c);
    CHECK(failed == data("no_such_file.scn"));
    CHECK(c.diagnostics().front().code == DiagCode::Io);
}

TEST_CASE("compare: Tensor Memory cells by logical element, where both scenarios use it", "[compare]") {
    // tcgen05.st .32x32b.x4 (PTX ISA 9.2 §9.7.16.8.3): register position j of thread t lands in lane t,
    // column j: 32 lanes x 4 columns = 128 cells written of one CTA's 128 x 512. Swapping %r0 and %r1 puts
    // each of lanes 0..31's registers 0 and 1 (with regs pattern=index, value t<<16 | reg) in the other
    // column: 64 cells reshuffled, the 64 of columns 2 and 3 the same, none different.
    auto c = compareElements({data("tmem_st_regs.scn"), data("tmem_st_regs_swapped.scn")});
    REQUIRE(c);
    REQUIRE(c->hasTmem);
    REQUIRE(c->tmem.size() == 2);
    checkCounts(c->tmem[1], ElementCounts{128 * 512, 64, 64, 0});
    checkCounts(c->tmem[0], ElementCounts{128 * 512, 64, 64, 0});
    CHECK(formatElementComparison(*c, "text")
              .find("Tensor Memory (65,536 cells): same 64, reshuffled 64, "
                    "different 0") != std::string::npos);
    SECTION("one scenario without Tensor Memory: no TMEM rows") {
        auto m = compareElements({data("tmem_st_regs.scn"), review("operand_sw128_one_box.scn")});
        REQUIRE(m);
        CHECK_FALSE(m->hasTmem);
        CHECK(formatElementComparison(*m, "text").find("Tensor Memory") == std::string::npos);
    }
}
