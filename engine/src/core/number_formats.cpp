// Narrow float decoding and TMEM containers (ref/formats.md; PTX ISA 9.2 §5.2.3; cuda_fp4/6/8.h).
#include "layoutscope/core/number_formats.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace layoutscope {
namespace {

/// Generic sign/exponent/mantissa decode with subnormals (formats.md §1).
double decodeSem(uint32_t code, uint32_t eBits, uint32_t mBits, bool hasSign, int bias) {
    const uint32_t m = code & ((1u << mBits) - 1);
    const uint32_t e = (code >> mBits) & ((1u << eBits) - 1);
    const bool neg = hasSign && ((code >> (mBits + eBits)) & 1);
    const double frac = static_cast<double>(m) / static_cast<double>(1u << mBits);
    const double v = e == 0 ? std::ldexp(frac, 1 - bias) : std::ldexp(1.0 + frac, static_cast<int>(e) - bias);
    return neg ? -v : v;
}

} // namespace

const char* narrowFormatName(NarrowFormat f) {
    switch (f) {
    case NarrowFormat::E2M1:
        return "e2m1";
    case NarrowFormat::E2M3:
        return "e2m3";
    case NarrowFormat::E3M2:
        return "e3m2";
    case NarrowFormat::E4M3:
        return "e4m3";
    case NarrowFormat::E5M2:
        return "e5m2";
    case NarrowFormat::UE8M0:
        return "ue8m0";
    case NarrowFormat::UE4M3:
        return "ue4m3";
    }
    return "?";
}

uint32_t narrowFormatBits(NarrowFormat f) {
    switch (f) {
    case NarrowFormat::E2M1:
        return 4;
    case NarrowFormat::E2M3:
    case NarrowFormat::E3M2:
        return 6;
    default:
        return 8;
    }
}

double decodeNarrow(NarrowFormat f, uint32_t code) {
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    code &= (1u << narrowFormatBits(f)) - 1;
    switch (f) {
    case NarrowFormat::E2M1:
        return decodeSem(code, 2, 1, true, 1);
    case NarrowFormat::E2M3:
        return decodeSem(code, 2, 3, true, 1);
    case NarrowFormat::E3M2:
        return decodeSem(code, 3, 2, true, 3);
    case NarrowFormat::E4M3:
        if ((code & 0x7F) == 0x7F) return kNaN; // 0x7F, 0xFF
        return decodeSem(code, 4, 3, true, 7);
    case NarrowFormat::E5M2:
        if (((code >> 2) & 0x1F) == 0x1F) {
            if ((code & 3) != 0) return kNaN;
            return (code & 0x80) ? -std::numeric_limits<double>::infinity()
                                 : std::numeric_limits<double>::infinity();
        }
        return decodeSem(code, 5, 2, true, 15);
    case NarrowFormat::UE8M0:
        if (code == 0xFF) return kNaN;
        return std::ldexp(1.0, static_cast<int>(code) - 127); // 0x00 -> 2^-127 (cuda_fp8.hpp decoder)
    case NarrowFormat::UE4M3:
        // unverified: open question 30 — bit 7 is padding and ignored.
        if ((code & 0x7F) == 0x7F) return kNaN;
        return decodeSem(code & 0x7F, 4, 3, false, 7);
    }
    return kNaN;
}

uint8_t containerOfCode(NarrowFormat f, uint32_t code) {
    code &= (1u << narrowFormatBits(f)) - 1;
    if (f == NarrowFormat::E2M1) return static_cast<uint8_t>(code << 2); // bits [5:2]
    return static_cast<uint8_t>(code);                                   // bits [5:0] or the whole byte
}

uint32_t codeOfContainer(NarrowFormat f, uint8_t c) {
    switch (f) {
    case NarrowFormat::E2M1:
        return (c >> 2) & 0xF;
    case NarrowFormat::E2M3:
    case NarrowFormat::E3M2:
        return c & 0x3F;
    default:
        return c;
    }
}

uint32_t packedElement(const uint8_t* bytes, uint32_t bits, uint32_t e) {
    uint32_t v = 0;
    for (uint32_t k = 0; k < bits; ++k) {
        const uint32_t s = e * bits + k;
        v |= static_cast<uint32_t>((bytes[s / 8] >> (s % 8)) & 1) << k;
    }
    return v;
}

double decodeF16(uint16_t h) {
    const int sign = (h >> 15) ? -1 : 1;
    const uint32_t e = (h >> 10) & 0x1F, m = h & 0x3FF;
    if (e == 0x1F) return m ? std::numeric_limits<double>::quiet_NaN() : sign * HUGE_VAL;
    if (e == 0) return sign * std::ldexp(double(m), -24); // subnormal: m * 2^-24
    return sign * std::ldexp(double(0x400 | m), int(e) - 25);
}

double decodeF32(uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, 4);
    return double(f);
}

double decodeBf16(uint16_t bits) {
    return decodeF32(uint32_t(bits) << 16);
}

double decodeTf32(uint32_t bits) {
    return decodeF32(bits & ~0x1FFFu);
}

uint16_t encodeF16(double v) {
    if (std::isnan(v)) return 0x7E00;
    const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
    const double a = std::fabs(v);
    if (a == 0) return sign;
    if (std::isinf(a)) return sign | 0x7C00;
    int e = 0;
    std::frexp(a, &e);                                           // a in [2^(e-1), 2^e)
    const int quantumExp = std::max(e - 1, -14) - 10;            // 10 mantissa bits; subnormals share 2^-24
    const double r = std::nearbyint(std::ldexp(a, -quantumExp)); // exact scaling, then nearest even
    const double q = std::ldexp(r, quantumExp);
    if (q > 65504.0) return sign | 0x7C00;
    if (q < std::ldexp(1.0, -14)) return sign | uint16_t(std::ldexp(q, 24)); // subnormal (or 2^-14 exactly)
    int e2 = 0;
    const double f = std::frexp(q, &e2); // q = f * 2^e2, f in [0.5, 1)
    const uint32_t mant = uint32_t(std::ldexp(f * 2 - 1, 10));
    return uint16_t(sign | uint32_t(e2 - 1 + 15) << 10 | mant);
}

uint32_t encodeF32(double v) {
    const float f = static_cast<float>(v); // IEEE conversion: round to nearest even
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return bits;
}

} // namespace layoutscope
