// Floating-point arithmetic and conversions over a warp's active lanes (PTX ISA 9.2 §9.7.3 floating
// point, §9.7.4 half precision, §9.7.9.21 cvt). Rounding to every PTX format goes through one exact
// routine (roundTo) on long double (64-bit significand: every f32/f64/int64 input is exact there).
#include "exec/machine.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

namespace layoutscope::exec {

namespace {

struct Format {
    int man, exp; ///< stored significand bits, exponent bits
};
Format formatOf(Ty t) {
    if (t.k == TK::F16 || t.k == TK::F16x2) return {10, 5};
    if (t.k == TK::BF16 || t.k == TK::BF16x2) return {7, 8};
    return t.bits == 64 ? Format{52, 11} : Format{23, 8};
}

uint64_t canonicalNaN(Format f) {
    // f32 0x7fffffff (PTX ISA: canonical NaN); f16 0x7fff, bf16 0x7fff; unverified for f64 (0x7fff...f).
    return (uint64_t(1) << (f.man + f.exp)) - 1;
}

// x rounded to format f with mode r; `sat` clamps to [0, 1] with NaN -> 0.
uint64_t roundTo(long double x, Format f, Rnd r) {
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

bool isSubnormal(uint64_t bits, Format f) {
    return ((bits >> f.man) & ((uint64_t(1) << f.exp) - 1)) == 0 && (bits & ((uint64_t(1) << f.man) - 1));
}
uint64_t flush(uint64_t bits, Format f) {
    return isSubnormal(bits, f) ? bits & (uint64_t(1) << (f.man + f.exp)) : bits;
}

long double fromBits(uint64_t bits, Format f) {
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

Rnd intRounding(Rnd r) { // .rni etc. round a float to an integral value
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
    const Format f = formatOf(t);
    if (sat) v = std::isnan(v) ? 0.0L : std::clamp(v, 0.0L, 1.0L);
    uint64_t bits = roundTo(v, f, r == Rnd::None ? Rnd::Rn : r);
    return ftz ? flush(bits, f) : bits;
}

} // namespace

double toDouble(uint64_t bits, Ty t) {
    if (t.isFloat() || t.k == TK::F16x2 || t.k == TK::BF16x2)
        return static_cast<double>(fromBits(bits, formatOf(t)));
    if (t.k == TK::S) return static_cast<double>(signExtend(bits, t.bits));
    return static_cast<double>(maskBits(bits, t.bits));
}

uint64_t fromLongDouble(long double v, Ty t, Rnd r, bool sat) {
    return finish(v, t, r, false, sat);
}

bool compareFloat(Cmp c, double a, double b) {
    const bool un = std::isnan(a) || std::isnan(b);
    switch (c) {
    case Cmp::Eq:
        return !un && a == b;
    case Cmp::Ne:
        return !un && a != b;
    case Cmp::Lt:
        return !un && a < b;
    case Cmp::Le:
        return !un && a <= b;
    case Cmp::Gt:
        return !un && a > b;
    case Cmp::Ge:
        return !un && a >= b;
    case Cmp::Equ:
        return un || a == b;
    case Cmp::Neu:
        return un || a != b;
    case Cmp::Ltu:
        return un || a < b;
    case Cmp::Leu:
        return un || a <= b;
    case Cmp::Gtu:
        return un || a > b;
    case Cmp::Geu:
        return un || a >= b;
    case Cmp::Num:
        return !un;
    case Cmp::Nan:
        return un;
    default:
        return false;
    }
}

bool isFloatOp(const Op& op) {
    const bool ft = op.t.isFloat() || op.t.k == TK::F16x2 || op.t.k == TK::BF16x2;
    switch (op.opc) {
    case Opc::Add:
    case Opc::Sub:
    case Opc::Mul:
    case Opc::Mad:
    case Opc::Div:
    case Opc::Abs:
    case Opc::Neg:
    case Opc::Min:
    case Opc::Max:
        return ft;
    case Opc::Fma:
    case Opc::Sqrt:
    case Opc::Rsqrt:
    case Opc::Rcp:
    case Opc::Ex2:
    case Opc::Lg2:
    case Opc::Sin:
    case Opc::Cos:
    case Opc::Copysign:
    case Opc::Testp:
        return true;
    default:
        return false;
    }
}

namespace {

// The common case, f32/f64 add/sub/mul/fma in round-to-nearest without .ftz/.sat: the host FPU's result
// is the PTX result (IEEE 754 binary32/64, fused fma), NaNs canonicalized.
template <class F, class U>
bool fastFloat(Machine& m, Warp& w, const Op& op, uint32_t mask) {
    const auto& o = op.o;
    const size_t n = op.opc == Opc::Fma || op.opc == Opc::Mad ? 4 : 3;
    if (o.size() != n) return false;
    const Ty t = op.t;
    for (uint32_t x = mask; x; x &= x - 1) {
        const int l = std::countr_zero(x);
        F v[3];
        for (size_t i = 1; i < n; ++i) {
            const U bits = static_cast<U>(readOperand(m, w, o[i], l, t));
            std::memcpy(&v[i - 1], &bits, sizeof(F));
        }
        F r;
        switch (op.opc) {
        case Opc::Add:
            r = v[0] + v[1];
            break;
        case Opc::Sub:
            r = v[0] - v[1];
            break;
        case Opc::Mul:
            r = v[0] * v[1];
            break;
        default:
            r = std::fma(v[0], v[1], v[2]);
            break;
        }
        U bits;
        std::memcpy(&bits, &r, sizeof(F));
        if (r != r) bits = static_cast<U>(canonicalNaN(formatOf(t)));
        writeOperand(m, w, o[0], l, bits);
    }
    return true;
}

} // namespace

bool execFloat(Machine& m, Warp& w, const Op& op, uint32_t mask) {
    const Ty t = op.t;
    if (t.k == TK::F && (op.rnd == Rnd::None || op.rnd == Rnd::Rn) && !op.ftz && !op.sat &&
        (op.opc == Opc::Add || op.opc == Opc::Sub || op.opc == Opc::Mul || op.opc == Opc::Fma ||
         op.opc == Opc::Mad) &&
        (t.bits == 32 ? fastFloat<float, uint32_t>(m, w, op, mask)
                      : fastFloat<double, uint64_t>(m, w, op, mask)))
        return true;
    const bool pair = t.k == TK::F16x2 || t.k == TK::BF16x2;
    const Ty et = pair ? Ty{t.k == TK::F16x2 ? TK::F16 : TK::BF16, 16} : t;
    const Format f = formatOf(et);
    const auto& o = op.o;
    if (o.size() < 2) return m.fail(op, DiagCode::Syntax, "missing operands");
    const bool directed = op.rnd == Rnd::Rz || op.rnd == Rnd::Rm || op.rnd == Rnd::Rp;
    if (directed && et.bits == 64 &&
        (op.opc == Opc::Fma || op.opc == Opc::Mad || op.opc == Opc::Div || op.opc == Opc::Sqrt ||
         op.opc == Opc::Rcp))
        return m.fail(op, DiagCode::Unsupported,
                      "f64 fma/div/sqrt/rcp with a directed rounding mode is not modelled yet");
    if (op.approx &&
        (op.opc == Opc::Ex2 || op.opc == Opc::Lg2 || op.opc == Opc::Sin || op.opc == Opc::Cos ||
         op.opc == Opc::Rsqrt || op.opc == Opc::Div || op.opc == Opc::Rcp || op.opc == Opc::Sqrt)) {
        if (m.notes.size() < 16)
            m.notes.push_back(
                {Severity::Warning,
                 DiagCode::Unsupported,
                 {op.line, op.column, 1},
                 "`" + op.text +
                     "` is an approximation on the GPU; the executor computes it "
                     "correctly rounded (unverified: may differ from the hardware in the last bits)",
                 kExecRef,
                 Provenance::Assumption});
    }
    for (int l = 0; l < 32; ++l) {
        if (!(mask >> l & 1)) continue;
        const uint64_t A = readOperand(m, w, o[1], l, t);
        const uint64_t B = o.size() > 2 ? readOperand(m, w, o[2], l, t) : 0;
        const uint64_t C = o.size() > 3 ? readOperand(m, w, o[3], l, t) : 0;
        uint64_t out = 0;
        for (int h = 0; h < (pair ? 2 : 1); ++h) {
            const int sh = 16 * h;
            auto get = [&](uint64_t x) {
                uint64_t b = pair ? (x >> sh) & 0xffff : maskBits(x, et.bits);
                if (op.ftz) b = flush(b, f);
                return fromBits(b, f);
            };
            const long double a = get(A), b = get(B), c = get(C);
            long double v = 0;
            uint64_t bits = 0;
            bool raw = false;
            switch (op.opc) {
            case Opc::Add:
                v = a + b;
                break; // exact in long double for f16/bf16/f32 operands
            case Opc::Sub:
                v = a - b;
                break;
            case Opc::Mul:
                v = a * b;
                break;
            case Opc::Mad:
            case Opc::Fma:
                if (et.bits == 64)
                    v = std::fma(double(a), double(b), double(c));
                else if (et.bits == 32 && !directed)
                    v = std::fma(float(a), float(b), float(c)); // fused, exact RN
                else
                    v = a * b + c; // unverified: directed f32 / f16 sums spanning more than 64 bits
                break;
            case Opc::Div:
                if (et.bits == 64)
                    v = double(a) / double(b);
                else
                    v = a / b; // f32: the long double quotient rounds correctly to f32 (64 >= 2*24+2)
                break;
            case Opc::Rcp:
                v = et.bits == 64 ? 1.0 / double(a) : 1.0L / a;
                break;
            case Opc::Sqrt:
                v = et.bits == 64 ? std::sqrt(double(a)) : std::sqrt(a);
                break;
            case Opc::Rsqrt:
                v = 1.0L / std::sqrt(a);
                break;
            case Opc::Ex2:
                v = std::exp2(a);
                break;
            case Opc::Lg2:
                v = std::log2(a);
                break;
            case Opc::Sin:
                v = std::sin(a);
                break;
            case Opc::Cos:
                v = std::cos(a);
                break;
            case Opc::Abs:
                bits = (pair ? (A >> sh) & 0xffff : A) & ((uint64_t(1) << (f.man + f.exp)) - 1), raw = true;
                break;
            case Opc::Neg:
                bits = (pair ? (A >> sh) & 0xffff : A) ^ (uint64_t(1) << (f.man + f.exp)), raw = true;
                break;
            case Opc::Min:
            case Opc::Max:
                if (std::isnan(a) && std::isnan(b))
                    v = NAN;
                else if (std::isnan(a))
                    v = b;
                else if (std::isnan(b))
                    v = a;
                else if (a == b)
                    v = (op.opc == Opc::Min) == std::signbit(a) ? a : b; // -0 < +0
                else
                    v = (op.opc == Opc::Min) == (a < b) ? a : b;
                break;
            case Opc::Copysign:
                v = std::copysign(b, a);
                break;
            case Opc::Testp: {
                const int cls = std::fpclassify(a);
                const bool r = op.mode == 0   ? std::isfinite(a)
                               : op.mode == 1 ? std::isinf(a)
                               : op.mode == 2 ? !std::isnan(a)
                               : op.mode == 3 ? std::isnan(a)
                               : op.mode == 4 ? cls == FP_NORMAL
                                              : cls == FP_SUBNORMAL;
                writeOperand(m, w, o[0], l, r);
                continue;
            }
            default:
                return m.fail(op, DiagCode::Unsupported,
                              "the executor has no floating-point form of this instruction");
            }
            if (op.opc == Opc::Testp) break;
            if (!raw) {
                // Round-to-nearest sums and products in their own precision (correctly rounded by
                // the host FPU); unverified: directed modes of sums whose exponents differ by more
                // than 64 bits (long double loses the sticky bit).
                if (!directed && (op.opc == Opc::Add || op.opc == Opc::Sub || op.opc == Opc::Mul)) {
                    if (et.bits == 64)
                        v = op.opc == Opc::Add   ? double(a) + double(b)
                            : op.opc == Opc::Sub ? double(a) - double(b)
                                                 : double(a) * double(b);
                    else if (et.bits == 32)
                        v = op.opc == Opc::Add   ? float(a) + float(b)
                            : op.opc == Opc::Sub ? float(a) - float(b)
                                                 : float(a) * float(b);
                }
                bits = finish(v, et, op.rnd, op.ftz, op.sat);
            }
            out |= pair ? (bits & 0xffff) << sh : bits;
        }
        if (op.opc != Opc::Testp) writeOperand(m, w, o[0], l, out);
    }
    return true;
}

bool execConvert(Machine& m, Warp& w, const Op& op, uint32_t mask) {
    const Ty dt = op.t, st = op.t2;
    if (op.o.size() != 2 || st.k == TK::None)
        return m.fail(op, DiagCode::Syntax, "cvt needs .dtype.stype and 2 operands");
    if (dt.k == TK::F16x2 || dt.k == TK::BF16x2 || st.k == TK::F16x2 || st.k == TK::BF16x2)
        return m.fail(op, DiagCode::Unsupported, "packed cvt forms (.f16x2/.bf16x2) are not modelled yet");
    const bool dFloat = dt.isFloat(), sFloat = st.isFloat();
    for (int l = 0; l < 32; ++l) {
        if (!(mask >> l & 1)) continue;
        const uint64_t x = readOperand(m, w, op.o[1], l, st);
        uint64_t r;
        if (!dFloat && !sFloat) { // integer -> integer: truncate or extend; .sat clamps
            const long double v =
                st.k == TK::S ? (long double)signExtend(x, st.bits) : (long double)maskBits(x, st.bits);
            if (op.sat) {
                const long double lo = dt.k == TK::S ? -std::ldexp(1.0L, dt.bits - 1) : 0;
                const long double hi =
                    dt.k == TK::S ? std::ldexp(1.0L, dt.bits - 1) - 1 : std::ldexp(1.0L, dt.bits) - 1;
                const long double c = std::clamp(v, lo, hi);
                r = c < 0 ? uint64_t(int64_t(c)) : uint64_t(c);
            } else {
                r = st.k == TK::S ? uint64_t(signExtend(x, st.bits)) : maskBits(x, st.bits);
            }
            r = dt.k == TK::S ? uint64_t(signExtend(r, dt.bits)) : maskBits(r, dt.bits);
        } else if (dFloat) {
            uint64_t sx = x;
            if (sFloat && op.ftz) sx = flush(maskBits(x, st.bits), formatOf(st));
            const long double v = sFloat ? fromBits(maskBits(sx, st.bits), formatOf(st))
                                         : (st.k == TK::S ? (long double)signExtend(x, st.bits)
                                                          : (long double)maskBits(x, st.bits));
            if (sFloat &&
                (op.rnd == Rnd::Rni || op.rnd == Rnd::Rzi || op.rnd == Rnd::Rmi || op.rnd == Rnd::Rpi))
                r = finish(roundIntegral(v, op.rnd), dt, Rnd::Rn, op.ftz, op.sat);
            else
                r = finish(v, dt, op.rnd, op.ftz, op.sat);
        } else { // float -> integer: round to integral (default .rzi required by PTX), saturate, NaN -> 0
            long double v = fromBits(
                maskBits(op.ftz ? flush(maskBits(x, st.bits), formatOf(st)) : x, st.bits), formatOf(st));
            if (std::isnan(v)) {
                r = 0;
            } else {
                v = roundIntegral(v, op.rnd == Rnd::None ? Rnd::Rz : op.rnd);
                const long double lo = dt.k == TK::S ? -std::ldexp(1.0L, dt.bits - 1) : 0;
                const long double hi =
                    dt.k == TK::S ? std::ldexp(1.0L, dt.bits - 1) - 1 : std::ldexp(1.0L, dt.bits) - 1;
                v = std::clamp(v, lo, hi);
                r = v < 0 ? uint64_t(int64_t(v)) : uint64_t(v);
                r = dt.k == TK::S ? uint64_t(signExtend(r, dt.bits)) : maskBits(r, dt.bits);
            }
        }
        writeOperand(m, w, op.o[0], l, r);
    }
    return true;
}

} // namespace layoutscope::exec
