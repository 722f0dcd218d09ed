// wgmma in scenarios: the forms the lowering accepts and rejects agree with ptxas -arch=sm_90a (skipped
// when ptxas is absent), and the operand check names the planted bugs (hand-derived: a 64x64 fp16 box
// with SWIZZLE_128B puts element (x, y) at logical byte y*128 + 2x, XOR bits [4,7) with bits [7,10)).
#include "layoutscope/scenario/scenario.hpp"
#include "scenario_test_util.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace layoutscope;
using test::runErrors; // scenario_test_util.hpp: the run must complete; its Error lines
namespace fs = std::filesystem;

namespace {

std::string regs(int n, const std::string& p = "%f") {
    std::string s = "{";
    for (int i = 0; i < n; ++i) s += (i ? ", " : "") + p + std::to_string(i);
    return s + "}";
}

std::string head(const std::string& descA = "desc dA start=sA lbo=16 sbo=1024 swizzle=128B",
                 const std::string& boxA = "[64,64]") {
    return "target sm_90a\ntensormap A tiled FLOAT16 dims=[256,256] box=" + boxA +
           " swizzle=128B\ntensormap B tiled FLOAT16 dims=[256,256] box=[64,64] swizzle=128B\n"
           "smem sA 8192 align=1024\nsmem sB 8192 align=1024\nmbarrier bar\n" +
           descA +
           "\ndesc dB start=sB lbo=16 sbo=1024 swizzle=128B\nmbarrier.init.shared::cta.b64 [bar], 1;\n";
}
const std::string kLoads =
    "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [A, "
    "{0, 0}], [bar];\ncp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::"
    "bytes [sB], [B, {0, 0}], [bar];\n";
// kLoads as a kernel orders them: the bytes announced, then the wait before the MMA reads the tiles.
const std::string kWaitedLoads = "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 16384;\n" + kLoads +
                                 "mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0;\n";

bool ptxasAccepts(const std::string& ptxas, const std::string& instr) {
    const fs::path dir = fs::temp_directory_path() / "layoutscope_wgmma_test";
    fs::create_directories(dir);
    const fs::path f = dir / "k.ptx";
    std::ofstream(f)
        << ".version 8.5\n.target sm_90a\n.address_size 64\n.visible .entry k() {\n"
           ".reg .f32 %f<130>;\n.reg .b32 %h<130>;\n.reg .b64 %rd<3>;\n.reg .b32 %r<2>;\n.reg .pred p;\n"
           "mov.b64 %rd1, 0;\nmov.b64 %rd2, 0;\nmov.b32 %r1, 0;\nsetp.ne.b32 p, %r1, 0;\n"
           "wgmma.fence.sync.aligned;\n"
        << instr << "\nwgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\nret;\n}\n";
    const std::string cmd =
        ptxas + " -arch=sm_90a -o " + (dir / "k.o").string() + " " + f.string() + " 2>/dev/null";
    return std::system(cmd.c_str()) == 0;
}

std::string findPtxas() {
    return fs::exists("/usr/local/cuda/bin/ptxas") ? "/usr/local/cuda/bin/ptxas" : "";
}

} // namespace

TEST_CASE("wgmma.mma_async forms: the scenario accepts what ptxas accepts for sm_90a", "[wgmma][ptxas]") {
    struct Case {
        std::string form;
        int dRegs;
        std::string imms;
        bool valid;
    };
    const std::vector<Case> cases{
        {"m64n64k16.f32.f16.f16", 32, "1, 1, 0, 0", true},
        {"m64n8k16.f32.bf16.bf16", 4, "1, 1, 0, 0", true},
        {"m64n256k16.f32.f16.f16", 128, "1, 1, 1, 1", true},
        {"m64n64k16.f16.f16.f16", 16, "1, 1, 0, 0", true},
        {"m64n64k16.f32.f16.f16", 32, "-1, 1, 0, 1", true},
        {"m64n12k16.f32.f16.f16", 6, "1, 1, 0, 0", false},
        {"m64n64k16.f32.f16.f16", 31, "1, 1, 0, 0", false},
        {"m64n64k16.f32.f16.f16", 32, "1, 1, 2, 0", false},
        {"m64n64k16.f32.f16.f16", 32, "2, 1, 0, 0", false},
        {"m64n64k16.f16.bf16.bf16", 16, "1, 1, 0, 0", false},
        {"m64n264k16.f32.f16.f16", 132, "1, 1, 0, 0", false},
    };
    const std::string ptxas = findPtxas();
    for (const Case& c : cases) {
        // An .f16 accumulator packs two halves in a .b32 register (%h); .f32 uses .f32 registers (%f).
        const std::string prefix = c.form.find(".f16.f16.f16") != std::string::npos ? "%h" : "%f";
        const std::string instr =
            "wgmma.mma_async.sync.aligned." + c.form + " " + regs(c.dRegs, prefix) + ", ";
        const std::string scn = head() + instr + "dA, dB, p, " + c.imms + ";\n";
        INFO(instr << c.imms);
        auto sc = parseScenario(scn);
        CHECK(bool(sc) == c.valid);
        if (!ptxas.empty()) CHECK(ptxasAccepts(ptxas, instr + "%rd1, %rd2, p, " + c.imms + ";") == c.valid);
    }
    if (ptxas.empty()) WARN("ptxas not found: the scenario side was checked, not ptxas's verdict");
}

TEST_CASE("wgmma operands that disagree with the TMA tiles are diagnosed", "[wgmma][consumer][check]") {
    const std::string mma =
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 " + regs(32) + ", dA, dB, p, 1, 1, ";
    SECTION("the right descriptors: clean") {
        CHECK(runErrors(head() + kWaitedLoads + mma + "0, 0;\n") == "");
    }
    SECTION("SWIZZLE_64B descriptor over a SWIZZLE_128B tile") {
        // A[m=1][k=0] under SW64 K-major: offset 1*64 = 64 -> SW64 XOR of bits [7,9): none -> byte 64, which
        // the 128B TMA filled with row 0, element 32: global (32, 0).
        const std::string e =
            runErrors(head("desc dA start=sA lbo=16 sbo=1024 swizzle=64B") + kLoads + mma + "0, 0;\n");
        CHECK(e.find("A[m=1][k=0]: expected global (x=0, y=1), reads (x=32, y=0)") != std::string::npos);
        CHECK(e.find("Fix: set the descriptor's layout type to 128B") != std::string::npos);
    }
    SECTION("MN-major read of a K-major tile, caught by the statement") {
        // imm-trans-a 1: A[m=0][k=1] at MN-major offset (k%8)*128 = 128: row 1, element 0: global (0, 1);
        // the statement (m along dim1, k along dim0) wants global (1, 0).
        const std::string e =
            runErrors(head() + "expect A tensor=A m=dim1 k=dim0\n" + kLoads + mma + "1, 0;\n");
        CHECK(e.find("A[m=0][k=1]: expected global (x=1, y=0), reads (x=0, y=1)") != std::string::npos);
        CHECK(e.find("Fix: set imm-trans-a to 0 (K-major)") != std::string::npos);
    }
    SECTION("a box 8 elements wide cannot feed K = 16") {
        const std::string e = runErrors(head("desc dA start=sA lbo=16 sbo=1024 swizzle=128B", "[8,64]") +
                                        kLoads + mma + "0, 0;\n");
        CHECK(e.find("A[m=0][k=8]: expected global (x=8, y=0), reads bytes no TMA load wrote") !=
              std::string::npos);
        CHECK(e.find("its inner extent must cover the operand's K") != std::string::npos);
    }
}
