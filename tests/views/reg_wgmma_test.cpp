// Registers scene of a wgmma.mma_async (issue 24 item 4): D's registers, coloured by the element they hold
// and marked where the value check finds a wrong value. Truth by hand from the examples' headers:
// wgmma_m64n8k16_d has D[m][n] = 8m + n in {%f0..%f3} of warps 0-3, thread t = 32w + l register i holding
// D[16w + l/4 + 8((i/2)%2)][2(l%4) + i%2 + 8(i/4)] (PTX ISA 9.2 §9.7.15.5.1.1): thread 5 r0 = D[1][2] = 10.
// Its broken twin reads the f16 tiles as .bf16: D[m][n] = bf16(f16 bits of 8m + n) x 2^-7 (1.0's f16 bits as
// bf16), right only for D[0][0] = 0 (thread 0 r0) and D[0][4] = 4 (thread 2 r0: 0x4400 as bf16 is 2^9).
#include "scene/cell_style.hpp"
#include "scene/reg_scene.hpp"
#include "scene/view_pane.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace layoutscope;
using namespace layoutscope::views;

TEST_CASE("Registers scene of a wgmma: D's registers by element, wrong values marked",
          "[views][registers][wgmma]") {
    for (const char* path :
         {"/scenarios/wgmma_m64n8k16_d.scn", "/scenarios/broken/wgmma_d_bf16_for_f16.scn"}) {
        INFO(path);
        const bool broken = std::string(path).find("broken") != std::string::npos;
        auto doc = Document::fromFile(std::string(LAYOUTSCOPE_TEST_ASSETS) + path);
        REQUIRE(doc->hasTrace());
        CHECK_FALSE(hasTmemMoves(*doc)); // Hopper: no Tensor Memory view, only the registers
        CHECK_THAT(buildViewPane(*doc, ExportView::Tmem, UINT32_MAX).error,
                   Catch::Matchers::Contains("writes no Tensor Memory"));
        CHECK(buildViewPane(*doc, ExportView::Registers, UINT32_MAX).pane); // the export has the registers
        const uint32_t end = doc->trace().stepCount;
        const auto ri = regInstrAt(*doc, end);
        REQUIRE(ri);
        RegScene r = regSceneAt(*doc, *ri, end, TmemScene{});
        REQUIRE(r.valid);
        CHECK(r.wgmma);
        CHECK_FALSE(r.store);
        CHECK(r.width() == 4);    // %f0..%f3
        CHECK(r.height() == 128); // the warpgroup's 4 warps
        CHECK(r.warps == std::vector<uint32_t>{0, 1, 2, 3});
        const Rgba8 c = r.texels[size_t(5) * r.width() + 0]; // thread 5 r0: D[1][2] of 64 x 8
        const Rgba8 want = colourForCoord(1, 2, 64, 8);
        CHECK((c.r == want.r && c.g == want.g && c.b == want.b));
        CHECK(!r.registerOf({0, 0, 0})); // no TMEM cell behind a computed register
        const std::vector<MmaDCheck> checks = wgmmaDValues(*doc->scenario(), doc->run());
        markWgmmaD(checks, r);
        CHECK(r.dRegs == 512u);
        CHECK(r.dDiffers == (broken ? 510u : 0u));
        CHECK((r.texels[0].a & kFlagDiffers) == 0);                     // thread 0 r0: D[0][0] = 0
        CHECK((r.texels[size_t(2) * r.width()].a & kFlagDiffers) == 0); // thread 2 r0: D[0][4] = 4
        CHECK(((r.texels[size_t(5) * r.width()].a & kFlagDiffers) != 0) == broken);
        const std::string t = wgmmaRegisterText(*doc, r, checks, 0, 5);
        CHECK(t.find("holds:   D[1][2] (.f32)") != std::string::npos);
        if (!broken) {
            CHECK(t.find("value:   0x41200000 = 10\n") != std::string::npos);
            CHECK(t.find("check:   D[1][2] = 10, the product of the tiles (error 0") != std::string::npos);
        } else {
            CHECK(t.find("check:   D[1][2] differs: 10, the product of the tiles") != std::string::npos);
        }
    }
}
