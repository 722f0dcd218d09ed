// tcgen05.mma accumulator placement: tables written by hand from the PTX ISA 9.2 §9.7.16.10.5 data path
// layouts (Layout D: M=128 rows in lanes 0-127; Layout F: M=64, 16 rows in the first half of each warp's
// 32-lane quarter; Layout A: M=256, 128 rows per CTA of the pair; Layout B: M=128 pair, 64 rows per CTA with
// the second half of N in lanes 64-127), not from the code.
#include "layoutscope/tcgen05/umma_layout.hpp"

#include <catch2/catch.hpp>

#include <set>

using namespace layoutscope;

namespace {
UmmaDCell cell(uint32_t cta, uint32_t lane, uint32_t col) {
    return UmmaDCell{cta, lane, col, 0};
}
} // namespace

TEST_CASE("tcgen05.mma D placement, M=128 .cta_group::1 (Layout D)", "[umma][layout]") {
    const UmmaDShape s{128, 64, 1, 32};
    REQUIRE(checkUmmaDShape(s));
    CHECK(ummaDLayout(s) == UmmaDLayout::D);
    CHECK(ummaDCell(s, 0, 0) == cell(0, 0, 0));
    CHECK(ummaDCell(s, 1, 0) == cell(0, 1, 0));
    CHECK(ummaDCell(s, 0, 63) == cell(0, 0, 63));
    CHECK(ummaDCell(s, 127, 5) == cell(0, 127, 5));
    CHECK(ummaDColumns(s) == 64);
    SECTION("f16 accumulator: still one 32-bit column per element") {
        const UmmaDShape h{128, 64, 1, 16};
        CHECK(ummaDCell(h, 3, 7) == cell(0, 3, 7));
        CHECK(ummaDColumns(h) == 64);
    }
}

TEST_CASE("tcgen05.mma D placement, M=64 .cta_group::1 (Layout F)", "[umma][layout]") {
    const UmmaDShape s{64, 8, 1, 32};
    REQUIRE(checkUmmaDShape(s));
    CHECK(ummaDLayout(s) == UmmaDLayout::F);
    // rows 0-15 -> lanes 0-15, rows 16-31 -> lanes 32-47, rows 32-47 -> 64-79, rows 48-63 -> 96-111
    const uint32_t rows[][2] = {{0, 0},   {15, 15}, {16, 32}, {31, 47},
                                {32, 64}, {47, 79}, {48, 96}, {63, 111}};
    for (const auto& r : rows) {
        INFO("row " << r[0]);
        CHECK(ummaDCell(s, r[0], 3) == cell(0, r[1], 3));
    }
    std::set<uint32_t> lanes;
    for (uint32_t m = 0; m < 64; ++m) lanes.insert(ummaDCell(s, m, 0).lane);
    CHECK(lanes.size() == 64);
    CHECK(lanes.count(16) == 0); // lanes 16-31 of each quarter stay free
    CHECK(ummaDLaneSpan(s) == 112);
}

TEST_CASE("tcgen05.mma D placement, M=256 .cta_group::2 (Layout A)", "[umma][layout]") {
    const UmmaDShape s{256, 128, 2, 32};
    REQUIRE(checkUmmaDShape(s));
    CHECK(ummaDLayout(s) == UmmaDLayout::A);
    CHECK(ummaDCell(s, 0, 0) == cell(0, 0, 0));
    CHECK(ummaDCell(s, 127, 127) == cell(0, 127, 127));
    CHECK(ummaDCell(s, 128, 0) == cell(1, 0, 0));
    CHECK(ummaDCell(s, 255, 9) == cell(1, 127, 9));
    CHECK(ummaDColumns(s) == 128);
}

TEST_CASE("tcgen05.mma D placement, M=128 .cta_group::2 (Layout B)", "[umma][layout]") {
    const UmmaDShape s{128, 64, 2, 32};
    REQUIRE(checkUmmaDShape(s));
    CHECK(ummaDLayout(s) == UmmaDLayout::B);
    // rows 0-63 in the even CTA, 64-127 in the odd one; columns 0-31 in lanes 0-63, columns 32-63 in
    // lanes 64-127 at columns 0-31.
    CHECK(ummaDCell(s, 0, 0) == cell(0, 0, 0));
    CHECK(ummaDCell(s, 5, 31) == cell(0, 5, 31));
    CHECK(ummaDCell(s, 5, 32) == cell(0, 69, 0));
    CHECK(ummaDCell(s, 63, 63) == cell(0, 127, 31));
    CHECK(ummaDCell(s, 64, 0) == cell(1, 0, 0));
    CHECK(ummaDCell(s, 100, 40) == cell(1, 36 + 64, 8));
    CHECK(ummaDColumns(s) == 32);
}

TEST_CASE("tcgen05.mma D shapes outside the layouts are rejected with the rule", "[umma][layout]") {
    SECTION("M=64 is not a pair shape") {
        const Status st = checkUmmaDShape({64, 64, 2, 32});
        REQUIRE(!st);
        CHECK(st.diagnostics()[0].message.find("128 or 256 with .cta_group::2") != std::string::npos);
    }
    SECTION("M=256 needs the pair") {
        CHECK(!checkUmmaDShape({256, 64, 1, 32}));
    }
    SECTION("N=8 is for M=64 only") {
        CHECK(checkUmmaDShape({64, 8, 1, 32}));
        CHECK(!checkUmmaDShape({128, 8, 1, 32}));
    }
    SECTION("N over 256") {
        CHECK(!checkUmmaDShape({128, 272, 1, 32}));
    }
    SECTION("8-bit accumulators do not exist") {
        CHECK(!checkUmmaDShape({128, 64, 1, 8}));
    }
}
