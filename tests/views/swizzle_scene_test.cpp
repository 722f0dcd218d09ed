// Swizzle explorer scene logic. Expectations are written out by hand from the table of
// /work/shared/ref/tma.md §4.2 (functions, CuTe column, pattern periods) and §4.1 (row pitch = span),
// not from the engine's output.
#include "scene/swizzle_scene.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope;
using namespace layoutscope::views;

using Pairs = std::vector<std::pair<int, int>>;

TEST_CASE("swizzle modes: XORed bits, period and CuTe form as in tma.md §4.2", "[swizzle-explorer]") {
    SECTION("NONE: identity, Swizzle<0,4,3>") {
        const auto i = swizzleInfo(TensorSwizzle::NONE);
        CHECK(i.xors.empty());
        CHECK(i.periodBytes == 128);
        REQUIRE(i.cuteBytes);
        CHECK(cuteName(*i.cuteBytes) == "Sw<0,4,3>");
        CHECK(bitDiagramText(i) == "identity (no bits XORed)");
    }
    SECTION("32B: A ^ (((A>>7)&1)<<4) = Sw<1,4,3>, period 256 B") {
        const auto i = swizzleInfo(TensorSwizzle::S32B);
        CHECK(i.xors == Pairs{{4, 7}});
        CHECK(i.periodBytes == 256);
        CHECK(i.spanBytes == 32);
        CHECK(cuteName(*i.cuteBytes) == "Sw<1,4,3>");
        CHECK(bitDiagramText(i) == "bit 4 ^= bit 7");
    }
    SECTION("64B: A ^ (((A>>7)&3)<<4) = Sw<2,4,3>, period 512 B") {
        const auto i = swizzleInfo(TensorSwizzle::S64B);
        CHECK(i.xors == Pairs{{4, 7}, {5, 8}});
        CHECK(i.periodBytes == 512);
        CHECK(cuteName(*i.cuteBytes) == "Sw<2,4,3>");
        CHECK(bitDiagramText(i) == "bits [4,6) ^= bits [7,9)");
    }
    SECTION("128B: A ^ (((A>>7)&7)<<4) = Sw<3,4,3>, period 1024 B, span 128") {
        const auto i = swizzleInfo(TensorSwizzle::S128B);
        CHECK(i.xors == Pairs{{4, 7}, {5, 8}, {6, 9}});
        CHECK(i.periodBytes == 1024);
        CHECK(i.spanBytes == 128);
        CHECK(i.granuleBytes == 16);
        CHECK(cuteName(*i.cuteBytes) == "Sw<3,4,3>");
        CHECK(bitDiagramText(i) == "bits [4,7) ^= bits [7,10)");
    }
    SECTION("128B_ATOM_32B: A ^ (((A>>7)&3)<<5) = Sw<2,5,2>, period 512 B") {
        const auto i = swizzleInfo(TensorSwizzle::S128B_ATOM_32B);
        CHECK(i.xors == Pairs{{5, 7}, {6, 8}});
        CHECK(i.periodBytes == 512);
        CHECK(i.granuleBytes == 32);
        CHECK(cuteName(*i.cuteBytes) == "Sw<2,5,2>");
    }
    SECTION("128B_ATOM_32B_FLIP_8B: ATOM_32B then bit 3 ^= bit 7; no CuTe form, 8-B granules") {
        const auto i = swizzleInfo(TensorSwizzle::S128B_ATOM_32B_FLIP_8B);
        CHECK(i.xors == Pairs{{3, 7}, {5, 7}, {6, 8}});
        CHECK(i.periodBytes == 512);
        CHECK(i.granuleBytes == 8);
        CHECK_FALSE(i.cuteBytes);
    }
    SECTION("128B_ATOM_64B: A ^ (((A>>7)&1)<<6) = Sw<1,6,1>, period 256 B") {
        const auto i = swizzleInfo(TensorSwizzle::S128B_ATOM_64B);
        CHECK(i.xors == Pairs{{6, 7}});
        CHECK(i.periodBytes == 256);
        CHECK(cuteName(*i.cuteBytes) == "Sw<1,6,1>");
    }
}

TEST_CASE("element form of a CuTe swizzle: M reduced by log2(element bytes)", "[swizzle-explorer]") {
    const CuteSwizzle sw128{3, 4, 3};
    CHECK(cuteName(*cuteForElements(sw128, 1)) == "Sw<3,4,3>");
    CHECK(cuteName(*cuteForElements(sw128, 2)) == "Sw<3,3,3>"); // half: CuTe's SW128 K-major atom for 16-bit
    CHECK(cuteName(*cuteForElements(sw128, 4)) == "Sw<3,2,3>"); // float / tf32
    CHECK(cuteName(*cuteForElements(sw128, 16)) == "Sw<3,0,3>");
    CHECK_FALSE(cuteForElements(sw128, 32)); // bit 4 lies inside a 32-B element
    CHECK_FALSE(cuteForElements(sw128, 3));
    CHECK(cuteName(*cuteForElements(CuteSwizzle{2, 5, 2}, 2)) == "Sw<2,4,2>");
}

TEST_CASE("chunk grid: where logical granule g of each 128-B line lands", "[swizzle-explorer]") {
    SECTION("128B: 8 lines x 8 chunks, line r chunk c -> c ^ r") {
        const auto g = chunkGrid(swizzleInfo(TensorSwizzle::S128B));
        REQUIRE(g.lines == 8);
        REQUIRE(g.granules == 8);
        for (uint32_t r = 0; r < 8; ++r)
            for (uint32_t c = 0; c < 8; ++c) CHECK(g.at(r, c) == (c ^ r));
        // line 3 written out: 3 2 1 0 7 6 5 4
        const std::vector<uint32_t> line3{3, 2, 1, 0, 7, 6, 5, 4};
        for (uint32_t c = 0; c < 8; ++c) CHECK(g.at(3, c) == line3[c]);
    }
    SECTION("64B: 4 lines, line r chunk c -> c ^ r (r < 4)") {
        const auto g = chunkGrid(swizzleInfo(TensorSwizzle::S64B));
        REQUIRE(g.lines == 4);
        for (uint32_t r = 0; r < 4; ++r)
            for (uint32_t c = 0; c < 8; ++c) CHECK(g.at(r, c) == (c ^ r));
    }
    SECTION("32B: 2 lines; line 1 swaps neighbouring chunks 0<->1, 2<->3, ...") {
        const auto g = chunkGrid(swizzleInfo(TensorSwizzle::S32B));
        REQUIRE(g.lines == 2);
        const std::vector<uint32_t> line1{1, 0, 3, 2, 5, 4, 7, 6};
        for (uint32_t c = 0; c < 8; ++c) {
            CHECK(g.at(0, c) == c);
            CHECK(g.at(1, c) == line1[c]);
        }
    }
    SECTION("128B_ATOM_32B: 32-B granules (4 per line), line r granule c -> c ^ r") {
        const auto g = chunkGrid(swizzleInfo(TensorSwizzle::S128B_ATOM_32B));
        REQUIRE(g.lines == 4);
        REQUIRE(g.granules == 4);
        for (uint32_t r = 0; r < 4; ++r)
            for (uint32_t c = 0; c < 4; ++c) CHECK(g.at(r, c) == (c ^ r));
    }
    SECTION("128B_ATOM_64B: line 1 swaps the two 64-B halves") {
        const auto g = chunkGrid(swizzleInfo(TensorSwizzle::S128B_ATOM_64B));
        REQUIRE(g.lines == 2);
        REQUIRE(g.granules == 2);
        CHECK(g.at(1, 0) == 1);
        CHECK(g.at(1, 1) == 0);
    }
}

TEST_CASE("a logical 64-column fp16 tile under 128B swizzle lands chunk-XORed", "[swizzle-explorer]") {
    // tma.md §4.1: pitch = 128 (span); P = A ^ (((A>>7)&7)<<4).
    const auto t = swizzleTile(TensorSwizzle::S128B, 8, 64, 2, 0);
    REQUIRE(t);
    CHECK(t->pitch == 128);
    CHECK(t->physLines == 8);
    SECTION("element (1, 0): A = 128, chunk 0 ^ 1 = 1 -> P = 144, slot 72") {
        CHECK(t->physAddr(TensorSwizzle::S128B, 1, 0) == 144);
        CHECK(t->physElement[72] == 1 * 64 + 0);
        CHECK(t->physical[72] == t->logical[64]);
    }
    SECTION("element (7, 9): A = 896 + 18, chunk 1 ^ 7 = 6 -> P = 896 + 96 + 2 = 994") {
        CHECK(t->physAddr(TensorSwizzle::S128B, 7, 9) == 994);
        CHECK(t->physElement[994 / 2] == 7 * 64 + 9);
    }
    SECTION("row 0 is not moved") {
        for (uint32_t c = 0; c < 64; ++c) CHECK(t->physElement[c] == static_cast<int32_t>(c));
    }
}

TEST_CASE("swizzle tiles: absolute addresses and rejected rows", "[swizzle-explorer]") {
    SECTION("base 1024+128 starts at line 1 of the pattern: element (0, 0) -> chunk 0 ^ 1") {
        const auto t = swizzleTile(TensorSwizzle::S128B, 2, 64, 2, 1152);
        REQUIRE(t);
        CHECK(t->physAddr(TensorSwizzle::S128B, 0, 0) == 1152 + 16);
    }
    SECTION("32-B rows in SWIZZLE_64B keep a 64-B pitch; the tail of each 64 B is unused") {
        const auto t = swizzleTile(TensorSwizzle::S64B, 4, 16, 2, 0);
        REQUIRE(t);
        CHECK(t->pitch == 64);
        // row 1 at A = 64: bit 7 is 0 -> not moved; slots 32..47 hold row 1, 16..31 unused.
        CHECK(t->physElement[32] == 16);
        CHECK(t->physElement[16] == -1);
    }
    SECTION("a row wider than the span is rejected (driver rule: inner <= span)") {
        CHECK_FALSE(swizzleTile(TensorSwizzle::S64B, 4, 64, 2, 0));
        CHECK(swizzleTile(TensorSwizzle::NONE, 4, 64, 2, 0));
    }
}
