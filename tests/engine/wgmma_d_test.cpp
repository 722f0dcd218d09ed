// wgmma.mma_async computes D in scenarios (issue 24 item 4). Truth by hand: a m64n8k16 whose A and B are
// poked into global memory as small integers (exact in f16 and f32), loaded by TMA (SWIZZLE_32B, one 32-byte
// row per M / N index), and the D fragment of PTX ISA 9.2 §9.7.15.5.1.1 written out below: thread t = 32w + l
// holds in register i the element
//   D[16w + l/4 + 8((i/2)%2)][2(l%4) + (i%2) + 8(i/4)]
// (.f32: one a register; .f16: elements 2r, 2r+1 in bits [0,16), [16,32) of register r). With B the identity
// (B[n][k] = 1 where k = n), D[m][n] = A[m][n] for n < 8.
#include "layoutscope/analysis/mma_values.hpp"
#include "layoutscope/core/number_formats.hpp"
#include "scenario_test_util.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <functional>
#include <string>

using namespace layoutscope;

namespace {

using Values = std::function<int(int, int)>; // (row, k) -> an integer the test writes as f16

std::string f16Hex(int v) { // little-endian bytes of the f16 of a small integer (exact below 2048)
    const uint16_t b = encodeF16(double(v));
    char buf[8];
    std::snprintf(buf, sizeof buf, "%02x%02x", b & 0xff, b >> 8);
    return buf;
}

// A 64 x 16 and B 8 x 16 (stored N x K), K-major, SWIZZLE_32B; then `mmas` (wgmma statements, fence first).
std::string scenario(const Values& a, const Values& b, const std::string& mmas,
                     const std::string& swizzleB = "32B") {
    std::string s = "target sm_90a\n"
                    "tensormap A tiled FLOAT16 dims=[16,64] box=[16,64] swizzle=32B address=0x7f0000000000\n"
                    "tensormap B tiled FLOAT16 dims=[16,8] box=[16,8] swizzle=32B address=0x7f0000001000\n"
                    "smem sA 2048 align=1024\nsmem sB 256 align=256\nmbarrier bar\n"
                    "desc dA start=sA lbo=16 sbo=256 swizzle=32B\n"
                    "desc dB start=sB lbo=16 sbo=256 swizzle=" +
                    swizzleB + "\nlet one = 1\n";
    for (int r = 0; r < 64; ++r) { // A row r at 32 r, B row n at 0x1000 + 32 n (dense, 16 elements a row)
        std::string row;
        for (int k = 0; k < 16; ++k) row += f16Hex(a(r, k));
        char addr[32];
        std::snprintf(addr, sizeof addr, "0x%llx", 0x7f0000000000ULL + 32ULL * unsigned(r));
        s += "poke global " + std::string(addr) + "=" + row + "\n";
    }
    for (int n = 0; n < 8; ++n) {
        std::string row;
        for (int k = 0; k < 16; ++k) row += f16Hex(b(n, k));
        char addr[32];
        std::snprintf(addr, sizeof addr, "0x%llx", 0x7f0000001000ULL + 32ULL * unsigned(n));
        s += "poke global " + std::string(addr) + "=" + row + "\n";
    }
    return s +
           "mbarrier.init.shared::cta.b64 [bar], 1;\n"
           "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 2304;\n"
           "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [A, {0, 0}], "
           "[bar];\n"
           "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sB], [B, {0, 0}], "
           "[bar];\n"
           "mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0;\nwgmma.fence.sync.aligned;\n" +
           mmas + "wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\n";
}

const Values kIdentity = [](int n, int k) { return k == n ? 1 : 0; };
const Values kNamed = [](int m, int k) { return k < 8 ? 8 * m + k : 0; }; // D[m][n] = 8m + n
const std::string kF32 = "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0, %f1, %f2, %f3}, dA, dB, ";

struct Ran {
    Scenario s;
    Run run;
};
Ran runText(const std::string& text) {
    auto sc = parseScenario(text);
    REQUIRE(sc);
    auto run = runScenario(*sc);
    REQUIRE(run);
    return {std::move(*sc), std::move(*run)};
}

// Register `reg` of thread t (in the CTA) after the run.
uint32_t reg(const Run& r, uint32_t t, uint32_t reg) {
    for (const ScenarioWarp& w : r.warps)
        if (w.cta == 0 && w.warp == t / 32) return w.final[t % 32][reg];
    FAIL("warp " << t / 32 << " has no registers");
    return 0;
}

std::string errors(const Run& r) {
    std::string out;
    for (const Diagnostic& d : r.warnings)
        if (d.severity == Severity::Error) out += d.message + "\n";
    return out;
}

} // namespace

TEST_CASE("wgmma D lands in the warpgroup's registers at the ISA fragment layout", "[wgmma][values]") {
    SECTION("A[m][k] = (m+k)%3, B the identity: D[m][n] = (m+n)%3") {
        const Ran r =
            runText(scenario([](int m, int k) { return (m + k) % 3; }, kIdentity, kF32 + "0, 1, 1, 0, 0;\n"));
        CHECK(errors(r.run) == "");
        // (thread, {D[..][..] of registers 0..3}) from the fragment formula: t 0: (0,0) (0,1) (8,0) (8,1);
        // t 5 (lane 5): (1,2) (1,3) (9,2) (9,3); t 38 (warp 1, lane 6): (17,4) (17,5) (25,4) (25,5);
        // t 127 (warp 3, lane 31): (55,6) (55,7) (63,6) (63,7); each (m+n)%3.
        for (auto [t, want] :
             {std::pair{0u, std::array{0, 1, 2, 0}}, std::pair{5u, std::array{0, 1, 2, 0}},
              std::pair{38u, std::array{0, 1, 2, 0}}, std::pair{127u, std::array{1, 2, 0, 1}}})
            for (uint32_t i = 0; i < 4; ++i) {
                INFO("thread " << t << " register " << i);
                CHECK(decodeF32(reg(r.run, t, i)) == want[i]);
            }
    }
    SECTION("A[m][k] = 8m + k: every D element names its row and column, D[m][n] = 8m + n") {
        const Ran r = runText(scenario(kNamed, kIdentity, kF32 + "0, 1, 1, 0, 0;\n"));
        CHECK(errors(r.run) == "");
        for (auto [t, want] :
             {std::pair{0u, std::array{0, 1, 64, 65}}, std::pair{5u, std::array{10, 11, 74, 75}},
              std::pair{38u, std::array{140, 141, 204, 205}},
              std::pair{127u, std::array{446, 447, 510, 511}}})
            for (uint32_t i = 0; i < 4; ++i) {
                INFO("thread " << t << " register " << i);
                CHECK(decodeF32(reg(r.run, t, i)) == want[i]);
            }
        // The value check agrees (every element within its tolerance), element by element.
        const std::vector<MmaDCheck> c = wgmmaDValues(r.s, r.run);
        REQUIRE(c.size() == 1);
        REQUIRE(c[0].skipped == "");
        CHECK(c[0].cells.size() == 64 * 8);
        CHECK(c[0].wrong == 0);
        const MmaDValue& x = c[0].cells[1 * 8 + 2]; // D[1][2]: thread 5, register 0
        CHECK(x.expected == 10);
        CHECK(x.actual == 10);
        CHECK(x.thread == 5);
        CHECK(x.reg == 0);
    }
    SECTION(".f16 accumulator: two elements a register, the lower index in bits [0,16)") {
        const Ran r = runText(scenario(
            kNamed, kIdentity,
            "wgmma.mma_async.sync.aligned.m64n8k16.f16.f16.f16 {%f0, %f1}, dA, dB, 0, 1, 1, 0, 0;\n"));
        CHECK(errors(r.run) == "");
        // thread 5: register 0 = D[1][2] | D[1][3] << 16, register 1 = D[9][2] | D[9][3] << 16.
        CHECK(decodeF16(uint16_t(reg(r.run, 5, 0))) == 10);
        CHECK(decodeF16(uint16_t(reg(r.run, 5, 0) >> 16)) == 11);
        CHECK(decodeF16(uint16_t(reg(r.run, 5, 1))) == 74);
        CHECK(decodeF16(uint16_t(reg(r.run, 5, 1) >> 16)) == 75);
        CHECK(reg(r.run, 5, 2) == 0); // not named by {d...}: untouched
    }
}

TEST_CASE("wgmma scale-d: 1 accumulates into the registers, 0 overwrites them", "[wgmma][values]") {
    // Two wgmmas into {%f0..%f3}: the first D = A*B; thread 5 then holds 10, 11, 74, 75 (above).
    const std::string first = kF32 + "0, 1, 1, 0, 0;\n";
    SECTION("scale-d 1 (a let name): D = A*B + D = 2 A*B") {
        const Ran r = runText(scenario(kNamed, kIdentity, first + kF32 + "one, 1, 1, 0, 0;\n"));
        CHECK(errors(r.run) == "");
        for (uint32_t i = 0; i < 4; ++i)
            CHECK(decodeF32(reg(r.run, 5, i)) == std::array{20, 22, 148, 150}[i]);
        const std::vector<MmaDCheck> c = wgmmaDValues(r.s, r.run); // the last wgmma into these registers
        REQUIRE(c.size() == 1);
        CHECK(c[0].wrong == 0);
        CHECK(c[0].cells[1 * 8 + 2].expected == 20);
    }
    SECTION("scale-d 0: D = A*B again") {
        const Ran r = runText(scenario(kNamed, kIdentity, first + kF32 + "0, 1, 1, 0, 0;\n"));
        CHECK(errors(r.run) == "");
        for (uint32_t i = 0; i < 4; ++i) CHECK(decodeF32(reg(r.run, 5, i)) == std::array{10, 11, 74, 75}[i]);
    }
    SECTION("imm-scale-a -1 with scale-d 1: D = -A*B + D = 0") {
        const Ran r = runText(scenario(kNamed, kIdentity, first + kF32 + "1, -1, 1, 0, 0;\n"));
        CHECK(errors(r.run) == "");
        for (uint32_t i = 0; i < 4; ++i) CHECK(decodeF32(reg(r.run, 5, i)) == 0);
    }
    SECTION("a predicate name without a value is taken as 0, and the summary says so") {
        const Ran r = runText(scenario(kNamed, kIdentity, first + kF32 + "p, 1, 1, 0, 0;\n"));
        CHECK(errors(r.run) == "");
        CHECK(decodeF32(reg(r.run, 5, 0)) == 10);
        bool said = false;
        for (const TraceInstr& ti : r.run.trace.instrs)
            said = said ||
                   ti.summary.find("scale-d 'p' has no let value: taken as 0 (D = A*B)") != std::string::npos;
        CHECK(said);
    }
}

TEST_CASE("a B descriptor with the wrong swizzle: D differs, one error with the count and first elements",
          "[wgmma][values][check]") {
    // dB says no swizzle: K-major, no swizzle reads B[n][k] at 16n + 2k (lbo 16, sbo 256), where SWIZZLE_32B
    // put row n/2's element k + 8 (n % 2 = 1) or k (n even, rows 0..3 are not XORed). So column 2j reads
    // A[m][j] = 8m + j (right only for j = 0), an odd column 2j+1 reads zeros (A's k >= 8): 7 of 8 columns
    // wrong, 64 x 7 = 448 of 512 elements; the first: D[0][1] (thread 0, r1) holds 0 for 1, D[0][2] (thread
    // 1, r0) holds 1 for 2, D[0][3] (thread 1, r1) holds 0 for 3.
    const std::string e = test::errorMessages(scenario(kNamed, kIdentity, kF32 + "0, 1, 1, 0, 0;\n", "none"));
    CHECK(
        e.find(
            "wgmma.mma_async: D differs from the product of the tiles it reads in 448 of 512 elements "
            "(tolerance 2^-20 x (sum |a*b| + |D|): the tensor core's accumulation order is unverified): "
            "D[m=0][n=1] (thread 0, r1) holds 0, the product of A and B gives 1; D[m=0][n=2] (thread 1, r0) "
            "holds 1, the product of A and B gives 2; D[m=0][n=3] (thread 1, r1) holds 0, the product of A "
            "and B gives 3 (the operand check above names the elements read from the wrong place)") !=
        std::string::npos);
    CHECK(e.find("wgmma.mma_async operand B") != std::string::npos); // the operand check still reports first
    CHECK(e.find("wgmma.mma_async operand B") < e.find("D differs"));
    // The right descriptor: no error at all.
    CHECK(test::errorMessages(scenario(kNamed, kIdentity, kF32 + "0, 1, 1, 0, 0;\n")) == "");
}

TEST_CASE("a .bf16 wgmma over FLOAT16 tiles: only the value check sees it, and names the type",
          "[wgmma][values][check]") {
    // The descriptors are right (no operand error). D[m][n] = bf16(f16 bits of 8m + n) x bf16(0x3c00 =
    // f16 1.0) = bf16(...) x 2^-7: right only for 8m + n = 0 and 4 (0x4400 as bf16 is 2^9, x 2^-7 = 4), so
    // 510 of 512 differ. The fixed twin reads them as .f16: clean.
    const auto path = [](const char* f) {
        return std::string(LAYOUTSCOPE_ASSETS_DIR) + "/scenarios/broken/" + f;
    };
    const std::string e = test::errorMessages(*readScenarioFile(path("wgmma_d_bf16_for_f16.scn")));
    CHECK(
        e.find("wgmma.mma_async: D differs from the product of the tiles it reads in 510 of 512 elements") !=
        std::string::npos);
    CHECK(e.find(". Fix: the instruction reads A and B as .bf16 but tensor A holds FLOAT16: use the .f16.f16 "
                 "input types") != std::string::npos);
    CHECK(e.find("operand") == std::string::npos); // no operand error: the one error is the value check's
    CHECK(test::errorMessages(*readScenarioFile(path("wgmma_d_bf16_for_f16_fixed.scn"))) == "");
}
