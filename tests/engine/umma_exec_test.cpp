// tcgen05.mma executed: small products whose D is obvious from arithmetic (one-hot A, known B), written into
// Tensor Memory at the data path layout. Operands are placed in shared memory by the hand formula of a
// K-major SWIZZLE_128B canonical layout with SBO = 1024 and a 1024-aligned start (PTX ISA 9.2 §9.7.16.3.3):
//   byte kb of row r at start + (r / 8) * 1024 + (r % 8) * 128 + (kb ^ ((r % 8) << 4)).
// Values: f16 1.0 = 0x3C00, 16.0 = 0x4C00; bf16 2.5 = 0x4020; e4m3 1.0 = 0x38, 2.0 = 0x40; e5m2 1.0 = 0x3C,
// -2.0 = 0xC0; f32 bits by memcpy of the expected float.
#include "layoutscope/tcgen05/exec.hpp"
#include "layoutscope/tcgen05/smem_descriptor.hpp"
#include "layoutscope/tcgen05/umma.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

using namespace layoutscope;

namespace {

constexpr uint32_t kA = 0x1000, kB = 0x8000; // 1024-aligned operand starts

uint64_t sw128(uint32_t start) {
    SmemDescriptor d;
    d.startAddress = start;
    d.lbo = 16;
    d.sbo = 1024;
    d.layoutType = 2; // SWIZZLE_128B
    return encodeSmemDescriptor(d);
}

uint32_t at(uint32_t start, uint32_t row, uint32_t kb) {
    return start + (row / 8) * 1024 + (row % 8) * 128 + (kb ^ ((row % 8) << 4));
}

void put(MachineState& s, uint32_t cta, uint32_t start, uint32_t row, uint32_t k, uint32_t bytes,
         uint32_t v) {
    for (uint32_t b = 0; b < bytes; ++b)
        s.smem[cta].bytes()[at(start, row, k * bytes + b)] = uint8_t(v >> (8 * b));
}

uint32_t f32(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

// kind::f16-style idesc: D format, A/B format, M, N.
uint32_t idesc(uint32_t m, uint32_t n, uint32_t dfmt, uint32_t afmt, uint32_t bfmt) {
    return dfmt << 4 | afmt << 7 | bfmt << 10 | (n >> 3) << 17 | (m >> 4) << 24;
}

struct Rig {
    explicit Rig(uint32_t ctas = 1) : state(ctas, 0), tmem(ctas), ex(trace, state, tmem) {}
    Trace trace;
    MachineState state;
    TmemState tmem;
    Tcgen05Executor ex;
    Status run(UmmaOp op, uint32_t cta = 0) {
        op.descA = op.aFromTmem ? 0 : sw128(kA);
        op.descB = sw128(kB);
        return ex.mma(op, cta, InstrSource{"tcgen05.mma", 1});
    }
};

UmmaOp decoded(UmmaKind k, uint32_t group, uint32_t id) {
    auto op = decodeUmmaIdesc(k, group, id);
    REQUIRE(op);
    return *op;
}

} // namespace

TEST_CASE("tcgen05.mma kind::f16 with a one-hot A copies B into D", "[umma][exec]") {
    // M=128, N=16, K=16: A[m][k] = 1.0 where k == m % 16; B[n][k] = 16n + k  =>  D[m][n] = 16n + m % 16.
    Rig r;
    for (uint32_t m = 0; m < 128; ++m) put(r.state, 0, kA, m, m % 16, 2, 0x3C00);
    auto f16 = [](uint32_t i) { // integers 0..255 as f16: exact
        int e = 0;
        std::frexp(double(i), &e);
        return i == 0 ? 0u : uint32_t((e - 1 + 15) << 10 | ((i << (11 - e)) & 0x3FF));
    };
    for (uint32_t n = 0; n < 16; ++n)
        for (uint32_t k = 0; k < 16; ++k) put(r.state, 0, kB, n, k, 2, f16(16 * n + k));
    SECTION("f32 accumulator, D = A*B") {
        REQUIRE(r.run(decoded(UmmaKind::F16, 1, idesc(128, 16, 1, 0, 0))));
        const TensorMemory& t = r.tmem.ctas[0];
        CHECK(t.cell(0, 0) == f32(0));
        CHECK(t.cell(1, 0) == f32(1));
        CHECK(t.cell(0, 1) == f32(16));
        CHECK(t.cell(37, 5) == f32(85)); // 16*5 + 37%16
        CHECK(t.cell(127, 15) == f32(255));
        CHECK(r.trace.instrs.size() == 1);
        CHECK(r.trace.instrs[0].endStep - r.trace.instrs[0].firstStep == 128); // one step per lane
    }
    SECTION("enable-input-d adds the old D") {
        UmmaOp op = decoded(UmmaKind::F16, 1, idesc(128, 16, 1, 0, 0));
        REQUIRE(r.run(op));
        op.enableInputD = true;
        REQUIRE(r.run(op));
        CHECK(r.tmem.ctas[0].cell(37, 5) == f32(170));
    }
    SECTION("d-tmem column offset") {
        UmmaOp op = decoded(UmmaKind::F16, 1, idesc(128, 16, 1, 0, 0));
        op.dTaddr = 32;
        REQUIRE(r.run(op));
        CHECK(r.tmem.ctas[0].cell(37, 37) == f32(85));
        CHECK(r.tmem.ctas[0].cell(37, 5) == 0);
    }
    SECTION("f16 accumulator: low 16 bits of each column") {
        REQUIRE(r.run(decoded(UmmaKind::F16, 1, idesc(128, 16, 0, 0, 0))));
        CHECK(r.tmem.ctas[0].cell(1, 0) == 0x3C00);
        CHECK(r.tmem.ctas[0].cell(0, 1) == 0x4C00);
    }
    SECTION("negate A") {
        REQUIRE(r.run(decoded(UmmaKind::F16, 1, idesc(128, 16, 1, 0, 0) | 1u << 13)));
        CHECK(r.tmem.ctas[0].cell(0, 1) == f32(-16));
    }
    SECTION("M=64 places row 16 at lane 32 (Layout F)") {
        REQUIRE(r.run(decoded(UmmaKind::F16, 1, idesc(64, 16, 1, 0, 0))));
        CHECK(r.tmem.ctas[0].cell(32, 2) == f32(32));  // D[16][2] = 16*2 + 0
        CHECK(r.tmem.ctas[0].cell(16, 2) == 0);        // lane 16 untouched
        CHECK(r.tmem.ctas[0].cell(111, 0) == f32(15)); // D[63][0]
    }
}

TEST_CASE("tcgen05.mma bf16, tf32, fp8 and int8 inputs", "[umma][exec]") {
    Rig r;
    SECTION("bf16: 1.0 x 2.5 summed over one k") {
        for (uint32_t m = 0; m < 128; ++m) put(r.state, 0, kA, m, 3, 2, 0x3F80);
        for (uint32_t n = 0; n < 16; ++n) put(r.state, 0, kB, n, 3, 2, 0x4020);
        REQUIRE(r.run(decoded(UmmaKind::F16, 1, idesc(128, 16, 1, 1, 1))));
        CHECK(r.tmem.ctas[0].cell(9, 9) == f32(2.5f));
    }
    SECTION("tf32 ignores the low 13 mantissa bits") {
        for (uint32_t m = 0; m < 128; ++m) put(r.state, 0, kA, m, 0, 4, f32(1.0f));
        for (uint32_t n = 0; n < 16; ++n) put(r.state, 0, kB, n, 0, 4, 0x3F800008u); // 1 + 2^-20
        REQUIRE(r.run(decoded(UmmaKind::Tf32, 1, idesc(128, 16, 1, 2, 2))));
        CHECK(r.tmem.ctas[0].cell(0, 0) == f32(1.0f));
    }
    SECTION("e4m3 x e5m2, K = 32") {
        for (uint32_t m = 0; m < 128; ++m) put(r.state, 0, kA, m, 31, 1, 0x40); // 2.0 at k = 31
        for (uint32_t n = 0; n < 16; ++n) put(r.state, 0, kB, n, 31, 1, 0xC0);  // -2.0
        REQUIRE(r.run(decoded(UmmaKind::F8f6f4, 1, idesc(128, 16, 1, 0, 1))));
        CHECK(r.tmem.ctas[0].cell(5, 5) == f32(-4.0f));
    }
    SECTION("s8 x u8 -> s32 over K = 32") {
        for (uint32_t m = 0; m < 128; ++m)
            for (uint32_t k = 0; k < 32; ++k) put(r.state, 0, kA, m, k, 1, 0xFD); // -3
        for (uint32_t n = 0; n < 16; ++n)
            for (uint32_t k = 0; k < 32; ++k) put(r.state, 0, kB, n, k, 1, 200);
        REQUIRE(r.run(decoded(UmmaKind::I8, 1, idesc(128, 16, 2, 1, 0))));
        CHECK(r.tmem.ctas[0].cell(100, 15) == uint32_t(-3 * 200 * 32));
    }
    SECTION("u8: .satfinite clamps, plain wraps") {
        for (uint32_t m = 0; m < 128; ++m)
            for (uint32_t k = 0; k < 32; ++k) put(r.state, 0, kA, m, k, 1, 255);
        for (uint32_t n = 0; n < 16; ++n)
            for (uint32_t k = 0; k < 32; ++k) put(r.state, 0, kB, n, k, 1, 255);
        r.tmem.ctas[0].setCell(0, 0, 0x7FFFFFFFu - 1000);
        UmmaOp op = decoded(UmmaKind::I8, 1, idesc(128, 16, 2, 0, 0));
        op.enableInputD = true;
        SECTION("wraps") {
            REQUIRE(r.run(op));
            CHECK(r.tmem.ctas[0].cell(0, 0) == uint32_t(0x7FFFFFFFu - 1000 + 255u * 255u * 32u));
        }
        SECTION("saturates") {
            REQUIRE(r.run(decoded(UmmaKind::I8, 1, idesc(128, 16, 2, 0, 0) | 1u << 3)));
            op = decoded(UmmaKind::I8, 1, idesc(128, 16, 2, 0, 0) | 1u << 3);
            op.enableInputD = true;
            REQUIRE(r.run(op)); // D was 2080800, plus 2080800 again: no clamp yet
            CHECK(r.tmem.ctas[0].cell(0, 0) == 2u * 255u * 255u * 32u);
            r.tmem.ctas[0].setCell(0, 0, 0x7FFFFFFFu - 1000);
            REQUIRE(r.run(op));
            CHECK(r.tmem.ctas[0].cell(0, 0) == 0x7FFFFFFFu);
        }
    }
}

TEST_CASE("tcgen05.mma A from Tensor Memory", "[umma][exec][tmem]") {
    // A[m][k] f16 at lane m, column k / 2, bits [16 * (k % 2), +16): put 1.0 at k = m % 16.
    Rig r;
    for (uint32_t m = 0; m < 128; ++m) {
        const uint32_t k = m % 16;
        r.tmem.ctas[0].setCell(m, 64 + k / 2, 0x3C00u << (16 * (k % 2)));
    }
    for (uint32_t n = 0; n < 16; ++n)
        for (uint32_t k = 0; k < 16; ++k) put(r.state, 0, kB, n, k, 2, k == 3 ? 0x4C00 : 0); // 16.0 at k = 3
    UmmaOp op = decoded(UmmaKind::F16, 1, idesc(128, 16, 1, 0, 0));
    op.aFromTmem = true;
    op.aTaddr = 64;
    REQUIRE(r.run(op));
    CHECK(r.tmem.ctas[0].cell(3, 7) == f32(16)); // row 3 picks k = 3
    CHECK(r.tmem.ctas[0].cell(19, 7) == f32(16));
    CHECK(r.tmem.ctas[0].cell(4, 7) == 0);
    SECTION("A outside Tensor Memory is an error naming the rule") {
        op.aTaddr = 510;
        const Status st = r.run(op);
        REQUIRE(!st);
        CHECK(st.diagnostics()[0].message.find("outside 128 lanes x 512 columns") != std::string::npos);
    }
}

TEST_CASE("tcgen05.mma .cta_group::2 splits A, B and D between the pair", "[umma][exec][pair]") {
    // M=256, N=32: A rows 0-127 in CTA 0, 128-255 in CTA 1; B rows 0-15 in CTA 0, 16-31 in CTA 1.
    // A[m][k] = 1.0 at k = m % 16; B[n][k] = 1.0 * (n + 1) at k = 0 only  =>  D[m][n] = n + 1 where m%16 ==
    // 0.
    Rig r(2);
    for (uint32_t m = 0; m < 256; ++m) put(r.state, m / 128, kA, m % 128, m % 16, 2, 0x3C00);
    const uint32_t vals[] = {0x3C00, 0x4000, 0x4200, 0x4400}; // 1, 2, 3, 4
    for (uint32_t n = 0; n < 32; ++n) put(r.state, n / 16, kB, n % 16, 0, 2, vals[n % 4]);
    REQUIRE(r.run(decoded(UmmaKind::F16, 2, idesc(256, 32, 1, 0, 0))));
    CHECK(r.tmem.ctas[0].cell(0, 0) == f32(1));
    CHECK(r.tmem.ctas[0].cell(16, 17) == f32(2)); // D[16][17]: B row 17 = CTA 1 row 1 -> 2.0
    CHECK(r.tmem.ctas[1].cell(32, 3) == f32(4));  // D[160][3]
    CHECK(r.tmem.ctas[1].cell(33, 3) == 0);       // D[161][3]: k = 1, B is 0 there
    SECTION("the peer must be in the cluster") {
        Rig one(1);
        CHECK(!one.run(decoded(UmmaKind::F16, 2, idesc(256, 32, 1, 0, 0))));
    }
}

TEST_CASE("tcgen05.mma instruction descriptors by kind", "[umma][idesc]") {
    CHECK(decodeUmmaIdesc(UmmaKind::I8, 1, idesc(128, 16, 2, 1, 0)));
    SECTION("kind::i8 accumulates in s32 only") {
        const auto r = decodeUmmaIdesc(UmmaKind::I8, 1, idesc(128, 16, 1, 1, 1));
        REQUIRE(!r);
        CHECK(r.diagnostics()[0].message.find("2 (S32) for kind::i8") != std::string::npos);
    }
    SECTION("f4 operands are not modelled, said so") {
        const auto r = decodeUmmaIdesc(UmmaKind::F8f6f4, 1, idesc(128, 16, 1, 5, 0));
        REQUIRE(!r);
        CHECK(r.diagnostics()[0].code == DiagCode::Unsupported);
        CHECK(r.diagnostics()[0].message.find("E2M1 (5)") != std::string::npos);
    }
    SECTION("saturate is for kind::i8") {
        CHECK(!decodeUmmaIdesc(UmmaKind::F16, 1, idesc(128, 16, 1, 0, 0) | 1u << 3));
    }
    SECTION("K per kind") {
        CHECK(ummaK(decoded(UmmaKind::F16, 1, idesc(128, 16, 1, 0, 0))) == 16);
        CHECK(ummaK(decoded(UmmaKind::Tf32, 1, idesc(128, 16, 1, 2, 2))) == 8);
        CHECK(ummaK(decoded(UmmaKind::F8f6f4, 1, idesc(128, 16, 1, 0, 0))) == 32);
    }
}

TEST_CASE("tcgen05.mma .cta_group::2 M=128 folds the second half of N into lanes 64-127",
          "[umma][exec][pair]") {
    // M=128, N=32: A rows 0-63 in CTA 0, 64-127 in CTA 1 (one-hot 1.0 at k = m % 16); B rows 0-15 in CTA 0,
    // 16-31 in CTA 1, B[n][k] = n % 16 as f16 at k = 0 only. D[m][n] = n % 16 where m % 16 == 0, else 0.
    // Layout B: D[m][n] at CTA m / 64, lane m % 64 + 64 * (n / 16), column n % 16.
    Rig r(2);
    for (uint32_t m = 0; m < 128; ++m) put(r.state, m / 64, kA, m % 64, m % 16, 2, 0x3C00);
    const uint32_t f16n[] = {0x0000, 0x3C00, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600, 0x4700,
                             0x4800, 0x4880, 0x4900, 0x4980, 0x4A00, 0x4A80, 0x4B00, 0x4B80}; // 0..15
    for (uint32_t n = 0; n < 32; ++n) put(r.state, n / 16, kB, n % 16, 0, 2, f16n[n % 16]);
    REQUIRE(r.run(decoded(UmmaKind::F16, 2, idesc(128, 32, 1, 0, 0))));
    CHECK(r.tmem.ctas[0].cell(0, 5) == f32(5));        // D[0][5]
    CHECK(r.tmem.ctas[0].cell(64 + 16, 3) == f32(3));  // D[16][19]: B row 19 = CTA 1 row 3 -> 3.0
    CHECK(r.tmem.ctas[1].cell(0 + 64, 15) == f32(15)); // D[64][31]: CTA 1 row 15 -> 15.0
    CHECK(r.tmem.ctas[1].cell(1, 1) == 0);             // D[65][1]: k = 1, B is 0 there
}
