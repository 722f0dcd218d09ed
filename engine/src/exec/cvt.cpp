// cvt (PTX ISA 9.2 §9.7.9.21): integer <-> integer, integer <-> float and float <-> float conversions
// with every rounding modifier, .ftz and .sat. The packed forms (.f16x2/.bf16x2 from two .f32, the
// fp8/fp6/fp4/ue8m0 pairs and .tf32) are cvt_packed.cpp's.
#include "exec/cvt_packed.hpp"
#include "exec/fp_round.hpp"
#include "exec/machine.hpp"

#include <algorithm>
#include <cmath>

namespace layoutscope::exec {

bool execConvert(Machine& m, Warp& w, const Op& op, uint32_t mask) {
    const Ty dt = op.t, st = op.t2;
    if (st.k == TK::None) return m.fail(op, DiagCode::Syntax, "cvt needs .dtype.stype");
    if (isPackedCvt(op)) return execPackedConvert(m, w, op, mask); // cvt_packed.cpp
    if (op.o.size() != 2) return m.fail(op, DiagCode::Syntax, "cvt needs 2 operands");
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
