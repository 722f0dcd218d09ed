// The front-end families with rule tables since issue 21's front-end work: wgmma, cp.async (sm_80),
// elect.sync, barrier.cluster, fence, the mbarrier forms beyond init / arrive.expect_tx / waits, and
// ld/st on shared memory. Every verdict below is what CUDA 13.0 ptxas said for the same text in the
// golden/ptxas wrapper kernel (recorded by scripts/ptxas-diff/run_ptxas.py; the whole suite is
// tests/data/ptxas_front/front.jsonl.gz, ctest conform.ptxas.front); the ptxas message is the row's why.
#include "layoutscope/ptx/module.hpp"
#include "ptx_test_util.hpp"

using namespace layoutscope;
using namespace layoutscope::test;

TEST_CASE("wgmma: shapes, types, sparsity and the immediates, as ptxas 13.0 decides",
          "[ptx][validate][front]") {
    const PtxTarget h = tgt("sm_90a");
    SECTION("valid forms") {
        runTable(
            {{"wgmma.mma_async.sync.aligned.m64n8k32.satfinite.s32.s8.u8 {%r10, %r11, %r12, %r13}, %rd1, "
              "%rd2, %p1;",
              true, "integer, mixed signedness, satfinite"},
             {"wgmma.mma_async.sp.sync.aligned.m64n8k64.f16.e4m3.e4m3 {%r10, %r11}, %rd1, %rd2, %r250, 0, "
              "%p1, 1, 1;",
              true, "sparse FP8"},
             {"wgmma.mma_async.sync.sp.aligned.m64n8k32.f32.f16.f16 {%r10, %r11, %r12, %r13}, %rd1, %rd2, "
              "%r250, 0, %p1, 1, 1, 0, 0;",
              true, "`.sp` after `.sync`"},
             {"wgmma.mma_async.sync.m64n8k16.f32.bf16.bf16 {%r10, %r11, %r12, %r13}, %rd1, %rd2, %p1, 1, "
              "1, 0, 1;",
              true, "`.aligned` left out"},
             {"wgmma.fence.sync;", true, "`.aligned` left out"},
             {"wgmma.commit_group.sync.sync.aligned;", true, "a repeated `.sync` is ignored"}},
            h);
    }
    SECTION("invalid forms") {
        runTable(
            {{"wgmma.mma_async.sp.sync.aligned.m64n128k64.satfinite.s32.u8.s8 %rd1, %rd2, %r250, 0, %p1;",
              false, "Arguments mismatch (no accumulator)"},
             {"wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%r10, %r11, %r12, %r13}, %rd1, %rd2, %p1, "
              "1, 1, -1, 0;",
              false, "Argument 6: unexpected value '-1' (imm-trans-a is 0 or 1)"},
             {"wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%r10, %r11, %r12, %r13}, %rd1, %rd2, %p1, "
              "0, 1, 0, 0;",
              false, "Argument 4: unexpected value '0' (imm-scale-a is 1 or -1)"},
             {"wgmma.mma_async.sync.aligned.aligned.m64n8k16.f32.f16.f16 {%r10, %r11, %r12, %r13}, %rd1, "
              "%rd2, %p1, 1, 1, 0, 0;",
              false, "Multiple .aligned modifiers specified"}},
            h);
    }
    SECTION("target and version gates") {
        const char* dense =
            "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%r10, %r11, %r12, %r13}, %rd1, "
            "%rd2, %p1, 1, 1, 0, 0;";
        CHECK(accepted(dense, tgt("sm_90a", 8, 0)));
        CHECK_FALSE(accepted(dense, tgt("sm_100a")));
        CHECK_FALSE(accepted(dense, tgt("sm_90")));
        // "Feature 'Sparse WGMMA with floating point types' requires PTX ISA .version 8.2 or later"
        CHECK_FALSE(accepted("wgmma.mma_async.sp.sync.aligned.m64n8k32.f16.f16.f16 {%r10, %r11}, %rd1, %rd2, "
                             "%r250, 0, %p1, 1, 1, 0, 1;",
                             tgt("sm_90a", 8, 0)));
        // "Feature 'WGMMA with mixed integer types' requires PTX ISA .version 8.4 or later"
        CHECK_FALSE(
            accepted("wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.u8 {%r10, %r11, %r12, %r13}, %rd1, "
                     "%rd2, %p1;",
                     tgt("sm_90a", 8, 0)));
    }
}

TEST_CASE("cp.async (sm_80): sizes, src-size / ignore-src, hints, groups, mbarrier arrive",
          "[ptx][validate][front]") {
    runTable({{"cp.async.ca.shared::cta.global.L2::256B [smem], [%rd0], 16;", true, "prefetch size"},
              {"cp.async.ca.shared.global.L2::cache_hint.L2::256B [smem], [%rd0], 8, %r2, %rd1;", true,
               "src-size and cache policy"},
              {"cp.async.ca.shared.global.L2::128B [smem], [%rd0], 8, %p1;", true, "ignore-src"},
              {"cp.async.ca.shared.global [smem], [%rd0], %r1, %p1;", false,
               "Arguments mismatch (cp-size register)"},
              {"cp.async.ca.shared::cta.global.L2::cache_hint.L2::64B [smem], [%rd0], 4, %rd1, %p1;", false,
               "Arguments mismatch (policy before ignore-src)"},
              {"cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%rd1];", true, "noinc"},
              {"cp.async.mbarrier.arrive.shared::cluster.b64 [%r1];", false, "Illegal modifier '::cluster'"},
              {"cp.async.commit_group;", true, "commit"},
              {"cp.async.wait_all;", true, "wait_all"}});
}

TEST_CASE("elect.sync, barrier.cluster and fence, as ptxas 13.0 decides", "[ptx][validate][front]") {
    runTable({{"elect.sync %r1|%p1, %r2;", true, "d|p"},
              {"elect.sync.sync _|%p1, -1;", true, "sink lane, repeated .sync"},
              {"elect.sync %r1|_, -1;", false, "Predicate output expected"},
              {"elect.sync %r1, %rd1;", false, "Arguments mismatch"},
              {"barrier.cluster.arrive.relaxed.aligned;", true, "relaxed arrive"},
              {"barrier.cluster.wait.release;", false, "Illegal modifier '.release'"},
              {"barrier.cluster.relaxed.wait;", false, "Not a name of any known instruction"},
              {"fence.release.mbarrier_init.cluster;", true, "qualifier order is free"},
              {"fence.mbarrier_init.release.cta;", false, "'.mbarrier_init' cannot be combined with '.cta'"},
              {"fence.proxy.tensormap::generic.acquire.gpu [%rd0], 128;", true, "tensormap acquire"},
              {"fence.proxy.tensormap::generic.release.cluster [%rd0], 128;", false,
               ".release modifier required ... with 0 arguments"},
              {"fence.async.proxy;", false, "Unknown modifier '.proxy'"},
              {"fence.acquire.gpu;", true, "a plain fence"},
              {"fence;", false, "Scope modifier required"}},
             tgt("sm_90a"));
}

TEST_CASE("mbarrier: arrive, arrive_drop, expect_tx, complete_tx, inval, pending_count",
          "[ptx][validate][front]") {
    runTable(
        {{"mbarrier.arrive.release.cta.b64 %rd1, [mbar], %r1;", true, "arrive with count"},
         {"mbarrier.arrive.release.cluster.shared::cta.b64 _, [mbar];", true, "sink state"},
         {"mbarrier.arrive.relaxed.cta.shared::cluster.b64 %rd1, [mbar], %r1;", false,
          "Sink '_' is expected ... with '.shared::cluster'"},
         {"mbarrier.arrive.relaxed.cluster.shared _, [mbar], %r1;", false,
          "Unexpected instruction types (no .b64)"},
         {"mbarrier.expect_tx.b64.shared::cta [mbar], %r1;", true, "order is free"},
         {"mbarrier.expect_tx.relaxed.cta.cta.b64 [mbar], %r1;", false, "Multiple scope modifiers"},
         {"mbarrier.expect_tx.release.cluster.shared::cta.b64 [mbar], %h1;", false, "Arguments mismatch"},
         {"mbarrier.inval.b64.shared [mbar];", true, "inval"},
         {"mbarrier.inval.release.shared.b64 [mbar];", false, "Illegal modifier '.release'"},
         {"mbarrier.pending_count.b64 %r1, %rd1;", true, "pending_count"}},
        tgt("sm_90a"));
}

TEST_CASE("ld / st on shared memory, as ptxas 13.0 decides", "[ptx][validate][front]") {
    runTable({{"ld.shared::cluster.u32 %r1, [%rd3];", true, "cluster address in a 64-bit register"},
              {"ld.shared::cta.v4.u16 {%h1, %h2, %h3, %h4}, [smem+8];", true, "vector"},
              {"st.v2.shared.u16 [smem+8], {%h1, %h2};", true, "qualifier order is free"},
              {"ld.shared.u32 %r1, [%h3];", true, "a 16-bit register address"},
              {"ld.shared.u32 %r1, [16];", false, "Immediate addresses allowed only for .local"},
              {"ld.shared::cluster.v2.f16 {%h1, %h2}, [%r3];", false, "Unexpected instruction types (.f16)"},
              {"st.shared::cluster.v2.v2.u64 [%r3], {%rd1, %rd2};", false, "Multiple vector modifiers"},
              {"st.shared::cta.f64 [smem+8], %rd1, %r1;", false, "Arguments mismatch"}},
             tgt("sm_90a"));
}

TEST_CASE("front-end diagnostics name the rule and its PTX ISA section", "[ptx][validate][front]") {
    const auto diag = [](const char* text) {
        auto s = check(text, tgt("sm_90a"));
        REQUIRE_FALSE(s);
        return s.error();
    };
    SECTION("wgmma K per type") {
        const Diagnostic d =
            diag("wgmma.mma_async.sync.aligned.m64n8k8.f32.f16.f16 {%r10, %r11, %r12, %r13}, %rd1, "
                 "%rd2, %p1, 1, 1, 0, 0;");
        CHECK_THAT(d.message, Catch::Contains("K = 16") && Catch::Contains(".m64n8k16"));
        CHECK_THAT(d.ruleRef, Catch::Contains("§9.7.15.5.2 wgmma.mma_async"));
    }
    SECTION("cp.async.cg copies 16 bytes") {
        const Diagnostic d = diag("cp.async.cg.shared.global [smem], [%rd0], 8;");
        CHECK_THAT(d.message, Catch::Contains("16 bytes") && Catch::Contains("`.ca`"));
        CHECK_THAT(d.ruleRef, Catch::Contains("cp.async"));
    }
    SECTION("elect.sync needs a predicate") {
        const Diagnostic d = diag("elect.sync %r1|_, -1;");
        CHECK_THAT(d.message, Catch::Contains("predicate"));
        CHECK_THAT(d.ruleRef, Catch::Contains("§9.7.13.7 elect.sync"));
    }
    SECTION("fence.proxy is one word") {
        const Diagnostic d = diag("fence.async.proxy;");
        CHECK_THAT(d.message, Catch::Contains("fence.proxy.async"));
    }
    SECTION("a generic ld is not a misspelt ld.shared") {
        const Diagnostic d = diag("ld.global.u32 %r1, [%rd0];");
        CHECK(d.code == DiagCode::Unsupported);
        CHECK_THAT(d.message, Catch::Contains("does not model"));
    }
}

TEST_CASE("ldmatrix / stmatrix / movmatrix: shapes, counts and element formats, as ptxas 13.0 decides",
          "[ptx][validate][front]") {
    SECTION("sm_100a") {
        runTable(
            {{"ldmatrix.sync.aligned.m8n16.x4.shared.b8x16.b4x16_p64 {%r1, %r2, %r3, %r4}, [smem];", true,
              "m8n16 with a packed 4-bit source"},
             {"ldmatrix.sync.aligned.m16n16.x2.trans.b8 {%r1, %r2, %r3, %r4}, [smem];", true,
              "m16n16: two registers per matrix"},
             {"ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r1, %r2, %r3, %r4}, [smem];", false,
              "Vector of size 2 is expected"},
             {"ldmatrix.sync.aligned.m16n16.x4.shared.b8x16 {%r1, %r2, %r3, %r4}, [smem];", false,
              "Incorrect no. of matrix: 4 for ldmatrix with shape '.m16n16'"},
             {"stmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16 [smem], {%r1, %r2, %r3, %r4};", true,
              "transposed store"},
             {"stmatrix.sync.aligned.m8n16.shared::cta.x1.b8 [smem], {%r1};", false,
              "Illegal matrix shape '.m8n16' for instruction 'stmatrix'"},
             {"stmatrix.sync.aligned.m8n8.x2.shared.b8 [smem], {%r1, %r2};", false,
              "Incorrect instruction type specified for stmatrix with shape '.m8n8'"},
             {"movmatrix.sync.aligned.m8n8.trans.b8 %r1, %r2, 16;", false, "Unexpected instruction types"}});
    }
    SECTION("sm_90a") {
        runTable(
            {{"ldmatrix.sync.aligned.m8n8.x1.trans.b16 {%r1}, [smem];", true, "the sm_75 form"},
             {"ldmatrix.sync.aligned.m16n8.x2.shared.b16 {%r1, %r2}, [smem];", false,
              "Feature '.m16n8' not supported on .target 'sm_90a'"},
             {"movmatrix.sync.m8n8.aligned.trans.b16 %r1, %r2;", true, "qualifier order is free"},
             {"movmatrix.sync.sync.aligned.m8n8.trans.b16 %r1, %r2;", true, "a repeated .sync is ignored"},
             {"movmatrix.sync.aligned.m8n8.b16 %r1, %r2;", false, ".trans modifier required"}},
            tgt("sm_90a"));
    }
}
