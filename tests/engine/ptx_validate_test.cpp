// PTX validator: hand-derived accept/reject tables per instruction, from the PTX ISA text (seeds
// in ../shared/ref/seeds) corrected by golden/ptxas/README.md "Where ptxas departs from the PTX ISA
// text", plus diagnostic content (span column, valid-target list, fix suggestion).
#include "layoutscope/ptx/validate.hpp"
#include "ptx_test_util.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace layoutscope;
using namespace layoutscope::test;

TEST_CASE("tcgen05.cp shape and multicast pairing", "[ptx][validate][tcgen05]") {
    // PTX §9.7.16.9.2: 128x256b/4x256b/128x128b take no multicast, 64x128b needs warpx2, 32x128b warpx4.
    runTable({
        {"tcgen05.cp.cta_group::1.128x256b [%r0], %rd1;", true, "plain 128x256b"},
        {"tcgen05.cp.cta_group::2.4x256b [%r0], %rd1;", true, "4x256b, CTA pair"},
        {"tcgen05.cp.cta_group::1.64x128b.warpx2::02_13 [%r0], %rd1;", true, "64x128b with warpx2"},
        {"tcgen05.cp.cta_group::1.64x128b.warpx2::01_23 [%r0], %rd1;", true, "64x128b with the other warpx2"},
        {"tcgen05.cp.cta_group::1.32x128b.warpx4 [%r0], %rd1;", true, "32x128b with warpx4"},
        {"tcgen05.cp.cta_group::1.128x128b.warpx4 [%r0], %rd1;", false, "128x128b takes no multicast"},
        {"tcgen05.cp.cta_group::1.64x128b [%r0], %rd1;", false, "64x128b needs warpx2"},
        {"tcgen05.cp.cta_group::1.64x128b.warpx4 [%r0], %rd1;", false, "64x128b does not take warpx4"},
        {"tcgen05.cp.cta_group::1.32x128b.warpx2::02_13 [%r0], %rd1;", false, "32x128b needs warpx4"},
        {"tcgen05.cp.128x256b [%r0], %rd1;", false, ".cta_group is mandatory"},
        {"tcgen05.cp.cta_group::3.128x256b [%r0], %rd1;", false, "no cta_group::3"},
        {"tcgen05.cp.cta_group::1.16x128b [%r0], %rd1;", false, "16x128b is an ld/st shape"},
        {"tcgen05.cp.64x128b.warpx2::01_23.cta_group::2 [%r0], %rd1;", true, "qualifier order is free"},
    });
}

TEST_CASE("tcgen05.cp decompression formats and operands", "[ptx][validate][tcgen05]") {
    runTable({
        // README departure 5: no shape restriction on decompression.
        {"tcgen05.cp.cta_group::1.32x128b.warpx4.b8x16.b6x16_p32 [%r0], %rd1;", true,
         "any shape decompresses"},
        {"tcgen05.cp.cta_group::2.128x256b.b8x16.b4x16_p64 [%r0], %rd1;", true, "b4 source"},
        {"tcgen05.cp.cta_group::1.b8x16.128x256b.b6x16_p32 [%r0], %rd1;", true,
         "formats need not be adjacent"},
        {"tcgen05.cp.cta_group::1.128x256b.b6x16_p32.b8x16 [%r0], %rd1;", false, "destination format first"},
        {"tcgen05.cp.cta_group::1.128x256b.b8x16 [%r0], %rd1;", false, "formats come as a pair"},
        {"tcgen05.cp.cta_group::1.128x256b.b8x16.b8x16 [%r0], %rd1;", false, "duplicate"},
        {"tcgen05.cp.cta_group::1.128x256b.b8x16.b6p2x16 [%r0], %rd1;", false, "b6p2x16 is unknown here"},
        {"tcgen05.cp.cta_group::1.128x256b.sync [%r0], %rd1;", false, "no .sync"},
        {"tcgen05.cp.cta_group::1.128x256b [%r0], 0;", true, "immediate s-desc (README departure 10)"},
        {"tcgen05.cp.cta_group::1.128x256b [%r0+16], %rd1;", true, "taddr with offset"},
        {"tcgen05.cp.cta_group::1.128x256b [%r0], %r1;", false, "32-bit s-desc"},
        {"tcgen05.cp.cta_group::1.128x256b [%rd1], %rd1;", false, "64-bit taddr"},
        {"tcgen05.cp.cta_group::1.128x256b [smem], %rd1;", false, "shared symbol as taddr"},
        {"tcgen05.cp.cta_group::1.128x256b [16], %rd1;", false, "immediate taddr (ptxas crashes)"},
        {"tcgen05.cp.cta_group::1.128x256b %r0, %rd1;", false, "taddr needs brackets"},
    });
}

TEST_CASE("tcgen05.ld/st vector length follows Table 50", "[ptx][validate][tcgen05]") {
    runTable({
        {"tcgen05.ld.sync.aligned.32x32b.x2.b32 {%r1, %r2}, [%r0];", true, "1 reg per num"},
        {"tcgen05.ld.sync.aligned.16x128b.x2.b32 {%r1, %r2, %r3, %r4}, [%r0];", true, "2 regs per num"},
        {"tcgen05.ld.sync.aligned.16x256b.x1.b32 {%r1, %r2, %r3, %r4}, [%r0];", true, "4 regs per num"},
        {"tcgen05.ld.sync.aligned.16x128b.x2.pack::16b.b32 {%r1, %r2, %r3, %r4}, [%r0];", true,
         "pack does not halve the length (departure 4)"},
        {"tcgen05.ld.sync.aligned.16x128b.x2.pack::16b.b32 {%r1, %r2}, [%r0];", false,
         "halved length is wrong"},
        {"tcgen05.ld.sync.aligned.16x64b.x4.b32 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%r0];", false,
         "doubled"},
        {"tcgen05.ld.sync.32x32b.x1.b32 {%r1}, [%r0];", true, ".aligned optional (departure 1)"},
        {"tcgen05.ld.aligned.32x32b.x1.b32 {%r1}, [%r0];", false, ".sync mandatory"},
        {"tcgen05.ld.sync.aligned.32x32b.x1 {%r1}, [%r0];", false, ".b32 mandatory"},
        {"tcgen05.ld.sync.aligned.32x32b.x1.u32 {%r1}, [%r0];", false, "only .b32"},
        {"tcgen05.ld.sync.aligned.32x32b.x1.b32 %r1, [%r0];", false, "scalar without braces"},
        {"tcgen05.ld.sync.aligned.32x32b.x1.b32 {%rd1}, [%r0];", false, "64-bit destination"},
        {"tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r1}, [%r0+4];", true, "taddr offset"},
        {"tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r1}, [16];", false, "immediate taddr"},
        {"tcgen05.ld.sync.aligned.cta_group::1.32x32b.x1.b32 {%r1}, [%r0];", false, "no .cta_group on ld"},
        {"tcgen05.ld.sync.aligned.32x32b.x1.unpack::16b.b32 {%r1}, [%r0];", false, "unpack is st-only"},
        {"tcgen05.ld.aligned.sync.32x32b.b32.x2 {%r1, %r2}, [%r0];", true, "any qualifier order"},
        {"tcgen05.st.sync.aligned.32x32b.x4.b32 [%r0], {%r1, %r2, %r3, 0};", true, "st mixes immediates"},
        {"tcgen05.st.sync.aligned.32x32b.x2.b32 [%r0], {1, 2};", false, "but not all immediates"},
        {"tcgen05.st.sync.aligned.32x32b.x2.pack::16b.b32 [%r0], {%r1, %r2};", false, "pack is ld-only"},
        {"tcgen05.st.sync.aligned.32x32b.x4.b32 [%r0], {%h1, %h2, %h3, %h4};", false, "16-bit sources"},
    });
}

TEST_CASE("tcgen05.ld/st NA cells and immHalfSplitoff", "[ptx][validate][tcgen05]") {
    std::string r128 = "{";
    for (int i = 1; i <= 128; ++i) r128 += (i > 1 ? ", %r" : "%r") + std::to_string(i);
    r128 += "}";
    runTable({
        {("tcgen05.ld.sync.aligned.16x64b.x128.b32 " + r128 + ", [%r0];").c_str(), true,
         "x128 of 16x64b is 128 regs"},
        {"tcgen05.ld.sync.aligned.16x256b.x64.b32 {%r1}, [%r0];", false, "NA cell 16x256b.x64"},
        {"tcgen05.ld.sync.aligned.16x128b.x128.b32 {%r1}, [%r0];", false, "NA cell 16x128b.x128"},
        {"tcgen05.ld.sync.aligned.16x32bx2.x1.b32 {%r1}, [%r0], 16;", true, "16x32bx2 with its immediate"},
        {"tcgen05.ld.sync.aligned.16x32bx2.x1.b32 {%r1}, [%r0], -16;", true, "no range check (departure 3)"},
        {"tcgen05.ld.sync.aligned.16x32bx2.x1.b32 {%r1}, [%r0], 65536;", true, "no range check"},
        {"tcgen05.ld.sync.aligned.16x32bx2.x1.b32 {%r1}, [%r0];", false, "immediate required"},
        {"tcgen05.ld.sync.aligned.16x32bx2.x1.b32 {%r1}, [%r0], %r2;", false, "must be an immediate"},
        {"tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r1}, [%r0], 16;", false, "other shapes forbid it"},
        {"tcgen05.st.sync.aligned.16x32bx2.x2.b32 [%r0], 0, {%r1, %r2};", true,
         "st puts it before the vector"},
    });
}

TEST_CASE("tcgen05.alloc/dealloc/relinquish operand rules", "[ptx][validate][tcgen05]") {
    runTable({
        {"tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [smem], 32;", true, "minimum"},
        {"tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [smem], 512;", true, "maximum"},
        {"tcgen05.alloc.cta_group::1.sync.aligned.b32 [smem], 0x40;", true, ".shared::cta optional, hex"},
        {"tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [smem], 48;", false, "not a power of two"},
        {"tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [smem], 16;", false, "below 32"},
        {"tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [smem], 1024;", false, "above 512"},
        {"tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [smem], %r1;", true, "register nCols"},
        {"tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [smem], %rd5;", false, "64-bit nCols"},
        {"tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r1], 32;", true, "register destination"},
        {"tcgen05.alloc.cta_group::1.sync.aligned.shared::cluster.b32 [smem], 32;", false, "cluster space"},
        {"tcgen05.alloc.cta_group::1.shared::cta.b32 [smem], 32;", false, ".sync/.aligned mandatory"},
        {"tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r0, 1024;", true, "no range check (departure 2)"},
        {"tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r0, -32;", true, "negative multiple of 32"},
        {"tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r0, 48;", false, "not a multiple of 32"},
        {"tcgen05.dealloc.cta_group::1.sync.aligned.b32 0, 32;", true, "immediate taddr"},
        {"tcgen05.dealloc.cta_group::1.sync.aligned.b32 [%r0], 32;", false, "no brackets"},
        {"tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r0, 32, 1;", false, "extra operand"},
        {"tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;", true, "no operands"},
        {"tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned [smem];", false, "takes no operand"},
    });
}

TEST_CASE("tcgen05.shift targets and spelling", "[ptx][validate][tcgen05]") {
    const char* shift = "tcgen05.shift.cta_group::1.down [%r0];";
    CHECK(accepted(shift, tgt("sm_100a")));
    CHECK(accepted(shift, tgt("sm_103a")));
    CHECK(accepted(shift, tgt("sm_110a")));
    CHECK_FALSE(accepted(shift, tgt("sm_100f"))); // departure 7
    CHECK_FALSE(accepted(shift, tgt("sm_120a")));
    runTable({
        {"tcgen05.shift.down.cta_group::2 [%r0];", true, "order free"},
        {"tcgen05.shift.cta_group::1.up [%r0];", false, "only .down"},
        {"tcgen05.shift.cta_group::1.down.down [%r0];", false, "duplicate"},
        {"tcgen05.shift.cta_group::1.down [%r0+32];", true, "offset"},
        {"tcgen05.shift.cta_group::1.down [32];", false, "immediate taddr (ptxas crashes)"},
        {"tcgen05.down.shift [%r0];", false, "name must come first"},
    });
}

TEST_CASE("cp.async.bulk.tensor forms per direction and mode", "[ptx][validate][tma]") {
    const std::string L = "cp.async.bulk.tensor.";
    runTable({
        {"cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [smem], [%rd0, "
         "{%r1, %r2}], [mbar];",
         true, "canonical load"},
        {"cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [smem], [%rd0, {%r1, "
         "%r2}], [mbar];",
         true, "tile is the default mode"},
        {"cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd0, {%r1, %r2}], [smem];", true, "store"},
        {"cp.async.bulk.tensor.2d.global.shared::cta.mbarrier::complete_tx::bytes [%rd0, {%r1, %r2}], "
         "[smem], [mbar];",
         false, "store completes through bulk_group"},
        {"cp.async.bulk.tensor.2d.shared::cluster.global.bulk_group [smem], [%rd0, {%r1, %r2}];", false,
         "load needs mbarrier"},
        {"cp.async.bulk.tensor.2d.shared::cluster.global.tile::gather4.mbarrier::complete_tx::bytes [smem], "
         "[%rd0, {%r1, "
         "%r2, %r3, %r4, %r5}], [mbar];",
         true, "gather4: 2d, 5 coordinates"},
        {"cp.async.bulk.tensor.3d.shared::cluster.global.tile::gather4.mbarrier::complete_tx::bytes [smem], "
         "[%rd0, {%r1, "
         "%r2, %r3, %r4, %r5}], [mbar];",
         false, "gather4 only 2d"},
        {"cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [smem], [%rd0, "
         "{%r1, %r2, "
         "%r3}], [mbar], {%h1};",
         true, "im2col: dim-2 offsets"},
        {"cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [smem], [%rd0, "
         "{%r1, %r2, %r3, "
         "%r4}], [mbar], {%h1};",
         false, "4d im2col needs 2 offsets"},
        {"cp.async.bulk.tensor.5d.shared::cluster.global.im2col::w.mbarrier::complete_tx::bytes [smem], "
         "[%rd0, {%r1, %r2, "
         "%r3, %r4, %r5}], [mbar], {%h1, %h2};",
         true, "im2col::w: always 2 values"},
        {"cp.async.bulk.tensor.2d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [smem], [%rd0, "
         "{%r1, %r2}], "
         "[mbar], {%h1};",
         false, "im2col needs 3d or more"},
        {"cp.async.bulk.tensor.3d.global.shared::cta.im2col_no_offs.bulk_group [%rd0, {%r1, %r2, %r3}], "
         "[smem];",
         true, "store im2col_no_offs"},
        {"cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes.multicast::cluster "
         "[smem], [%rd0, "
         "{%r1, %r2}], [mbar], %h1;",
         false, "multicast needs .shared::cluster"},
        {"cp.async.bulk.tensor.2d.global.shared::cta.bulk_group.cta_group::1 [%rd0, {%r1, %r2}], [smem];",
         false, "cta_group only on loads"},
        {"cp.async.bulk.tensor.2d.global.shared::cta.bulk_group.L2::cache_hint [%rd0, {%r1, %r2}], [smem];",
         false, "cache_hint needs the policy operand"},
        {"cp.async.bulk.tensor.2d.global.shared::cta.bulk_group.b4x16_p64 [%rd0, {%r1, %r2}], [smem];", true,
         "sub-byte type accepted on stores (departure 8)"},
        {"cp.async.bulk.tensor.2d.global.shared::cta.bulk_group.b32 [%rd0, {%r1, %r2}], [smem];", false,
         "no .b32"},
        {"cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [smem], [tmap, "
         "{%r1, %r2}], "
         "[mbar];",
         false, ".param tensor map symbol"},
        {"cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [smem], [%r9, "
         "{%r1, %r2}], "
         "[mbar];",
         true, "32-bit tensor map register"},
    });
}

TEST_CASE("cp.async.bulk.tensor target and version gates", "[ptx][validate][tma]") {
    const std::string ctaDst = "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes "
                               "[smem], [%rd0, {%r1, %r2}], [mbar];";
    CHECK(accepted(ctaDst, tgt("sm_90a", 9, 0)));
    CHECK_FALSE(accepted(ctaDst, tgt("sm_90a", 8, 5))); // .shared::cta destination needs PTX 8.6
    const std::string w128 =
        "cp.async.bulk.tensor.3d.shared::cta.global.im2col::w::128.mbarrier::complete_tx::bytes "
        "[smem], [%rd0, {%r1, %r2, %r3}], [mbar], {%h1, %h2};";
    CHECK(accepted(w128, tgt("sm_100a")));
    CHECK_FALSE(accepted(w128, tgt("sm_120a")));
    const std::string gatherCluster =
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile::gather4.mbarrier::complete_tx::"
        "bytes [smem], [%rd0, {%r1, %r2, %r3, %r4, %r5}], [mbar];";
    CHECK_FALSE(accepted(gatherCluster, tgt("sm_120a"))); // sm_120a: gather4 only to .shared::cta
    const std::string cg =
        "cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes.cta_group::2 "
        "[smem], [%rd0, {%r1}], [mbar];";
    CHECK(accepted(cg, tgt("sm_100f")));
    CHECK_FALSE(accepted(cg, tgt("sm_120a")));
    CHECK_FALSE(accepted(cg, tgt("sm_90a")));
}

TEST_CASE("mbarrier forms", "[ptx][validate][mbarrier]") {
    runTable({
        {"mbarrier.init.shared::cta.b64 [mbar], 1;", true, "init"},
        {"mbarrier.init.b64 [mbar], %r1;", true, "register count"},
        {"mbarrier.init.shared::cluster.b64 [mbar], 1;", false, "init is CTA-local"},
        {"mbarrier.arrive.expect_tx.shared::cta.b64 %rd1, [mbar], 128;", true, "arrive.expect_tx"},
        {"mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [mbar], %r1;", true,
         "remote arrive"},
        {"mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 %rd1, [mbar], %r1;", false,
         "needs sink"},
        {"mbarrier.arrive.expect_tx.cta.b64 %rd1, [mbar], 1;", false, "scope without order"},
        {"mbarrier.try_wait.parity.shared::cta.b64 %p1, [mbar], 0;", true, "try_wait.parity"},
        {"mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p1, [mbar], %r1, 1000;", true,
         "suspend hint"},
        {"mbarrier.try_wait.shared::cta.parity.b64 %p1, [mbar], 0;", false, ".parity right after the name"},
        {"mbarrier.try_wait.b64 %p1, [mbar], %rd1;", true, "state form"},
        {"mbarrier.try_wait.b64 %p1, [mbar], %r1;", false, "state is 64-bit"},
        {"mbarrier.test_wait.parity.b64 %p1, [mbar], 0, 100;", false, "test_wait has no hint"},
    });
}

TEST_CASE("kernel-wide .cta_group rule covers tcgen05 but not TMA", "[ptx][validate][kernel]") {
    auto kernel = [](std::vector<std::string> lines) {
        std::vector<ParsedInstr> v;
        for (size_t i = 0; i < lines.size(); ++i)
            v.push_back(parseInstruction(lines[i], static_cast<int>(i + 1)).value());
        return validateKernel(v, tgt("sm_100a"), ptxasWrapperEnvironment()).ok();
    };
    CHECK(kernel({"tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [smem], 32;",
                  "tcgen05.dealloc.cta_group::2.sync.aligned.b32 %r0, 32;"}));
    CHECK_FALSE(
        kernel({"tcgen05.cp.cta_group::2.128x256b [%r0], %rd1;", "tcgen05.shift.cta_group::1.down [%r0];"}));
    CHECK_FALSE(kernel({"tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [smem], 32;",
                        "tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;"}));
    CHECK(kernel({"tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [smem], 32;",
                  "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_"
                  "group::2 [smem], "
                  "[%rd0, {%r1}], [mbar];"})); // departure 6
    CHECK(kernel({"tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r1}, [%r0];",
                  "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [smem], 32;"}));
}

TEST_CASE("target/.version pairs", "[ptx][validate][target]") {
    CHECK(validateTargetVersion(tgt("sm_100a", 8, 6)).ok());
    CHECK_FALSE(validateTargetVersion(tgt("sm_100a", 8, 5)).ok());
    CHECK(validateTargetVersion(tgt("sm_120a", 8, 7)).ok());
    CHECK_FALSE(validateTargetVersion(tgt("sm_100f", 8, 7)).ok());
    CHECK_FALSE(validateTargetVersion(tgt("sm_110a", 8, 8)).ok());
    CHECK(validateTargetVersion(tgt("sm_110a", 9, 0)).ok());
    CHECK_FALSE(validateTargetVersion(tgt("sm_100a", 9, 1)).ok()); // ptxas 13.0 stops at 9.0
    auto unknown = validateTargetVersion(tgt("sm_101a"));
    REQUIRE_FALSE(unknown.ok());
    CHECK_THAT(unknown.error().message, Catch::Contains("sm_110a"));
}

TEST_CASE("diagnostics name the rule, the span, the targets and a fix", "[ptx][validate][diagnostics]") {
    SECTION("missing warpx2 on 64x128b points at the shape and lists both fixes") {
        auto s = check("tcgen05.cp.cta_group::1.64x128b [%r0], %rd1;");
        REQUIRE_FALSE(s.ok());
        CHECK(s.error().span.column == 24); // ".64x128b" starts at column 24
        CHECK_THAT(s.error().message, Catch::Contains("`.warpx2::02_13` or `.warpx2::01_23`"));
    }
    SECTION("misspelling gets a did-you-mean") {
        auto s = check("tcgen05.cp.cta_group::1.32x128b.warpx8 [%r0], %rd1;");
        REQUIRE_FALSE(s.ok());
        CHECK(s.error().span.column == 32);
        CHECK_THAT(s.error().message, Catch::Contains("did you mean `.warpx4`?"));
    }
    SECTION("a target problem lists where the form is valid") {
        auto s = check("tcgen05.shift.cta_group::1.down [%r0];", tgt("sm_100f"));
        REQUIRE_FALSE(s.ok());
        CHECK(s.error().code == DiagCode::TargetMismatch);
        CHECK_THAT(s.error().message, Catch::Contains("sm_100a, sm_103a, sm_110a"));
    }
    SECTION("vector length names Table 50's count") {
        auto s = check("tcgen05.ld.sync.aligned.16x128b.x4.b32 {%r1, %r2, %r3, %r4}, [%r0];");
        REQUIRE_FALSE(s.ok());
        CHECK(s.error().span.column == 40);
        CHECK_THAT(s.error().message, Catch::Contains("exactly 8 registers"));
    }
    SECTION("no ptxas wording is echoed") {
        for (const char* bad : {"tcgen05.cp.cta_group::1.128x256b [%rd1], %rd1;",
                                "tcgen05.cp.cta_group::1.128x256b.sync [%r0], %rd1;",
                                "tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r0, 32, 1;"}) {
            const std::string m = firstMessage(bad);
            CHECK_FALSE(m.empty());
            CHECK(m.find("Arguments mismatch") == std::string::npos);
            CHECK(m.find("Illegal modifier") == std::string::npos);
            CHECK(m.find("instruction 'add'") == std::string::npos);
        }
    }
}
