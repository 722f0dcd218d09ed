#pragma once
/// Internal to the executor: the one exact rounding routine of every PTX floating-point format (fp.cpp,
/// cvt.cpp, cvt_packed.cpp). Values travel as long double (64-bit significand: every f32, f16, bf16 and
/// int64 value, and every f64, is exact there).
#include "exec/program.hpp"

#include <cstdint>

namespace layoutscope::exec {

/// An IEEE-754-style binary format: stored significand bits and exponent bits (f64 52/11, f32 23/8,
/// f16 10/5, bf16 7/8).
struct FpFormat {
    int man, exp;
};
[[nodiscard]] FpFormat formatOf(Ty t); ///< f16/f16x2 -> f16, bf16/bf16x2 -> bf16, F 64 -> f64, else f32
/// The canonical NaN (PTX ISA: f32 0x7fffffff; f16 / bf16 0x7fff; unverified for f64: 0x7fff...f).
[[nodiscard]] uint64_t canonicalNaN(FpFormat f);
/// x rounded to format f with mode r (None = Rn; Rna ties away): IEEE overflow to Inf or the largest
/// finite value per mode, subnormals kept.
[[nodiscard]] uint64_t roundTo(long double x, FpFormat f, Rnd r);
[[nodiscard]] bool isSubnormal(uint64_t bits, FpFormat f);
[[nodiscard]] uint64_t flush(uint64_t bits, FpFormat f); ///< .ftz: a subnormal becomes a signed zero
[[nodiscard]] long double fromBits(uint64_t bits, FpFormat f);
/// .rni/.rzi/.rmi/.rpi (or .rn/...): v rounded to an integral value.
[[nodiscard]] long double roundIntegral(long double v, Rnd r);
/// An exact (or already correctly rounded) value rounded to `t` with `r`; `sat` clamps to [0, 1] (NaN ->
/// 0), `ftz` flushes a subnormal result.
[[nodiscard]] uint64_t finish(long double v, Ty t, Rnd r, bool ftz, bool sat);

/// fp_directed.cpp: f32/f64 `opc` (add, sub, mul, fma/mad, div, rcp, sqrt) on the operand values a, b, c
/// with a directed rounding `r` (.rz/.rm/.rp), computed exactly and rounded once into `out` (the result's
/// bits; NaN canonical). False when `t` or `r` is not such a case (the caller rounds as before).
[[nodiscard]] bool directedFloat(Opc opc, Rnd r, Ty t, long double a, long double b, long double c,
                                 uint64_t& out);

} // namespace layoutscope::exec
