// Narrow float values and containers, from the tables of ref/formats.md §2-3 (PTX ISA 9.2 §5.2.3).
#include "layoutscope/core/number_formats.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace layoutscope;

TEST_CASE("narrow float codes decode to the formats.md table values", "[formats]") {
    using F = NarrowFormat;
    SECTION("E2M1") {
        CHECK(decodeNarrow(F::E2M1, 0x7) == 6.0);
        CHECK(decodeNarrow(F::E2M1, 0x1) == 0.5);
        CHECK(decodeNarrow(F::E2M1, 0x9) == -0.5);
        CHECK(std::signbit(decodeNarrow(F::E2M1, 0x8)));
    }
    SECTION("E2M3") {
        CHECK(decodeNarrow(F::E2M3, 31) == 7.5);
        CHECK(decodeNarrow(F::E2M3, 9) == 1.125);
        CHECK(decodeNarrow(F::E2M3, 1) == 0.125);
    }
    SECTION("E3M2") {
        CHECK(decodeNarrow(F::E3M2, 31) == 28.0);
        CHECK(decodeNarrow(F::E3M2, 1) == 0.0625);
        CHECK(decodeNarrow(F::E3M2, 13) == 1.25);
        CHECK(decodeNarrow(F::E3M2, 32 + 12) == -1.0);
    }
    SECTION("E4M3") {
        CHECK(decodeNarrow(F::E4M3, 0x7E) == 448.0);
        CHECK(decodeNarrow(F::E4M3, 0x38) == 1.0);
        CHECK(decodeNarrow(F::E4M3, 0x08) == std::ldexp(1.0, -6));
        CHECK(decodeNarrow(F::E4M3, 0x01) == std::ldexp(1.0, -9));
        CHECK(std::isnan(decodeNarrow(F::E4M3, 0x7F)));
        CHECK(std::isnan(decodeNarrow(F::E4M3, 0xFF)));
    }
    SECTION("E5M2") {
        CHECK(decodeNarrow(F::E5M2, 0x3C) == 1.0);
        CHECK(decodeNarrow(F::E5M2, 0x7B) == 57344.0);
        CHECK(std::isinf(decodeNarrow(F::E5M2, 0x7C)));
        CHECK(decodeNarrow(F::E5M2, 0xFC) < 0);
        CHECK(std::isnan(decodeNarrow(F::E5M2, 0x7D)));
    }
    SECTION("UE8M0 and UE4M3 scale factors") {
        CHECK(decodeNarrow(F::UE8M0, 0x7F) == 1.0);
        CHECK(decodeNarrow(F::UE8M0, 0x80) == 2.0);
        CHECK(decodeNarrow(F::UE8M0, 0x00) == std::ldexp(1.0, -127));
        CHECK(std::isnan(decodeNarrow(F::UE8M0, 0xFF)));
        CHECK(decodeNarrow(F::UE4M3, 0x38) == 1.0);
        CHECK(decodeNarrow(F::UE4M3, 0x7E) == 448.0);
        CHECK(std::isnan(decodeNarrow(F::UE4M3, 0x7F)));
    }
}

TEST_CASE("TMEM 8-bit containers: e2m1 in bits [5:2], 6-bit types in bits [5:0]", "[formats][container]") {
    CHECK(containerOfCode(NarrowFormat::E2M1, 0xB) == 0x2C);
    CHECK(containerOfCode(NarrowFormat::E3M2, 0x25) == 0x25);
    CHECK(codeOfContainer(NarrowFormat::E2M1, 0xEF) == 0xB);
    CHECK(codeOfContainer(NarrowFormat::E2M3, 0xE5) == 0x25);
    // an e2m1 code shifted left by 2 is the e2m3 code of the same value (formats.md §3.1)
    for (uint32_t c = 0; c < 16; ++c)
        CHECK(decodeNarrow(NarrowFormat::E2M3, containerOfCode(NarrowFormat::E2M1, c)) ==
              decodeNarrow(NarrowFormat::E2M1, c));
}

TEST_CASE("packed sub-byte elements: element 0 in the lowest bits", "[formats][packed]") {
    const uint8_t b[3] = {0x21, 0x43, 0xC5};
    CHECK(packedElement(b, 4, 0) == 1);
    CHECK(packedElement(b, 4, 3) == 4);
    CHECK(packedElement(b, 6, 0) == 0x21);
    CHECK(packedElement(b, 6, 3) == 0x31); // bits 18-23: 0xC5 >> 2
}

TEST_CASE("binary16 / bfloat16 / tf32 for MMA operands and accumulators", "[formats][umma]") {
    // IEEE 754 binary16 by hand: 0x3C00 = 1, 0x7BFF = 65504 (largest), 0x0001 = 2^-24 (smallest subnormal).
    CHECK(decodeF16(0x3C00) == 1.0);
    CHECK(decodeF16(0x7BFF) == 65504.0);
    CHECK(decodeF16(0x0001) == std::ldexp(1.0, -24));
    CHECK(decodeF16(0xC000) == -2.0);
    CHECK(std::isinf(decodeF16(0x7C00)));
    CHECK(std::isnan(decodeF16(0x7E00)));
    CHECK(decodeBf16(0x4020) == 2.5);
    CHECK(decodeTf32(0x3F800008u) == 1.0); // 1 + 2^-20: below TF32's 10 mantissa bits
    SECTION("round to nearest even") {
        CHECK(encodeF16(1.0) == 0x3C00);
        CHECK(encodeF16(1.0 + std::ldexp(1.0, -11)) == 0x3C00);     // halfway: to even
        CHECK(encodeF16(1.0 + 3 * std::ldexp(1.0, -11)) == 0x3C02); // halfway: to even (up)
        CHECK(encodeF16(65504.0) == 0x7BFF);
        CHECK(encodeF16(65519.0) == 0x7BFF);
        CHECK(encodeF16(65520.0) == 0x7C00); // rounds past the largest finite value
        CHECK(encodeF16(-std::ldexp(1.0, -24)) == 0x8001);
        CHECK(encodeF16(std::ldexp(1.0, -25)) == 0x0000); // halfway to the smallest subnormal: to even (0)
        CHECK(encodeF16(std::ldexp(3.0, -25)) == 0x0002);
        CHECK(encodeF16(std::ldexp(1023.5, -24)) == 0x0400); // rounds up into the smallest normal
        CHECK(encodeF32(0.1) == 0x3DCCCCCDu);
    }
}
