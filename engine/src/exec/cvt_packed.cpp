// cvt's packed and saturating float forms (PTX ISA 9.2 §9.7.9.21 cvt, "Semantics"):
//   cvt.frnd2{.relu}{.satfinite}.{f16,bf16}{x2}.f32   d, a{, b}    d[31:16] = cvt(a), d[15:0] = cvt(b)
//   cvt.{rna,rn,rz}{.satfinite}{.relu}.tf32.f32      d, a
//   cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.{f32 a, b | f16x2 a}    d[15:8] = cvt(a), d[7:0] = cvt(b)
//   cvt.rn.satfinite{.relu}.e2m1x2.f32 d, a, b        d[7:4] = cvt(a), d[3:0] = cvt(b)
//   cvt.rn.satfinite{.relu}.{e2m3x2,e3m2x2}.f32 d, a, b   d[13:8] = cvt(a), d[5:0] = cvt(b), bits 15:14, 7:6
//   0 cvt.{rz,rp}{.satfinite}.ue8m0x2.{f32 a, b | bf16x2 a}
//   cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2,e2m1x2,e2m3x2,e3m2x2} d, a;  cvt.rn.bf16x2.ue8m0x2 d, a
// The first source goes to the upper half (the ISA's text and CUDA's cuda_fp8.hpp / cuda_fp4.hpp, which
// pass (x.y, x.x) to put x.x in the low half). Narrow codes come from the engine's decoders
// (core/number_formats.hpp, checked against cuda_fp8.h / cuda_fp6.h / cuda_fp4.h): encoding rounds to the
// nearest of their values, ties to the even code.
#include "exec/cvt_packed.hpp"
#include "exec/fp_round.hpp"
#include "exec/machine.hpp"
#include "layoutscope/core/number_formats.hpp"

#include <cmath>

namespace layoutscope::exec {

namespace {

struct Narrow {
    NarrowFormat f;
    uint32_t bits;    ///< code width
    uint32_t maxCode; ///< the largest finite positive code
};
Narrow narrowOf(PackFmt p) {
    switch (pairFormat(p)) {
    case PackFmt::E4M3x2:
        return {NarrowFormat::E4M3, 8, 0x7E}; // 448
    case PackFmt::E5M2x2:
        return {NarrowFormat::E5M2, 8, 0x7B}; // 57344
    case PackFmt::E2M1x2:
        return {NarrowFormat::E2M1, 4, 0x7}; // 6
    case PackFmt::E2M3x2:
        return {NarrowFormat::E2M3, 6, 0x1F}; // 7.5
    default:
        return {NarrowFormat::E3M2, 6, 0x1F}; // 28
    }
}

constexpr FpFormat kF16{10, 5}, kBF16{7, 8}, kF32{23, 8}, kTF32{10, 8};

// f16 / bf16 / tf32 results of a value with .relu / .satfinite (§9.7.9.21: ".relu clamps negative results
// to 0; NaN results are the canonical NaN"; ".satfinite: NaN stays NaN, Inf and values beyond the largest
// finite one become it, sign kept"). unverified: relu of -0 (taken as +0).
uint64_t toFloat(long double v, FpFormat f, Rnd r, bool relu, bool satfinite) {
    if (std::isnan(v)) return canonicalNaN(f);
    if (relu && (v < 0 || (v == 0 && std::signbit(v)))) return 0;
    uint64_t bits = roundTo(v, f, r == Rnd::None ? Rnd::Rn : r);
    const uint64_t magnitude = bits & ((uint64_t(1) << (f.man + f.exp)) - 1);
    if (satfinite && magnitude == ((uint64_t(1) << f.exp) - 1) << f.man) // +-Inf -> +-max finite
        bits -= 1;
    return bits;
}

} // namespace

std::optional<PackFmt> packFmtOf(std::string_view m) {
    static const std::pair<const char*, PackFmt> kNames[] = {
        {"e4m3x2", PackFmt::E4M3x2}, {"e5m2x2", PackFmt::E5M2x2}, {"e2m1x2", PackFmt::E2M1x2},
        {"e2m3x2", PackFmt::E2M3x2}, {"e3m2x2", PackFmt::E3M2x2}, {"ue8m0x2", PackFmt::UE8M0x2},
        {"tf32", PackFmt::TF32},     {"e4m3x4", PackFmt::E4M3x4}, {"e5m2x4", PackFmt::E5M2x4},
        {"e2m3x4", PackFmt::E2M3x4}, {"e3m2x4", PackFmt::E3M2x4}, {"e2m1x4", PackFmt::E2M1x4}};
    for (const auto& [n, f] : kNames)
        if (m == n) return f;
    return std::nullopt;
}

int packFmtBits(PackFmt f) {
    if (f == PackFmt::E2M1x2) return 8;
    return f == PackFmt::TF32 || (f >= PackFmt::E4M3x4 && f != PackFmt::E2M1x4) ? 32 : 16;
}

PackFmt pairFormat(PackFmt f) {
    switch (f) {
    case PackFmt::E4M3x4:
        return PackFmt::E4M3x2;
    case PackFmt::E5M2x4:
        return PackFmt::E5M2x2;
    case PackFmt::E2M3x4:
        return PackFmt::E2M3x2;
    case PackFmt::E3M2x4:
        return PackFmt::E3M2x2;
    case PackFmt::E2M1x4:
        return PackFmt::E2M1x2;
    default:
        return f;
    }
}

bool isPackedCvt(const Op& op) {
    return op.mode != 0 || op.relu || op.satfinite || op.rnd == Rnd::Rs || op.t.k == TK::F16x2 ||
           op.t.k == TK::BF16x2 || op.t2.k == TK::F16x2 || op.t2.k == TK::BF16x2;
}

uint32_t encodeNarrowRn(long double v, PackFmt p, bool relu) {
    const Narrow n = narrowOf(p);
    const uint32_t signBit = 1u << (n.bits - 1);
    if (std::isnan(v)) // no NaN in fp6/fp4: +max (cuda_fp6.hpp, cuda_fp4.hpp); unverified: e5m2's NaN code
        return n.f == NarrowFormat::E4M3 || n.f == NarrowFormat::E5M2 ? 0x7F : n.maxCode;
    const bool neg = std::signbit(v);
    if (relu && neg) return 0;
    const long double a = std::fabs(v);
    // the largest code whose value is <= a (codes 0..maxCode are increasing in value)
    uint32_t lo = 0, hi = n.maxCode;
    while (lo < hi) {
        const uint32_t mid = (lo + hi + 1) / 2;
        if (decodeNarrow(n.f, mid) <= a)
            lo = mid;
        else
            hi = mid - 1;
    }
    uint32_t code = lo;
    if (code < n.maxCode) {
        const long double below = decodeNarrow(n.f, code), above = decodeNarrow(n.f, code + 1);
        const long double dBelow = a - below, dAbove = above - a;
        if (dAbove < dBelow || (dAbove == dBelow && (code & 1))) ++code; // nearest, ties to the even code
    } // else: at or beyond the largest finite value (Inf included): .satfinite gives it
    return (neg ? signBit : 0) | code;
}

uint32_t encodeUe8m0(long double v, Rnd r, bool satfinite) {
    if (std::isnan(v)) return 0xFF;
    const long double a = std::fabs(v);
    if (std::isinf(a)) return satfinite ? 0xFE : 0xFF;
    if (a == 0) return 0; // 2^-127, the smallest value (cuda_fp8.hpp: a zero exponent field)
    int e2 = 0;
    const long double frac = std::frexp(a, &e2); // a = frac * 2^e2, frac in [0.5, 1)
    int e = e2 - 1;                              // floor(log2 a)
    if (r == Rnd::Rp && frac != 0.5L) ++e;       // ceiling unless a power of two
    if (e < -127) return 0;
    if (e > 127) return satfinite ? 0xFE : 0xFF;
    return uint32_t(e + 127);
}

bool execPackedConvert(Machine& m, Warp& w, const Op& op, uint32_t mask) {
    const auto dst = static_cast<PackFmt>(op.mode & 0xF), src = static_cast<PackFmt>(op.mode >> 4);
    const Ty dt = op.t, st = op.t2;
    const size_t n = op.o.size();
    auto bad = [&](const std::string& why) {
        return m.fail(op, DiagCode::Unsupported,
                      "`" + op.text + "`: " + why + " (PTX ISA 9.2 §9.7.9.21 cvt)");
    };
    if (op.rnd == Rnd::Rs) return execStochasticConvert(m, w, op, mask); // cvt_stochastic.cpp
    if (dst >= PackFmt::E4M3x4 || src >= PackFmt::E4M3x4)
        return bad("the 4-wide types are for the stochastic-rounding `cvt.rs` only (ptxas: "
                   "`cvt.rs{.relu}.satfinite.f8x4type.f32 d, {a, b, e, f}, rbits`)");
    if (op.rnd == Rnd::None &&
        (dst != PackFmt::None || src != PackFmt::None || dt.k == TK::F16x2 || dt.k == TK::BF16x2))
        return bad("the rounding modifier is mandatory for this form");
    const bool f32Src = st.k == TK::F && st.bits == 32;
    const bool narrowDst = dst != PackFmt::None && dst != PackFmt::UE8M0x2 && dst != PackFmt::TF32;
    const bool narrowSrc = src != PackFmt::None && src != PackFmt::UE8M0x2 && src != PackFmt::TF32;
    enum class Form {
        HalfPair,
        Half,
        Tf32,
        NarrowPair,
        NarrowFromHalf2,
        Ue8m0Pair,
        Ue8m0FromBf16x2,
        ToF16x2,
        ToBf16x2
    };
    Form form;
    if ((dt.k == TK::F16x2 || dt.k == TK::BF16x2) && f32Src)
        form = Form::HalfPair;
    else if ((dt.k == TK::F16 || dt.k == TK::BF16) && f32Src)
        form = Form::Half;
    else if (dst == PackFmt::TF32 && f32Src)
        form = Form::Tf32;
    else if (narrowDst && f32Src)
        form = Form::NarrowPair;
    else if (narrowDst && (st.k == TK::F16x2 || st.k == TK::BF16x2))
        form = Form::NarrowFromHalf2;
    else if (dst == PackFmt::UE8M0x2 && f32Src)
        form = Form::Ue8m0Pair;
    else if (dst == PackFmt::UE8M0x2 && st.k == TK::BF16x2)
        form = Form::Ue8m0FromBf16x2;
    else if (dt.k == TK::F16x2 && narrowSrc)
        form = Form::ToF16x2;
    else if (dt.k == TK::BF16x2 && src == PackFmt::UE8M0x2)
        form = Form::ToBf16x2;
    else
        return bad("this pairing of destination and source types is not a cvt form the executor models");
    const bool twoSources = form == Form::HalfPair || form == Form::NarrowPair || form == Form::Ue8m0Pair;
    if (n != (twoSources ? 3u : 2u))
        return bad(std::string("expects ") + (twoSources ? "d, a, b" : "d, a") + " (" + std::to_string(n) +
                   " operands given)");
    if (narrowDst && !op.satfinite) return bad(".satfinite is mandatory for an fp8/fp6/fp4 destination");
    if (narrowDst && op.rnd != Rnd::Rn) return bad("an fp8/fp6/fp4 destination takes .rn only");
    if ((form == Form::Ue8m0Pair || form == Form::Ue8m0FromBf16x2) && op.rnd != Rnd::Rz && op.rnd != Rnd::Rp)
        return bad("a .ue8m0x2 destination takes .rz or .rp");
    if (form == Form::Tf32 && op.rnd != Rnd::Rna && op.rnd != Rnd::Rn && op.rnd != Rnd::Rz)
        return bad("a .tf32 destination takes .rna, .rn or .rz");
    if ((form == Form::HalfPair || form == Form::Half) && op.rnd != Rnd::Rn && op.rnd != Rnd::Rz)
        return bad("an f16/bf16 result from .f32 takes .rn or .rz");
    if ((form == Form::ToF16x2 || form == Form::ToBf16x2) && op.rnd != Rnd::Rn)
        return bad("conversion from a narrow pair takes .rn");
    const Ty f32{TK::F, 32};
    for (int l = 0; l < 32; ++l) {
        if (!(mask >> l & 1)) continue;
        const uint64_t A =
            readOperand(m, w, op.o[1], l, twoSources || form == Form::Half || form == Form::Tf32 ? f32 : st);
        const uint64_t B = twoSources ? readOperand(m, w, op.o[2], l, f32) : 0;
        auto f32Value = [&](uint64_t bits) { return fromBits(bits & 0xFFFFFFFFu, kF32); };
        uint64_t r = 0;
        switch (form) {
        case Form::HalfPair: {
            const FpFormat f = dt.k == TK::F16x2 ? kF16 : kBF16;
            r = toFloat(f32Value(A), f, op.rnd, op.relu, op.satfinite) << 16 |
                toFloat(f32Value(B), f, op.rnd, op.relu, op.satfinite);
            break;
        }
        case Form::Half:
            r = toFloat(f32Value(A), dt.k == TK::F16 ? kF16 : kBF16, op.rnd, op.relu, op.satfinite);
            break;
        case Form::Tf32: { // the f32 container with the low 13 significand bits zero
            const uint64_t t = toFloat(f32Value(A), kTF32, op.rnd, op.relu, op.satfinite);
            // A NaN keeps its sign, exponent and top 10 significand bits: an H200 turned 0x7fc00000 into
            // 0x7fc00000 (tests/data/exec/h200/xcomp); unverified for other payloads.
            r = std::isnan(f32Value(A)) ? uint32_t(A) & 0xFFFFE000u
                                        : (t >> 10 & 0x1FF) << 23 | (t & 0x3FF) << 13;
            break;
        }
        case Form::NarrowPair:
        case Form::NarrowFromHalf2: {
            const Narrow nf = narrowOf(dst);
            const FpFormat hf = st.k == TK::BF16x2 ? kBF16 : kF16;
            const long double hiV = form == Form::NarrowPair ? f32Value(A) : fromBits(A >> 16 & 0xFFFF, hf);
            const long double loV = form == Form::NarrowPair ? f32Value(B) : fromBits(A & 0xFFFF, hf);
            const uint32_t shift = nf.bits == 4 ? 4 : 8; // e2m1x2: nibbles; the others: bytes (6-bit codes
                                                         // with bits 7:6 zero)
            r = uint64_t(encodeNarrowRn(hiV, dst, op.relu)) << shift | encodeNarrowRn(loV, dst, op.relu);
            break;
        }
        case Form::Ue8m0Pair:
            r = uint64_t(encodeUe8m0(f32Value(A), op.rnd, op.satfinite)) << 8 |
                encodeUe8m0(f32Value(B), op.rnd, op.satfinite);
            break;
        case Form::Ue8m0FromBf16x2:
            r = uint64_t(encodeUe8m0(fromBits(A >> 16 & 0xFFFF, kBF16), op.rnd, op.satfinite)) << 8 |
                encodeUe8m0(fromBits(A & 0xFFFF, kBF16), op.rnd, op.satfinite);
            break;
        case Form::ToF16x2: { // exact: every fp8/fp6/fp4 value is an f16 value (NaN -> canonical NaN)
            const Narrow nf = narrowOf(src);
            const uint32_t shift = nf.bits == 4 ? 4 : 8, codeMask = (1u << nf.bits) - 1;
            auto one = [&](uint32_t code) {
                return toFloat(decodeNarrow(nf.f, code & codeMask), kF16, Rnd::Rn, op.relu, false);
            };
            r = one(uint32_t(A >> shift)) << 16 | one(uint32_t(A));
            break;
        }
        case Form::ToBf16x2: { // 2^(code-127): 0x00 -> 2^-127 (bf16 0x0040), 0xFF -> NaN (cuda_fp8.hpp)
            auto one = [&](uint32_t code) -> uint64_t {
                code &= 0xFF;
                return code == 0xFF ? 0x7FFF : code == 0 ? 0x0040 : uint64_t(code) << 7;
            };
            r = one(uint32_t(A >> 8)) << 16 | one(uint32_t(A));
            break;
        }
        }
        writeOperand(m, w, op.o[0], l, r);
    }
    return true;
}

} // namespace layoutscope::exec
