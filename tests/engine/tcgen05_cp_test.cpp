// tcgen05.cp forms, row -> lane maps and decompression, hand-derived from PTX ISA 9.2 §9.7.16.9 and
// tcgen05.md §5.2-5.3 (table of lanes; 4/6-bit element e at bits 4e / 6e of the packed bytes).
#include "layoutscope/tcgen05/tcgen05.hpp"

#include <catch2/catch.hpp>

#include <random>

using namespace layoutscope;

namespace {
CpForm cp(const char* ptx) {
    auto f = parseCp(ptx);
    REQUIRE(f.ok());
    return *f;
}
} // namespace

TEST_CASE("tcgen05.cp multicast qualifiers are required by and only with their shapes", "[tcgen05][cp]") {
    CHECK(parseCp("tcgen05.cp.cta_group::1.64x128b.warpx2::02_13 [taddr], sdesc;").ok());
    CHECK(parseCp("tcgen05.cp.cta_group::2.32x128b.warpx4.b8x16.b4x16_p64 [taddr], sdesc;").ok());
    CHECK(parseCp("tcgen05.cp.cta_group::1.64x128b.b8x16.b6x16_p32.warpx2::01_23 [t], d;").ok());
    CHECK_FALSE(parseCp("tcgen05.cp.cta_group::1.64x128b [taddr], sdesc;").ok());
    CHECK_FALSE(parseCp("tcgen05.cp.cta_group::1.128x256b.warpx4 [taddr], sdesc;").ok());
    CHECK_FALSE(parseCp("tcgen05.cp.cta_group::1.32x128b.warpx2::02_13 [taddr], sdesc;").ok());
    CHECK_FALSE(parseCp("tcgen05.cp.cta_group::1.128x128b.b6x16_p32.b8x16 [taddr], sdesc;").ok());
}

TEST_CASE("tcgen05.cp source row -> TMEM lanes", "[tcgen05][cp]") {
    using V = std::vector<uint32_t>;
    CHECK(cpRowLanes(cp("tcgen05.cp.cta_group::1.128x256b [t], d;"), 77) == V{77});
    CHECK(cpRowLanes(cp("tcgen05.cp.cta_group::1.4x256b [t], d;"), 3) == V{96});
    CHECK(cpRowLanes(cp("tcgen05.cp.cta_group::1.32x128b.warpx4 [t], d;"), 7) == V{7, 39, 71, 103});
    SECTION("warpx2::02_13: rows 0-31 to warps 0 and 2, rows 32-63 to warps 1 and 3") {
        auto f = cp("tcgen05.cp.cta_group::1.64x128b.warpx2::02_13 [t], d;");
        CHECK(cpRowLanes(f, 5) == V{5, 69});
        CHECK(cpRowLanes(f, 40) == V{40, 104});
    }
    SECTION("warpx2::01_23: rows 0-31 to warps 0 and 1, rows 32-63 to warps 2 and 3") {
        auto f = cp("tcgen05.cp.cta_group::1.64x128b.warpx2::01_23 [t], d;");
        CHECK(cpRowLanes(f, 5) == V{5, 37});
        CHECK(cpRowLanes(f, 40) == V{72, 104});
    }
    CHECK(cpRowBytes(CpShape::k4x256b) == 32);
    CHECK(cpSourceRows(CpShape::k64x128b) == 64);
}

TEST_CASE(".b8x16.b4x16_p64 places each nibble in bits [5:2] of its byte", "[tcgen05][cp][decompress]") {
    std::array<uint8_t, 16> src{};
    src[0] = 0x21;                              // element 0 = 1 (low nibble), element 1 = 2
    src[7] = 0xF0;                              // element 14 = 0, element 15 = 15
    for (int i = 8; i < 16; ++i) src[i] = 0xFF; // padding is ignored
    auto out = decompressChunk(CpDecompress::B8x16_B4x16_p64, src);
    std::array<uint8_t, 16> want{};
    want[0] = 0x04;
    want[1] = 0x08;
    want[15] = 0x3C;
    CHECK(out == want);
    CHECK(decompressSourceBit(CpDecompress::B8x16_B4x16_p64, 3, 2) == 12);
    CHECK(decompressSourceBit(CpDecompress::B8x16_B4x16_p64, 3, 6) == -1);
    CHECK(decompressSourceBit(CpDecompress::B8x16_B4x16_p64, 3, 1) == -1);
}

TEST_CASE(".b8x16.b6x16_p32 places each 6-bit value in bits [5:0] of its byte", "[tcgen05][cp][decompress]") {
    std::array<uint8_t, 16> src{};
    src[0] = 0x7F;                               // element 0 = 0x3F (bits 0-5), element 1 bit 0 = bit 6
    src[1] = 0x10;                               // bit 12 = element 2 bit 0
    src[11] = 0xFC;                              // bits 90-95 = element 15 = 0x3F
    for (int i = 12; i < 16; ++i) src[i] = 0xFF; // padding is ignored
    auto out = decompressChunk(CpDecompress::B8x16_B6x16_p32, src);
    std::array<uint8_t, 16> want{};
    want[0] = 0x3F;
    want[1] = 0x01;
    want[2] = 0x01;
    want[15] = 0x3F;
    CHECK(out == want);
    CHECK(decompressSourceBit(CpDecompress::B8x16_B6x16_p32, 15, 5) == 95);
    CHECK(decompressSourceBit(CpDecompress::B8x16_B6x16_p32, 0, 6) == -1);
}

TEST_CASE("decompressChunk is the bit walk of decompressSourceBit", "[tcgen05][cp][decompress]") {
    // The closed form of decompressChunk against the per-bit definition, on random chunks.
    std::mt19937 rng(5);
    for (CpDecompress d : {CpDecompress::None, CpDecompress::B8x16_B4x16_p64, CpDecompress::B8x16_B6x16_p32})
        for (int trial = 0; trial < 200; ++trial) {
            std::array<uint8_t, 16> src{};
            for (uint8_t& b : src) b = static_cast<uint8_t>(rng());
            std::array<uint8_t, 16> want{};
            for (uint32_t e = 0; e < 16; ++e)
                for (uint32_t k = 0; k < 8; ++k) {
                    const int s = decompressSourceBit(d, e, k);
                    if (s >= 0 && (src[size_t(s / 8)] >> (s % 8) & 1)) want[e] |= uint8_t(1u << k);
                }
            REQUIRE(decompressChunk(d, src) == want);
        }
}
