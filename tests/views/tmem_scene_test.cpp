// TMEM / register / multicast / decompression scenes against hand-derived tables:
//   tcgen05.st 32x32b: register j of thread t -> lane taddr.lane + t, column taddr.col + j (tcgen05.md §4.1)
//   tcgen05.cp 64x128b .warpx2::02_13: rows 0-31 -> warps 0 and 2, rows 32-63 -> warps 1 and 3;
//              .warpx2::01_23: rows 0-31 -> warps 0 and 1, rows 32-63 -> warps 2 and 3 (rule text, open
//              question 20)
//   decompression: formats.md §3.1-3.2 (b4x16_p64: 8 packed bytes + 8 padding, value in container bits [5:2];
//              b6x16_p32: 12 packed bytes + 4 padding, value in bits [5:0]; element 0 in the lowest bits).
#include "scene/cell_style.hpp"
#include "scene/decomp_scene.hpp"
#include "scene/multicast_fans.hpp"
#include "scene/reg_scene.hpp"
#include "scene/tma_fans.hpp"
#include "scene/tmem_inspect.hpp"
#include "scene/tmem_overlay.hpp"
#include "scene/tmem_scene.hpp"
#include "scene/tmem_scene_cache.hpp"
#include "tmem_fixture.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope;
using namespace layoutscope::views;
using namespace layoutscope::views::test;

namespace {
Rgba8 at(const TmemScene& s, uint32_t x, uint32_t y) {
    return s.texels[size_t(y) * s.width() + x];
}
Rgba8 rgb(Rgba8 c) {
    return Rgba8{c.r, c.g, c.b, 255};
}
} // namespace

TEST_CASE("TMEM scene of tcgen05.st 32x32b.x4 by warp 1 puts register j of thread t at lane 32+t, column j",
          "[views][tmem]") {
    auto doc = makeTmemStDocument();
    REQUIRE(doc->trace().stepCount == 5); // alloc + one step per register index
    const TmemScene s = tmemSceneAt(*doc, 5);
    REQUIRE(s.width() == 512);
    REQUIRE(s.ctaCount == 1);
    REQUIRE(s.allocs.size() == 1);
    CHECK(s.allocs[0].column == 0);
    CHECK(s.allocs[0].nCols == 128);
    int bad = 0;
    for (uint32_t t = 0; t < 32; ++t)
        for (uint32_t j = 0; j < 4; ++j) {
            const Rgba8 c = at(s, j, 32 + t);
            bad += rgb(c) != colourForCoord(int(t), int(j), 32, 4);
            bad += !(c.a & kFlagWritten);
            bad += bool(c.a & kFlagCurrent) != (j == 3); // the last step wrote register 3
        }
    CHECK(bad == 0);
    SECTION("cells the store did not reach are untouched; columns past the allocation are hatched") {
        CHECK(rgb(at(s, 4, 32)) == kUntouched);
        CHECK(at(s, 0, 31).a == 0); // lane 31 belongs to warp 0's quarter
        CHECK(at(s, 0, 64).a == 0);
        CHECK((at(s, 128, 40).a & kFlagFill) != 0);
        CHECK((at(s, 127, 40).a & kFlagFill) == 0);
    }
    SECTION("at step 2 only register 0 has arrived") {
        const TmemScene s2 = tmemSceneAt(*doc, 2);
        CHECK((at(s2, 0, 45).a & (kFlagWritten | kFlagCurrent)) == (kFlagWritten | kFlagCurrent));
        CHECK(at(s2, 1, 45).a == 0);
    }
}

TEST_CASE("Register scene links register (t, j) of warp 1 to TMEM lane 32+t, column j",
          "[views][tmem][registers]") {
    auto doc = makeTmemStDocument();
    const TmemScene s = tmemSceneAt(*doc, 5);
    const auto instr = regInstrAt(*doc, 5);
    REQUIRE(instr);
    const RegScene r = regSceneAt(*doc, *instr, 5, s);
    REQUIRE(r.valid);
    CHECK(r.store);
    CHECK(r.warps == std::vector<uint32_t>{1});
    CHECK(r.width() == 4);
    CHECK(r.height() == 32);
    for (uint32_t t : {0u, 7u, 31u})
        for (uint32_t j = 0; j < 4; ++j) {
            const RegLink* l = r.linkAt(j, t);
            REQUIRE(l);
            CHECK(l->tmem == TmemCellRef{0, 32 + t, j});
            CHECK(rgb(r.texels[t * 4 + j]) == colourForCoord(int(t), int(j), 32, 4));
        }
    CHECK(r.registerOf({0, 40, 2}) == glm::uvec2(2, 8));
    CHECK_FALSE(r.registerOf({0, 40, 9}));
}

TEST_CASE("TMEM scene of tcgen05.cp 64x128b warpx2 replicates each source row into two lane quarters",
          "[views][tmem][multicast]") {
    SECTION(".warpx2::02_13: lane L holds source row L mod 64") {
        auto doc = makeTmemCpDocument();
        const TmemScene s = tmemSceneAt(*doc, doc->trace().stepCount);
        REQUIRE(s.ctaCount == 1);
        int bad = 0;
        for (uint32_t lane = 0; lane < 128; ++lane)
            for (uint32_t c = 0; c < 4; ++c) {
                bad += rgb(at(s, c, lane)) != colourForCoord(int(lane % 64), int(c), 64, 4);
                bad += !(at(s, c, lane).a & kFlagWritten);
            }
        CHECK(bad == 0);
        CHECK(at(s, 4, 0).a == 0);
        const MulticastFans f = multicastFansAt(*doc, doc->trace().stepCount);
        REQUIRE(f.valid);
        CHECK(f.srcRows == 64);
        CHECK(f.replicas == 2);
        CHECK(f.edges == std::vector<FanEdge>{{0, 32, 0, 0, 32, 0},
                                              {32, 64, 0, 32, 64, 0},
                                              {0, 32, 0, 64, 96, 0},
                                              {32, 64, 0, 96, 128, 0}});
    }
    SECTION(".cta_group::2 .warpx2::01_23: both CTAs side by side, rows 0-31 to lanes 0-63, rows 32-63 to "
            "lanes 64-127") {
        auto doc = makeTmemCpDocument(false, true);
        const TmemScene s = tmemSceneAt(*doc, doc->trace().stepCount);
        REQUIRE(s.ctaCount == 2);
        REQUIRE(s.width() == 1024 + kTmemPairGap);
        auto rowOf = [](uint32_t lane) { return lane < 32 ? lane : lane < 96 ? lane - 32 : lane - 64; };
        int bad = 0;
        for (uint32_t cta = 0; cta < 2; ++cta)
            for (uint32_t lane = 0; lane < 128; ++lane)
                bad += rgb(at(s, s.originOf(cta) + 1, lane)) != colourForCoord(int(rowOf(lane)), 1, 64, 4);
        CHECK(bad == 0);
        CHECK(s.cellAt(512 + kTmemPairGap + 3, 9) == TmemCellRef{1, 9, 3});
        CHECK_FALSE(s.cellAt(515, 9));
        const MulticastFans f = multicastFansAt(*doc, doc->trace().stepCount);
        REQUIRE(f.edges.size() == 8);
        CHECK(f.edges[1] == FanEdge{0, 32, 0, 32, 64, 0});
        CHECK(f.edges[2] == FanEdge{32, 64, 0, 64, 96, 0});
        CHECK(f.edges[7] == FanEdge{32, 64, 1, 96, 128, 0});
    }
}

TEST_CASE("Decompression scene places each 4-bit / 6-bit field in its 8-bit container",
          "[views][decompress]") {
    SECTION(".b8x16.b4x16_p64: byte 0x21 holds e0 = 1 (0.5) and e1 = 2 (1.0), containers 0x04 and 0x08") {
        std::array<uint8_t, 16> src{};
        src[0] = 0x21;
        src[12] = 0xFF; // padding: must not reach any container
        const DecompScene d = decompScene(CpDecompress::B8x16_B4x16_p64, src);
        CHECK(d.containers[0] == 0x04);
        CHECK(d.containers[1] == 0x08);
        for (uint32_t e = 2; e < 16; ++e) CHECK(d.containers[e] == 0);
        CHECK(d.srcField[0] == 0);
        CHECK(d.srcField[7] == 1);
        CHECK(d.srcField[63] == 15);
        CHECK(d.srcField[64] == -1);
        CHECK(d.dstSrcBit[8 * 1 + 2] == 4); // container 1 bit 2 <- source bit 4
        CHECK(d.dstSrcBit[8 * 15 + 5] == 63);
        CHECK(d.dstSrcBit[0] == -1);
        CHECK(d.dstSrcBit[7] == -1);
        CHECK(decompFieldText(d, 0) == "e2m1 0x1 = 0.5");
        CHECK(decompFieldText(d, 1) == "e2m1 0x2 = 1");
        CHECK((d.texels[100].a & kFlagFill) != 0); // source bit 100 is padding
    }
    SECTION(".b8x16.b6x16_p32: bytes 81 f8 57 hold 0x01, 0x22, 0x3f, 0x15") {
        std::array<uint8_t, 16> src{};
        src[0] = 0x81;
        src[1] = 0xF8;
        src[2] = 0x57;
        const DecompScene d = decompScene(CpDecompress::B8x16_B6x16_p32, src);
        CHECK(d.containers[0] == 0x01);
        CHECK(d.containers[1] == 0x22);
        CHECK(d.containers[2] == 0x3F);
        CHECK(d.containers[3] == 0x15);
        CHECK(d.srcField[95] == 15);
        CHECK(d.srcField[96] == -1);
        CHECK(d.dstSrcBit[8 * 2] == 12);
        CHECK(d.dstSrcBit[8 * 2 + 6] == -1);
        // 0x22 = 1 00 010: e2m3 -(2/8) * 2^0; e3m2 = 1 000 10: -(2/4) * 2^-2
        CHECK(decompFieldText(d, 1) == "e2m3 0x22 = -0.25 | e3m2 = -0.125");
        CHECK(decompFieldText(d, 2) == "e2m3 0x3f = -7.5 | e3m2 = -28");
    }
    SECTION("the fixture's decompressing copy is found at its step") {
        auto doc = makeTmemCpDocument(true);
        const auto mi = decompMoveAt(*doc, doc->trace().stepCount);
        REQUIRE(mi);
        CHECK(doc->trace().moves[*mi].transform == Transform::Decompress4to8);
    }
}

TEST_CASE("TMEM inspector names the address, quarter, allocation, value and an unverified rule",
          "[views][tmem][inspect]") {
    auto doc = makeTmemStDocument();
    const TmemScene s = tmemSceneAt(*doc, 5);
    TmemReplay rp(doc->trace(), TmemState(1));
    rp.seek(5);
    const std::string text = inspectTmemCell(*doc, s, rp.state(), 2, 39); // lane 39, column 2: thread 39, r2
    CHECK_THAT(text, Catch::Contains("lane 39, column 2"));
    CHECK_THAT(text, Catch::Contains("0x00270002"));
    CHECK_THAT(text, Catch::Contains("warps 1, 5, 9"));
    CHECK_THAT(text, Catch::Contains("columns 0-127"));
    CHECK_THAT(text, Catch::Contains("0x3f800702")); // 0x3F800000 + 7*0x100 + 2
    CHECK_THAT(text, Catch::Contains("register r2 of thread 39"));
    CHECK_THAT(text, Catch::Contains("ld/st thread map"));
    CHECK(openQuestionsOf("tcgen05.md §5.3; open-questions.md 3, 28") == "open questions 3, 28");
    SECTION("decompressed cells decode their containers") {
        CHECK_THAT(decodeTmemValue(0x00000804u, Transform::Decompress4to8),
                   Catch::Contains("e2m1 containers (bits [5:2]) 0.5 1 0 0"));
    }
}

TEST_CASE("TmemSceneCache gives tmemSceneAt's cells for any seek order", "[views][tmem][cache]") {
    for (int variant = 0; variant < 3; ++variant) {
        auto doc = variant == 0 ? makeTmemStDocument() : makeTmemCpDocument(false, variant == 2);
        TmemSceneCache cache(*doc, 0);
        const uint32_t n = doc->trace().stepCount;
        std::vector<uint32_t> order{n, 0, 1, n / 2, 2, n, n - 1, 3, n / 3};
        int bad = 0;
        for (uint32_t s : order) {
            const TmemScene a = tmemSceneAt(*doc, s), &b = cache.seek(s);
            bad += a.texels != b.texels;
            bad += a.moveOf != b.moveOf;
            bad += a.allocs.size() != b.allocs.size();
        }
        INFO("variant " << variant);
        CHECK(bad == 0);
    }
}

// tma_multicast_cluster2.scn: one 64x32 fp16 box with ctaMask 0x3 lands in CTA 0 and CTA 1 at the
// same CTA-relative offset 1024 (the scenario's own comment, tma.md §10).
TEST_CASE("TMA multicast fan: the box rows reach both CTAs of the mask", "[views][multicast]") {
    auto doc =
        Document::fromFile(std::string(LAYOUTSCOPE_TEST_ASSETS) + "/scenarios/tma_multicast_cluster2.scn");
    REQUIRE(doc->hasTrace());
    const auto frames = boxFrames(*doc);
    const TmaFan f = tmaFanAt(*doc, doc->trace().stepCount, frames);
    REQUIRE(f.valid);
    CHECK(f.ctas == std::vector<uint32_t>{0, 1});
    CHECK(f.rows == 32);
    CHECK(f.smemAddr == std::vector<uint32_t>{1024, 1024});
    CHECK(f.edges.size() == 16); // 8 blocks of 4 rows x 2 CTAs
    CHECK(f.edges.back() == FanEdge{28, 32, 1, 28, 32, TmaFan::ctaX(1)});
    int unarrived = 0;
    for (uint32_t r = 0; r < 32; ++r)
        for (size_t k = 0; k < 2; ++k)
            unarrived += !(f.texels[size_t(r) * f.width() + TmaFan::ctaX(k)].a & kFlagWritten);
    CHECK(unarrived == 0);
    const TmaFan f0 = tmaFanAt(*doc, 0, frames);
    REQUIRE(f0.valid);
    CHECK_FALSE(f0.texels[TmaFan::ctaX(0)].a & kFlagWritten);
}

// tcgen05.ld 16x64b (tcgen05.md §4.1): register 0 of thread t <- lane t/4 + 8*(t%2), column (t/2)%2.
TEST_CASE("Register scene of a tcgen05.ld 16x64b links each register to the cell it loads",
          "[views][tmem][registers]") {
    auto doc = makeTmemStLdDocument();
    const uint32_t n = doc->trace().stepCount;
    const auto instr = regInstrAt(*doc, n);
    REQUIRE(instr);
    CHECK(*instr == 2);
    const TmemScene s = tmemSceneAt(*doc, n);
    const RegScene r = regSceneAt(*doc, *instr, n, s);
    REQUIRE(r.valid);
    CHECK_FALSE(r.store);
    CHECK(r.width() == 1);
    int bad = 0;
    for (uint32_t t = 0; t < 32; ++t) {
        const RegLink* l = r.linkAt(0, t);
        bad += !l || !(l->tmem == TmemCellRef{0, 32 + t / 4 + 8 * (t % 2), (t / 2) % 2});
        // a load's register takes the colour of the cell: st wrote thread (lane - 32)'s register (column)
        const uint32_t lane = 32 + t / 4 + 8 * (t % 2), col = (t / 2) % 2;
        bad += rgb(r.texels[t]) != colourForCoord(int(lane - 32), int(col), 32, 4);
    }
    CHECK(bad == 0);
    CHECK((at(s, 1, 32 + 8).a & kFlagCurrent) != 0); // read by the load's last step
}

TEST_CASE("TMEM inspector lists every open question the instruction rests on, not only the move's rule",
          "[views][tmem][inspect]") {
    // A decompressing warpx2 copy: the move's rule is the decompression (open questions 3, 28); the
    // warpx2 lane pairing (open question 20) and the descriptor source walk (open question 3) hold
    // for the whole instruction (../shared/ref/open-questions.md).
    auto doc = Document::fromFile(std::string(LAYOUTSCOPE_TEST_ASSETS) +
                                  "/scenarios/tcgen05_cp_64x128b_warpx2_02_13_b6.scn");
    REQUIRE(doc->hasTrace());
    const uint32_t end = doc->trace().stepCount;
    const TmemScene s = tmemSceneAt(*doc, end);
    TmemReplay rp(doc->trace(), TmemState(1));
    rp.seek(end);
    const std::string text = inspectTmemCell(*doc, s, rp.state(), 0, 64); // lane 64 <- source row 0
    INFO(text);
    CHECK_THAT(text, Catch::Contains("status:  unverified (open questions 3, 28)"));
    CHECK_THAT(text, Catch::Contains("also:    tcgen05.cp warpx2: unverified (open question 20)"));
    CHECK_THAT(text, Catch::Contains("also:    tcgen05.cp source walk: unverified (open question 3)"));
}

TEST_CASE("TMEM inspector reads a tcgen05.mma accumulator cell as D's type", "[views][tmem][inspect][mma]") {
    // u8 x u8 -> s32, M = 128, N = 64, K = 32, index-filled A and B (the example's header derives
    // D[m][n] = 10416 + 63488*(m%2 + n%2) + 524288*(m%2)*(n%2)); Layout D: D[m][n] at lane m, column n.
    auto doc =
        Document::fromFile(std::string(LAYOUTSCOPE_TEST_ASSETS) + "/scenarios/tcgen05_mma_i8_128x64.scn");
    REQUIRE(doc->hasTrace());
    const uint32_t end = doc->trace().stepCount;
    const TmemScene s = tmemSceneAt(*doc, end);
    TmemReplay rp(doc->trace(), TmemState(1));
    rp.seek(end);
    SECTION("D[0][0]") {
        CHECK(
            inspectTmemCell(*doc, s, rp.state(), 0, 0).find("= s32 10416 (tcgen05.mma accumulator D, s32)") !=
            std::string::npos);
    }
    SECTION("D[0][1]: lane 0, column 1") {
        CHECK(inspectTmemCell(*doc, s, rp.state(), 1, 0).find("= s32 73904") != std::string::npos);
    }
    SECTION("accumulator cells take the box colours of (row m, column n), the legend says so") {
        CHECK(s.mmaShown);
        const Rgba8 c = s.texels[size_t(3) * s.width() + 5]; // lane 3, column 5: D[3][5]
        const Rgba8 want = colourForCoord(3, 5, 128, 64);
        CHECK((c.r == want.r && c.g == want.g && c.b == want.b));
        CHECK_FALSE(tmemSceneAt(*doc, 1).mmaShown); // before the MMA
    }
    SECTION("D[1][1]") {
        CHECK(inspectTmemCell(*doc, s, rp.state(), 1, 1).find("= s32 661680") != std::string::npos);
    }
}

TEST_CASE("Registers view marks the registers an epilogue reads as another cell (expect fragment)",
          "[views][tmem][registers][fragment]") {
    // The epilogue assumes 32x32b (thread t register j = lane t, column j); the load is 16x256b.x4 (lane
    // t/4 + 8*((j/2)%2), column 8*(j/4) + 2*(t%4) + j%2): only thread 0's registers 0 and 1 agree, 510 of
    // 512 differ (the example's header; tests/engine/fragment_check_test.cpp derives the small case).
    for (const char* name : {"tmem_ld_fragment_16x256b", "tmem_ld_fragment_16x256b_fixed"}) {
        const bool broken = std::string(name).find("_fixed") == std::string::npos;
        auto doc =
            Document::fromFile(std::string(LAYOUTSCOPE_TEST_ASSETS) + "/scenarios/broken/" + name + ".scn");
        REQUIRE(doc->hasTrace());
        const uint32_t end = doc->trace().stepCount;
        const auto ri = regInstrAt(*doc, end);
        REQUIRE(ri);
        RegScene r = regSceneAt(*doc, *ri, end, tmemSceneAt(*doc, end));
        REQUIRE(!r.store);
        markFragment(*doc, fragmentExpectations(*doc), r);
        INFO(name);
        CHECK(r.fragmentShape == "32x32b");
        CHECK(r.fragmentDiffers == (broken ? 510u : 0u));
        if (broken) {
            // The load's vector is {%r16, ..., %r31}: position j is column 16 + j.
            CHECK(r.fragmentRegs == 512u);
            CHECK((r.texels[16].a & kFlagDiffers) == 0); // thread 0 position 0 agrees
            CHECK((r.texels[18].a & kFlagDiffers) != 0); // thread 0 position 2: lane 8, column 0
            CHECK((r.texels[size_t(1) * r.width() + 16].a & kFlagDiffers) != 0); // thread 1 position 0
            CHECK((r.texels[2].a & kFlagDiffers) == 0); // %r2 is the store's, not the load's
        }
    }
}

TEST_CASE("The allocation frame goes with tcgen05.dealloc", "[views][tmem]") {
    // Issue 24 item 6: the frame stayed after dealloc. tcgen05_ld_16x64b.scn allocates 32 columns (line 13)
    // and frees them as its last instruction (line 18).
    auto doc = Document::fromFile(std::string(LAYOUTSCOPE_TEST_ASSETS) + "/scenarios/tcgen05_ld_16x64b.scn");
    REQUIRE(doc->hasTrace());
    const Trace& t = doc->trace();
    size_t alloc = t.instrs.size(), dealloc = t.instrs.size();
    for (size_t i = 0; i < t.instrs.size(); ++i) {
        if (t.instrs[i].text.rfind("tcgen05.alloc", 0) == 0) alloc = i;
        if (t.instrs[i].text.rfind("tcgen05.dealloc", 0) == 0) dealloc = i;
    }
    REQUIRE(alloc < dealloc);
    REQUIRE(dealloc < t.instrs.size());
    const auto live = tmemAllocationsAt(*doc, t.instrs[alloc].endStep);
    REQUIRE(live.size() == 1);
    CHECK(live[0].nCols == 32);
    CHECK(tmemSceneAt(*doc, t.instrs[dealloc - 1].endStep - 1).allocs.size() == 1); // still allocated
    CHECK(tmemAllocationsAt(*doc, t.stepCount).empty());                            // after the dealloc
    CHECK(tmemSceneAt(*doc, t.stepCount).allocs.empty());
}

TEST_CASE("A .cta_group::2 dealloc frees the pair's allocation in both CTAs", "[views][tmem]") {
    // tcgen05_mma_pair_desc_swizzle_64B_fixed.scn: one collective `tcgen05.alloc.cta_group::2 ... 64` (line
    // 36, recorded in CTA 0 and CTA 1) and one `tcgen05.dealloc.cta_group::2 ... 64` (line 41). The ref pack
    // (tcgen05.md §2.2, PTX ISA §9.7.16.7.1): alloc and dealloc of `.cta_group::2` are the pair's collective
    // ones, so after the dealloc neither CTA holds the 64 columns.
    auto doc = Document::fromFile(std::string(LAYOUTSCOPE_TEST_ASSETS) +
                                  "/scenarios/broken/tcgen05_mma_pair_desc_swizzle_64B_fixed.scn");
    REQUIRE(doc->hasTrace());
    const Trace& t = doc->trace();
    size_t alloc = t.instrs.size();
    for (size_t i = 0; i < t.instrs.size(); ++i)
        if (t.instrs[i].text.rfind("tcgen05.alloc", 0) == 0) alloc = i;
    REQUIRE(alloc < t.instrs.size());
    const auto live = tmemAllocationsAt(*doc, t.instrs[alloc].endStep);
    REQUIRE(live.size() == 2);
    CHECK(((live[0].cta == 0 && live[1].cta == 1) || (live[0].cta == 1 && live[1].cta == 0)));
    CHECK(tmemAllocationsAt(*doc, t.stepCount).empty());
    // What was allocated, freed or not: the 64 columns in each CTA ("Fit TMEM to allocation" shows them).
    const auto made = tmemAllocationsMade(*doc, t.stepCount);
    REQUIRE(made.size() == 2);
    for (const TmemAllocBox& a : made) {
        CHECK(a.column == 0);
        CHECK(a.nCols == 64);
    }
}

TEST_CASE("A pair narrowed to its allocated columns keeps each CTA's cells where gridOf says",
          "[views][tmem]") {
    // Hand-built pair scene: cell (cta k, lane y, column c) coloured (k, y, c); narrowed to 64 columns, CTA
    // 1's column 0 is drawn at x = 64 + kTmemPairGap (no longer 512 + kTmemPairGap).
    TmemScene s;
    s.firstCta = 0;
    s.ctaCount = 2;
    s.texels.assign(size_t(s.width()) * 128, Rgba8{0, 0, 0, 0});
    s.moveOf.assign(s.texels.size(), -1);
    for (uint32_t k = 0; k < 2; ++k)
        for (uint32_t y = 0; y < 128; ++y)
            for (uint32_t c = 0; c < 512; c += 7) {
                const size_t i = size_t(y) * s.width() + k * (512 + kTmemPairGap) + c;
                s.texels[i] = Rgba8{uint8_t(k), uint8_t(y), uint8_t(c & 0xFF), 1};
                s.moveOf[i] = int32_t(c);
            }
    const TmemScene n = narrowPair(s, 64);
    CHECK(n.slot == 64);
    CHECK(n.width() == 2 * 64 + kTmemPairGap);
    CHECK(n.gridOf({1, 5, 0}) == glm::uvec2(64 + kTmemPairGap, 5));
    CHECK_FALSE(n.gridOf({1, 5, 64}).has_value()); // past the allocation: not shown
    CHECK(n.cellAt(64 + kTmemPairGap + 63, 9) == TmemCellRef{1, 9, 63});
    CHECK_FALSE(n.cellAt(64 + 3, 9).has_value()); // the gap
    CHECK(n.texels[size_t(9) * n.width() + 64 + kTmemPairGap + 63] == Rgba8{1, 9, 63, 1});
    CHECK(n.moveOf[size_t(9) * n.width() + 64 + kTmemPairGap + 63] == 63);
    CHECK(n.texels[size_t(100) * n.width() + 56] == Rgba8{0, 100, 56, 1});
}

TEST_CASE("Each CTA of a narrowed pair keeps its title, shortened to fit its columns", "[views][tmem]") {
    // 2 x 64 columns fitted into 500 px: each CTA is ~230 px wide, narrower than "CTA 0 (%cluster_ctarank)"
    // next to its neighbour's title; both titles must stay (the second was dropped as an overlap).
    TmemScene s;
    s.firstCta = 0;
    s.ctaCount = 2;
    s.texels.assign(size_t(s.width()) * 128, Rgba8{0, 0, 0, 0});
    s.moveOf.assign(s.texels.size(), -1);
    const TmemScene n = narrowPair(s, 64);
    for (const float width : {500.0f, 1400.0f}) {
        Camera2D cam;
        cam.setViewport({width, 300});
        cam.fit({0, 0}, {float(n.width()), 128.0f}, kTmemMargins, false);
        const OverlayList o = buildTmemOverlay(cam, {width, 300}, n, nullptr);
        int cta0 = 0, cta1 = 0;
        for (const OverlayList::Text& t : o.texts) {
            cta0 += t.text.rfind("CTA 0", 0) == 0;
            cta1 += t.text.rfind("CTA 1", 0) == 0;
        }
        INFO("viewport width " << width);
        CHECK(cta0 == 1);
        CHECK(cta1 == 1);
    }
}
