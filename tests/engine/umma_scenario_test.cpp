// tcgen05.mma in scenarios: the instruction descriptor's fields (CuTe UMMA::InstrDescriptor: D format
// bits [4,6), A/B format [7,10)/[10,13), majors 15/16, N >> 3 at [17,23), M >> 4 at [24,29)) decoded by
// hand-built values; forms the lowering accepts compile with ptxas -arch=sm_100a (skipped without it);
// the operand fetch and D's columns are checked.
#include "layoutscope/scenario/scenario.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

using namespace layoutscope;
namespace fs = std::filesystem;

namespace {

constexpr uint32_t idesc(uint32_t m, uint32_t n, uint32_t dfmt = 1, uint32_t ab = 0, bool ta = false,
                         bool tb = false) {
    return (dfmt << 4) | (ab << 7) | (ab << 10) | (uint32_t(ta) << 15) | (uint32_t(tb) << 16) |
           ((n >> 3) << 17) | ((m >> 4) << 24);
}

std::string scenario(uint32_t id, const std::string& descA = "swizzle=128B",
                     const std::string& mma = "tcgen05.mma.cta_group::1.kind::f16", int cols = 64) {
    return "target sm_100a\ntensormap A tiled FLOAT16 dims=[256,256] box=[64,128] swizzle=128B\n"
           "tensormap B tiled FLOAT16 dims=[256,256] box=[64,64] swizzle=128B\n"
           "smem sA 16384 align=1024\nsmem sB 8192 align=1024\nsmem taddrBuf 16\nmbarrier bar\n"
           "desc dA start=sA lbo=16 sbo=1024 " +
           descA + "\ndesc dB start=sB lbo=16 sbo=1024 swizzle=128B\nlet idesc = " + std::to_string(id) +
           "\nlet tmem = 0\nmbarrier.init.shared::cta.b64 [bar], 1;\n"
           "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [A, {0, 0}], "
           "[bar];\n"
           "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sB], [B, {0, 0}], "
           "[bar];\n"
           "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], " +
           std::to_string(cols) + ";\n" + mma +
           " [tmem], dA, dB, idesc, p;\ntcgen05.dealloc.cta_group::1.sync.aligned.b32 tmem, " +
           std::to_string(cols) + ";\n";
}

std::string errorsOf(const std::string& text) {
    auto sc = parseScenario(text);
    if (!sc) return "parse: " + sc.diagnostics()[0].message;
    auto run = runScenario(*sc);
    if (!run) return "run: " + run.diagnostics()[0].message;
    std::string out;
    for (const Diagnostic& d : run->warnings)
        if (d.severity == Severity::Error) out += d.message + "\n";
    return out;
}

} // namespace

TEST_CASE("tcgen05.mma instruction descriptors are decoded and checked", "[umma][scenario]") {
    auto sc = parseScenario(scenario(idesc(128, 64)));
    REQUIRE(sc);
    const ScenarioInstr* mma = nullptr;
    for (const ScenarioInstr& in : sc->instrs)
        if (in.umma) mma = &in;
    REQUIRE(mma);
    const UmmaRead& u = *mma->umma;
    CHECK(u.m == 128);
    CHECK(u.n == 64);
    CHECK(u.elemBits == 16);
    CHECK(!u.transA);
    CHECK(idesc(128, 64) == 0x08100010u); // by hand: 8 << 24 | 8 << 17 | 1 << 4
    SECTION("M = 64 allows N = 8") {
        CHECK(parseScenario(scenario(idesc(64, 8))));
    }
    SECTION("M = 128 needs N a multiple of 16") {
        CHECK(errorsOf(scenario(idesc(128, 8))).find("a multiple of 16") != std::string::npos);
    }
    SECTION("A and B formats must agree") {
        CHECK(errorsOf(scenario(idesc(128, 64) | (1u << 7))).find("both 0 (F16) or both 1 (BF16)") !=
              std::string::npos);
    }
    SECTION("reserved bit 23") {
        CHECK(errorsOf(scenario(idesc(128, 64) | (1u << 23))).find("reserved bits") != std::string::npos);
    }
    SECTION("M = 64 is not a cta_group::2 shape") {
        CHECK(errorsOf(scenario(idesc(64, 64), "swizzle=128B", "tcgen05.mma.cta_group::2.kind::f16"))
                  .find("128 or 256 with .cta_group::2") != std::string::npos);
    }
}

TEST_CASE("tcgen05.mma operands and accumulator columns are checked", "[umma][consumer][check]") {
    CHECK(errorsOf(scenario(idesc(128, 64))) == "");
    SECTION("a 32B descriptor over the 128B tile") {
        // A[m=1][k=0] under SW32 K-major: offset 1*32 = 32 -> SW32 XOR of bit 7 into bit 4: none -> byte 32,
        // which the 128B TMA filled with row 0, element 16: global (16, 0).
        const std::string e = errorsOf(scenario(idesc(128, 64), "swizzle=32B"));
        CHECK(e.find("A[m=1][k=0]: expected global (0,1), reads (16,0)") != std::string::npos);
        CHECK(e.find("Fix: set the descriptor's layout type to 128B") != std::string::npos);
    }
    SECTION("N = 64 accumulator columns in a 32-column allocation") {
        const std::string e =
            errorsOf(scenario(idesc(128, 64), "swizzle=128B", "tcgen05.mma.cta_group::1.kind::f16", 32));
        CHECK(e.find("tcgen05.mma uses Tensor Memory columns 0..63") != std::string::npos);
    }
}

TEST_CASE("tcgen05.mma forms the scenario accepts compile with ptxas for sm_100a", "[umma][ptxas]") {
    const std::string ptxas = fs::exists("/usr/local/cuda/bin/ptxas") ? "/usr/local/cuda/bin/ptxas" : "";
    if (ptxas.empty()) {
        WARN("ptxas not found: skipped");
        return;
    }
    const fs::path dir = fs::temp_directory_path() / "layoutscope_umma_test";
    fs::create_directories(dir);
    for (const std::string kind :
         {"tcgen05.mma.cta_group::1.kind::f16", "tcgen05.mma.cta_group::1.kind::tf32",
          "tcgen05.mma.cta_group::2.kind::f16"}) {
        INFO(kind);
        const int group = kind.find("::2") != std::string::npos ? 2 : 1;
        std::ofstream(dir / "k.ptx")
            << ".version 8.7\n.target sm_100a\n.address_size 64\n.visible .entry k() {\n"
               ".reg .b32 %r<4>;\n.reg .b64 %rd<3>;\n.reg .pred p;\nmov.b32 %r1, 0;\n"
               "mov.b32 %r2, 0;\nmov.b64 %rd1, 0;\nmov.b64 %rd2, 0;\nsetp.ne.b32 p, %r1, 0;\n"
            << kind << " [%r1], %rd1, %rd2, %r2, p;\n"
            << "tcgen05.commit.cta_group::" << group
            << ".mbarrier::arrive::one.shared::cluster.b64 [%rd1];\nret;\n}\n";
        const std::string cmd =
            ptxas + " -arch=sm_100a -o " + (dir / "k.o").string() + " " + (dir / "k.ptx").string() + " 2>&1";
        CHECK(std::system(cmd.c_str()) == 0);
    }
}
