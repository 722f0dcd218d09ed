// Floating-point arithmetic over a warp's active lanes (PTX ISA 9.2 §9.7.3 floating point, §9.7.4 half
// precision). Rounding goes through fp_round.cpp's exact routine; the directed f32/f64 roundings are
// fp_directed.cpp's, cvt is cvt.cpp's.
#include "exec/fp_round.hpp"
#include "exec/machine.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

namespace layoutscope::exec {

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
    const FpFormat f = formatOf(et);
    const auto& o = op.o;
    if (o.size() < 2) return m.fail(op, DiagCode::Syntax, "missing operands");
    const bool directed = op.rnd == Rnd::Rz || op.rnd == Rnd::Rm || op.rnd == Rnd::Rp;
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
            // f32/f64 add/sub/mul/fma/div/rcp/sqrt with .rz/.rm/.rp: exact, rounded once (fp_directed.cpp);
            // the result is representable, so finish() only applies .sat and .ftz to it
            if (directed && !op.approx && directedFloat(op.opc, op.rnd, et, a, b, c, bits)) {
                out |= finish(fromBits(bits, f), et, Rnd::Rn, op.ftz, op.sat);
                continue;
            }
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
                    v = a * b + c; // f16/bf16 (.rn only): exact in long double
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
                // the host FPU); the directed f32/f64 ones went through directedFloat above.
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

} // namespace layoutscope::exec
