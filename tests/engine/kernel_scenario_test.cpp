// Kernel scenarios (issue 22 items 2-3; docs/exec.md "Kernel scenarios"): a `kernel` directive runs a real
// kernel and its recorded run becomes an ordinary scenario whose trace holds the kernel's byte moves. Truth:
// the CPU product of the kernel's inputs (mma.sync GEMM in tests/data/exec/mma_kernels.ptx) must be what the
// trace leaves in global memory, and every recorded instruction names its PTX line.
#include "layoutscope/exec/exec.hpp"
#include "layoutscope/scenario/scenario.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

using namespace layoutscope;

namespace {

const std::string kPtx = std::string(LAYOUTSCOPE_TEST_DATA_DIR) + "/exec/mma_kernels.ptx";
const std::string kLaunch = " --entry mma_sync_gemm --grid 1 --block 32 --arg 0=tensor:f16[16,32]:random:3 "
                            "--arg 1=tensor:f16[16,32]:random:4 --arg 2=tensor:f32[16,16]:zeros";

float halfToFloat(uint16_t h) {
    const int e = (h >> 10) & 31, m = h & 1023;
    const float v = e == 0 ? std::ldexp(float(m), -24) : std::ldexp(float(m | 1024), e - 25);
    return (h & 0x8000) ? -v : v;
}

} // namespace

TEST_CASE("kernel scenario: the trace of a recorded mma.sync GEMM leaves the CPU product in global memory",
          "[kernel-scenario]") {
    auto s = loadScenario("kernel " + kPtx + kLaunch + "\n", "/nowhere/k.scn");
    REQUIRE(s);
    CHECK(s->recorded);
    REQUIRE(s->kernel);
    CHECK(s->kernel->resolvedPath == kPtx);
    auto run = runScenario(*s);
    REQUIRE(run);
    // The inputs, made the way the launch makes them (exec.hpp parseExecArg), and C's address.
    auto a = exec::parseExecArg("0=tensor:f16[16,32]:random:3");
    auto b = exec::parseExecArg("1=tensor:f16[16,32]:random:4");
    REQUIRE(a);
    REQUIRE(b);
    uint64_t cAddr = 0;
    for (const ScenarioInstr& in : s->instrs)
        if (in.poke && in.poke->global && (cAddr == 0 || in.poke->ranges.front().addr < cAddr))
            cAddr = in.poke->ranges.front().addr;
    REQUIRE(cAddr != 0);
    // Replaying the whole trace from the initial state gives the final state (views replay it).
    Replay replay(run->trace, run->initial);
    replay.seek(run->trace.stepCount);
    size_t checked = 0;
    for (uint32_t i = 0; i < 16; ++i)
        for (uint32_t j = 0; j < 16; ++j) {
            float want = 0;
            for (uint32_t k = 0; k < 32; ++k) {
                uint16_t x, y;
                std::memcpy(&x, a->tensor.bytes.data() + 2 * (i * 32 + k), 2);
                std::memcpy(&y, b->tensor.bytes.data() + 2 * (j * 32 + k), 2);
                want += halfToFloat(x) * halfToFloat(y); // small integers: exact in f32
            }
            uint8_t got[4];
            replay.state().global.read(cAddr + 4 * (i * 16 + j), got);
            float g;
            std::memcpy(&g, got, 4);
            CHECK(g == want);
            ++checked;
        }
    CHECK(checked == 256);
    // Every recorded trace instruction names the kernel line it came from.
    size_t withOrigin = 0;
    for (const TraceInstr& ti : run->trace.instrs) withOrigin += ti.origin.ptxLine > 0;
    CHECK(withOrigin == run->trace.instrs.size());
}

TEST_CASE("kernel scenario: launch errors are placed at the kernel directive", "[kernel-scenario]") {
    SECTION("unknown entry") {
        auto s = loadScenario("# a comment\nkernel " + kPtx + " --entry nope --grid 1 --block 32\n", "k.scn");
        REQUIRE_FALSE(s);
        CHECK(s.error().span.line == 2);
        CHECK(s.error().message.find("unknown entry `nope`") != std::string::npos);
    }
    SECTION("a module that is not there, relative to the scenario's folder") {
        auto s = loadScenario("kernel missing.ptx --grid 1 --block 32\n", "/tmp/nowhere/k.scn");
        REQUIRE_FALSE(s);
        CHECK(s.error().code == DiagCode::Io);
        CHECK(s.error().message.find("kernel missing.ptx") != std::string::npos);
    }
    SECTION("a continued line is one directive") {
        auto s = loadScenario(
            "kernel " + kPtx + " --entry mma_sync_gemm \\\n --grid 1 --block 32 \\\n --cta 2,0,0\n", "k.scn");
        REQUIRE_FALSE(s);
        CHECK(s.error().span.line == 1);
        CHECK(s.error().message.find("--cta 2,0,0 is outside --grid 1,1,1") != std::string::npos);
    }
}

TEST_CASE("kernel scenario: tcgen05.st stores the kernel's registers into Tensor Memory",
          "[kernel-scenario]") {
    // tests/data/exec/tcgen05_kernels.cu tmem_ldst: warp w stores into its lane quarter the pattern
    // cell(lane L, column c) = L << 16 | c for c < 16 (32x32b.x16), zeros at columns 16-17 (32x32b.x2), then
    // 16x64b.x1 of 0xA0000000 | t at column 16. Truth: the kernel's source and the 16x64b map of
    // ../shared/ref/tcgen05.md §4.1 (thread t -> lane L0 + (t>>2) + 8*(t&1), column C0 + ((t>>1)&1)).
    const std::string ptx = std::string(LAYOUTSCOPE_TEST_DATA_DIR) + "/exec/tcgen05_kernels.ptx";
    auto s = loadScenario("kernel " + ptx +
                              " --entry tmem_ldst --grid 1 --block 128 --arg 0=tensor:u32[2560]:zeros\n",
                          "/nowhere/k.scn");
    REQUIRE(s);
    size_t regPokes = 0, stores = 0;
    for (const ScenarioInstr& in : s->instrs) {
        regPokes += in.poke && in.poke->regs;
        stores += in.text.rfind("tcgen05.st", 0) == 0;
    }
    CHECK(regPokes == 12); // three tcgen05.st per warp, 4 warps, each after its registers
    CHECK(stores == 12);
    auto run = runScenario(*s);
    REQUIRE(run);
    const TensorMemory& t = run->tmemFinal.ctas[0];
    for (uint32_t lane = 0; lane < 128; ++lane)
        for (uint32_t c = 0; c < 16; ++c) {
            INFO("lane " << lane << " column " << c);
            REQUIRE(t.cell(lane, c) == (lane << 16 | c));
        }
    for (uint32_t w = 0; w < 4; ++w) {
        for (uint32_t th = 0; th < 32; ++th) {
            INFO("warp " << w << " thread " << th);
            CHECK(t.cell(32 * w + (th >> 2) + 8 * (th & 1), 16 + ((th >> 1) & 1)) == (0xA0000000u | th));
        }
        for (uint32_t l = 16; l < 32; ++l) { // the 16x64b store covers lanes 0-15 of the quarter only
            CHECK(t.cell(32 * w + l, 16) == 0);
            CHECK(t.cell(32 * w + l, 17) == 0);
        }
    }
}
