// Issue 24 items 1-3 and 5: what the operand check sees beyond one instruction's reads. Truths, by hand
// from the PTX ISA: wgmma m64nNk16 f16 reads 16 elements of K (32 B) per instruction (§9.7.15.5.1), so a
// sequence over a 64-wide K tile advances the descriptor start by 32 B; the tile's roles come from its
// declaration (`roles=`) or from the one way its box holds the operand (M or N rows x K); a descriptor
// base offset is the line phase of the pattern start (§9.7.15.5.1.2.1) while TMA swizzles absolute
// address bits (tma.md §4.1, measured); a failed declaration is reported once, not at every use.
#include "scenario_test_util.hpp"

#include <algorithm>
#include <string>
#include <vector>

using namespace layoutscope;
using test::errorMessages;

namespace {

const char* kWgmma = "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%f0, %f1, %f2, %f3, %f4, %f5, %f6, "
                     "%f7, %f8, %f9, %f10, %f11, %f12, %f13, %f14, %f15, %f16, %f17, %f18, %f19, %f20, %f21, "
                     "%f22, %f23, %f24, %f25, %f26, %f27, %f28, %f29, %f30, %f31}";

// A 64x64 f16 SW128 tile for A and for B, the given declarations, then the given wgmmas
// ("dA, dB, p, 1, 1, 0, 0" each).
std::string wgmmaScenario(const std::string& decls, const std::vector<std::string>& mmas,
                          const std::string& aMap = "roles=[k,m]", const std::string& bMap = "",
                          const std::string& bBox = "[64,64]", uint32_t tx = 16384) {
    std::string s =
        "target sm_90a\n"
        "tensormap A tiled FLOAT16 dims=[256,256] box=[64,64] swizzle=128B " +
        aMap + "\ntensormap B tiled FLOAT16 dims=[256,256] box=" + bBox + " swizzle=128B " + bMap + "\n" +
        decls +
        "mbarrier bar\n"
        "mbarrier.init.shared::cta.b64 [bar], 1;\n"
        "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], " +
        std::to_string(tx) +
        ";\n"
        "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [A, {0, "
        "0}], [bar];\n"
        "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sB], [B, {0, "
        "0}], [bar];\n"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0;\n"
        "wgmma.fence.sync.aligned;\n";
    for (const std::string& m : mmas) s += std::string(kWgmma) + ", " + m + ";\n";
    return s + "wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\n";
}

const std::string kBuffers = "smem sA 8192 align=1024\nsmem sB 8192 align=1024\n";

std::string kBlockDecls(uint32_t advanceA, uint32_t advanceB) {
    return kBuffers + "desc dA0 start=sA lbo=16 sbo=1024 swizzle=128B\n" + "desc dA1 start=sA+" +
           std::to_string(advanceA) + " lbo=16 sbo=1024 swizzle=128B\n" +
           "desc dB0 start=sB lbo=16 sbo=1024 swizzle=128B\n" + "desc dB1 start=sB+" +
           std::to_string(advanceB) + " lbo=16 sbo=1024 swizzle=128B\n";
}

} // namespace

TEST_CASE("k-blocks of an MMA sequence advance by exactly one k-block", "[consumer][sequence]") {
    SECTION("+32 B per k-block (16 f16 elements) reads every k once") {
        CHECK(errorMessages(wgmmaScenario(kBlockDecls(32, 32),
                                          {"dA0, dB0, p, 1, 1, 0, 0", "dA1, dB1, p, 1, 1, 0, 0"})) == "");
    }
    SECTION("+16 B reads k 8-15 twice; the right advance is named") {
        const std::string e = errorMessages(
            wgmmaScenario(kBlockDecls(16, 32), {"dA0, dB0, p, 1, 1, 0, 0", "dA1, dB1, p, 1, 1, 0, 0"}));
        CHECK(e.find("operand A: this k-block starts at k=8") != std::string::npos);
        CHECK(e.find("k 8-15 are read twice") != std::string::npos);
        CHECK(e.find("Fix: advance the start by 32 B per k-block: dA1 start=sA+32") != std::string::npos);
        CHECK(e.find("operand B") == std::string::npos); // B advanced right: one diagnostic
    }
    SECTION("+48 B skips k 16-23") {
        const std::string e = errorMessages(
            wgmmaScenario(kBlockDecls(32, 48), {"dA0, dB0, p, 1, 1, 0, 0", "dA1, dB1, p, 1, 1, 0, 0"}));
        CHECK(e.find("k 16-23 are never read") != std::string::npos);
        CHECK(e.find("dB1 start=sB+32") != std::string::npos);
    }
    SECTION("a second pass from k = 0 (the same A with another B) is no overlap") {
        CHECK(errorMessages(wgmmaScenario(kBlockDecls(32, 32),
                                          {"dA0, dB0, p, 1, 1, 0, 0", "dA1, dB1, p, 1, 1, 0, 0",
                                           "dA0, dB0, p, 1, 1, 0, 0", "dA1, dB1, p, 1, 1, 0, 0"})) == "");
    }
}

TEST_CASE("an operand's major-ness comes from the data, not from the descriptor under test",
          "[consumer][roles]") {
    const std::string decls = kBuffers + "desc dA start=sA lbo=16 sbo=1024 swizzle=128B\n"
                                         "desc dB start=sB lbo=16 sbo=1024 swizzle=128B\n";
    SECTION("declared roles=[n,k] (N contiguous) against a K-major read of a square tile") {
        const std::string e =
            errorMessages(wgmmaScenario(decls, {"dA, dB, p, 1, 1, 0, 0"}, "roles=[k,m]", "roles=[n,k]"));
        CHECK(e.find("declared at line 3: tensormap B roles=[n,k]") != std::string::npos);
        CHECK(e.find("Fix: set imm-trans-b to 1 (MN-major)") != std::string::npos);
    }
    SECTION("declared roles=[n,k] read MN-major is clean") {
        CHECK(errorMessages(wgmmaScenario(decls, {"dA, dB, p, 1, 1, 0, 1"}, "roles=[k,m]", "roles=[n,k]")) ==
              "");
    }
    SECTION("declared roles=[k,n] read K-major is clean") {
        CHECK(errorMessages(wgmmaScenario(decls, {"dA, dB, p, 1, 1, 0, 0"}, "roles=[k,m]", "roles=[k,n]")) ==
              "");
    }
    SECTION("no declaration: a 64 x 16 box holds B's 64 rows of n only along dimension 0") {
        const std::string e =
            errorMessages(wgmmaScenario(decls, {"dA, dB, p, 1, 1, 0, 0"}, "", "", "[64,16]", 8192 + 2048));
        CHECK(e.find("implied by the box [64,16]: only dim0 holds the operand's 64 rows of n") !=
              std::string::npos);
        CHECK(e.find("Fix: set imm-trans-b to 1 (MN-major)") != std::string::npos);
    }
}

TEST_CASE("roles= is checked against the tensor's rank and the role names", "[consumer][roles][badinput]") {
    auto parseError = [](const std::string& roles) {
        auto sc = parseScenario("target sm_90a\ntensormap A tiled FLOAT16 dims=[256,256] box=[64,64] " +
                                roles + "\n");
        REQUIRE_FALSE(sc);
        REQUIRE(sc.diagnostics().size() == 1);
        return sc.diagnostics()[0].message;
    };
    SECTION("one role per dimension") {
        CHECK(parseError("roles=[k]").find("2 here") != std::string::npos);
    }
    SECTION("a k dimension") {
        CHECK(parseError("roles=[m,n]").find("no k dimension") != std::string::npos);
    }
    SECTION("each role once") {
        CHECK(parseError("roles=[k,k]").find("given twice") != std::string::npos);
    }
    SECTION("known roles") {
        CHECK(parseError("roles=[x,k]").find("role 'x' unknown") != std::string::npos);
    }
}

TEST_CASE("the descriptor base offset is checked against the tile's placement", "[consumer][baseoffset]") {
    const std::string at0x480 = "smem pad 128\nsmem sA 8192 align=128\nsmem sB 8192 align=1024\n";
    auto decls = [&](const std::string& bufs, const std::string& base) {
        return bufs + "desc dA start=sA lbo=16 sbo=1024 swizzle=128B" + base +
               "\ndesc dB start=sB lbo=16 sbo=1024 swizzle=128B\n";
    };
    SECTION("a tile at 0x480 read with base offset 1 (the PTX formula) reads other chunks") {
        const std::string e =
            errorMessages(wgmmaScenario(decls(at0x480, " base=1"), {"dA, dB, p, 1, 1, 0, 0"}));
        CHECK(e.find("base offset 1") != std::string::npos);
        CHECK(e.find("Fix: set the descriptor's base offset to 0") != std::string::npos);
        CHECK(e.find("align sA to 1024 B") != std::string::npos);
    }
    SECTION("a tile at 0x480 read with base offset 0: no error, a warning to align it") {
        auto sc = parseScenario(wgmmaScenario(decls(at0x480, ""), {"dA, dB, p, 1, 1, 0, 0"}));
        REQUIRE(sc);
        auto run = runScenario(*sc);
        REQUIRE(run);
        size_t errors = 0, aligned = 0;
        for (const Diagnostic& d : run->warnings) {
            errors += d.severity == Severity::Error;
            aligned += d.severity == Severity::Warning &&
                       d.message.find("at 0x480, which is not 1024-B aligned") != std::string::npos;
        }
        CHECK(errors == 0);
        CHECK(aligned == 1);
    }
    SECTION("a 1024-B aligned tile with base offset 0 is clean") {
        auto sc = parseScenario(wgmmaScenario(decls(kBuffers, ""), {"dA, dB, p, 1, 1, 0, 0"}));
        REQUIRE(sc);
        auto run = runScenario(*sc);
        REQUIRE(run);
        CHECK(run->warnings.empty());
    }
}

TEST_CASE("a failed declaration is reported once, not at its uses", "[scenario][cascade]") {
    auto diags = [](const std::string& text) {
        auto sc = parseScenario(text);
        REQUIRE_FALSE(sc);
        std::string out;
        for (const Diagnostic& d : sc.diagnostics())
            out += std::to_string(d.span.line) + ": " + d.message + "\n";
        return out;
    };
    const std::string tail = "smem taddrBuf 16\nlet tmem = 0\n"
                             "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], 32;\n"
                             "tcgen05.cp.cta_group::1.128x256b [tmem], sd;\n"
                             "tcgen05.dealloc.cta_group::1.sync.aligned.b32 tmem, 32;\n";
    SECTION("a desc with a bad swizzle: one diagnostic, at the desc") {
        const std::string e = diags("target sm_100a\nsmem sA 4096 align=1024\n"
                                    "desc sd start=sA lbo=16 sbo=1024 swizzle=16B\n" +
                                    tail);
        CHECK(e.rfind("3: swizzle '16B' is not", 0) == 0);
        CHECK(std::count(e.begin(), e.end(), '\n') == 1);
    }
    SECTION("a buffer that failed: one diagnostic, at the buffer (not at the desc, not at the cp)") {
        const std::string e = diags("target sm_100a\nsmem sA 999999 align=1024\n"
                                    "desc sd start=sA lbo=16 sbo=1024 swizzle=128B\n" +
                                    tail);
        CHECK(e.rfind("2: ", 0) == 0);
        CHECK(std::count(e.begin(), e.end(), '\n') == 1);
    }
    SECTION("an early error does not hide a later, independent one") {
        const std::string e = diags("target sm_100a\nsmem sA 4096 align=1024\n"
                                    "desc sd start=sA lbo=16 sbo=1024 swizzle=16B\n" +
                                    tail + "tcgen05.dealloc.cta_group::1.sync.aligned.b32 tmem, 33;\n");
        CHECK(e.rfind("3: ", 0) == 0);
        CHECK(e.find("\n9: ") != std::string::npos);
    }
}
