// Plain targets as ptxas spells them (sm_90, sm_100, sm_103, sm_110, sm_120; issue 15 item 3). Every
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
