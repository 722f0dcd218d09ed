// tcgen05.mma .sp and .ws executed (Tcgen05Executor::mma): small integer products whose D the test computes
// itself with an obviously-correct loop over the dense A, never with the engine's code.
//   .sp: the test builds a dense 2:4 A (two nonzeros per chunk of 4, at positions it picks), stores the
//   K/2 values in order, writes the metadata nibble (first position in bits [0,2), second in [2,4);
//   §9.7.16.10.8.2) where JAX's format_tcgen05_sparse_metadata puts it (worked by hand in
//   umma_ws_sp_layout_test.cpp), and compares every D cell with sum_k A[m][k] * B[n][k].
//   .ws: a collector fill then use must give the D of two plain .ws MMAs (the second reads B from the buffer
//   although shared memory changed); D lands at Layouts E / G; the zero-column mask zeroes B columns.
// Operands sit in shared memory at the K-major SWIZZLE_128B canonical layout (PTX ISA 9.2 §9.7.16.3.3):
//   byte kb of row r at start + (r / 8) * 1024 + (r % 8) * 128 + (kb ^ ((r % 8) << 4)).
#include "layoutscope/tcgen05/exec.hpp"
#include "layoutscope/tcgen05/smem_descriptor.hpp"
#include "layoutscope/tcgen05/umma.hpp"
#include "layoutscope/tcgen05/umma_ws_sp.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <cstring>
#include <string>

using namespace layoutscope;

namespace {

constexpr uint32_t kWsA = 0x1000, kWsB = 0x8000;

uint64_t wsSw128(uint32_t start) {
    SmemDescriptor d;
    d.startAddress = start;
    d.lbo = 16;
    d.sbo = 1024;
    d.layoutType = 2; // SWIZZLE_128B
    return encodeSmemDescriptor(d);
}

void wsPut(MachineState& s, uint32_t start, uint32_t row, uint32_t k, uint32_t bytes, uint32_t v,
           uint32_t cta = 0) {
    for (uint32_t b = 0; b < bytes; ++b) {
        const uint32_t kb = k * bytes + b;
        s.smem[cta].bytes()[start + (row / 8) * 1024 + (row % 8) * 128 + (kb ^ ((row % 8) << 4))] =
            uint8_t(v >> (8 * b));
    }
}

uint32_t wsF32(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

uint32_t wsF16(uint32_t i) { // integers 0..2047 as f16 (exact)
    if (i == 0) return 0;
    uint32_t e = 0;
    while ((i >> (e + 1)) != 0) ++e; // i in [2^e, 2^(e+1))
    return (e + 15) << 10 | ((i << (10 - e)) & 0x3FF);
}

uint32_t wsIdesc(uint32_t m, uint32_t n, uint32_t dfmt, uint32_t afmt, uint32_t bfmt) {
    return dfmt << 4 | afmt << 7 | bfmt << 10 | (n >> 3) << 17 | (m >> 4) << 24;
}

struct WsRig {
    explicit WsRig(uint32_t ctas = 1) : state(ctas, 0), tmem(ctas), ex(trace, state, tmem) {}
    Trace trace;
    MachineState state;
    TmemState tmem;
    Tcgen05Executor ex;
    Status run(UmmaOp op) {
        op.descA = wsSw128(kWsA);
        op.descB = wsSw128(kWsB);
        return ex.mma(op, 0, InstrSource{"tcgen05.mma", 1});
    }
};

UmmaOp wsDecoded(UmmaKind k, uint32_t id, UmmaForm form, uint32_t group = 1) {
    auto op = decodeUmmaIdesc(k, group, id, form);
    REQUIRE(op);
    return *op;
}

// The 2:4 position pairs a test row uses, and the nibble that names them.
constexpr std::array<std::array<uint32_t, 2>, 6> kPairs{{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}};

} // namespace

TEST_CASE("tcgen05.mma.sp kind::i8 multiplies the decompressed A", "[umma][sp][exec]") {
    // M = 128, N = 16, K = 64 (A: 32 stored s8 values a row), s8 x s8 -> s32. Metadata of row m at lane m,
    // chunk c at column c / 8, bits 4 (c % 8) (JAX 8-bit layout), from sp-meta column 8.
    WsRig r;
    std::vector<int> dense(128 * 64, 0), b(16 * 64);
    for (uint32_t m = 0; m < 128; ++m)
        for (uint32_t c = 0; c < 16; ++c) {
            const auto p = kPairs[(m + 3 * c) % 6];
            const int v0 = int((m * 7 + c * 3) % 11) - 5, v1 = int((m * 5 + c) % 9) - 4;
            dense[m * 64 + 4 * c + p[0]] = v0;
            dense[m * 64 + 4 * c + p[1]] = v1;
            wsPut(r.state, kWsA, m, 2 * c, 1, uint32_t(v0) & 0xFF);
            wsPut(r.state, kWsA, m, 2 * c + 1, 1, uint32_t(v1) & 0xFF);
            const uint32_t nib = p[0] | p[1] << 2, col = 8 + c / 8, bit = 4 * (c % 8);
            r.tmem.ctas[0].setCell(m, col, r.tmem.ctas[0].cell(m, col) | nib << bit);
        }
    for (uint32_t n = 0; n < 16; ++n)
        for (uint32_t k = 0; k < 64; ++k) {
            b[n * 64 + k] = int((n * 3 + k) % 7) - 3;
            wsPut(r.state, kWsB, n, k, 1, uint32_t(b[n * 64 + k]) & 0xFF);
        }
    UmmaOp op = wsDecoded(UmmaKind::I8, wsIdesc(128, 16, 2, 1, 1) | 1u << 2, {false, true});
    op.spMetaTaddr = 8;
    REQUIRE(r.run(op));
    int wrong = 0;
    for (uint32_t m = 0; m < 128; ++m)
        for (uint32_t n = 0; n < 16; ++n) {
            int d = 0;
            for (uint32_t k = 0; k < 64; ++k) d += dense[m * 64 + k] * b[n * 64 + k];
            wrong += r.tmem.ctas[0].cell(m, n) != uint32_t(d);
        }
    CHECK(wrong == 0);
    // The metadata reads are moves of the trace (one per lane), and the summary says what is unverified.
    size_t metaMoves = 0;
    for (const ByteMove& mv : r.trace.moves) metaMoves += mv.rule == RuleId::Tcgen05MmaSparse;
    CHECK(metaMoves == 128);
    REQUIRE(r.trace.instrs.size() == 1);
    CHECK(r.trace.instrs[0].summary.find("tcgen05.mma.sp.kind::i8") != std::string::npos);
    CHECK(r.trace.instrs[0].summary.find("unverified: the metadata placement") != std::string::npos);
}

TEST_CASE("tcgen05.mma.sp kind::f16 multiplies the decompressed A", "[umma][sp][exec]") {
    // M = 128, N = 16, K = 32 (16 stored f16 a row), f32 D. Metadata (JAX 16-bit layout) with m = 16a + 8b +
    // c0, chunk ch: lane 16a + 8 (ch / 4) + c0, bit 16b + 4 (ch % 4), column sp-meta + selector = 4 + 1.
    WsRig r;
    std::vector<uint32_t> dense(128 * 32, 0), b(16 * 32);
    for (uint32_t m = 0; m < 128; ++m)
        for (uint32_t ch = 0; ch < 8; ++ch) {
            const auto p = kPairs[(m * 5 + ch) % 6];
            const uint32_t v0 = (m + 2 * ch) % 13, v1 = (3 * m + ch) % 10 + 1;
            dense[m * 32 + 4 * ch + p[0]] = v0;
            dense[m * 32 + 4 * ch + p[1]] = v1;
            wsPut(r.state, kWsA, m, 2 * ch, 2, wsF16(v0));
            wsPut(r.state, kWsA, m, 2 * ch + 1, 2, wsF16(v1));
            const uint32_t lane = 16 * (m / 16) + 8 * (ch / 4) + m % 8,
                           bit = 16 * ((m / 8) % 2) + 4 * (ch % 4);
            r.tmem.ctas[0].setCell(lane, 5, r.tmem.ctas[0].cell(lane, 5) | (p[0] | p[1] << 2) << bit);
        }
    for (uint32_t n = 0; n < 16; ++n)
        for (uint32_t k = 0; k < 32; ++k) {
            b[n * 32 + k] = (n + 2 * k) % 9;
            wsPut(r.state, kWsB, n, k, 2, wsF16(b[n * 32 + k]));
        }
    UmmaOp op = wsDecoded(UmmaKind::F16, wsIdesc(128, 16, 1, 0, 0) | 1u << 2 | 1u, {false, true});
    op.spMetaTaddr = 4;
    REQUIRE(r.run(op));
    int wrong = 0;
    for (uint32_t m = 0; m < 128; ++m)
        for (uint32_t n = 0; n < 16; ++n) {
            uint32_t d = 0;
            for (uint32_t k = 0; k < 32; ++k) d += dense[m * 32 + k] * b[n * 32 + k];
            wrong += r.tmem.ctas[0].cell(m, n) != wsF32(float(d));
        }
    CHECK(wrong == 0);
}

TEST_CASE("tcgen05.mma.ws.sp kind::i8 M = 64: rows in lanes 0-63, D at Layout E", "[umma][ws][sp][exec]") {
    // M = 64, N = 64, K = 64: metadata of row m at lane m, chunk c at column 40 + c / 8, bits 4 (c % 8); D(m,
    // n) at lane m + 64 (n / 32), column n % 32.
    WsRig r;
    std::vector<int> dense(64 * 64, 0), b(64 * 64);
    for (uint32_t m = 0; m < 64; ++m)
        for (uint32_t c = 0; c < 16; ++c) {
            const auto p = kPairs[(2 * m + c) % 6];
            const int v0 = int((m + c * 5) % 13) - 6, v1 = int((m * 3 + c) % 5) - 2;
            dense[m * 64 + 4 * c + p[0]] = v0;
            dense[m * 64 + 4 * c + p[1]] = v1;
            wsPut(r.state, kWsA, m, 2 * c, 1, uint32_t(v0) & 0xFF);
            wsPut(r.state, kWsA, m, 2 * c + 1, 1, uint32_t(v1) & 0xFF);
            const uint32_t col = 40 + c / 8;
            r.tmem.ctas[0].setCell(m, col, r.tmem.ctas[0].cell(m, col) | (p[0] | p[1] << 2) << 4 * (c % 8));
        }
    for (uint32_t n = 0; n < 64; ++n)
        for (uint32_t k = 0; k < 64; ++k) {
            b[n * 64 + k] = int((n + 3 * k) % 5) - 2;
            wsPut(r.state, kWsB, n, k, 1, uint32_t(b[n * 64 + k]) & 0xFF);
        }
    UmmaOp op = wsDecoded(UmmaKind::I8, wsIdesc(64, 64, 2, 1, 1) | 1u << 2, {true, true});
    op.spMetaTaddr = 40;
    REQUIRE(r.run(op));
    int wrong = 0;
    for (uint32_t m = 0; m < 64; ++m)
        for (uint32_t n = 0; n < 64; ++n) {
            int d = 0;
            for (uint32_t k = 0; k < 64; ++k) d += dense[m * 64 + k] * b[n * 64 + k];
            wrong += r.tmem.ctas[0].cell(m + 64 * (n / 32), n % 32) != uint32_t(d);
        }
    CHECK(wrong == 0);
}

TEST_CASE("tcgen05.mma.sp kind::f16 M = 256 .cta_group::2: each CTA's rows and metadata",
          "[umma][sp][exec]") {
    // M = 256, N = 32, K = 32. A rows 0-127 in CTA 0's shared memory, 128-255 in CTA 1's; B rows 0-15 in CTA
    // 0, 16-31 in CTA 1 (.cta_group::2 split, unverified as umma.hpp says). Row m's metadata in CTA m / 128
    // at the 16-bit lane of r = m % 128 (column 100); D(m, n) at CTA m / 128, lane m % 128, column n (Layout
    // A).
    WsRig r(2);
    std::vector<uint32_t> dense(256 * 32, 0), b(32 * 32);
    for (uint32_t m = 0; m < 256; ++m)
        for (uint32_t ch = 0; ch < 8; ++ch) {
            const uint32_t cta = m / 128, row = m % 128;
            const auto p = kPairs[(m + 4 * ch) % 6];
            const uint32_t v0 = (m * 3 + ch) % 7 + 1, v1 = (m + 5 * ch) % 11;
            dense[m * 32 + 4 * ch + p[0]] = v0;
            dense[m * 32 + 4 * ch + p[1]] = v1;
            wsPut(r.state, kWsA, row, 2 * ch, 2, wsF16(v0), cta);
            wsPut(r.state, kWsA, row, 2 * ch + 1, 2, wsF16(v1), cta);
            const uint32_t lane = 16 * (row / 16) + 8 * (ch / 4) + row % 8,
                           bit = 16 * ((row / 8) % 2) + 4 * (ch % 4);
            TensorMemory& t = r.tmem.ctas[cta];
            t.setCell(lane, 100, t.cell(lane, 100) | (p[0] | p[1] << 2) << bit);
        }
    for (uint32_t n = 0; n < 32; ++n)
        for (uint32_t k = 0; k < 32; ++k) {
            b[n * 32 + k] = (3 * n + k) % 6;
            wsPut(r.state, kWsB, n % 16, k, 2, wsF16(b[n * 32 + k]), n / 16);
        }
    UmmaOp op = wsDecoded(UmmaKind::F16, wsIdesc(256, 32, 1, 0, 0) | 1u << 2, {false, true}, 2);
    op.spMetaTaddr = 100;
    REQUIRE(r.run(op));
    int wrong = 0;
    for (uint32_t m = 0; m < 256; ++m)
        for (uint32_t n = 0; n < 32; ++n) {
            uint32_t d = 0;
            for (uint32_t k = 0; k < 32; ++k) d += dense[m * 32 + k] * b[n * 32 + k];
            wrong += r.tmem.ctas[m / 128].cell(m % 128, n) != wsF32(float(d));
        }
    CHECK(wrong == 0);
}

TEST_CASE("tcgen05.mma.sp refuses metadata that is not a 2:4 index pair", "[umma][sp][exec][badinput]") {
    WsRig r; // Tensor Memory starts zeroed: metadata 0b0000 everywhere
    const UmmaOp op = wsDecoded(UmmaKind::I8, wsIdesc(128, 16, 2, 1, 1) | 1u << 2, {false, true});
    const Status s = r.run(op);
    REQUIRE(!s);
    const std::string msg = s.diagnostics()[0].message;
    CHECK(msg.find("sparsity metadata 0b0000 of A row 0, chunk 0") != std::string::npos);
    CHECK(msg.find("not a 2:4 index pair") != std::string::npos);
    CHECK(msg.find("§9.7.16.10.8.2") != std::string::npos);
    CHECK(s.diagnostics()[0].ruleRef.find("9.7.16.10.8") != std::string::npos);
    CHECK(r.trace.instrs.empty()); // nothing written
}

TEST_CASE("tcgen05.mma.ws collector fill then use gives the D of two plain MMAs", "[umma][ws][exec]") {
    // M = 64, N = 64, kind::f16 (Layout E). A1[m][k] = 1 at k = m % 16; A2[m][k] = 2 at k = (m + 1) % 16;
    // B[n][k] = n + k. D1 = B[n][m % 16] = n + m % 16 at column 0.., D2 = 2 (n + (m + 1) % 16) at
    // column 64...
    auto putA = [](WsRig& r, uint32_t value, uint32_t shift) {
        for (uint32_t m = 0; m < 64; ++m)
            for (uint32_t k = 0; k < 16; ++k)
                wsPut(r.state, kWsA, m, k, 2, k == (m + shift) % 16 ? value : 0);
    };
    auto putB = [](WsRig& r, bool garbage) {
        for (uint32_t n = 0; n < 64; ++n)
            for (uint32_t k = 0; k < 16; ++k)
                wsPut(r.state, kWsB, n, k, 2, garbage ? wsF16(7) : wsF16(n + k));
    };
    const UmmaOp ws = wsDecoded(UmmaKind::F16, wsIdesc(64, 64, 1, 0, 0), {true, false});
    auto with = [&](uint32_t buffer, UmmaCollectorOp o, uint32_t col) {
        UmmaOp op = ws;
        op.collector = {buffer, o};
        op.dTaddr = col;
        return op;
    };
    WsRig collected, plain;
    putA(collected, wsF16(1), 0);
    putB(collected, false);
    REQUIRE(collected.run(with(1, UmmaCollectorOp::Fill, 0)));
    putB(collected, true); // shared memory changes: ::use must not see it
    putA(collected, wsF16(2), 1);
    REQUIRE(collected.run(with(1, UmmaCollectorOp::Use, 64)));
    putA(plain, wsF16(1), 0);
    putB(plain, false);
    REQUIRE(plain.run(with(0, UmmaCollectorOp::Discard, 0)));
    putA(plain, wsF16(2), 1);
    REQUIRE(plain.run(with(0, UmmaCollectorOp::Discard, 64)));
    int differ = 0;
    for (uint32_t lane = 0; lane < 128; ++lane)
        for (uint32_t col = 0; col < 128; ++col)
            differ += collected.tmem.ctas[0].cell(lane, col) != plain.tmem.ctas[0].cell(lane, col);
    CHECK(differ == 0);
    CHECK(collected.tmem.ctas[0].cell(69, 8) == wsF32(45)); // D1(5, 40): lane 5 + 64, column 40 - 32
    CHECK(collected.tmem.ctas[0].cell(5, 67) == wsF32(18)); // D2(5, 3) = 2 (3 + 6)
    CHECK(collected.trace.instrs[1].summary.find("from collector buffer b1") != std::string::npos);

    SECTION("lastuse reads the buffer once more, then it is gone") {
        REQUIRE(collected.run(with(1, UmmaCollectorOp::Lastuse, 64)));
        CHECK(collected.tmem.ctas[0].cell(5, 67) == wsF32(18));
        const Status s = collected.run(with(1, UmmaCollectorOp::Use, 64));
        REQUIRE(!s);
        CHECK(s.diagnostics()[0].message.find("collector buffer b1 holds no B") != std::string::npos);
        CHECK(s.diagnostics()[0].message.find("§9.7.16.10.9.3") != std::string::npos);
    }
    SECTION("a buffer never filled, or dropped by the default b0::discard, cannot be used") {
        CHECK(!collected.run(with(2, UmmaCollectorOp::Use, 64)));
        REQUIRE(collected.run(with(0, UmmaCollectorOp::Fill, 0)));
        REQUIRE(collected.run(ws)); // no qualifier: .collector::b0::discard
        CHECK(!collected.run(with(0, UmmaCollectorOp::Use, 0)));
    }
}

TEST_CASE("tcgen05.mma.ws M = 32 writes D at Layout G", "[umma][ws][exec]") {
    // A[m][k] = 1 at k = m % 16, B[n][k] = n + k: D(m, n) = n + m % 16 at lane m + 32 (n / 16), column n
    // % 16.
    WsRig r;
    for (uint32_t m = 0; m < 32; ++m) wsPut(r.state, kWsA, m, m % 16, 2, wsF16(1));
    for (uint32_t n = 0; n < 64; ++n)
        for (uint32_t k = 0; k < 16; ++k) wsPut(r.state, kWsB, n, k, 2, wsF16(n + k));
    REQUIRE(r.run(wsDecoded(UmmaKind::F16, wsIdesc(32, 64, 1, 0, 0), {true, false})));
    CHECK(r.tmem.ctas[0].cell(35, 0) == wsF32(19));   // D(3, 16)
    CHECK(r.tmem.ctas[0].cell(127, 15) == wsF32(78)); // D(31, 63)
    CHECK(r.tmem.ctas[0].cell(64, 15) == wsF32(47));  // D(0, 47)
    CHECK(r.tmem.ctas[0].cell(0, 16) == 0);           // 16 columns only
}

TEST_CASE("tcgen05.mma.ws zero-column mask zeroes B columns and shifts B", "[umma][ws][exec][zero-mask]") {
    // M = 128, N = 64, kind::f16: A[m][k] = 1 at k = m % 16, B[n][k] = n + k for B rows 0..65.
    WsRig r;
    for (uint32_t m = 0; m < 128; ++m) wsPut(r.state, kWsA, m, m % 16, 2, wsF16(1));
    for (uint32_t n = 0; n < 66; ++n)
        for (uint32_t k = 0; k < 16; ++k) wsPut(r.state, kWsB, n, k, 2, wsF16(n + k));
    UmmaOp op = wsDecoded(UmmaKind::F16, wsIdesc(128, 64, 1, 0, 0), {true, false});
    op.hasZeroColumnMask = true;
    SECTION("the ISA's example 2 mask: columns 4-6, 11-13, ... read zeros") {
        op.zeroColumnMask = uint64_t(1) << 39 | uint64_t(2) << 40 | uint64_t(3) << 48;
        REQUIRE(r.run(op));
        CHECK(r.tmem.ctas[0].cell(2, 3) == wsF32(5)); // D(2, 3) = 3 + 2
        CHECK(r.tmem.ctas[0].cell(2, 4) == 0);
        CHECK(r.tmem.ctas[0].cell(2, 6) == 0);
        CHECK(r.tmem.ctas[0].cell(2, 7) == wsF32(9));
        CHECK(r.tmem.ctas[0].cell(2, 13) == 0);
        CHECK(r.trace.instrs[0].summary.find("zero-column mask") != std::string::npos);
    }
    SECTION("a column shift of 2 reads B column n + 2") {
        op.zeroColumnMask = uint64_t(2) << 56;
        REQUIRE(r.run(op));
        CHECK(r.tmem.ctas[0].cell(2, 3) == wsF32(7));   // B[5][2]
        CHECK(r.tmem.ctas[0].cell(0, 63) == wsF32(65)); // B[65][0]
    }
}
