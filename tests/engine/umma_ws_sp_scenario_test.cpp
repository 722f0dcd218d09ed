// tcgen05.mma .ws / .sp in scenarios: the forms parse and run, D is what the test computes from the tiles by
// its own loop (index fill: UINT8 byte x of row y is x + 128 (y % 2)), the value check (mma_values) agrees,
// and bad forms get diagnostics naming the rule. The forms compile with ptxas -arch=sm_100a (skipped without
// it).
#include "layoutscope/analysis/mma_values.hpp"
#include "layoutscope/scenario/scenario.hpp"

#include "scenario_test_util.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

using namespace layoutscope;
namespace fs = std::filesystem;

namespace {

// A 128 x 128 UINT8 A tile and a 64 x 128 B tile (K-major, SWIZZLE_128B), TMEM allocated, then `body`.
std::string wsSpScenario(const std::string& lets, const std::string& body) {
    return "target sm_100a\ntensormap A tiled UINT8 dims=[128,128] box=[128,128] swizzle=128B\n"
           "tensormap B tiled UINT8 dims=[128,64] box=[128,64] swizzle=128B\n"
           "smem sA 16384 align=1024\nsmem sB 8192 align=1024\nsmem taddrBuf 16\nmbarrier bar\nmbarrier "
           "done\n"
           "desc dA start=sA lbo=16 sbo=1024 swizzle=128B\ndesc dB start=sB lbo=16 sbo=1024 swizzle=128B\n"
           "let tmem = 0\nlet acc = 0\n" +
           lets +
           "mbarrier.init.shared::cta.b64 [bar], 1;\nmbarrier.init.shared::cta.b64 [done], 1;\n"
           "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 24576;\n"
           "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [A, {0, 0}], "
           "[bar];\n"
           "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sB], [B, {0, 0}], "
           "[bar];\n"
           "mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0;\n"
           "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], 128;\n" +
           body +
           "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [done];\n"
           "mbarrier.try_wait.parity.shared::cta.b64 p, [done], 0;\n"
           "tcgen05.dealloc.cta_group::1.sync.aligned.b32 tmem, 128;\n";
}

int64_t tileA(uint32_t m, uint32_t k) { // UINT8 index fill of A (dims [128,128])
    return int64_t(k + 128 * (m % 2));
}

// Errors of a run, the ordering checker's race / in-flight notes left out (these are fragments).
std::string wsSpErrors(const Run& run) {
    std::string out;
    for (const Diagnostic& d : run.warnings)
        if (d.message.rfind("race (", 0) != 0 && d.message.find("still in flight") == std::string::npos)
            out += d.message + "\n";
    return out;
}

} // namespace

TEST_CASE("tcgen05.mma.sp kind::i8 in a scenario: D from the stored A and TMEM metadata",
          "[umma][sp][scenario]") {
    // Metadata at column 64 (lane m, chunks 0-7 in the first column, 8-15 in the second: 0xE4E4E4E4 names
    // positions (0, 1) for even chunks, (2, 3) for odd ones), stored by tcgen05.st from poked registers.
    std::string meta;
    for (uint32_t w = 0; w < 4; ++w) {
        std::string hex;
        for (int i = 0; i < 64; ++i) hex += "e4e4e4e4";
        meta += "warp " + std::to_string(w) + "\npoke regs warp=" + std::to_string(w) + " 0=" + hex +
                "\ntcgen05.st.sync.aligned.32x32b.x2.b32 [meta" + std::to_string(w) + "], {%r0, %r1};\n";
    }
    meta += "warp 0\ntcgen05.wait::st.sync.aligned;\n";
    std::string lets = "let idesc = 0x08100024\n"; // S32, U8 x U8, N = 64, M = 128, sparse (bit 2)
    for (uint32_t w = 0; w < 4; ++w)
        lets += "let meta" + std::to_string(w) + " = " + std::to_string((32 * w) << 16 | 64) + "\n";
    const std::string text = wsSpScenario(
        lets, meta + "tcgen05.mma.sp.cta_group::1.kind::i8 [tmem], dA, dB, [meta0], idesc, acc;\n");
    auto sc = parseScenario(text);
    REQUIRE(sc);
    auto run = runScenario(*sc);
    REQUIRE(run);
    CHECK(wsSpErrors(*run) == "");
    int wrong = 0;
    for (uint32_t m = 0; m < 128; ++m)
        for (uint32_t n = 0; n < 64; ++n) {
            int64_t d = 0;
            for (uint32_t c = 0; c < 16; ++c) // chunk c: stored values 2c, 2c + 1 at positions p, p + 1
                for (uint32_t i = 0; i < 2; ++i) {
                    const uint32_t pos = (c % 2 ? 2 : 0) + i;
                    d += tileA(m, 2 * c + i) * int64_t(4 * c + pos + 128 * (n % 2));
                }
            wrong += run->tmemFinal.ctas[0].cell(m, n) != uint32_t(d);
        }
    CHECK(wrong == 0);
    const auto checks = mmaDValues(*sc, *run);
    REQUIRE(checks.size() == 1);
    CHECK(checks[0].skipped == "");
    CHECK(checks[0].cells.size() == 128 * 64);
    CHECK(checks[0].wrong == 0);
}

TEST_CASE("tcgen05.mma.ws kind::i8 in a scenario: Layout E, collector fill then use",
          "[umma][ws][scenario]") {
    // M = 64, N = 64 (idesc 0x04100020): D(m, n) = sum_k<32 (k + 128 (m % 2)) (k + 128 (n % 2)) at lane
    // m + 64 (n / 32), column n % 32; the ::use MMA writes the same D at column 32 from buffer b1.
    const std::string text = wsSpScenario(
        "let idesc = 0x04100020\nlet tmem2 = 32\n",
        "tcgen05.mma.ws.cta_group::1.kind::i8.collector::b1::fill [tmem], dA, dB, idesc, acc;\n"
        "tcgen05.mma.ws.cta_group::1.kind::i8.collector::b1::use [tmem2], dA, dB, idesc, acc;\n");
    auto sc = parseScenario(text);
    REQUIRE(sc);
    auto run = runScenario(*sc);
    REQUIRE(run);
    CHECK(wsSpErrors(*run) == "");
    auto d = [](uint32_t m, uint32_t n) { // the i8 example's closed form (tcgen05_mma_i8_128x64.scn)
        return uint32_t(10416 + 63488 * (m % 2 + n % 2) + 524288 * (m % 2) * (n % 2));
    };
    const TensorMemory& t = run->tmemFinal.ctas[0];
    CHECK(t.cell(1, 1) == d(1, 1));
    CHECK(t.cell(65, 1) == d(1, 33));
    CHECK(t.cell(64, 31) == d(0, 63));
    CHECK(t.cell(65, 33) == d(1, 33)); // the ::use copy
    const auto checks = mmaDValues(*sc, *run);
    REQUIRE(checks.size() == 2);
    CHECK(checks[0].skipped == "");
    CHECK(checks[0].wrong == 0);
    CHECK(checks[1].skipped.find("collector buffer") != std::string::npos);
}

TEST_CASE("tcgen05.mma.ws with a zero-column mask in a scenario", "[umma][ws][scenario][zero-mask]") {
    // M = 64 (two sub-masks of N/2 = 32 columns), the ISA's example 2 fields (non-zero mask, skip span 2, use
    // span 3, fs = sc = 0): in each half, columns 4-6, 11-13, 18-20, 25-27 of B read as zeros, so D is 0
    // there and the i8 closed form elsewhere; the value check zeroes the same columns.
    const std::string text =
        wsSpScenario("let idesc = 0x04100020\nlet zcm = 0x0003028000000000\n",
                     "tcgen05.mma.ws.cta_group::1.kind::i8 [tmem], dA, dB, idesc, acc, zcm;\n");
    auto sc = parseScenario(text);
    REQUIRE(sc);
    auto run = runScenario(*sc);
    REQUIRE(run);
    CHECK(wsSpErrors(*run) == "");
    const TensorMemory& t = run->tmemFinal.ctas[0];
    int wrong = 0;
    for (uint32_t m = 0; m < 64; ++m)
        for (uint32_t n = 0; n < 64; ++n) {
            const uint32_t j = n % 32 % 7; // position in the 7-column period (4 used, 3 zero)
            const uint32_t want =
                j >= 4 ? 0u : uint32_t(10416 + 63488 * (m % 2 + n % 2) + 524288 * (m % 2) * (n % 2));
            wrong += t.cell(m + 64 * (n / 32), n % 32) != want;
        }
    CHECK(wrong == 0);
    const auto checks = mmaDValues(*sc, *run);
    REQUIRE(checks.size() == 1);
    CHECK(checks[0].skipped == "");
    CHECK(checks[0].wrong == 0);
}

TEST_CASE("tcgen05.mma .ws / .sp scenario forms that are wrong get the rule",
          "[umma][ws][sp][scenario][badinput]") {
    auto errors = [](const std::string& lets, const std::string& mma) {
        return test::errorMessages(wsSpScenario(lets, mma + "\n"));
    };
    SECTION(".ws with .cta_group::2") {
        CHECK(errors("let idesc = 0x04100020\n",
                     "tcgen05.mma.ws.cta_group::2.kind::i8 [tmem], dA, dB, idesc, acc;") != "");
    }
    SECTION(".ws M = 256 is outside Table 39") {
        CHECK(errors("let idesc = 0x10100020\n",
                     "tcgen05.mma.ws.cta_group::1.kind::i8 [tmem], dA, dB, idesc, acc;")
                  .find("32, 64 or 128 for tcgen05.mma.ws") != std::string::npos);
    }
    SECTION(".sp without the idesc sparsity bit") {
        CHECK(errors("let idesc = 0x08100020\nlet meta = 64\n",
                     "tcgen05.mma.sp.cta_group::1.kind::i8 [tmem], dA, dB, [meta], idesc, acc;")
                  .find("bit 2 (sparsity) must be 1") != std::string::npos);
    }
    SECTION(".sp metadata never written: 0b0000 is no 2:4 pair") {
        CHECK(errors("let idesc = 0x08100024\nlet meta = 64\n",
                     "tcgen05.mma.sp.cta_group::1.kind::i8 [tmem], dA, dB, [meta], idesc, acc;")
                  .find("not a 2:4 index pair") != std::string::npos);
    }
    SECTION("a collector usage without .ws, and a .ws kind without a .ws form") {
        CHECK(errors("let idesc = 0x08100020\n",
                     "tcgen05.mma.cta_group::1.kind::i8.collector::b1::fill [tmem], dA, dB, idesc, acc;") !=
              "");
        CHECK(errors("let idesc = 0x08100020\nlet sfa = 96\nlet sfb = 100\n",
                     "tcgen05.mma.ws.cta_group::1.kind::mxf8f6f4.block_scale [tmem], dA, dB, idesc, [sfa], "
                     "[sfb], acc;") != "");
    }
    SECTION(".ws use of a buffer nothing filled") {
        CHECK(errors("let idesc = 0x04100020\n",
                     "tcgen05.mma.ws.cta_group::1.kind::i8.collector::b3::use [tmem], dA, dB, idesc, acc;")
                  .find("collector buffer b3 holds no B") != std::string::npos);
    }
}

TEST_CASE("tcgen05.mma .ws / .sp forms the scenario accepts compile with ptxas for sm_100a",
          "[umma][ptxas]") {
    const std::string ptxas = fs::exists("/usr/local/cuda/bin/ptxas") ? "/usr/local/cuda/bin/ptxas" : "";
    if (ptxas.empty()) {
        WARN("ptxas not found: skipped");
        return;
    }
    const fs::path dir = fs::temp_directory_path() / "layoutscope_umma_ws_sp_test";
    fs::create_directories(dir);
    for (const std::string form :
         {"tcgen05.mma.sp.cta_group::1.kind::i8 [%r1], %rd1, %rd2, [%r3], %r2, p;",
          "tcgen05.mma.sp.cta_group::1.kind::f16 [%r1], %rd1, %rd2, [%r3], %r2, p;",
          "tcgen05.mma.ws.cta_group::1.kind::i8.collector::b1::fill [%r1], %rd1, %rd2, %r2, p;",
          "tcgen05.mma.ws.cta_group::1.kind::f16.collector::b1::use [%r1], %rd1, %rd2, %r2, p, %rd1;",
          "tcgen05.mma.ws.sp.cta_group::1.kind::f16.collector::b0::lastuse [%r1], %rd1, %rd2, [%r3], %r2, "
          "p;"}) {
        INFO(form);
        std::ofstream(dir / "k.ptx")
            << ".version 8.7\n.target sm_100a\n.address_size 64\n.visible .entry k() {\n"
               ".reg .b32 %r<4>;\n.reg .b64 %rd<3>;\n.reg .pred p;\nmov.b32 %r1, 0;\n"
               "mov.b32 %r2, 0;\nmov.b32 %r3, 0;\nmov.b64 %rd1, 0;\nmov.b64 %rd2, 0;\n"
               "setp.ne.b32 p, %r1, 0;\n"
            << form << "\nret;\n}\n";
        const std::string cmd =
            ptxas + " -arch=sm_100a -o " + (dir / "k.o").string() + " " + (dir / "k.ptx").string() + " 2>&1";
        CHECK(std::system(cmd.c_str()) == 0);
    }
}
