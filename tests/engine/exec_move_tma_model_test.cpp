// The order model and the recorder on the executor's TMA modes (issue 22 item 1): a read of an im2col or
// gather4 destination before the mbarrier wait (the latter by ldmatrix) is a race naming both; the recording
// writes gather4 as the scenario statement and im2col as pokes plus complete_tx, and reads back.
#include "exec_move_util.hpp"
#include "layoutscope/scenario/scenario.hpp"

using namespace movetest;

TEST_CASE("exec move: the order model sees the new forms (a read before the wait is a race)",
          "[exec][exec-move]") {
    auto noWait = [](std::string ptx) {
        const size_t a = ptx.find("WAIT:\nmov.u32 %r9, 0;"), b = ptx.find("@!%p2 bra WAIT;\n");
        return ptx.replace(a, b + 16 - a, "WAIT:\n");
    };
    SECTION("an .im2col load") {
        const std::string ptx = noWait(
            loadKernel("sm_90a", coords({8, -1, 0}) + "mov.u16 %rs1, 1;\n",
                       "cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes "
                       "[%r2], [%rd4, " +
                           coordList(3) + "], [%r3], {%rs1};",
                       192, 48));
        auto r =
            runText(ptx, moveLaunch("T=tensor:u16[2,10,16]:index",
                                    "im2col UINT16 dims=[16,10,2] strides=[32,320] lower=[-1] upper=[-1] "
                                    "channels=8 pixels=12 address=T",
                                    std::vector<uint8_t>(192, 0)));
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("order: race"));
        CHECK_THAT(r.error().message, Catch::Contains("im2col"));
    }
    SECTION("a gather4 load read by ldmatrix") {
        std::string ptx =
            loadKernel("sm_100a", coords({0, 1, 2, 3, 4}),
                       "cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::"
                       "bytes [%r2], [%rd4, " +
                           coordList(5) + "], [%r3];",
                       256, 0);
        ptx = noWait(ptx);
        ptx.replace(
            ptx.find("mov.u32 %r10, %r1;\nLOOP:"), 0,
            "mad.lo.u32 %r30, %r1, 16, %r2;\nldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r31, %r32}, "
            "[%r30];\n");
        checked(ptx, "sm_100a");
        auto r = runText(ptx, moveLaunch("T=tensor:u16[64,32]:index",
                                         "tiled UINT16 dims=[32,64] strides=[64] box=[32,1] address=T",
                                         std::vector<uint8_t>(4, 0)));
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("order: race"));
        CHECK_THAT(r.error().message, Catch::Contains("ldmatrix"));
    }
}

TEST_CASE("exec move: the recorder writes gather4 as its statement and im2col as pokes",
          "[exec][exec-move]") {
    ExecOptions opt;
    opt.record = true;
    SECTION("gather4") {
        auto m =
            readPtxModule(loadKernel("sm_100a", coords({8, 5, 70, 0, 33}),
                                     "cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::"
                                     "complete_tx::bytes [%r2], [%rd4, " +
                                         coordList(5) + "], [%r3];",
                                     128, 32));
        REQUIRE(m);
        auto r = runKernel(*m,
                           moveLaunch("T=tensor:u16[64,32]:index",
                                      "tiled UINT16 dims=[32,64] strides=[64] box=[16,1] address=T",
                                      std::vector<uint8_t>(128, 0)),
                           opt);
        if (!r) FAIL(formatDiagnostic(r.error()));
        CHECK_THAT(r->recording,
                   Catch::Contains("tile::gather4.mbarrier::complete_tx::bytes [smem_c0], [tm_T, "
                                   "{8, 5, 70, 0, 33}], [bar_c0_"));
        auto s = parseScenario(r->recording);
        if (!s) FAIL(formatDiagnostic(s.error()) << "\n" << r->recording);
    }
    SECTION("im2col") {
        auto m = readPtxModule(loadKernel("sm_90a", coords({8, -1, 0}) + "mov.u16 %rs1, 1;\n",
                                          "cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::"
                                          "complete_tx::bytes [%r2], [%rd4, " +
                                              coordList(3) + "], [%r3], {%rs1};",
                                          192, 48));
        REQUIRE(m);
        auto r = runKernel(*m,
                           moveLaunch("T=tensor:u16[2,10,16]:index",
                                      "im2col UINT16 dims=[16,10,2] strides=[32,320] lower=[-1] upper=[-1] "
                                      "channels=8 pixels=12 address=T",
                                      std::vector<uint8_t>(192, 0)),
                           opt);
        if (!r) FAIL(formatDiagnostic(r.error()));
        // The 192 bytes the load wrote (first and last equal to before are left out: they hold the same).
        CHECK_THAT(r->recording,
                   Catch::Contains("mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64 [bar_c0_"));
        CHECK_THAT(r->recording, Catch::Contains("poke smem cta=0 0x"));
        auto s = parseScenario(r->recording);
        if (!s) FAIL(formatDiagnostic(s.error()) << "\n" << r->recording);
    }
}
