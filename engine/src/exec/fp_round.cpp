// The executor's one exact rounding routine for every PTX floating-point format (PTX ISA 9.2 §9.7.3,
// §4.6 rounding modifiers): roundTo on long double (64-bit significand), the bit <-> value maps, .ftz.
#include "exec/fp_round.hpp"

#include <algorithm>
#include <cmath>

namespace layoutscope::exec {

FpFormat formatOf(Ty t) {
    if (t.k == TK::F16 || t.k == TK::F16x2) return {10, 5};
    if (t.k == TK::BF16 || t.k == TK::BF16x2) return {7, 8};
    return t.bits == 64 ? FpFormat{52, 11} : FpFormat{23, 8};
}

uint64_t canonicalNaN(FpFormat f) {
    // f32 0x7fffffff (PTX ISA: canonical NaN); f16 0x7fff, bf16 0x7fff; unverified for f64 (0x7fff...f).
    return (uint64_t(1) << (f.man + f.exp)) - 1;
}

// x rounded to format f with mode r; `sat` clamps to [0, 1] with NaN -> 0.
uint64_t roundTo(long double x, FpFormat f, Rnd r) {
    const uint64_t signBit = uint64_t(1) << (f.man + f.exp);
    const uint64_t expMask = (uint64_t(1) << f.exp) - 1;
    if (std::isnan(x)) return canonicalNaN(f);
    const bool neg = std::signbit(x);
    const uint64_t sign = neg ? signBit : 0;
    long double a = std::fabs(x);
    const uint64_t inf = sign | (expMask << f.man);
    const uint64_t maxFinite = sign | ((expMask - 1) << f.man) | ((uint64_t(1) << f.man) - 1);
    if (std::isinf(a)) return inf;
    if (a == 0) return sign;
    const int emax = (1 << (f.exp - 1)) - 1, emin = 1 - emax;
    int e2 = 0;
    std::frexp(a, &e2);
    int e = std::max(e2 - 1, emin);
    long double scaled = std::ldexp(a, f.man - e); // integer part: the significand with its hidden bit
    long double q;
    switch (r) {
    case Rnd::Rz:
        q = std::trunc(scaled);
        break;
    case Rnd::Rm:
        q = neg ? std::ceil(scaled) : std::floor(scaled);
        break;
    case Rnd::Rp:
        q = neg ? std::floor(scaled) : std::ceil(scaled);
        break;
    case Rnd::Rna:
        q = std::round(scaled);
        break;
    default: { // ties to even
        const long double fl = std::floor(scaled), diff = scaled - fl;
        q = diff > 0.5L ? fl + 1 : diff < 0.5L ? fl : (std::fmod(fl, 2.0L) == 0 ? fl : fl + 1);
    }
    }
    uint64_t qi = static_cast<uint64_t>(q);
    if (qi >> (f.man + 1)) qi >>= 1, ++e; // rounded up to the next binade (exact: the low bit is 0)
    if (e > emax) {
        const bool toInf = r == Rnd::Rn || r == Rnd::None || r == Rnd::Rna || (r == Rnd::Rp && !neg) ||
                           (r == Rnd::Rm && neg);
        return toInf ? inf : maxFinite;
    }
    if (!(qi >> f.man)) return sign | qi; // subnormal (or rounded to zero)
    return sign | (uint64_t(e + emax) << f.man) | (qi & ((uint64_t(1) << f.man) - 1));
}

bool isSubnormal(uint64_t bits, FpFormat f) {
    return ((bits >> f.man) & ((uint64_t(1) << f.exp) - 1)) == 0 && (bits & ((uint64_t(1) << f.man) - 1));
}
uint64_t flush(uint64_t bits, FpFormat f) {
    return isSubnormal(bits, f) ? bits & (uint64_t(1) << (f.man + f.exp)) : bits;
}

long double fromBits(uint64_t bits, FpFormat f) {
    const uint64_t man = bits & ((uint64_t(1) << f.man) - 1);
    const uint64_t ex = (bits >> f.man) & ((uint64_t(1) << f.exp) - 1);
    const bool neg = (bits >> (f.man + f.exp)) & 1;
    const int emax = (1 << (f.exp - 1)) - 1;
    long double v;
    if (ex == ((uint64_t(1) << f.exp) - 1))
        v = man ? NAN : INFINITY;
    else if (ex == 0)
        v = std::ldexp(static_cast<long double>(man), 1 - emax - f.man);
    else
        v = std::ldexp(static_cast<long double>(man | (uint64_t(1) << f.man)), int(ex) - emax - f.man);
    return neg ? -v : v;
}

static Rnd intRounding(Rnd r) { // .rni etc. round a float to an integral value
    return r == Rnd::Rni   ? Rnd::Rn
           : r == Rnd::Rzi ? Rnd::Rz
           : r == Rnd::Rmi ? Rnd::Rm
           : r == Rnd::Rpi ? Rnd::Rp
                           : r;
}

long double roundIntegral(long double v, Rnd r) {
    switch (intRounding(r)) {
    case Rnd::Rz:
        return std::trunc(v);
    case Rnd::Rm:
        return std::floor(v);
    case Rnd::Rp:
        return std::ceil(v);
    default: {
        const long double fl = std::floor(v), d = v - fl;
        return d > 0.5L ? fl + 1 : d < 0.5L ? fl : (std::fmod(fl, 2.0L) == 0 ? fl : fl + 1);
    }
    }
}

// An exact result (long double holds it: sums and products of two f32, products of f16/bf16) or a
// correctly rounded f64 one (computed by the error-free transformations below) rounded to `t`.
uint64_t finish(long double v, Ty t, Rnd r, bool ftz, bool sat) {
    const FpFormat f = formatOf(t);
    if (sat) v = std::isnan(v) ? 0.0L : std::clamp(v, 0.0L, 1.0L);
    uint64_t bits = roundTo(v, f, r == Rnd::None ? Rnd::Rn : r);
    return ftz ? flush(bits, f) : bits;
}

} // namespace layoutscope::exec
