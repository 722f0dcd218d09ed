// The tcgen05.mma value check in the Tensor Memory view (issue 24 item 4: "the TMEM view colours D by
// position, so a wrong D looks exactly like a right one"). Truth from the engine's value check, whose numbers
// the broken example's diagnostic states (`check --run`: D differs in 8192 of 8192 elements, the instruction
// descriptor reading the f16 tiles as bf16) and its fixed twin (no finding): every D cell of the M = 128 x
// N = 64 f32 accumulator (lanes 0-127, columns 0-63) is marked in the first, none in the second, and only
// once the MMA has written them.
#include "scene/cell_style.hpp"
#include "scene/tmem_dvalues.hpp"
#include "scene/tmem_scene.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace layoutscope;
using namespace layoutscope::views;

TEST_CASE("Tensor Memory marks the tcgen05.mma accumulator cells the value check finds wrong",
          "[views][tmem][mma-values]") {
    for (const char* name : {"tcgen05_mma_idesc_bf16_for_f16", "tcgen05_mma_idesc_bf16_for_f16_fixed"}) {
        INFO(name);
        const bool broken = std::string(name).find("fixed") == std::string::npos;
        auto doc =
            Document::fromFile(std::string(LAYOUTSCOPE_TEST_ASSETS) + "/scenarios/broken/" + name + ".scn");
        REQUIRE(doc->hasTrace());
        const std::vector<MmaDCheck> checks = mmaDValues(*doc->scenario(), doc->run());
        REQUIRE(checks.size() == 1);
        REQUIRE(checks[0].skipped.empty());
        CHECK(checks[0].cells.size() == 128u * 64u);
        const uint32_t end = doc->trace().stepCount;
        TmemScene s = tmemSceneAt(*doc, end);
        markMmaDValues(*doc, checks, s);
        CHECK(s.dValueMarked == (broken ? 8192u : 0u));
        for (const auto& [lane, col] : {std::pair{0u, 0u}, {5u, 17u}, {127u, 63u}}) {
            const auto g = s.gridOf({0, lane, col});
            REQUIRE(g);
            CHECK(((s.texels[size_t(g->y) * s.width() + g->x].a & kFlagDiffers) != 0) == broken);
            const std::string t = mmaDValueText(*doc, checks, s, g->x, g->y);
            CHECK_THAT(t,
                       Catch::Contains("D[m=" + std::to_string(lane) + "][n=" + std::to_string(col) + "]"));
            CHECK_THAT(t, Catch::Contains(broken ? ": WRONG)" : ": ok)"));
        }
        const auto outside = s.gridOf({0, 0, 64}); // past N: no D element
        REQUIRE(outside);
        CHECK(mmaDValueText(*doc, checks, s, outside->x, outside->y).empty());
        // Before the MMA ran nothing of D is written: nothing to mark, nothing coloured by value.
        const uint32_t before = doc->trace().instrs[checks[0].instr].firstStep;
        TmemScene early = tmemSceneAt(*doc, before);
        markMmaDValues(*doc, checks, early);
        colourMmaDByValue(*doc, checks, early);
        CHECK(early.dValueMarked == 0u);
        CHECK_FALSE(early.dByValue);
    }
}

TEST_CASE("Tensor Memory colours a tcgen05.mma accumulator by D's value on request",
          "[views][tmem][mma-values]") {
    // tcgen05_mma_i8_128x64's header: D[m][n] = 10416 + 63488 (m%2 + n%2) + 524288 (m%2)(n%2), at lane m,
    // column n: D[0][0] = 10416 the smallest (blue end), D[1][1] = 661680 the largest (yellow end).
    auto doc =
        Document::fromFile(std::string(LAYOUTSCOPE_TEST_ASSETS) + "/scenarios/tcgen05_mma_i8_128x64.scn");
    REQUIRE(doc->hasTrace());
    const std::vector<MmaDCheck> checks = mmaDValues(*doc->scenario(), doc->run());
    REQUIRE(checks.size() == 1);
    TmemScene s = tmemSceneAt(*doc, doc->trace().stepCount);
    const auto g00 = s.gridOf({0, 0, 0}), g11 = s.gridOf({0, 1, 1});
    REQUIRE(g00);
    REQUIRE(g11);
    const size_t k00 = size_t(g00->y) * s.width() + g00->x, k11 = size_t(g11->y) * s.width() + g11->x;
    const uint8_t flags = s.texels[k00].a;
    colourMmaDByValue(*doc, checks, s);
    REQUIRE(s.dByValue);
    CHECK(s.dMin == Approx(10416.0));         // D[0][0], the header's value
    CHECK(s.texels[k00].a == flags);          // written flag kept
    CHECK(s.texels[k00].b > s.texels[k00].r); // the smallest: blue end
    CHECK(s.dMax == Approx(661680.0));        // D[1][1]
    CHECK(s.texels[k11].r > s.texels[k11].b); // the largest: yellow end
}
