// The operand grid (analysis/operand_grid.hpp) against hand-derived truth for the bundled broken examples.
//
// Truth (/work/shared/ref/tma.md §4.2, tcgen05.md §7): a TMA tile load with SWIZZLE_128B and 128-byte rows
// puts element (x, y) at logical A = base + y*128 + x*es, physical P = A ^ (((A>>7)&7)<<4). A K-major
// descriptor read with SWIZZLE_64B fetches row r = m%8, 8-row group g = m/8, byte b along K at
// a = start + g*SBO + r*64 + b, physical a ^ (((a>>7)&3)<<4); with SWIZZLE_128B at start + g*SBO + r*128 + b,
// physical a ^ (((a>>7)&7)<<4). With start and base 1024-aligned, SBO = 1024 and b < 32:
//   64B read:  bits [7,9) of a are r/2, so P = a ^ ((r/2)<<4); the TMA image's bits [7,10) at P are r/2 too,
//              so the producer's logical address there is a itself: y = 8g + r/2, x = ((r%2)*64 + b) / es.
//              The read sees the expected element (b/es, m) only when r = 0.
//   128B read: P = a ^ (r<<4) and the producer's element there is (b/es, m): every read agrees.
#include "layoutscope/analysis/operand_grid.hpp"

#include "scenario_test_util.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace layoutscope;

namespace {

using Loaded = test::LoadedScenario;
Loaded load(const std::string& name) {
    return test::loadBrokenExample(name);
}

ConsumerOperandRef find(const Scenario& s, const std::string& what) {
    for (const ConsumerOperandRef& r : consumerOperands(s))
        if (r.label.find(what) != std::string::npos) return r;
    FAIL("no consumer operand " << what);
    return {};
}

// The count the consumer check's diagnostic states: "<what> reads N of ...".
size_t diagnosedCount(const Run& run, const std::string& what) {
    for (const Diagnostic& d : run.warnings) {
        const std::string lead = what + " reads ";
        if (d.message.rfind(lead, 0) == 0) return std::stoul(d.message.substr(lead.size()));
    }
    return 0;
}

using Coord = std::array<int64_t, 2>;

} // namespace

TEST_CASE("operand grid of a wgmma A read as SWIZZLE_64B from a SWIZZLE_128B tile", "[consumer][operand]") {
    const Loaded l = load("wgmma_desc_swizzle_64B.scn");
    const auto g = operandGrid(l.s, l.run, find(l.s, "wgmma.mma_async operand A"));
    REQUIRE(g);
    REQUIRE(g->checked);
    CHECK(g->rows == 64);
    CHECK(g->cols == 16);
    CHECK(g->elemBytes == 2);
    CHECK(g->tensor == "A");
    const uint32_t start = 1024; // sA: the first buffer, align=1024, from smemBase 1024
    size_t mismatched = 0;
    for (uint32_t m = 0; m < 64; ++m)
        for (uint32_t k = 0; k < 16; ++k) {
            const OperandCell& c = g->cells[m * 16 + k];
            const uint32_t r = m % 8, grp = m / 8, b = 2 * k;
            const uint32_t a = start + grp * 1024 + r * 64 + b;
            CHECK(c.m == m);
            CHECK(c.k == k);
            CHECK(c.bytes == 2);
            CHECK(c.addr == (a ^ ((r / 2) << 4)));
            CHECK(c.expected == Coord{k, m});
            REQUIRE(c.actual);
            CHECK(*c.actual == Coord{((r % 2) * 64 + b) / 2, 8 * grp + r / 2});
            CHECK(c.mismatch == (r != 0));
            mismatched += r != 0;
        }
    CHECK(mismatched == 64 * 16 - 8 * 16); // 896: every row but 0, 8, 16, ..., 56
    CHECK(g->mismatched == mismatched);
    // The first named in the issue: A[m=1][k=0] expected (x=0, y=1), reads (x=32, y=0).
    CHECK(*g->cells[16].actual == Coord{32, 0});
    CHECK(diagnosedCount(l.run, "wgmma.mma_async operand A") == mismatched);

    SECTION("operand B (its descriptor says SWIZZLE_128B like the tensor map) agrees everywhere") {
        const auto gb = operandGrid(l.s, l.run, find(l.s, "wgmma.mma_async operand B"));
        REQUIRE(gb);
        REQUIRE(gb->checked);
        CHECK(gb->indexName == "n");
        CHECK(gb->rows == 64);
        CHECK(gb->mismatched == 0);
        const uint32_t startB = 1024 + 8192; // sB follows sA
        for (const OperandCell& c : gb->cells) {
            const uint32_t r = c.m % 8, a = startB + (c.m / 8) * 1024 + r * 128 + 2 * c.k;
            CHECK(c.addr == (a ^ (r << 4)));
            CHECK(c.expected == Coord{c.k, c.m});
        }
    }
}

TEST_CASE("operand grid of the fixed twin: every read sees its element", "[consumer][operand]") {
    const Loaded l = load("wgmma_desc_swizzle_64B_fixed.scn");
    const auto g = operandGrid(l.s, l.run, find(l.s, "wgmma.mma_async operand A"));
    REQUIRE(g);
    REQUIRE(g->checked);
    CHECK(g->mismatched == 0);
    for (const OperandCell& c : g->cells) {
        const uint32_t r = c.m % 8, a = 1024 + (c.m / 8) * 1024 + r * 128 + 2 * c.k;
        CHECK(c.addr == (a ^ (r << 4)));
        REQUIRE(c.actual);
        CHECK(*c.actual == Coord{c.k, c.m});
        CHECK(!c.mismatch);
    }
    CHECK(diagnosedCount(l.run, "wgmma.mma_async operand A") == 0);
}

TEST_CASE("operand grid of a tcgen05.cp: one cell per 16-byte chunk", "[consumer][operand]") {
    const Loaded l = load("cp_desc_swizzle_64B.scn");
    const auto g = operandGrid(l.s, l.run, find(l.s, "tcgen05.cp"));
    REQUIRE(g);
    REQUIRE(g->checked);
    CHECK(g->rows == 128);
    CHECK(g->cols == 2); // .128x256b: 32 bytes per row
    CHECK(g->elemBytes == 1);
    for (const OperandCell& c : g->cells) {
        const uint32_t r = c.m % 8, grp = c.m / 8, b = 16 * c.col;
        const uint32_t a = 1024 + grp * 1024 + r * 64 + b;
        CHECK(c.bytes == 16);
        CHECK(c.k == b);
        CHECK(c.addr == (a ^ ((r / 2) << 4)));
        CHECK(c.expected == Coord{b, c.m});
        REQUIRE(c.actual);
        CHECK(*c.actual == Coord{(r % 2) * 64 + b, 8 * grp + r / 2});
        CHECK(c.mismatch == (r != 0));
    }
    CHECK(g->mismatched == 128 * 2 - 16 * 2); // 224 chunks
    CHECK(diagnosedCount(l.run, "tcgen05.cp") == g->mismatched);
}

TEST_CASE("operand grid of something that is no consumer operand is an error", "[consumer][operand]") {
    const Loaded l = load("wgmma_desc_swizzle_64B.scn");
    SECTION("an instruction that reads no operand") {
        const auto g = operandGrid(l.s, l.run, ConsumerOperandRef{0, 0, ""});
        REQUIRE(!g);
        CHECK(g.diagnostics()[0].message.find("no consumer operand") != std::string::npos);
    }
    SECTION("operand C of a wgmma") {
        ConsumerOperandRef r = find(l.s, "wgmma.mma_async operand A");
        r.operand = 2;
        CHECK(!operandGrid(l.s, l.run, r));
    }
    SECTION("an index past the end") {
        CHECK(!operandGrid(l.s, l.run, ConsumerOperandRef{9999, 0, ""}));
    }
}
