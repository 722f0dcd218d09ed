// The dense mma.sync forms of issue 22 (FP8, s4/u4, m8n8 s8/s4, .b1 .and/.xor .popc) on a few D values worked
// out by hand. Each lane l loads its A, B and C words from in[16 l + j] (j 0..3 A, 4..7 B, 8..11 C, the
// layout of scripts/probes/mma_dense) and stores D to out[4 l + j]. The inputs are zero except one or two
// words placed by the PTX ISA 9.2 §9.7.14.5.8 fragment figures (g = lane / 4, t = lane % 4; P = 32 / element
// bits elements per register), so the expected D (which lane, which register, what value) follows by hand;
// every other D word must be 0. The H200 record (exec.h200.mma_dense) checks all 12 forms on random inputs.
#include "exec_test_util.hpp"

#include <map>
#include <utility>

using namespace exectest;

namespace {

std::string denseRegs(int first, int n) {
    std::string s = "{";
    for (int i = 0; i < n; ++i) s += (i ? ", %r" : "%r") + std::to_string(first + i);
    return s + "}";
}

// Runs `instr` with D/A/B/C register counts nd/na/nb/nc on the words `in` (u32[512]); returns out (u32[128]).
std::vector<uint32_t> runDense(const std::string& instr, int nd, int na, int nb, int nc,
                               const std::vector<uint32_t>& in) {
    std::string ptx = ".version 8.7\n.target sm_90a\n.address_size 64\n"
                      ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
                      ".reg .b32 %r<24>;\n.reg .b64 %rd<8>;\n"
                      "ld.param.u64 %rd0, [pin];\nld.param.u64 %rd1, [pout];\nmov.u32 %r0, %tid.x;\n"
                      "mul.wide.u32 %rd2, %r0, 64;\nadd.u64 %rd3, %rd0, %rd2;\n"
                      "mul.wide.u32 %rd4, %r0, 16;\nadd.u64 %rd5, %rd1, %rd4;\n";
    for (int j = 0; j < 12; ++j)
        ptx += "ld.global.b32 %r" + std::to_string(1 + j) + ", [%rd3+" + std::to_string(4 * j) + "];\n";
    ptx += instr + " " + denseRegs(13, nd) + ", " + denseRegs(1, na) + ", " + denseRegs(5, nb) + ", " +
           denseRegs(9, nc) + ";\n";
    for (int j = 0; j < nd; ++j)
        ptx += "st.global.b32 [%rd5+" + std::to_string(4 * j) + "], %r" + std::to_string(13 + j) + ";\n";
    ptx += "ret;\n}\n";
    Launch l;
    l.block = {32, 1, 1};
    l.args = {tensorArg<uint32_t>("pin", "u32", in),
              tensorArg<uint32_t>("pout", "u32", std::vector<uint32_t>(128, 0))};
    auto r = runText(ptx, l);
    if (!r) FAIL(formatDiagnostic(r.error()));
    return values<uint32_t>(*r, "pout");
}

using LaneReg = std::pair<int, int>; // (lane, D register)

// Every D word equals `want` at its (lane, register), 0 elsewhere; the differing words are listed.
void checkD(const std::vector<uint32_t>& out, const std::map<LaneReg, uint32_t>& want, int nd) {
    std::string bad;
    for (int l = 0; l < 32; ++l)
        for (int j = 0; j < nd; ++j) {
            const auto it = want.find({l, j});
            const uint32_t w = it == want.end() ? 0 : it->second;
            if (out[size_t(4 * l + j)] != w)
                bad += " lane " + std::to_string(l) + " d" + std::to_string(j) + ": " +
                       std::to_string(out[size_t(4 * l + j)]) + " (want " + std::to_string(w) + ")";
        }
    INFO(bad);
    CHECK(bad.empty());
}

// The word index of lane l's A register j, B register j, C register j (the probe's layout).
size_t aW(int l, int j) {
    return size_t(16 * l + j);
}
size_t bW(int l, int j) {
    return size_t(16 * l + 4 + j);
}
size_t cW(int l, int j) {
    return size_t(16 * l + 8 + j);
}

} // namespace

TEST_CASE("exec: FP8 mma.sync m16n8k32/k16 places A, B, C and D by the fragment figures", "[exec][xmma]") {
    std::vector<uint32_t> in(512, 0);
    SECTION("m16n8k32 .f32.e4m3.e4m3.f32") {
        // A (K = 8P, P = 4): lane 6 (g 1, t 2), element 9 (register 2, byte 1) is A[g + 8 ((9/4) % 2)][4t + 9
        // % 4
        // + 16 (9/8)] = A[1][25] = 3.0 (e4m3 0x44). B: lane 10 (g 2, t 2), element 5 (register 1, byte 1) is
        // B[4t + 5 % 4 + 16 (5/4)][g] = B[25][2] = 2.0 (0x40). C[1][2] = 1.0 is lane 5 (g 1, t 1) c0. So
        // D[1][2] = 1 + 3 * 2 = 7.0f (0x40E00000), lane 5 d0.
        in[aW(6, 2)] = 0x4400, in[bW(10, 1)] = 0x4000, in[cW(5, 0)] = 0x3F800000;
        checkD(runDense("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32", 4, 4, 2, 4, in),
               {{{5, 0}, 0x40E00000u}}, 4);
    }
    SECTION("m16n8k32 .f16.e4m3.e5m2.f16") {
        // The same A and B positions (e5m2 2.0 is 0x40 too); C and D are f16 pairs: lane 5 c0's low half
        // C[1][2] = 1.0 (0x3C00), D[1][2] = 7.0 (f16 0x4700).
        in[aW(6, 2)] = 0x4400, in[bW(10, 1)] = 0x4000, in[cW(5, 0)] = 0x3C00;
        checkD(runDense("mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e5m2.f16", 2, 4, 2, 2, in),
               {{{5, 0}, 0x4700u}}, 2);
    }
    SECTION("m16n8k16 .f32.e4m3.e4m3.f32") {
        // A (K = 4P): lane 7 (g 1, t 3), element 6 (register 1, byte 2) is A[g + 8 (6/4)][4t + 6 % 4] =
        // A[9][14] = -2.0 (0xC0). B: lane 3 (g 0, t 3), element 2 (byte 2) is B[4t + 2][g] = B[14][0] = 4.0
        // (0x48). D[9][0] = -8.0f (0xC1000000): lane 4 (g 1, t 0) d2.
        in[aW(7, 1)] = 0xC00000, in[bW(3, 0)] = 0x480000;
        checkD(runDense("mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f32", 4, 2, 1, 4, in),
               {{{4, 2}, 0xC1000000u}}, 4);
    }
}

TEST_CASE("exec: 4-bit mma.sync m16n8k64 places nibbles by the figures and .satfinite clamps",
          "[exec][xmma]") {
    // A (K = 8P, P = 8): lane 3 (g 0, t 3), element 31 (register 3, nibble 7) is A[g + 8 ((31/8) % 2)][8t +
    // 31 % 8
    // + 32 (31/16)] = A[8][63]. B: lane 31 (g 7, t 3), element 15 (register 1, nibble 7) is B[8t + 15 % 8 +
    // 32 (15/8)][g] = B[63][7]. D[8][7] is lane 3 (g 0, t 3) d3, C[8][7] its c3.
    std::vector<uint32_t> in(512, 0);
    SECTION("u4 x s4: 15 * -8 + 1000 = 880") {
        in[aW(3, 3)] = 0xF0000000u, in[bW(31, 1)] = 0x80000000u, in[cW(3, 3)] = 1000;
        checkD(runDense("mma.sync.aligned.m16n8k64.row.col.s32.u4.s4.s32", 4, 4, 2, 4, in), {{{3, 3}, 880u}},
               4);
    }
    SECTION(".satfinite: 0x7FFFFFF0 + 7 * 7 clamps to 0x7FFFFFFF") {
        in[aW(3, 3)] = 0x70000000u, in[bW(31, 1)] = 0x70000000u, in[cW(3, 3)] = 0x7FFFFFF0u;
        checkD(runDense("mma.sync.aligned.m16n8k64.row.col.satfinite.s32.s4.s4.s32", 4, 4, 2, 4, in),
               {{{3, 3}, 0x7FFFFFFFu}}, 4);
    }
    SECTION("without .satfinite the same sum wraps to 0x80000021") {
        in[aW(3, 3)] = 0x70000000u, in[bW(31, 1)] = 0x70000000u, in[cW(3, 3)] = 0x7FFFFFF0u;
        checkD(runDense("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32", 4, 4, 2, 4, in),
               {{{3, 3}, 0x80000021u}}, 4);
    }
}

TEST_CASE("exec: m8n8 integer mma.sync: A (g, P t + i), B (P t + i, g), D (g, 2t + i)", "[exec][xmma]") {
    std::vector<uint32_t> in(512, 0);
    SECTION("m8n8k16 s8: -128 * 127 + 5 = -16251") {
        // A: lane 9 (g 2, t 1) byte 3 is A[2][7]; B: lane 21 (g 5, t 1) byte 3 is B[7][5]; D[2][5]: lane 10
        // (g 2, t 2) d1, C[2][5] its c1.
        in[aW(9, 0)] = 0x80000000u, in[bW(21, 0)] = 0x7F000000u, in[cW(10, 1)] = 5;
        checkD(runDense("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32", 2, 1, 1, 2, in),
               {{{10, 1}, 0xFFFFC085u}}, 2);
    }
    SECTION("m8n8k32 s4: -8 * 7 + 5 = -51") {
        // A: lane 9 nibble 7 is A[2][8 + 7 = 15]; B: lane 21 nibble 7 is B[15][5]; D[2][5]: lane 10 d1.
        in[aW(9, 0)] = 0x80000000u, in[bW(21, 0)] = 0x70000000u, in[cW(10, 1)] = 5;
        checkD(runDense("mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32", 2, 1, 1, 2, in),
               {{{10, 1}, 0xFFFFFFCDu}}, 2);
    }
}

TEST_CASE("exec: .b1 mma.sync adds popc(A row .and/.xor B column) to C", "[exec][xmma]") {
    std::vector<uint32_t> in(512, 0);
    SECTION("m16n8k128 .xor.popc") {
        // A (K = 4P, P = 32): lane 0 register 1 is row 8, k 0..31: all ones. B: lane 4 (g 1, t 0) register 0
        // is B[k 0..31][1]: ones at k 0..15. popc of XOR: D[8][1] = 16, D[8][n != 1] = 32, D[m != 8][1] = 16,
        // else 0. Row 8 is d2 (col 2t) / d3 (col 2t + 1) of lanes 0..3; column 1 is d1 / d3 of lanes 4g.
        in[aW(0, 1)] = 0xFFFFFFFFu, in[bW(4, 0)] = 0x0000FFFFu;
        std::map<LaneReg, uint32_t> want = {{{0, 1}, 16}, {{0, 2}, 32}, {{0, 3}, 16}};
        for (int t = 1; t < 4; ++t) want[{t, 2}] = 32, want[{t, 3}] = 32;
        for (int g = 1; g < 8; ++g) want[{4 * g, 1}] = 16, want[{4 * g, 3}] = 16;
        checkD(runDense("mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.xor.popc", 4, 2, 1, 4, in), want,
               4);
    }
    SECTION("m16n8k256 .and.popc") {
        // A (K = 8P): lane 2 (g 0, t 2) register 3 is row 8, k 128 + 32t = 192..223: bits 0..3 set. B: lane 6
        // (g 1, t 2) register 1 is B[128 + 32t + i][1] = B[192 + i][1]: i 0 and 2. D[8][1] = 2: lane 0 d3.
        in[aW(2, 3)] = 0xFu, in[bW(6, 1)] = 0x5u;
        checkD(runDense("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc", 4, 4, 2, 4, in),
               {{{0, 3}, 2u}}, 4);
    }
    SECTION("m8n8k128 .and.popc") {
        // A: lane 1 (g 0, t 1) is A[0][32..63] = 0xF0F0F0F0; B: lane 9 (g 2, t 1) is B[32..63][2] =
        // 0xFF00FF00. popc(0xF000F000) = 8, plus C[0][2] = -3 (lane 1 c0): D[0][2] = 5, lane 1 d0.
        in[aW(1, 0)] = 0xF0F0F0F0u, in[bW(9, 0)] = 0xFF00FF00u, in[cW(1, 0)] = uint32_t(-3);
        checkD(runDense("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.and.popc", 2, 1, 1, 2, in),
               {{{1, 0}, 5u}}, 2);
    }
}

TEST_CASE("exec: dense mma.sync forms outside the modelled set still stop with the reason", "[exec][xmma]") {
    Launch l;
    l.block = {32, 1, 1};
    const std::string ptx = ".version 8.7\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n"
                            ".reg .b32 %r<8>;\nmov.u32 %r1, 0;\n"
                            "mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16 {%r1,%r1,%r1,%r1}, "
                            "{%r1,%r1}, {%r1,%r1}, {%r1,%r1,%r1,%r1};\nret;\n}\n";
    auto r = runText(ptx, l);
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error().message, Catch::Contains("not a form the executor models"));
}
