// The consumer check and operand grid of a .cta_group::2 tcgen05.mma (issue 12): each CTA's half of A and
// B read from that CTA's shared memory and compared with the tile that CTA loaded, against hand-derived
// truth for assets/scenarios/broken/tcgen05_mma_pair_desc_swizzle_64B.scn.
//
// Truth (/work/shared/ref/tma.md §4.2, tcgen05.md §7; the pair split is the PTX text's reading, RuleId
// Tcgen05MmaCtaPair, unverified): M = 256, N = 64, u8 (es = 1), K = 32 bytes. CTA 0 loaded A rows 0-127
// and B rows 0-31, CTA 1 A rows 128-255 and B rows 32-63, each box at a 1024-aligned offset with
// SWIZZLE_128B: element (x, y) of the box at logical y*128 + x, physical P = A ^ (((A>>7)&7)<<4). The
// pair reads operand row m from CTA m / 128 as local row r = m % 128 (B: n / 32, n % 32). A's descriptor
// (SWIZZLE_64B, SBO 1024) reads local row r (q = r%8, g = r/8), byte b at a = start + g*1024 + q*64 + b,
// physical a ^ ((q/2)<<4); the tile's bits [7,10) there are q/2, so the producer's element there is
// x = (q%2)*64 + b, box row 8g + q/2: the expected (b, r) only when q = 0.
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

const Diagnostic* diagnosed(const Run& run, const std::string& what) {
    for (const Diagnostic& d : run.warnings)
        if (d.message.rfind(what + " reads ", 0) == 0) return &d;
    return nullptr;
}

using Coord = std::array<int64_t, 2>;
const std::string kA0 = "tcgen05.mma operand A (CTA 0 of the pair: m 0-127)",
                  kA1 = "tcgen05.mma operand A (CTA 1 of the pair: m 128-255)",
                  kB0 = "tcgen05.mma operand B (CTA 0 of the pair: n 0-31)",
                  kB1 = "tcgen05.mma operand B (CTA 1 of the pair: n 32-63)";

std::optional<OperandGrid> gridOf(const Loaded& l, const std::string& what) {
    for (const ConsumerOperandRef& r : consumerOperands(l.s))
        if (r.label.find(what) != std::string::npos) {
            auto g = operandGrid(l.s, l.run, r);
            if (g) return *g;
        }
    return std::nullopt;
}

} // namespace

TEST_CASE("a pair MMA has each operand as two halves, one per CTA", "[consumer][operand][pair]") {
    const Loaded l = load("tcgen05_mma_pair_desc_swizzle_64B.scn");
    std::vector<std::string> labels;
    for (const ConsumerOperandRef& r : consumerOperands(l.s)) labels.push_back(r.label);
    REQUIRE(labels.size() == 4);
    CHECK(labels[0].find(kA0) != std::string::npos);
    CHECK(labels[1].find(kA1) != std::string::npos);
    CHECK(labels[2].find(kB0) != std::string::npos);
    CHECK(labels[3].find(kB1) != std::string::npos);
}

TEST_CASE("a pair MMA's half of A is read from its CTA and compared with that CTA's tile",
          "[consumer][operand][pair]") {
    const Loaded l = load("tcgen05_mma_pair_desc_swizzle_64B.scn");
    const uint32_t half = GENERATE(0u, 1u);
    const auto g = gridOf(l, half ? kA1 : kA0);
    REQUIRE(g);
    REQUIRE(g->checked);
    CHECK(g->cta == half);
    CHECK(g->rowBase == 128 * half);
    CHECK(g->rows == 128);
    CHECK(g->cols == 32);
    CHECK(g->tensor == "A");
    const uint32_t start = l.s.findBuffer("sA0")->addr; // dA starts at sA0's offset in both CTAs
    for (const OperandCell& c : g->cells) {
        const uint32_t q = c.m % 8, grp = c.m / 8, b = c.k;
        const uint32_t a = start + grp * 1024 + q * 64 + b;
        CHECK(c.addr == (a ^ ((q / 2) << 4)));
        CHECK(c.expected == Coord{b, 128 * half + c.m});
        REQUIRE(c.actual);
        CHECK(*c.actual == Coord{(q % 2) * 64 + b, 128 * half + 8 * grp + q / 2});
        CHECK(c.mismatch == (q != 0));
    }
    CHECK(g->mismatched == 112 * 32); // 3584 of 4096
    const Diagnostic* d = diagnosed(l.run, half ? kA1 : kA0);
    REQUIRE(d);
    CHECK(d->message.find("reads 3584 of 4096 elements") != std::string::npos);
    CHECK(d->message.find(half ? "A[m=129][k=0]: expected global (x=0, y=129), reads (x=64, y=128)"
                               : "A[m=1][k=0]: expected global (x=0, y=1), reads (x=64, y=0)") !=
          std::string::npos);
    CHECK(d->message.find("Fix: set the descriptor's layout type to 128B") != std::string::npos);
    CHECK(d->message.find("unverified") != std::string::npos);
    CHECK(d->provenance == ruleInfo(RuleId::Tcgen05MmaCtaPair).provenance);
}

TEST_CASE("a pair MMA's halves of B agree with their CTAs' tiles", "[consumer][operand][pair]") {
    const Loaded l = load("tcgen05_mma_pair_desc_swizzle_64B.scn");
    const uint32_t half = GENERATE(0u, 1u);
    const auto g = gridOf(l, half ? kB1 : kB0);
    REQUIRE(g);
    REQUIRE(g->checked);
    CHECK(g->cta == half);
    CHECK(g->rowBase == 32 * half);
    CHECK(g->rows == 32);
    CHECK(g->tensor == "B");
    CHECK(g->mismatched == 0);
    for (const OperandCell& c : g->cells) {
        REQUIRE(c.actual);
        CHECK(*c.actual == Coord{c.k, 32 * half + c.m});
    }
    CHECK(!diagnosed(l.run, half ? kB1 : kB0));
}

TEST_CASE("the fixed pair MMA twin reads every element of both halves as its tile",
          "[consumer][operand][pair]") {
    const Loaded l = load("tcgen05_mma_pair_desc_swizzle_64B_fixed.scn");
    for (const std::string& what : {kA0, kA1, kB0, kB1}) {
        INFO(what);
        const auto g = gridOf(l, what);
        REQUIRE(g);
        CHECK(g->checked);
        CHECK(g->mismatched == 0);
        CHECK(!diagnosed(l.run, what));
    }
    for (const Diagnostic& d : l.run.warnings) CHECK(d.severity != Severity::Error);
}
