// tcgen05.mma .ws / .sp: where D lands (PTX ISA 9.2 §9.7.16.10.5 Layouts C, E, G), the shape rules of the
// instruction descriptor (§9.7.16.2.1 Table 39), the sparsity metadata's place in Tensor Memory, the 2:4
// index values (§9.7.16.10.8.2) and the zero-column mask (§9.7.16.4.3), each against a table written here
// by hand from those sources:
//   Layout E (M = 64, .ws, "2x3"): columns [0, N/2) in lanes 0-63, [N/2, N) in lanes 64-127 (CuTe
//     tmem_frg_ws (64,(N/2,2)):(1,(128,64)) in virtual addressing, lane stride 1, column stride 128);
//   Layout G (M = 32, .ws, "1x4"): quarter q of N in lanes 32q..32q+31 ((32,(N/4,4)):(1,(128,32)));
//   Layout C (M = 128, .cta_group::2, sparse A, "4x1, 1/2 datapath"): 64 rows a CTA in Layout F's lanes.
//   Metadata: JAX format_tcgen05_sparse_metadata's reshapes, worked by hand for single (row, chunk) pairs
//     (16-bit: m = 16a + 8b + c, entry 8e + f -> lane 16a + 8e + c, bit 2(8b + f); 8-bit: lane m, entry j
//     at bit 2j of the lane's 64 bits).
//   Zero-column mask: the ISA's worked examples 2-4, their printed masks (most significant bit first).
#include "layoutscope/tcgen05/umma.hpp"
#include "layoutscope/tcgen05/umma_layout.hpp"
#include "layoutscope/tcgen05/umma_ws_sp.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

using namespace layoutscope;

namespace {

struct CellRow {
    uint32_t m, n, cta, lane, column;
};

// kind::f16-style idesc: D format, A/B format, M, N.
uint32_t wsIdesc(uint32_t m, uint32_t n, uint32_t dfmt, uint32_t ab) {
    return dfmt << 4 | ab << 7 | ab << 10 | (n >> 3) << 17 | (m >> 4) << 24;
}

std::string firstError(const Result<UmmaOp>& r) {
    return r ? std::string() : r.diagnostics()[0].message + " [" + r.diagnostics()[0].ruleRef + "]";
}

// Whether sub-mask `part` (columns [part * width, (part + 1) * width)) ends in the bits the ISA prints for it
// ("0b … 111 0000 111": most significant first, spaces ignored).
bool isaTail(const std::vector<bool>& zero, uint32_t part, uint32_t width, std::string printedMsbFirst) {
    std::erase(printedMsbFirst, ' ');
    std::string got;
    for (size_t i = printedMsbFirst.size(); i-- > 0;) got += zero[part * width + i] ? '1' : '0';
    INFO("sub-mask " << part << ": ISA " << printedMsbFirst << ", model " << got);
    return got == printedMsbFirst;
}

} // namespace

TEST_CASE("tcgen05.mma.ws and .sp accumulators land at PTX Layouts C, E and G", "[umma][ws][sp][layout]") {
    SECTION("Layout E: M = 64 .ws, N = 128") {
        const UmmaDShape s{64, 128, 1, 32, true, false};
        REQUIRE(checkUmmaDShape(s));
        CHECK(ummaDLayout(s) == UmmaDLayout::E);
        CHECK(ummaDColumns(s) == 64);
        CHECK(ummaDLaneSpan(s) == 128);
        for (const CellRow& r : {CellRow{0, 0, 0, 0, 0}, CellRow{5, 63, 0, 5, 63}, CellRow{5, 64, 0, 69, 0},
                                 CellRow{40, 100, 0, 104, 36}, CellRow{63, 127, 0, 127, 63}}) {
            INFO("D(" << r.m << ", " << r.n << ")");
            CHECK(ummaDCell(s, r.m, r.n) == UmmaDCell{r.cta, r.lane, r.column, 0});
        }
    }
    SECTION("Layout G: M = 32 .ws, N = 64") {
        const UmmaDShape s{32, 64, 1, 32, true, false};
        REQUIRE(checkUmmaDShape(s));
        CHECK(ummaDLayout(s) == UmmaDLayout::G);
        CHECK(ummaDColumns(s) == 16);
        for (const CellRow& r : {CellRow{0, 0, 0, 0, 0}, CellRow{31, 15, 0, 31, 15}, CellRow{3, 16, 0, 35, 0},
                                 CellRow{3, 47, 0, 67, 15}, CellRow{31, 63, 0, 127, 15}}) {
            INFO("D(" << r.m << ", " << r.n << ")");
            CHECK(ummaDCell(s, r.m, r.n) == UmmaDCell{r.cta, r.lane, r.column, 0});
        }
    }
    SECTION(".ws M = 128 is Layout D") {
        const UmmaDShape s{128, 256, 1, 32, true, false};
        REQUIRE(checkUmmaDShape(s));
        CHECK(ummaDLayout(s) == UmmaDLayout::D);
        CHECK(ummaDCell(s, 100, 200) == UmmaDCell{0, 100, 200, 0});
    }
    SECTION("Layout C: M = 128 .cta_group::2 sparse, N = 32") {
        const UmmaDShape s{128, 32, 2, 32, false, true};
        REQUIRE(checkUmmaDShape(s));
        CHECK(ummaDLayout(s) == UmmaDLayout::C);
        CHECK(ummaDColumns(s) == 32);
        CHECK(ummaDLaneSpan(s) == 112);
        for (const CellRow& r : {CellRow{0, 0, 0, 0, 0}, CellRow{16, 3, 0, 32, 3}, CellRow{63, 5, 0, 111, 5},
                                 CellRow{64, 0, 1, 0, 0}, CellRow{127, 9, 1, 111, 9}}) {
            INFO("D(" << r.m << ", " << r.n << ")");
            CHECK(ummaDCell(s, r.m, r.n) == UmmaDCell{r.cta, r.lane, r.column, 0});
        }
        CHECK(ummaDLayout(UmmaDShape{128, 32, 2, 32, false, false}) == UmmaDLayout::B); // dense: Layout B
    }
    SECTION("shape rules of .ws") {
        CHECK(!checkUmmaDShape(UmmaDShape{64, 64, 2, 32, true, false}));  // .cta_group::1 only
        CHECK(!checkUmmaDShape(UmmaDShape{256, 64, 1, 32, true, false})); // M 32/64/128
        CHECK(!checkUmmaDShape(UmmaDShape{64, 96, 1, 32, true, false}));  // N 64/128/256
        CHECK(!checkUmmaDShape(UmmaDShape{64, 256, 1, 32, true, true}));  // .ws.sp: N 64/128
        CHECK(checkUmmaDShape(UmmaDShape{32, 256, 1, 16, true, false}));
    }
}

TEST_CASE("tcgen05.mma .ws / .sp instruction descriptors follow Table 39", "[umma][ws][sp][idesc]") {
    const uint32_t sparse = 1u << 2;
    SECTION(".ws kind::i8 M = 64, N = 128 (S32, U8)") {
        const auto op = decodeUmmaIdesc(UmmaKind::I8, 1, wsIdesc(64, 128, 2, 0), UmmaForm{true, false});
        REQUIRE(op);
        CHECK(op->ws);
        CHECK(ummaK(*op) == 32);
        CHECK(ummaDLayout(ummaDShape(*op)) == UmmaDLayout::E);
    }
    SECTION(".ws M and N outside Table 39 name the rule and the section") {
        const std::string n96 =
            firstError(decodeUmmaIdesc(UmmaKind::F16, 1, wsIdesc(64, 96, 1, 0), {true, false}));
        CHECK(n96.find("64, 128 or 256 for tcgen05.mma.ws") != std::string::npos);
        CHECK(n96.find("§9.7.16.2.1") != std::string::npos);
        const std::string m256 =
            firstError(decodeUmmaIdesc(UmmaKind::F16, 1, wsIdesc(256, 64, 1, 0), {true, false}));
        CHECK(m256.find("32, 64 or 128 for tcgen05.mma.ws") != std::string::npos);
        CHECK(firstError(decodeUmmaIdesc(UmmaKind::F16, 2, wsIdesc(128, 64, 1, 0), {true, false}))
                  .find(".cta_group::1 only") != std::string::npos);
        CHECK(firstError(decodeUmmaIdesc(UmmaKind::F16, 1, wsIdesc(64, 256, 1, 0) | sparse, {true, true}))
                  .find("64 or 128 for tcgen05.mma.ws.sp") != std::string::npos);
    }
    SECTION("max shift bits [30,32): .ws only, 8 / 16 / 32") {
        CHECK(firstError(decodeUmmaIdesc(UmmaKind::F16, 1, wsIdesc(128, 64, 1, 0) | 1u << 30))
                  .find("tcgen05.mma.ws only") != std::string::npos);
        for (uint32_t v : {1u, 2u, 3u}) {
            const auto op =
                decodeUmmaIdesc(UmmaKind::F16, 1, wsIdesc(128, 64, 1, 0) | v << 30, {true, false});
            REQUIRE(op);
            CHECK(op->maxShift == (v == 1 ? 8u : v == 2 ? 16u : 32u));
        }
    }
    SECTION("the sparsity bit 2 goes with .sp, the selector is bits [0,2)") {
        CHECK(firstError(decodeUmmaIdesc(UmmaKind::F16, 1, wsIdesc(128, 64, 1, 0), {false, true}))
                  .find("bit 2 (sparsity) must be 1") != std::string::npos);
        CHECK(firstError(decodeUmmaIdesc(UmmaKind::F16, 1, wsIdesc(128, 64, 1, 0) | sparse))
                  .find("must be 0 for a dense") != std::string::npos);
        const auto op =
            decodeUmmaIdesc(UmmaKind::F16, 1, wsIdesc(128, 64, 1, 0) | sparse | 3u, {false, true});
        REQUIRE(op);
        CHECK(op->spSelector == 3);
        CHECK(ummaK(*op) == 32); // K = 32 for sparse kind::f16 (Table 39)
    }
    SECTION("sparse forms whose metadata layout is not modelled are Unsupported, naming why") {
        const auto tf32 = decodeUmmaIdesc(UmmaKind::Tf32, 1, wsIdesc(128, 64, 1, 2) | sparse, {false, true});
        REQUIRE(!tf32);
        CHECK(tf32.diagnostics()[0].code == DiagCode::Unsupported);
        CHECK(firstError(tf32).find("1:2") != std::string::npos);
        CHECK(firstError(decodeUmmaIdesc(UmmaKind::F16, 1, wsIdesc(64, 64, 1, 0) | sparse, {false, true}))
                  .find("Layout F") != std::string::npos);
        CHECK(firstError(decodeUmmaIdesc(UmmaKind::F16, 2, wsIdesc(128, 64, 1, 0) | sparse, {false, true}))
                  .find("Layout C") != std::string::npos);
    }
}

TEST_CASE("tcgen05.mma.sp metadata nibbles sit where CuTe and JAX put them", "[umma][sp][metadata]") {
    struct MetaRow {
        uint32_t m, chunk, cta, lane, column, bit;
    };
    SECTION("kind::f16, M = 128: one column, 16-row groups over 16 lanes") {
        const auto op = decodeUmmaIdesc(UmmaKind::F16, 1, wsIdesc(128, 64, 1, 0) | 4u, {false, true});
        REQUIRE(op);
        CHECK(ummaSparseChunks(*op) == 8);
        CHECK(ummaSparseMetaColumns(*op) == 1);
        for (const MetaRow& r :
             {MetaRow{0, 0, 0, 0, 0, 0}, MetaRow{0, 5, 0, 8, 0, 4}, MetaRow{9, 2, 0, 1, 0, 24},
              MetaRow{37, 7, 0, 45, 0, 12}, MetaRow{127, 3, 0, 119, 0, 28}}) {
            INFO("row " << r.m << ", chunk " << r.chunk);
            CHECK(ummaSparseMetaCell(*op, r.m, r.chunk) == UmmaMetaCell{r.cta, r.lane, r.column, r.bit});
        }
        UmmaOp sel = *op;
        sel.spSelector = 2; // unverified: the selector taken as a column offset
        CHECK(ummaSparseMetaCell(sel, 37, 7) == UmmaMetaCell{0, 45, 2, 12});
    }
    SECTION("kind::i8, M = 128: lane m, 16 nibbles over two columns") {
        const auto op = decodeUmmaIdesc(UmmaKind::I8, 1, wsIdesc(128, 64, 2, 0) | 4u, {false, true});
        REQUIRE(op);
        CHECK(ummaSparseChunks(*op) == 16);
        CHECK(ummaSparseMetaColumns(*op) == 2);
        for (const MetaRow& r : {MetaRow{0, 0, 0, 0, 0, 0}, MetaRow{5, 9, 0, 5, 1, 4},
                                 MetaRow{127, 15, 0, 127, 1, 28}, MetaRow{64, 7, 0, 64, 0, 28}}) {
            INFO("row " << r.m << ", chunk " << r.chunk);
            CHECK(ummaSparseMetaCell(*op, r.m, r.chunk) == UmmaMetaCell{r.cta, r.lane, r.column, r.bit});
        }
    }
    SECTION("kind::f16, M = 256 .cta_group::2: rows 128.. in the odd CTA") {
        const auto op = decodeUmmaIdesc(UmmaKind::F16, 2, wsIdesc(256, 64, 1, 0) | 4u, {false, true});
        REQUIRE(op);
        CHECK(ummaSparseMetaCell(*op, 200, 0) == UmmaMetaCell{1, 64, 0, 16}); // row 72: a 4, b 1, c 0
    }
}

TEST_CASE("tcgen05.mma.sp 2:4 metadata values are the seven the ISA lists", "[umma][sp][metadata]") {
    // §9.7.16.10.8.2: 0b0100, 0b1000, 0b1100, 0b1001, 0b1101, 0b0110, 0b1110; bits [0,2) the first stored
    // value's position, [2,4) the second's.
    const std::array<std::array<int, 2>, 16> expected{{{-1, -1},
                                                       {-1, -1},
                                                       {-1, -1},
                                                       {-1, -1}, // 0-3
                                                       {0, 1},
                                                       {-1, -1},
                                                       {2, 1},
                                                       {-1, -1}, // 4-7
                                                       {0, 2},
                                                       {1, 2},
                                                       {-1, -1},
                                                       {-1, -1}, // 8-11
                                                       {0, 3},
                                                       {1, 3},
                                                       {2, 3},
                                                       {-1, -1}}}; // 12-15
    for (uint32_t nib = 0; nib < 16; ++nib) {
        INFO("nibble " << nib);
        const auto idx = ummaSparseIndices(nib);
        if (expected[nib][0] < 0) {
            CHECK(!idx);
        } else {
            REQUIRE(idx);
            CHECK(int((*idx)[0]) == expected[nib][0]);
            CHECK(int((*idx)[1]) == expected[nib][1]);
        }
    }
}

TEST_CASE("tcgen05.mma.ws zero-column masks match the ISA's worked examples", "[umma][ws][zero-mask]") {
    // Fields: sc_i bits [8i, 8i+8), fs_i bit 32+i, non-zero mask bit 39, skip span [40,48), use span
    // [48,56), shift [56,62). All examples: skip span 2, use span 3.
    const uint64_t spans = uint64_t(1) << 39 | uint64_t(2) << 40 | uint64_t(3) << 48;
    SECTION("example 1: non-zero mask 0 gives no zero column") {
        auto z = ummaZeroColumnMask(128, 64, uint64_t(2) << 40 | uint64_t(3) << 48);
        REQUIRE(z);
        CHECK(std::count(z->zero.begin(), z->zero.end(), true) == 0);
    }
    SECTION("example 2: M = 128, fs0 = 0, sc0 = 0") {
        auto z = ummaZeroColumnMask(128, 64, spans);
        REQUIRE(z);
        CHECK(isaTail(z->zero, 0, 64, "111 0000 111 0000"));
    }
    SECTION("example 3: M = 64, fs = {1, 0}") {
        auto z = ummaZeroColumnMask(64, 64, spans | uint64_t(1) << 32);
        REQUIRE(z);
        CHECK(isaTail(z->zero, 0, 32, "111 0000 111 0000 111"));
        CHECK(isaTail(z->zero, 1, 32, "0000 111 0000 111 0000"));
    }
    SECTION("example 4: M = 32, N = 128, sc = {0, 1, 2, 1}, fs = {1, 1, 0, 0}, shift 2") {
        const uint64_t d = spans | uint64_t(1) << 32 | uint64_t(1) << 33 | uint64_t(1) << 8 |
                           uint64_t(2) << 16 | uint64_t(1) << 24 | uint64_t(2) << 56;
        auto z = ummaZeroColumnMask(32, 128, d);
        REQUIRE(z);
        CHECK(z->shift == 2);
        CHECK(isaTail(z->zero, 0, 32, "0000 111 0000 111"));
        CHECK(isaTail(z->zero, 1, 32, "0000 111 0000 11"));
        CHECK(isaTail(z->zero, 2, 32, "111 0000 111 00"));
        CHECK(isaTail(z->zero, 3, 32, "111 0000 111 000"));
    }
    SECTION("bad descriptors name the field and the section") {
        auto reserved = ummaZeroColumnMask(128, 64, uint64_t(1) << 37);
        REQUIRE(!reserved);
        CHECK(reserved.diagnostics()[0].message.find("reserved bits [36,39)") != std::string::npos);
        CHECK(reserved.diagnostics()[0].message.find("§9.7.16.4.3") != std::string::npos);
        CHECK(!ummaZeroColumnMask(32, 64, uint64_t(17) << 56));
        CHECK(ummaZeroColumnMask(64, 64, uint64_t(32) << 56));
        CHECK(!ummaZeroColumnMask(64, 64, uint64_t(33) << 56));
    }
}
