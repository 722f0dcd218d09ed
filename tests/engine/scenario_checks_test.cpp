// Planted kernel bugs that used to run "ok" (issue 12, item 3) now end in an error that names the rule,
// at the right line, while the run still completes (so the views can show what happened); each has a
// fixed twin that runs clean. Expected columns and byte counts are derived by hand from the PTX rules:
// tcgen05.ld/st .32x32b.xN touches N columns from taddr's column; a 64x128 fp16 box is 16384 B.
#include "layoutscope/scenario/scenario.hpp"
#include "scenario_test_util.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace layoutscope;
using layoutscope::test::runErrors;

namespace {

std::string regs(int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += (i ? ", %r" : "%r") + std::to_string(i);
    return "{" + s + "}";
}

const std::string kTcgenHead = "target sm_100a\nsmem buf 16\nwarp 0\nregs pattern=index\n";
const std::string kAlloc = "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [buf], 32;\n";
const std::string kDealloc = "let t0 = 0\ntcgen05.dealloc.cta_group::1.sync.aligned.b32 t0, 32;\n";

} // namespace

TEST_CASE("Tensor Memory used outside a live tcgen05.alloc is an error", "[scenario][check][tmem]") {
    SECTION("no alloc at all") {
        const std::string e = runErrors(
            kTcgenHead + "let tmem = 0\ntcgen05.st.sync.aligned.32x32b.x8.b32 [tmem], " + regs(8) + ";\n");
        CHECK(e.find("6: tcgen05.st uses Tensor Memory columns 0..7 of CTA 0, but no tcgen05.alloc") == 0);
    }
    SECTION("after dealloc") {
        const std::string e = runErrors(kTcgenHead + kAlloc + kDealloc + "let tmem = 0\n" +
                                        "tcgen05.ld.sync.aligned.32x32b.x8.b32 " + regs(8) + ", [tmem];\n");
        CHECK(e.find("9: tcgen05.ld uses Tensor Memory columns 0..7") == 0);
        CHECK(e.find("freed by tcgen05.dealloc before it (use after dealloc)") != std::string::npos);
    }
    SECTION("past the end of the allocation") {
        const std::string e =
            runErrors(kTcgenHead + kAlloc + "let tmem = 16\n" + "tcgen05.ld.sync.aligned.32x32b.x32.b32 " +
                      regs(32) + ", [tmem];\n" + kDealloc);
        CHECK(e.find("7: tcgen05.ld uses Tensor Memory columns 16..47") == 0);
        CHECK(e.find("is columns 0..31: column 32 is outside every live allocation") != std::string::npos);
    }
    SECTION("fixed twin: inside the allocation, before dealloc") {
        CHECK(runErrors(kTcgenHead + kAlloc + "let tmem = 0\n" + "tcgen05.ld.sync.aligned.32x32b.x32.b32 " +
                        regs(32) + ", [tmem];\ntcgen05.wait::ld.sync.aligned;\n" + kDealloc) == "");
    }
}

TEST_CASE("expect_tx that disagrees with the bytes that arrive is an error", "[scenario][check][mbarrier]") {
    auto scenario = [](int expect, bool wait) {
        return std::string("tensormap A tiled FLOAT16 dims=[4096,4096] box=[64,128] swizzle=128B\n"
                           "smem sA 16384 align=1024\nmbarrier bar\n"
                           "mbarrier.init.shared::cta.b64 [bar], 1;\n"
                           "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], ") +
               std::to_string(expect) +
               ";\ncp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [A, "
               "{0, "
               "0}], [bar];\n" +
               (wait ? "mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0;\n" : "");
    };
    SECTION("too few announced: a race, reported at the wait") {
        const std::string e = runErrors(scenario(8192, true));
        CHECK(e.find("7: mbarrier bar") == 0);
        CHECK(e.find("expect_tx announced 8192 B but 16384 B of complete-tx arrive (tx-count -8192)") !=
              std::string::npos);
        CHECK(e.find("race") != std::string::npos);
    }
    SECTION("too many announced: the wait hangs; without a wait, reported at the expect_tx") {
        const std::string e = runErrors(scenario(32768, false));
        CHECK(e.find("5: mbarrier bar") == 0);
        CHECK(e.find("tx-count 16384") != std::string::npos);
        CHECK(e.find("never completes") != std::string::npos);
    }
    SECTION("fixed twin") {
        CHECK(runErrors(scenario(16384, true)) == "");
    }
}

TEST_CASE("tcgen05.alloc must write its address inside the named buffer", "[scenario][check][tmem]") {
    auto sc =
        parseScenario(kTcgenHead + "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [buf+16], 32;\n");
    REQUIRE(!sc);
    CHECK(sc.diagnostics()[0].span.line == 5);
    CHECK(sc.diagnostics()[0].message.find("outside buffer buf (16 B)") != std::string::npos);
}
