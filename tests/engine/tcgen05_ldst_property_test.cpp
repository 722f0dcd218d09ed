// Property of every tcgen05.ld/st form (PTX ISA 9.2 §9.7.16.8.3, Tables 49/50): the warp's register bits
// cover the shape's footprint exactly once — 16 or 32 lanes x (32 x num x {1,2,4,8}/... ) bits, and with
// pack::16b only the low 16 bits of twice as many columns.
#include "layoutscope/tcgen05/tcgen05.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace layoutscope;

TEST_CASE("every ld/st form maps the warp's register bits one-to-one onto its footprint",
          "[tcgen05][ldst][property]") {
    const char* shape = GENERATE("32x32b", "16x64b", "16x128b", "16x256b", "16x32bx2");
    const uint32_t num = GENERATE(1u, 2u, 4u, 8u, 16u, 32u, 64u, 128u);
    const bool pack = GENERATE(false, true);
    // bits per lane per .x1 repetition, from the shape name; 16x32bx2 is two 16-lane halves of 32 bits
    const std::string s = shape;
    const uint32_t lanes = s == "32x32b" ? 32 : 16;
    const uint32_t colsPerRep = s == "16x64b"     ? 2
                                : s == "16x128b"  ? 4
                                : s == "16x256b"  ? 8
                                : s == "16x32bx2" ? 2
                                                  : 1;
    auto f = parseLdSt("tcgen05.ld.sync.aligned." + s + ".x" + std::to_string(num) +
                       (pack ? ".pack::16b" : "") + ".b32 {r}, [taddr]" +
                       (s == "16x32bx2" ? ", " + std::to_string(pack ? 2 * num : num) : "") + ";");
    const uint32_t regsPerX1 = s == "16x128b" ? 2 : s == "16x256b" ? 4 : 1; // PTX Table 49
    if (regsPerX1 * num > 128) {
        CHECK_FALSE(f.ok()); // more than 128 registers: not a legal form
        return;
    }
    REQUIRE(f.ok());
    CHECK(regsPerThread(*f) == regsPerX1 * num);
    INFO(s << ".x" << num << (pack ? ".pack::16b" : ""));
    const uint64_t cols = uint64_t{colsPerRep} * num * (pack ? 2 : 1);
    std::vector<bool> seen(uint64_t{lanes} * cols * 32, false);
    uint64_t count = 0;
    for (uint32_t t = 0; t < 32; ++t)
        for (uint32_t j = 0; j < regsPerThread(*f); ++j)
            for (uint32_t b = 0; b < 32; ++b) {
                const TmemBit tb = ldStBit(*f, t, j, b);
                const bool inside = tb.mapped && tb.laneOff >= 0 && tb.laneOff < lanes && tb.colOff >= 0 &&
                                    tb.colOff < static_cast<int64_t>(cols) && tb.bit < (pack ? 16u : 32u);
                const uint64_t i =
                    inside ? (static_cast<uint64_t>(tb.laneOff) * cols + tb.colOff) * 32 + tb.bit : 0;
                const bool fresh = inside && !seen[i]; // no TMEM bit twice
                if (fresh) seen[i] = true, ++count;
                if (!fresh)
                    FAIL("thread " << t << " r" << j << " bit " << b << " -> lane " << tb.laneOff << " col "
                                   << tb.colOff << " bit " << tb.bit << (fresh ? "" : " (already mapped)"));
            }
    CHECK(count == uint64_t{lanes} * cols * (pack ? 16 : 32));
    CHECK(ldStFootprint(*f).cols == static_cast<int64_t>(cols));
}
