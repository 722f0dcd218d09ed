// Executor: mma.sp / mma.sp::ordered_metadata (PTX ISA 9.2 §9.7.14.6, issue 22). Truths: a few lanes'
// D worked out by hand from the ISA's fragment tables (§9.7.14.6.2: sparse A's rows and columns, the
// m16n8k16 B and C/D tables of §9.7.14.5.8) and the metadata figures as read in engine/src/exec/
// mma_sparse.cpp's header; then, per executed form, a whole random case whose registers this file packs
// from a logical 16 x K sparse A (its own encoding of those tables) against a CPU product of the
// dense-expanded A. The hardware check is the H100 record of scripts/probes/mma_sp (ctest
// exec.h100.mma_sp, skipped while the record is absent). Every kernel is accepted by ptxas (the last
// test, skipped without ptxas).
#include "exec_test_util.hpp"
#include "layoutscope/core/number_formats.hpp"
#include "ptxas_path.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace exectest;

namespace {

/// One warp: lane l loads A (%r1..), B (%r5..), C (%r9..) and e (%r13) from in[16 l ..], runs `instr`
/// with nA/nB/nC/nD registers, and stores D to out[4 l ..].
std::string spKernel(const std::string& instr, int nD, int nA, int nB, int nC, const std::string& sel) {
    auto vec = [](int first, int n) {
        std::string s = "{";
        for (int i = 0; i < n; ++i) s += (i ? ", %r" : "%r") + std::to_string(first + i);
        return s + "}";
    };
    std::string t = ".version 8.5\n.target sm_90a\n.address_size 64\n"
                    ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
                    ".reg .b32 %r<32>;\n.reg .b64 %rd<8>;\n"
                    "ld.param.u64 %rd0, [pin];\nld.param.u64 %rd1, [pout];\nmov.u32 %r0, %tid.x;\n"
                    "mul.wide.u32 %rd2, %r0, 64;\nadd.s64 %rd3, %rd0, %rd2;\n";
    for (int j = 0; j < 13; ++j)
        t += "ld.global.u32 %r" + std::to_string(j + 1) + ", [%rd3+" + std::to_string(4 * j) + "];\n";
    t += instr + " " + vec(20, nD) + ", " + vec(1, nA) + ", " + vec(5, nB) + ", " + vec(9, nC) + ", %r13, " +
         sel + ";\n";
    t += "mul.wide.u32 %rd4, %r0, 16;\nadd.s64 %rd5, %rd1, %rd4;\n";
    for (int j = 0; j < nD; ++j)
        t += "st.global.u32 [%rd5+" + std::to_string(4 * j) + "], %r" + std::to_string(20 + j) + ";\n";
    return t + "ret;\n}\n";
}

Result<ExecResult> runSp(const std::string& ptx, const std::vector<uint32_t>& in) {
    Launch l;
    l.block = {32, 1, 1};
    l.args.push_back(tensorArg<uint32_t>("pin", "u32", in));
    l.args.push_back(tensorArg<uint32_t>("pout", "u32", std::vector<uint32_t>(128, 0)));
    return runText(ptx, l);
}

enum class F { F16, BF16, TF32, S8, U8, E4M3, F32, S32 };

struct Form {
    const char* instr;
    uint32_t K;
    F a, b, c; ///< c: the accumulator (= d)
    uint32_t sel;
    bool ordered;
};
const Form kForms[] = {
    {"mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 16, F::F16, F::F16, F::F32, 0, false},
    {"mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 16, F::F16, F::F16, F::F32, 3, false},
    {"mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", 16, F::F16, F::F16, F::F16, 2,
     true},
    {"mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", 16, F::BF16, F::BF16, F::F32,
     1, true},
    {"mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32", 32, F::F16, F::F16, F::F32, 0, false},
    {"mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32", 32, F::BF16, F::BF16, F::F32,
     1, true},
    {"mma.sp.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 8, F::TF32, F::TF32, F::F32, 1, false},
    {"mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32", 16, F::TF32, F::TF32, F::F32,
     1, true},
    {"mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", 32, F::S8, F::S8, F::S32, 1, false},
    {"mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32", 32, F::U8, F::S8,
     F::S32, 0, true},
    {"mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.satfinite.s32.u8.s8.s32", 64, F::U8, F::S8,
     F::S32, 0, true},
    {"mma.sp.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3.f32", 64, F::E4M3, F::E4M3, F::F32, 0, false},
};

uint32_t bitsOf(F f) {
    return f == F::F16 || f == F::BF16 ? 16 : f == F::S8 || f == F::U8 || f == F::E4M3 ? 8 : 32;
}
/// Bits of the small integer v in format f.
uint32_t enc(int v, F f) {
    switch (f) {
    case F::F16:
        return encodeF16(v);
    case F::BF16:
        return f32bits(float(v)) >> 16;
    case F::TF32:
    case F::F32:
        return f32bits(float(v));
    case F::S8:
    case F::U8:
        return uint32_t(v) & 0xFF;
    case F::E4M3: { // |v| <= 8: sign, exponent bias 7, 3 significand bits
        if (v == 0) return 0;
        const uint32_t a = uint32_t(v < 0 ? -v : v);
        uint32_t e = 0;
        while ((2u << e) <= a) ++e;
        return (v < 0 ? 0x80u : 0u) | (e + 7) << 3 | ((a << (3 - e)) & 7u);
    }
    case F::S32:
        return uint32_t(v);
    }
    return 0;
}

/// The stored (compressed) column of element i of lane t's A registers, and its row half (0: row g, 1: g +
/// 8): §9.7.14.6.2's formulas, in compressed columns (logical firstcol / 2).
void aSlot(const Form& fm, uint32_t t, uint32_t i, uint32_t& half, uint32_t& ccol) {
    const uint32_t bits = bitsOf(fm.a);
    if (bits == 16) { // k16: a0 a1 row g, a2 a3 row g+8; k32 adds a4..a7 at +8 stored columns
        half = (i / 2) % 2, ccol = 2 * t + i % 2 + 8 * (i / 4);
    } else if (bits == 32) { // tf32: a0 g, a1 g+8 (k8); a2 g, a3 g+8 at +4 stored columns (k16)
        half = i % 2, ccol = t + 4 * (i / 2);
    } else { // 8-bit: a0..a3 row g, a4..a7 g+8 (k32); k64: a8..a15 again at +16 stored columns
        half = (i / 4) % 2, ccol = 4 * t + i % 4 + 16 * (i / 8);
    }
}
/// Row (k) of element i of a lane's B registers (column g): the dense m16n8k16 / k8 / k32 tables continued.
uint32_t bRow(const Form& fm, uint32_t t, uint32_t i) {
    const uint32_t bits = bitsOf(fm.b);
    if (bits == 16) return 2 * t + i % 2 + 8 * (i / 2);
    if (bits == 32) return t + 4 * i;
    return 4 * t + i % 4 + 16 * (i / 4);
}

/// The lane and bit offset holding the metadata nibble of chunk c of row r (the figures' map as read in
/// mma_sparse.cpp): 16-/32-bit types, 4 chunks a row: lane 4g + sel, row g at bit 4c, g+8 at 16 + 4c;
/// 8 chunks: lane 4g + 2 sel + c/4, the same bits. 8-bit types: a lane holds one row's 8 chunks: lane
/// 4g + 2h + (r >= 8), bit 4 (c % 8), h = sel (m16n8k32) or c / 8 (m16n8k64). The H200 record
/// (tests/data/exec/h100/mma_sp, issue 22) decided the 8-bit m16n8k32 row: the f16-style reading (lane
/// 4g + 2 sel + c/4) differed in every D word of sp_s8_k32_s0 and spo_u8s8_k32_s1, this one matches all.
void metaSlot(bool bits8, uint32_t chunks, uint32_t sel, uint32_t r, uint32_t c, uint32_t& lane,
              uint32_t& shift) {
    const uint32_t g = r % 8, u = r / 8;
    if (bits8)
        lane = 4 * g + 2 * (chunks == 8 ? sel : c / 8) + u, shift = 4 * (c % 8);
    else if (chunks == 4)
        lane = 4 * g + sel, shift = 16 * u + 4 * c;
    else
        lane = 4 * g + 2 * sel + c / 4, shift = 16 * u + 4 * (c % 4);
}

struct Case {
    std::vector<uint32_t> in = std::vector<uint32_t>(512, 0);
    std::vector<uint32_t> want = std::vector<uint32_t>(128, 0);
};

/// A random case of `fm`: a logical 16 x K sparse A, B, C; the registers packed from them; D = A B + C.
Case makeCase(const Form& fm, uint32_t seed) {
    uint32_t s = seed;
    auto rnd = [&](int lo, int hi) {
        s = s * 1664525u + 1013904223u;
        return lo + int((s >> 8) % uint32_t(hi - lo + 1));
    };
    const uint32_t K = fm.K, tf32 = fm.a == F::TF32, span = tf32 ? 2 : 4, chunks = K / span;
    const bool uA = fm.a == F::U8;
    std::vector<int> A(16 * K, 0), Ac(16 * K / 2, 0), B(K * 8), C(128);
    std::vector<uint32_t> meta(32, 0);
    static const uint32_t kPairs[][2] = {{0, 1}, {0, 2}, {1, 2}, {0, 3}, {1, 3}, {2, 3}, {1, 0}, {3, 2}};
    for (uint32_t r = 0; r < 16; ++r)
        for (uint32_t c = 0; c < chunks; ++c) {
            uint32_t lane = 0, shift = 0, nib = 0;
            metaSlot(bitsOf(fm.a) == 8, chunks, fm.sel, r, c, lane, shift);
            if (tf32) {
                const uint32_t p = uint32_t(rnd(0, 1));
                nib = p ? 0xE : 0x4;
                Ac[r * K / 2 + c] = A[r * K + 2 * c + p] = rnd(-4, 4);
            } else {
                const auto& pr = kPairs[rnd(0, fm.ordered ? 5 : 7)];
                nib = pr[0] | pr[1] << 2;
                for (uint32_t j = 0; j < 2; ++j)
                    Ac[r * K / 2 + 2 * c + j] = A[r * K + 4 * c + pr[j]] = uA ? rnd(0, 9) : rnd(-4, 4);
            }
            meta[lane] |= nib << shift;
        }
    for (auto& b : B) b = rnd(-4, 4);
    for (auto& c : C) c = rnd(-20, 20);
    Case out;
    const uint32_t aBits = bitsOf(fm.a), bBits = bitsOf(fm.b), cBits = bitsOf(fm.c);
    for (uint32_t l = 0; l < 32; ++l) {
        const uint32_t g = l / 4, t = l % 4;
        uint32_t* w = &out.in[16 * l];
        for (uint32_t i = 0; i < 16 * K / 2 / 32; ++i) { // A: stored elements of this lane
            uint32_t half = 0, ccol = 0;
            aSlot(fm, t, i, half, ccol);
            const uint32_t per = 32 / aBits;
            w[i / per] |= enc(Ac[(g + 8 * half) * K / 2 + ccol], fm.a) << (i % per * aBits);
        }
        for (uint32_t i = 0; i < K * 8 / 32; ++i) {
            const uint32_t per = 32 / bBits;
            w[4 + i / per] |= enc(B[bRow(fm, t, i) * 8 + g], fm.b) << (i % per * bBits);
        }
        for (uint32_t i = 0; i < 4; ++i) { // C/D: c0 c1 row g cols 2t, 2t+1; c2 c3 row g+8
            const uint32_t row = g + 8 * (i / 2), col = 2 * t + i % 2, per = 32 / cBits;
            w[8 + i / per] |= enc(C[row * 8 + col], fm.c) << (i % per * cBits);
            long long d = C[row * 8 + col];
            for (uint32_t k = 0; k < K; ++k) d += (long long)A[row * K + k] * B[k * 8 + col];
            out.want[4 * l + i / per] |= enc(int(d), fm.c) << (i % per * cBits);
        }
        w[12] = meta[l];
    }
    return out;
}

int regsOf(F f, uint32_t elems) {
    return int(elems * bitsOf(f) / 32);
}
std::string kernelOf(const Form& fm) {
    return spKernel(fm.instr, regsOf(fm.c, 4), regsOf(fm.a, 16 * fm.K / 2 / 32), regsOf(fm.b, fm.K * 8 / 32),
                    regsOf(fm.c, 4), std::to_string(fm.sel));
}

} // namespace

TEST_CASE("exec mma.sp: D of lanes 0 and 3 worked out by hand (m16n8k16 f16, selector 1)", "[exec][mma-sp]") {
    // Row 0 of A holds 2 at column 1 and 3 at column 3 (chunk 0), every other element 0. Stored: lane 0
    // (g 0, t 0) a0 = 2, a1 = 3 (row g, stored columns 0 and 1 = chunk 0). Metadata: selector 1, so lane
    // 1 holds quad 0's: row 0 chunk 0 at bits [0,4) = indices 1 and 3 = 0b1101; the other chunks 0b0100.
    // Lanes 5, 9, .. (4g + 1) hold 0x44444444; the lanes the selector does not name hold 0 (an invalid
    // value: never read). B[k][n] = k + 1 + 16 n (lane l holds b0 b1 = B[2t][g] B[2t+1][g], b2 b3 = rows
    // 2t+8, 2t+9). D[0][n] = 2 B[1][n] + 3 B[3][n] = 16 + 80 n; D of every other row 0.
    std::vector<uint32_t> in(512, 0);
    in[16 * 0 + 0] = encodeF16(2) | uint32_t(encodeF16(3)) << 16;
    for (uint32_t l = 0; l < 32; ++l) {
        const uint32_t g = l / 4, t = l % 4;
        auto b = [&](uint32_t k) { return uint32_t(encodeF16(int(k + 1 + 16 * g))); };
        in[16 * l + 4] = b(2 * t) | b(2 * t + 1) << 16;
        in[16 * l + 5] = b(2 * t + 8) | b(2 * t + 9) << 16;
        if (t == 1) in[16 * l + 12] = l == 1 ? 0x4444444Du : 0x44444444u;
    }
    auto r = runSp(spKernel("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 4, 2, 2, 4, "1"), in);
    if (!r) FAIL(formatDiagnostic(r.error()));
    const auto d = values<uint32_t>(*r, "pout");
    SECTION("lane 0: d0 d1 = D[0][0], D[0][1]; d2 d3 = D[8][0], D[8][1]") {
        CHECK(bitsf32(d[0]) == 16.0f);
        CHECK(bitsf32(d[1]) == 96.0f);
        CHECK(bitsf32(d[2]) == 0.0f);
        CHECK(bitsf32(d[3]) == 0.0f);
    }
    SECTION("lane 3: D[0][6], D[0][7]") {
        CHECK(bitsf32(d[12]) == 496.0f);
        CHECK(bitsf32(d[13]) == 576.0f);
    }
    SECTION("lane 4 (row 1) is 0") {
        CHECK(bitsf32(d[16]) == 0.0f);
    }
}

TEST_CASE("exec mma.sp: D of lanes 0 and 3 worked out by hand (m16n8k32 s8, selector 1)", "[exec][mma-sp]") {
    // The 8-bit metadata map the H200 record decided (issue 22; tests/data/exec/h100/mma_sp): selector 1
    // names the pair T2 T3 of each quad, and lane 4g + 2 + u holds the 8 chunks of row g + 8u at bits
    // [4c, 4c + 4). Row 8 of A holds 2 at column 5 and 3 at column 7 (chunk 1: indices 1 and 3 =
    // 0b1101), every other element 0. Stored: compressed columns 2 and 3 of row 8 = lane 0 (t 0, stored
    // columns 0..3) register a1 (row g + 8), bytes 2 and 3. Metadata: lane 3 holds row 8's chunks, so
    // 0x444444D4 (chunk 1 at bits [4,8)); lanes 4g + 2, 4g + 3 otherwise 0x44444444; lanes 4g, 4g + 1
    // hold 0 (an invalid value: never read). (The f16-style reading would take row 8's chunk 1 from lane
    // 2, bits [20,24).) B[k][n] = k + 1 + 4n (lane l: b0..b3 = B[4t..4t+3][g], b4..b7 = rows 16 + 4t..).
    // D[8][n] = 2 B[5][n] + 3 B[7][n] = 36 + 20n; D of every other row 0.
    std::vector<uint32_t> in(512, 0);
    in[16 * 0 + 1] = 2u << 16 | 3u << 24;
    for (uint32_t l = 0; l < 32; ++l) {
        const uint32_t g = l / 4, t = l % 4;
        for (uint32_t r = 0; r < 2; ++r)
            for (uint32_t i = 0; i < 4; ++i)
                in[16 * l + 4 + r] |= (16 * r + 4 * t + i + 1 + 4 * g) << (8 * i);
        if (t >= 2) in[16 * l + 12] = l == 3 ? 0x444444D4u : 0x44444444u;
    }
    auto r = runSp(spKernel("mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", 4, 2, 2, 4, "1"), in);
    if (!r) FAIL(formatDiagnostic(r.error()));
    const auto d = values<uint32_t>(*r, "pout");
    SECTION("lane 0: d0 d1 = D[0][0], D[0][1] = 0; d2 d3 = D[8][0], D[8][1]") {
        CHECK(d[0] == 0u);
        CHECK(d[1] == 0u);
        CHECK(d[2] == 36u);
        CHECK(d[3] == 56u);
    }
    SECTION("lane 3: D[8][6], D[8][7]") {
        CHECK(d[14] == 156u);
        CHECK(d[15] == 176u);
    }
    SECTION("lane 4 (rows 1 and 9) is 0") {
        CHECK(d[16] == 0u);
        CHECK(d[18] == 0u);
    }
}

TEST_CASE("exec mma.sp: every executed form equals the CPU product of the dense-expanded A",
          "[exec][mma-sp]") {
    for (const Form& fm : kForms)
        for (uint32_t seed : {1u, 77u}) {
            INFO(fm.instr << " selector " << fm.sel << " seed " << seed);
            const Case c = makeCase(fm, seed);
            auto r = runSp(kernelOf(fm), c.in);
            if (!r) FAIL(formatDiagnostic(r.error()));
            const auto got = values<uint32_t>(*r, "pout");
            int bad = 0;
            for (size_t i = 0; i < 128; ++i)
                if (got[i] != c.want[i] && ++bad <= 4)
                    FAIL_CHECK("lane " << i / 4 << " d" << i % 4 << " = 0x" << std::hex << got[i]
                                       << ", want 0x" << c.want[i]);
            CHECK(bad == 0);
        }
}

TEST_CASE("exec mma.sp: undefined metadata and selectors stop the run with the rule", "[exec][mma-sp]") {
    const Form& f16 = kForms[0];
    SECTION("an index pair with the same index twice (0b0101)") {
        Case c = makeCase(f16, 5);
        c.in[16 * 0 + 12] = (c.in[12] & ~0xFu) | 0x5u; // lane 0 holds quad 0's metadata (selector 0)
        auto r = runSp(kernelOf(f16), c.in);
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("metadata 0x5 of row 0, chunk 0") &&
                                          Catch::Contains("undefined behaviour") &&
                                          Catch::Contains("9.7.14.6.1"));
    }
    SECTION("::ordered_metadata with a decreasing pair (0b0001)") {
        const Form& o = kForms[2];
        Case c = makeCase(o, 5);
        const uint32_t lane = o.sel; // quad 0, row 0, chunk 0
        c.in[16 * lane + 12] = (c.in[16 * lane + 12] & ~0xFu) | 0x1u;
        auto r = runSp(kernelOf(o), c.in);
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("not an increasing 2:4 index pair"));
    }
    SECTION("plain .sp takes the decreasing pair: positions as written") {
        Case c = makeCase(f16, 9); // kPairs 6 and 7 are decreasing; a plain .sp case draws them
        auto r = runSp(kernelOf(f16), c.in);
        CHECK(bool(r));
    }
    SECTION("selector 2 on m16n8k32 (a thread pair: 0 or 1)") {
        auto r = runSp(spKernel("mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32", 4, 4, 4, 4, "2"),
                       std::vector<uint32_t>(512, 0));
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message,
                   Catch::Contains("sparsity selector of this shape is the constant 0 or 1"));
    }
    SECTION("selector 1 on m16n8k64 (all four threads: 0)") {
        auto r = runSp(spKernel("mma.sp.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32", 4, 4, 4, 4, "1"),
                       std::vector<uint32_t>(512, 0));
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("is the constant 0;"));
    }
}

TEST_CASE("exec mma.sp: ptxas accepts the kernels of these tests (skipped without ptxas)",
          "[exec][mma-sp][ptxas]") {
    const std::string ptxas = layoutscope::test::findPtxas();
    if (ptxas.empty()) {
        WARN("SKIPPED: ptxas not found on PATH or at /usr/local/cuda/bin/ptxas");
        return;
    }
    const auto path = std::filesystem::temp_directory_path() / "layoutscope_exec_mma_sp.ptx";
    for (const Form& fm : kForms) {
        std::ofstream(path) << kernelOf(fm);
        const std::string cmd =
            "'" + ptxas + "' -arch=sm_90a '" + path.string() + "' -o /dev/null 2>/dev/null";
        INFO(fm.instr);
        CHECK(std::system(cmd.c_str()) == 0);
    }
    std::filesystem::remove(path);
}
