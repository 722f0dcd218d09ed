// Scenario execution details: let-bound operands, tx accounting notes, and hardware faults that
// stop a run at the instruction's line. Fault expectations: ../shared/golden/tma README
// "Surprises" and rules.hpp (TmaFaultSmemAlign, TmaFaultInnerCoordAlign, TmaFaultMulticastMask).
#include "layoutscope/engine.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace layoutscope;

namespace {

Scenario parsedText(const std::string& text) {
    auto r = parseScenario(text);
    if (!r) FAIL("does not parse: " << formatDiagnostic(r.error()));
    return std::move(r).value();
}

const std::string kLoad = "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes ";

} // namespace

TEST_CASE("let names serve as coordinates, ctaMask and tx counts", "[scenario]") {
    Scenario s = parsedText(
        "cluster 2\n"
        "let x = 64\nlet y = -8\nlet mask = 0x3\nlet bytes = 2048\n"
        "tensormap A tiled FLOAT16 dims=[256,256] box=[32,32] swizzle=64B\n"
        "smem sA 2048 align=512\nmbarrier bar\n"
        "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], bytes;\n"
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster "
        "[sA], [A, {x, y}], [bar], mask;\n");
    REQUIRE(s.instrs.size() == 2);
    CHECK(s.instrs[0].kind == ScenarioInstrKind::MbarrierExpectTx);
    CHECK(s.instrs[0].value == 2048);
    const auto* ld = std::get_if<TmaTileLoad>(&s.instrs[1].op);
    REQUIRE(ld);
    CHECK(ld->coords[0] == 64);
    CHECK(ld->coords[1] == -8);
    CHECK(ld->ctaMask == 3);
    CHECK(ld->multicast);
}

TEST_CASE("default global addresses and dense strides", "[scenario]") {
    // FLOAT32 100x3: dense stride 400 B (a multiple of 16), extent 400*2 + 400 = 1200 B.
    // The second tensor starts on the page after the page following 0x7f0000000000 + 1200.
    Scenario s =
        parsedText("tensormap A tiled FLOAT32 dims=[100,3] box=[4,1]\n"
                   "tensormap B tiled UINT8 dims=[32,2,2] box=[16,1,1] address=0x10000\n"
                   "tensormap C tiled UINT8 dims=[16] box=[16]\n"
                   "smem s 64\nmbarrier b\n" +
                   std::string("cp.async.bulk.tensor.1d.shared::cta.global.tile.mbarrier::complete_tx::bytes "
                               "[s], [C, {0}], [b];\n"));
    const auto* a = s.findTensorMap("A");
    REQUIRE(a);
    CHECK(a->map.p.globalStrides[0] == 400);
    CHECK(a->extent == 1200);
    const auto* b = s.findTensorMap("B");
    CHECK(b->map.p.globalAddress == 0x10000);
    CHECK(b->map.p.globalStrides[0] == 32);
    CHECK(b->map.p.globalStrides[1] == 64);
    CHECK(s.findTensorMap("C")->map.p.globalAddress == 0x7f0000000000ULL + 0x2000);
}

TEST_CASE("shared memory layout follows declaration order per CTA", "[scenario]") {
    Scenario s = parsedText(
        "cluster 2\nmbarrier b0\nsmem a 100 align=16\nsmem c 64\nmbarrier b1 cta=1\nsmem d 8 cta=1\n"
        "fence.proxy.async.shared::cta;\n");
    CHECK(s.findBarrier("b0")->addr == 1024);
    CHECK(s.findBuffer("a")->addr == 1040);   // 1032 rounded up to 16
    CHECK(s.findBuffer("c")->addr == 1152);   // 1140 rounded up to the default 128
    CHECK(s.findBarrier("b1")->addr == 1024); // CTA 1 has its own layout
    CHECK(s.findBuffer("d")->addr == 1152);   // 1032 rounded up to 128
    CHECK(s.findBuffer("d")->cta == 1);
}

TEST_CASE("expect_tx and complete_tx are recorded as tx events", "[scenario][run]") {
    Scenario s = parsedText("mbarrier bar\nmbarrier.init.shared::cta.b64 [bar], 1;\n"
                            "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 256;\n"
                            "mbarrier.complete_tx.shared::cta.b64 [bar], 64;\n"
                            "mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0;\n");
    auto r = runScenario(s);
    if (!r) FAIL(formatDiagnostic(r.error()));
    const Trace& t = r->trace;
    REQUIRE(t.instrs.size() == 4);
    REQUIRE(t.txEvents.size() == 2);
    CHECK(t.txEvents[0].bytes == -256); // expect-tx: negative (TxEvent: positive = complete_tx)
    CHECK(t.txEvents[0].instr == 1);
    CHECK(t.txEvents[1].bytes == 64);
    CHECK(t.txEvents[1].mbarAddr == 1024);
    const auto& mb = r->final.mbarriers.at({0u, 1024u});
    CHECK(mb.txCount == 192);
    CHECK(mb.completedBytes == 64);
    CHECK(t.instrs[3].sourceLine == 5);
    CHECK(t.moves.empty());
}

TEST_CASE("hardware faults stop the run at the instruction's line", "[scenario][run][tma]") {
    const std::string head = "cluster 2\ntensormap A tiled FLOAT16 dims=[256,256] box=[64,8]\n";
    SECTION("shared address not 128-B aligned -> cudaErrorMisalignedAddress") {
        // bar takes 1024..1031, sA at 1040 (align=16): not a multiple of 128
        auto r = runScenario(parsedText(head + "mbarrier bar\nsmem sA 1024 align=16\n" + kLoad +
                                        "[sA], [A, {0, 0}], [bar];\n"));
        REQUIRE_FALSE(r);
        CHECK(r.error().code == DiagCode::FaultMisalignedAddress);
        CHECK(r.error().span.line == 5);
    }
    SECTION("inner coordinate not 16-B aligned -> cudaErrorIllegalInstruction") {
        // coords[0] * 2 B = 6 B
        auto r = runScenario(parsedText(head + "smem sA 1024\nmbarrier bar\nfence.proxy.async;\n" + kLoad +
                                        "[sA], [A, {3, 0}], [bar];\n"));
        REQUIRE_FALSE(r);
        CHECK(r.error().code == DiagCode::FaultIllegalInstruction);
        CHECK(r.error().span.line == 6);
    }
    SECTION("ctaMask bit beyond the cluster -> cudaErrorLaunchFailure") {
        auto r = runScenario(parsedText(head + "smem sA 1024\nmbarrier bar\n" +
                                        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::"
                                        "complete_tx::bytes.multicast::cluster "
                                        "[sA], [A, {0, 0}], [bar], 0x5;\n"));
        REQUIRE_FALSE(r);
        CHECK(r.error().code == DiagCode::FaultLaunchFailure);
        CHECK(r.error().span.line == 5);
    }
    SECTION("store with a negative coordinate -> cudaErrorIllegalInstruction") {
        auto r = runScenario(
            parsedText(head + "smem sA 1024\n" +
                       "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [A, {0, -8}], [sA];\n"));
        REQUIRE_FALSE(r);
        CHECK(r.error().code == DiagCode::FaultIllegalInstruction);
        CHECK(r.error().span.line == 4);
    }
}

TEST_CASE("A TMA load's summary names the bytes each destination CTA received", "[scenario][summary]") {
    // 64 x 64 FLOAT16 = 8192 B into CTA 0 (shared::cta); the multicast to CTAs 0 and 1 writes 8192 B into
    // each.
    SECTION("one CTA") {
        auto sc = parseScenario(
            "tensormap A tiled FLOAT16 dims=[256,256] box=[64,64] swizzle=128B\n"
            "smem sA 8192 align=1024\nmbarrier bar\nmbarrier.init.shared::cta.b64 [bar], 1;\n"
            "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], "
            "[A, {0, 0}], [bar];\n");
        REQUIRE(sc);
        auto run = runScenario(*sc);
        REQUIRE(run);
        CHECK(run->trace.instrs.back().summary.find("8192 B written at 0x400 to CTA 0 (8192 B)") !=
              std::string::npos);
    }
    SECTION("multicast to a cluster of 2") {
        auto sc =
            parseScenario("cluster 2\ntensormap A tiled FLOAT16 dims=[256,256] box=[64,64] swizzle=128B\n"
                          "smem sA 8192 align=1024 cta=0\nsmem sB 8192 align=1024 cta=1\nmbarrier bar\n"
                          "mbarrier.init.shared::cta.b64 [bar], 1;\n"
                          "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes."
                          "multicast::cluster "
                          "[sA], [A, {0, 0}], [bar], 3;\n");
        REQUIRE(sc);
        auto run = runScenario(*sc);
        REQUIRE(run);
        CHECK(run->trace.instrs.back().summary.find("CTA 0 (8192 B), CTA 1 (8192 B)") != std::string::npos);
    }
}
