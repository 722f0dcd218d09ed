// f32 / f64 add, sub, mul, fma (mad), div, rcp and sqrt with the directed rounding modifiers .rz, .rm,
// .rp (PTX ISA 9.2 §9.7.3: each is the exact result rounded once; IEEE 754-2008 roundTowardZero /
// roundTowardNegative / roundTowardPositive). The exact result is formed in integer arithmetic (128-bit
// significands with a sticky bit), so no intermediate rounding can decide the direction: long double
// (64 bits) cannot hold an f64 product or a sum of operands far apart in exponent.
#include "exec/fp_round.hpp"
#include "exec/machine.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace layoutscope::exec {

namespace {

int bitLength(UInt128 x) {
    const auto hi = uint64_t(x >> 64);
    return hi ? 128 - std::countl_zero(hi) : 64 - std::countl_zero(uint64_t(x));
}

// A finite non-zero value with at most 53 significant bits (every f32 and f64 value) as M * 2^E,
// M < 2^53 with its top bit at 52.
void split(long double x, uint64_t& mant, int& exp) {
    int e = 0;
    const long double f = std::frexp(std::fabs(x), &e); // |x| = f * 2^e, f in [0.5, 1)
    mant = static_cast<uint64_t>(std::ldexp(f, 53));
    exp = e - 53;
}

uint64_t signedZero(FpFormat f, bool neg) {
    return neg ? uint64_t(1) << (f.man + f.exp) : 0;
}

// (-1)^neg * (m + sticky * tiny) * 2^e, m > 0, rounded to format f with mode r. `sticky`: the exact value
// is a little more than m * 2^e (non-zero bits below m's last one).
uint64_t roundExact(bool neg, UInt128 m, int e, bool sticky, FpFormat f, Rnd r) {
    const int p = f.man + 1, emax = (1 << (f.exp - 1)) - 1, emin = 1 - emax;
    const int len = bitLength(m);
    int lsb = std::max(e + len - p, emin - f.man); // the exponent of the result's last significand bit
    UInt128 kept;
    bool inexact = sticky, above = false, half = false; // the dropped part vs half an ulp
    if (lsb <= e) {
        kept = m << (e - lsb);
        // only a sticky remainder is dropped: less than half an ulp
    } else {
        const int shift = lsb - e;
        const UInt128 rem = shift >= 128 ? m : m & ((UInt128(1) << shift) - 1);
        const UInt128 h = shift > 128 ? 0 : UInt128(1) << (shift - 1);
        kept = shift >= 128 ? 0 : m >> shift;
        inexact = inexact || rem != 0;
        above = h && (rem > h || (rem == h && sticky));
        half = h && rem == h && !sticky;
    }
    bool up = false;
    switch (r) {
    case Rnd::Rz:
        break;
    case Rnd::Rp:
        up = inexact && !neg;
        break;
    case Rnd::Rm:
        up = inexact && neg;
        break;
    default: // nearest even
        up = above || (half && (kept & 1));
        break;
    }
    kept += up;
    if (kept >> p) kept >>= 1, ++lsb; // rounded up to the next binade (the dropped bit is 0)
    const uint64_t sign = signedZero(f, neg);
    const uint64_t manMask = (uint64_t(1) << f.man) - 1;
    if (!(kept >> f.man)) return sign | uint64_t(kept); // subnormal (lsb is the smallest)
    const int field = lsb + f.man + emax;
    if (field >= (1 << f.exp) - 1) { // overflow: Inf, or the largest finite value toward zero
        const bool toInf = r == Rnd::Rn || r == Rnd::None || (r == Rnd::Rp && !neg) || (r == Rnd::Rm && neg);
        const uint64_t infBits = uint64_t((1 << f.exp) - 1) << f.man;
        return sign | (toInf ? infBits : infBits - 1);
    }
    return sign | uint64_t(field) << f.man | (uint64_t(kept) & manMask);
}

// x * 2^-shift with the bits shifted out folded into bit 0 (a sticky bit).
UInt128 shiftRightSticky(UInt128 x, int shift) {
    if (shift <= 0) return x << -shift;
    if (shift >= 128) return x != 0;
    return (x >> shift) | UInt128((x & ((UInt128(1) << shift) - 1)) != 0);
}

// a * b + c (hasC) or a * b, exact, rounded once.
uint64_t fmaExact(long double a, long double b, long double c, bool hasC, FpFormat f, Rnd r) {
    const bool negP = std::signbit(a) != std::signbit(b);
    if (a == 0 || b == 0) { // the product is a signed zero
        if (!hasC) return signedZero(f, negP);
        if (c != 0) return roundTo(c, f, Rnd::Rn); // c itself (exact in its own format)
        const bool negC = std::signbit(c);         // a sum of zeros: -0 only if both are, or with .rm
        return signedZero(f, negP == negC ? negP : r == Rnd::Rm);
    }
    uint64_t ma, mb;
    int ea, eb;
    split(a, ma, ea);
    split(b, mb, eb);
    const UInt128 prod = UInt128(ma) * mb; // < 2^106
    const int ep = ea + eb;
    if (!hasC || c == 0) return roundExact(negP, prod, ep, false, f, r);
    uint64_t mc;
    int ec;
    split(c, mc, ec);
    const bool negC = std::signbit(c);
    // align both at a common exponent E with the larger one's top bit at bit 125 (a bit of headroom for
    // the carry); the smaller one loses its low bits into a sticky bit 0 only when it lies far below, so
    // the rounding position stays well above bit 0 (the guard/round/sticky argument).
    const int topP = ep + bitLength(prod) - 1, topC = ec + bitLength(mc) - 1;
    const int E = std::max(topP, topC) - 125;
    const UInt128 P = shiftRightSticky(prod, E - ep), C = shiftRightSticky(mc, E - ec);
    UInt128 s;
    bool neg;
    if (negP == negC) {
        s = P + C, neg = negP;
    } else if (P >= C) {
        s = P - C, neg = negP;
    } else {
        s = C - P, neg = negC;
    }
    if (s == 0) return signedZero(f, r == Rnd::Rm); // exact cancellation: +0, or -0 with .rm
    return roundExact(neg, s, E, false, f, r);
}

uint64_t divExact(long double a, long double b, FpFormat f, Rnd r) {
    const bool neg = std::signbit(a) != std::signbit(b);
    uint64_t ma, mb;
    int ea, eb;
    split(a, ma, ea);
    split(b, mb, eb);
    const UInt128 n = UInt128(ma) << 74; // < 2^127; the quotient has 74 or 75 bits
    const UInt128 q = n / mb;
    return roundExact(neg, q, ea - eb - 74, n % mb != 0, f, r);
}

uint64_t sqrtExact(long double a, FpFormat f, Rnd r) {
    uint64_t ma;
    int ea;
    split(a, ma, ea);
    UInt128 n = ma;
    if (ea & 1) n <<= 1, --ea; // an even exponent
    n <<= 72;                  // < 2^126: the root has 63 bits
    auto s = static_cast<UInt128>(std::sqrt(static_cast<long double>(n)));
    while (s * s > n) --s;
    while ((s + 1) * (s + 1) <= n) ++s;
    return roundExact(false, s, (ea - 72) / 2, s * s != n, f, r);
}

} // namespace

bool directedFloat(Opc opc, Rnd r, Ty t, long double a, long double b, long double c, uint64_t& out) {
    if (t.k != TK::F || (r != Rnd::Rz && r != Rnd::Rm && r != Rnd::Rp)) return false;
    const FpFormat f = formatOf(t);
    const bool special = !std::isfinite(a) || !std::isfinite(b) || !std::isfinite(c);
    long double v; // NaN / Inf operands and exact special results: the same in every rounding mode
    switch (opc) {
    case Opc::Add:
    case Opc::Sub:
        if (special) {
            v = opc == Opc::Add ? a + b : a - b;
            break;
        }
        out = fmaExact(a, 1.0L, opc == Opc::Add ? b : -b, true, f, r);
        return true;
    case Opc::Mul:
        if (special) {
            v = a * b;
            break;
        }
        out = fmaExact(a, b, 0, false, f, r);
        return true;
    case Opc::Fma:
    case Opc::Mad:
        if (special) {
            v = a * b + c;
            break;
        }
        out = fmaExact(a, b, c, true, f, r);
        return true;
    case Opc::Div:
    case Opc::Rcp: {
        const long double x = opc == Opc::Rcp ? 1.0L : a, y = opc == Opc::Rcp ? a : b;
        if (!std::isfinite(x) || !std::isfinite(y) || x == 0 || y == 0) {
            v = x / y;
            break;
        }
        out = divExact(x, y, f, r);
        return true;
    }
    case Opc::Sqrt:
        if (!std::isfinite(a) || a <= 0) { // NaN, +Inf, +-0 (itself), negative -> NaN
            v = a < 0 ? std::numeric_limits<long double>::quiet_NaN() : a;
            break;
        }
        out = sqrtExact(a, f, r);
        return true;
    default:
        return false;
    }
    out = std::isnan(v) ? canonicalNaN(f) : roundTo(v, f, Rnd::Rn); // exact: Inf, NaN or a signed zero
    return true;
}

} // namespace layoutscope::exec
