// Shared-memory matrix descriptor, hand-built from PTX ISA 9.2 Table 40 and §9.7.16.3 (tcgen05.md §7).
#include "layoutscope/tcgen05/smem_descriptor.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope;

TEST_CASE("descriptor fields decode from a hand-built value", "[descriptor]") {
    // start 0x1230 B (field 0x123), LBO 256 B (16), SBO 128 B (8), version 1, base offset 3, 128B swizzle
    // (2): 0x123 | 16<<16 | 8<<32 | 1<<46 | 3<<49 | 2<<61
    const uint64_t v = 0x4006400800100123ull;
    const SmemDescriptor d = decodeSmemDescriptor(v);
    CHECK(d.startAddress == 0x1230);
    CHECK(d.lbo == 256);
    CHECK(d.sbo == 128);
    CHECK(d.version == 1);
    CHECK(d.baseOffset == 3);
    CHECK(d.lboMode == 0);
    CHECK(d.layoutType == 2);
    CHECK(d.reservedBits == 0);
    CHECK(encodeSmemDescriptor(d) == v);
    CHECK(validateSmemDescriptor(d).ok());
}

TEST_CASE("descriptor encoder keeps only 14-bit fields of 16-byte units", "[descriptor]") {
    SmemDescriptor d;
    d.startAddress = 0x40000 + 0x80; // bit 18 is outside the 18-bit shared window: dropped
    d.lbo = 16;
    d.sbo = 1024;
    d.layoutType = 4;
    CHECK(encodeSmemDescriptor(d) ==
          ((uint64_t{4} << 61) | (uint64_t{1} << 46) | (uint64_t{64} << 32) | (uint64_t{1} << 16) | 0x8));
}

TEST_CASE("invalid descriptors are diagnostics", "[descriptor]") {
    SECTION("layout types 3, 5, 7") {
        for (uint64_t t : {3u, 5u, 7u})
            CHECK_FALSE(validateSmemDescriptor(decodeSmemDescriptor((t << 61) | (uint64_t{1} << 46))).ok());
    }
    SECTION("version bits not 0b001") {
        CHECK_FALSE(validateSmemDescriptor(decodeSmemDescriptor(0)).ok());
    }
    SECTION("reserved bit 15 set") {
        CHECK_FALSE(validateSmemDescriptor(decodeSmemDescriptor((uint64_t{1} << 46) | (1u << 15))).ok());
    }
}

TEST_CASE("layout types map to CuTe swizzles", "[descriptor][swizzle]") {
    CHECK(swizzleOfLayoutType(6).apply(0x80) == 0x90);   // 32B: bit4 ^= bit7
    CHECK(swizzleOfLayoutType(4).apply(0x180) == 0x1B0); // 64B: bits[5:4] ^= bits[8:7]
    CHECK(swizzleOfLayoutType(2).apply(0x380) == 0x3F0); // 128B: bits[6:4] ^= bits[9:7]
    CHECK(swizzleOfLayoutType(1).apply(0x180) == 0x1E0); // 128B/32B atom: bits[6:5] ^= bits[8:7]
    CHECK(swizzleOfLayoutType(0).apply(0x3FF) == 0x3FF);
}

TEST_CASE("PTX worked example: K-major no-swizzle tf32 LBO 256 B, SBO 128 B", "[descriptor][address]") {
    SmemDescriptor d;
    d.lbo = 64 * 4; // encoded 16
    d.sbo = 32 * 4; // encoded 8
    CHECK(((encodeSmemDescriptor(d) >> 16) & 0x3FFF) == 16);
    CHECK(((encodeSmemDescriptor(d) >> 32) & 0x3FFF) == 8);
    // core matrix 8 rows x 16 B: (m 3, k 2) = 3*16 + 2*4; k 4 is the next core matrix along K (+LBO); m 8
    // (+SBO)
    CHECK(elementAddress(d, MatrixMajor::K, 32, 3, 2) == 56);
    CHECK(elementAddress(d, MatrixMajor::K, 32, 3, 4) == 48 + 256);
    CHECK(elementAddress(d, MatrixMajor::K, 32, 9, 0) == 16 + 128);
}

TEST_CASE("swizzled K-major address: row pitch = swizzle width, then the XOR", "[descriptor][address]") {
    SmemDescriptor d;
    d.layoutType = 2; // 128B
    d.sbo = 1024;
    // fp16 (m 3, k 5): 3*128 + 10 = 394; bits[9:7] = 3 -> bits[6:4] ^= 3 -> 394 ^ 0x30 = 442
    CHECK(elementAddress(d, MatrixMajor::K, 16, 3, 5) == 442);
    CHECK(elementAddress(d, MatrixMajor::K, 16, 8, 0) == 1024);
}

TEST_CASE("tcgen05.cp source walk through a no-swizzle descriptor", "[descriptor][cp]") {
    SmemDescriptor d;
    d.lbo = 16;
    d.sbo = 128;
    CHECK(cpSourceAddress(d, 9, 5) == 16 + 128 + 5);
    CHECK(cpSourceAddress(d, 33, 15) == 16 + 4 * 128 + 15);
    d.lbo = 512;
    CHECK(cpSourceAddress(d, 0, 20) == 512 + 4); // second 16-byte chunk of a 256-bit row is LBO away
}
