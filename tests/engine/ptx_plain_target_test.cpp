// Plain targets as ptxas spells them (sm_90, sm_100, sm_103, sm_110, sm_120; issue 15 item 3; the pre-Hopper
// sm_75 ... sm_89, issue 21). Every
// row was assembled by hand with CUDA 13.0 ptxas (-arch=<target>, .version 9.0) in the wrapper kernel
// of golden/ptxas/README.md; tests/cli_ptxas_targets.cmake asks ptxas again where it is installed.
#include "layoutscope/core/result.hpp"
#include "layoutscope/ptx/validate.hpp"
#include "ptx_test_util.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope;
using namespace layoutscope::test;

namespace {
const char* kTmaLoad = "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
                       "[smem], [%rd1, {%r1, %r2}], [mbar];";
} // namespace

TEST_CASE("plain targets accept what ptxas accepts on them", "[ptx][validate][target]") {
    SECTION("a TMA tile load assembles on sm_90, sm_100 and sm_120") {
        for (const char* sm : {"sm_90", "sm_100", "sm_120"}) CHECK(accepted(kTmaLoad, tgt(sm)));
    }
    SECTION("gather4 to .shared::cta assembles on sm_100 and sm_120, not to .shared::cluster") {
        const char* cta =
            "cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes "
            "[smem], [%rd1, {%r1, %r2, %r3, %r0, %r1}], [mbar];";
        const char* cluster =
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile::gather4.mbarrier::complete_tx::"
            "bytes [smem], [%rd1, {%r1, %r2, %r3, %r0, %r1}], [mbar];";
        CHECK(accepted(cta, tgt("sm_100")));
        CHECK(accepted(cta, tgt("sm_120")));
        CHECK_FALSE(accepted(cluster, tgt("sm_100")));
    }
    SECTION("lowest .version per plain target: sm_100 8.6, sm_110 9.0") {
        CHECK(validateTargetVersion(tgt("sm_100", 8, 6)).ok());
        CHECK_FALSE(validateTargetVersion(tgt("sm_100", 8, 5)).ok());
        CHECK_FALSE(validateTargetVersion(tgt("sm_110", 8, 8)).ok());
    }
}

TEST_CASE("pre-Hopper targets: lowest .version as ptxas 13.0 measures it", "[ptx][validate][target]") {
    // A trivial kernel, `ptxas -arch=<target>` for every .version: the lowest accepted, and the one below it
    // rejected ("PTX .version 7.0 does not support .target sm_86").
    struct Lowest {
        const char* sm;
        int major, minor;
    };
    for (const Lowest& r : {Lowest{"sm_75", 6, 3}, Lowest{"sm_80", 7, 0}, Lowest{"sm_86", 7, 1},
                            Lowest{"sm_87", 7, 4}, Lowest{"sm_88", 7, 3}, Lowest{"sm_89", 7, 8}}) {
        CAPTURE(r.sm);
        CHECK(validateTargetVersion(tgt(r.sm, r.major, r.minor)).ok());
        CHECK(validateTargetVersion(tgt(r.sm, 9, 0)).ok());
        CHECK_FALSE(validateTargetVersion(
                        tgt(r.sm, r.minor == 0 ? r.major - 1 : r.major, r.minor == 0 ? 5 : r.minor - 1))
                        .ok());
    }
    SECTION("versions that were never released: 6.6 ... 6.9, 7.9, 8.9 (\"Unsupported .version 7.9\")") {
        CHECK_FALSE(validateTargetVersion(tgt("sm_75", 6, 6)).ok());
        CHECK_FALSE(validateTargetVersion(tgt("sm_80", 7, 9)).ok());
        CHECK_FALSE(validateTargetVersion(tgt("sm_90", 8, 9)).ok());
        CHECK(validateTargetVersion(tgt("sm_90", 8, 8)).ok());
    }
}

TEST_CASE("pre-Hopper targets accept what ptxas 13.0 accepts on them", "[ptx][validate][target]") {
    // Each row assembled alone by CUDA 13.0 ptxas in the wrapper kernel of golden/ptxas/README.md.
    SECTION("sm_80 (.version 8.0): the Ampere data movement, not Hopper's") {
        runTable({{"cp.async.cg.shared.global [smem], [%rd0], 16;", true, "cp.async"},
                  {"ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r1, %r2, %r3, %r4}, [smem];", true,
                   "ldmatrix"},
                  {"mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%r10, %r11, %r12, %r13}, {%r1, %r2, "
                   "%r3, %r4}, {%r5, %r6}, {%r10, %r11, %r12, %r13};",
                   true, "bf16 m16n8k16"},
                  {"mbarrier.test_wait.parity.shared.b64 %p1, [mbar], %r1;", true, "test_wait"},
                  {"mbarrier.arrive.noComplete.shared.b64 %rd1, [mbar], 2;", true, ".noComplete count"},
                  {"ld.relaxed.gpu.shared.u32 %r1, [smem];", true, "relaxed ld"},
                  {"atom.shared.add.noftz.f16 %h1, [smem], %h2;", true, "f16 atom"},
                  {"elect.sync %r1|%p1, -1;", false, "Feature 'elect' requires .target sm_90"},
                  {"stmatrix.sync.aligned.m8n8.x1.shared.b16 [smem], {%r1};", false, "stmatrix: sm_90"},
                  {"mbarrier.try_wait.shared.b64 %p1, [mbar], %rd1;", false, "try_wait: sm_90"},
                  {"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [smem], [%rd0], 256, "
                   "[mbar];",
                   false, "cp.async.bulk: sm_90"},
                  {"fence.proxy.async;", false, "Modifier '.async' requires .target sm_90"},
                  {"mbarrier.arrive.shared.b64 %rd1, [mbar], 2;", false, "count without .noComplete: sm_90"},
                  {"ld.shared::cluster.u32 %r1, [%r2];", false, "Feature '::cluster' requires sm_90"},
                  {"fence.sc.cluster;", false, "Feature '.cluster scope' requires sm_90"},
                  {"atom.shared.add.noftz.bf16 %h1, [smem], %h2;", false, "atom.add.bf16.shared: sm_90"},
                  {"mbarrier.test_wait.relaxed.cta.shared.b64 %p1, [mbar], %rd1;", false, ".relaxed: sm_90"},
                  {"mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%r10, %r11, %r12, %r13}, {%r1, %r2, "
                   "%r3, %r4}, {%r5, %r6}, {%r10, %r11, %r12, %r13};",
                   false, "FP8 mma: sm_89"}},
                 tgt("sm_80", 8, 0));
    }
    SECTION("sm_89 (.version 8.4): FP8 mma.sync") {
        CHECK(accepted(
            "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%r10, %r11, %r12, %r13}, {%r1, %r2, "
            "%r3, %r4}, {%r5, %r6}, {%r10, %r11, %r12, %r13};",
            tgt("sm_89", 8, 4)));
    }
    SECTION("sm_75 (.version 7.8): ldmatrix, movmatrix and the Turing mma shapes only") {
        runTable(
            {{"ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r1}, [smem];", true, "ldmatrix"},
             {"movmatrix.sync.aligned.m8n8.trans.b16 %r1, %r2;", true, "movmatrix"},
             {"mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%r10, %r11, %r12, %r13}, {%r1, %r2}, "
              "{%r5}, {%r10, %r11, %r12, %r13};",
              true, "f16 m16n8k8"},
             {"fence.proxy.alias;", true, "fence.proxy.alias"},
             {"ld.volatile.shared.v4.u32 {%r1, %r2, %r3, %r4}, [smem];", true, "volatile ld"},
             {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r10, %r11, %r12, %r13}, {%r1, %r2, %r3, "
              "%r4}, {%r5, %r6}, {%r10, %r11, %r12, %r13};",
              false, "Feature '.m16n8k16' requires .target sm_80"},
             {"mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.and.popc {%r10, %r11}, {%r1}, {%r5}, {%r10, "
              "%r11};",
              false, "Modifier '.and' on 'mma' requires .target sm_80"},
             {"cp.async.ca.shared.global [smem], [%rd0], 4;", false, "cp.async: sm_80"},
             {"mbarrier.init.shared.b64 [mbar], 1;", false, "mbarrier.init: sm_80"}},
            tgt("sm_75", 7, 8));
    }
    SECTION("the message names the targets that have the form") {
        CHECK_THAT(firstMessage("elect.sync %r1|%p1, -1;", tgt("sm_80", 8, 0)),
                   Catch::Contains("not available on sm_80; it is valid on sm_90"));
    }
}

TEST_CASE("tcgen05 on a plain target names the arch-specific target to write", "[ptx][validate][target]") {
    // ptxas: "Instruction 'tcgen05.fence' not supported on .target 'sm_100'"; sm_100a and sm_100f take it.
    const std::string msg = firstMessage("tcgen05.fence::before_thread_sync;", tgt("sm_100"));
    CHECK_THAT(msg, Catch::Contains("not available on sm_100"));
    CHECK_THAT(msg, Catch::Contains("sm_100 lacks the arch-specific features: write `sm_100a` or `sm_100f`"));
    SECTION("TMA .cta_group on sm_100 (ptxas: Feature '.cta_group::1' not supported)") {
        CHECK_FALSE(accepted("cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes."
                             "cta_group::1 [smem], [%rd1, {%r1, %r2}], [mbar];",
                             tgt("sm_100")));
    }
    SECTION("an arch-specific target gets no such hint") {
        CHECK_THAT(firstMessage("tcgen05.fence::before_thread_sync;", tgt("sm_90a")),
                   !Catch::Contains("lacks the arch-specific"));
    }
}

TEST_CASE("I/O diagnostics carry no provenance tag", "[diagnostic]") {
    const Diagnostic io{
        Severity::Error,       DiagCode::Io, {}, "cannot open the scenario file for reading", "",
        Provenance::Assumption};
    CHECK(formatDiagnostic(io, "a.scn") == "a.scn: error: cannot open the scenario file for reading [io]");
    const Diagnostic rule{Severity::Error, DiagCode::InvalidValue, {2, 5, 1},
                          "bad",           "PTX ISA §4",           Provenance::Assumption};
    CHECK(formatDiagnostic(rule, "a.scn") == "a.scn:2:5: error: bad [PTX ISA §4; unverified assumption]");
}
