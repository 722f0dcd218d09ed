// cvt with stochastic rounding, `.rs` (PTX ISA 9.2 §9.7.9.21 cvt; sm_100a and sm_103a, PTX ISA 8.7):
//   cvt.rs{.relu}{.satfinite}.{f16x2,bf16x2}.f32  d, a, b, rbits;          d[31:16] = cvt(a), d[15:0] =
//   cvt(b) cvt.rs{.relu}.satfinite.{e4m3x4,e5m2x4}.f32   d, {a, b, e, f}, rbits;  d[31:24] a, [23:16] b,
//   [15:8] e, [7:0] f cvt.rs{.relu}.satfinite.{e2m3x4,e3m2x4}.f32   d, {a, b, e, f}, rbits;  the same bytes,
//   bits 7:6 of each 0 cvt.rs{.relu}.satfinite.e2m1x4.f32            d (.b16), {a, b, e, f}, rbits;  d[15:12]
//   a ... d[3:0] f
// (ptxas 13.0 accepts these and no other 4-wide cvt; `.satfinite` is mandatory for the x4 forms, rbits is a
// .b32 register, d a .b32 register, a .b16 one for e2m1x4.)
//
// The rounding (§6.5.2 Table 17 and the cvt "Floating Point Notes"): ".rs rounds either towards zero or away
// from zero based on the carry out of the integer addition of the supplied random bits (rbits) to the
// truncated off (discarded) bits of mantissa from the input". Each element's random value (the cvt
// description):
//   f16x2   a: rbits[28:16], b: rbits[12:0]  (13 bits: the 13 mantissa bits f32 -> f16 discards)
//   bf16x2  a: rbits[31:16], b: rbits[15:0]  (16 bits: the 16 bits f32 -> bf16 discards)
//   e4m3x4 e5m2x4 e2m3x4 e3m2x4   a and b: rbits[31:16], e and f: rbits[15:0]
//   e2m1x4  a: rbits[31:24], b: rbits[15:8], e: rbits[23:16], f: rbits[7:0]
// unverified: the ISA's words for the x4 forms ("upper 16 bits are used for operands a, b"; "upper 8-bits
// from both 16-bits half of rbits are used for operands a, b") are read as above; which byte goes to which
// element of a pair, and whether a and b share their 16 bits, is in figures not in the text.
// Where the random value is narrower than the discarded bits (f32 -> fp8 discards 20 or 21, -> fp6 20 or 21,
// -> fp4 22; any destination subnormal discards more), it is added at the top of the discarded bits, the
// lower discarded bits taking part in the carry (unverified: hardware may drop them first). With 13/16 bits
// into a normal f16/bf16 result the ISA's addition is exactly this.
// Special values: NaN -> the canonical NaN (f16/bf16 0x7fff) or, for the narrow formats, .satfinite's NaN
// code (0x7f for e4m3/e5m2; +max for fp6/fp4, which have no NaN; cvt_packed.cpp's encodeNarrowRn); Inf ->
// Inf, or +-max with .satfinite. A result beyond the largest finite value: +-max with .satfinite; without
// it (f16x2/bf16x2 only), Inf when rounded away from zero and the largest finite value when rounded toward
// zero (IEEE's directed-rounding overflow; unverified). `.relu`: negative results -> +0, as the .rn forms.
#include "exec/cvt_packed.hpp"
#include "exec/fp_round.hpp"
#include "exec/machine.hpp"
#include "layoutscope/core/number_formats.hpp"

#include <cmath>

namespace layoutscope::exec {

namespace {

constexpr FpFormat kF16{10, 5}, kBF16{7, 8}, kF32{23, 8};

struct RsElement {
    int man = 0, emin = 0; ///< stored significand bits; the smallest normal exponent
    long double maxFinite = 0;
};

RsElement elementOf(PackFmt p, TK half) {
    switch (pairFormat(p)) {
    case PackFmt::E4M3x2:
        return {3, -6, 448.0L};
    case PackFmt::E5M2x2:
        return {2, -14, 57344.0L};
    case PackFmt::E2M3x2:
        return {3, 0, 7.5L};
    case PackFmt::E3M2x2:
        return {2, -2, 28.0L};
    case PackFmt::E2M1x2:
        return {1, 0, 6.0L};
    default:
        return half == TK::F16x2 ? RsElement{10, -14, 65504.0L} : RsElement{7, -126, 0x1.fep127L};
    }
}

// One element: the bits of `v` (an f32 value) in `dst` (PackFmt::None: f16 or bf16 per `half`).
uint64_t convertOne(long double v, PackFmt dst, TK half, uint32_t rnd, int rndBits, bool relu,
                    bool satfinite) {
    const RsElement e = elementOf(dst, half);
    const FpFormat hf = half == TK::F16x2 ? kF16 : kBF16;
    const bool narrow = dst != PackFmt::None;
    if (std::isnan(v)) return narrow ? encodeNarrowRn(v, dst, false) : canonicalNaN(hf);
    const bool neg = std::signbit(v);
    if (relu && neg) return 0; // -0 included (as the .rn forms; unverified)
    long double mag = std::fabs(v);
    bool carried = false;
    bool overflow = std::isinf(mag);
    if (!overflow) {
        mag = stochasticMagnitude(mag, e.man, e.emin, rnd, rndBits, carried);
        overflow = mag > e.maxFinite;
    }
    if (overflow) {
        if (narrow || satfinite)
            mag = e.maxFinite; // the x4 forms always have .satfinite
        else if (!carried && !std::isinf(v))
            mag = e.maxFinite; // toward zero: the largest finite value
        else
            mag = INFINITY;
    }
    const long double r = neg ? -mag : mag;
    return narrow ? encodeNarrowRn(r, dst, false) : roundTo(r, hf, Rnd::Rz); // exact: r is representable
}

} // namespace

long double stochasticMagnitude(long double v, int man, int emin, uint32_t rnd, int rndBits, bool& carried) {
    carried = false;
    if (v == 0) return v;
    int e2 = 0;
    std::frexp(v, &e2);
    const int e = std::max(e2 - 1, emin);              // the exponent of v's unit in the last place
    const long double scaled = std::ldexp(v, man - e); // in units in the last place: exact
    const long double kept = std::floor(scaled);       // the truncation toward zero
    const long double discarded = scaled - kept;       // the discarded bits, as a fraction of a unit
    const long double r = std::ldexp((long double)rnd, -rndBits);
    carried = discarded > 0 && discarded >= 1 - r;        // discarded + r carries out of the unit
    return std::ldexp(kept + (carried ? 1 : 0), e - man); // a carry into the next binade stays exact
}

bool execStochasticConvert(Machine& m, Warp& w, const Op& op, uint32_t mask) {
    const auto dst = static_cast<PackFmt>(op.mode & 0xF), src = static_cast<PackFmt>(op.mode >> 4);
    auto bad = [&](const std::string& why) {
        return m.fail(op, DiagCode::Unsupported,
                      "`" + op.text + "`: " + why + " (PTX ISA 9.2 §9.7.9.21 cvt, `.rs`)");
    };
    if (m.sm != "sm_100a" && m.sm != "sm_103a")
        return bad("`.rs` needs .target sm_100a or sm_103a (ptxas 13.0 refuses it on " +
                   (m.sm.empty() ? std::string("this target") : m.sm) + ")");
    if (m.ptxVersion < 87) return bad("`.rs` needs PTX ISA .version 8.7 or later");
    const bool f32Src = op.t2.k == TK::F && op.t2.bits == 32 && src == PackFmt::None;
    const bool x4 = dst >= PackFmt::E4M3x4;
    const bool half = dst == PackFmt::None && (op.t.k == TK::F16x2 || op.t.k == TK::BF16x2);
    if (!f32Src || (!x4 && !half))
        return bad(
            "`.rs` converts .f32 to .f16x2, .bf16x2, .e4m3x4, .e5m2x4, .e2m3x4, .e3m2x4 or .e2m1x4 only");
    if (x4 && !op.satfinite) return bad(".satfinite is mandatory for an fp8/fp6/fp4 destination");
    const size_t sources = x4 ? 1 : 2;
    if (op.o.size() != sources + 2 || (x4 && (op.o[1].kind != OK::Vec || op.o[1].elems.size() != 4)))
        return bad(x4 ? "expects d, {a, b, e, f}, rbits" : "expects d, a, b, rbits");
    if (op.o.back().kind != OK::Reg) return bad("rbits must be a .b32 register");
    // The registers' declared widths (ptxas: "Arguments mismatch for instruction 'cvt'" otherwise).
    auto bits = [&](const Opnd& o) {
        return o.kind == OK::Reg && o.reg < m.p.regBits.size() ? m.p.regBits[o.reg] : 0;
    };
    const int dBits = dst == PackFmt::E2M1x4 ? 16 : 32;
    if (op.o[0].kind != OK::Reg || (bits(op.o[0]) != 0 && bits(op.o[0]) != dBits))
        return bad("d must be a " + std::to_string(dBits) + "-bit register");
    if (bits(op.o.back()) != 0 && bits(op.o.back()) != 32) return bad("rbits must be a .b32 register");
    for (size_t i = 0; i < (x4 ? 4u : 2u); ++i) {
        const Opnd& o = x4 ? op.o[1].elems[i] : op.o[1 + i];
        if (o.kind == OK::Reg && bits(o) != 0 && bits(o) != 32) return bad("the sources must be .f32 values");
    }
    const Ty f32{TK::F, 32}, b32{TK::B, 32};
    for (int l = 0; l < 32; ++l) {
        if (!(mask >> l & 1)) continue;
        const uint32_t rbits = uint32_t(readOperand(m, w, op.o.back(), l, b32));
        auto in = [&](size_t i) {
            const Opnd& o = x4 ? op.o[1].elems[i] : op.o[1 + i];
            return fromBits(readOperand(m, w, o, l, f32) & 0xFFFFFFFFu, kF32);
        };
        uint64_t r = 0;
        if (half) {
            const bool f16 = op.t.k == TK::F16x2;
            const uint32_t rm = f16 ? 0x1FFF : 0xFFFF; // bits [0,13) / [0,16) of each half
            const int rb = f16 ? 13 : 16;
            r = convertOne(in(0), dst, op.t.k, rbits >> 16 & rm, rb, op.relu, op.satfinite) << 16 |
                convertOne(in(1), dst, op.t.k, rbits & rm, rb, op.relu, op.satfinite);
        } else if (dst == PackFmt::E2M1x4) { // a: bits [24,32), b: [8,16), e: [16,24), f: [0,8)
            const uint32_t rnd[4] = {rbits >> 24, rbits >> 8 & 0xFF, rbits >> 16 & 0xFF, rbits & 0xFF};
            for (size_t i = 0; i < 4; ++i)
                r = r << 4 | convertOne(in(i), dst, TK::None, rnd[i], 8, op.relu, true);
        } else { // a, b: bits [16,32); e, f: bits [0,16)
            for (size_t i = 0; i < 4; ++i)
                r = r << 8 |
                    convertOne(in(i), dst, TK::None, i < 2 ? rbits >> 16 : rbits & 0xFFFF, 16, op.relu, true);
        }
        writeOperand(m, w, op.o[0], l, r);
    }
    return true;
}

} // namespace layoutscope::exec
