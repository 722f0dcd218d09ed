#pragma once
/// Internal to the executor: cvt's packed and saturating float forms (PTX ISA 9.2 §9.7.9.21 cvt):
/// `.f16x2/.bf16x2` from two `.f32`, `.relu` / `.satfinite` on f16/bf16 results, `.tf32`, and the narrow
/// pairs `.e4m3x2 .e5m2x2 .e2m1x2 .e2m3x2 .e3m2x2 .ue8m0x2` in both directions (cvt_packed.cpp).
#include "exec/program.hpp"

#include <cstdint>
#include <optional>
#include <string_view>

namespace layoutscope::exec {

struct Machine;
struct Warp;

/// A cvt type that has no register type of its own (Op::mode holds dst | src << 4; the Ty is a .b
/// container of packFmtBits bits).
enum class PackFmt : uint8_t {
    None,
    E4M3x2,
    E5M2x2,
    E2M1x2,
    E2M3x2,
    E3M2x2,
    UE8M0x2,
    TF32,
    E4M3x4, ///< the 4-wide forms: `cvt.rs` only (cvt_stochastic.cpp)
    E5M2x4,
    E2M3x4,
    E3M2x4,
    E2M1x4
};

[[nodiscard]] std::optional<PackFmt> packFmtOf(std::string_view modifier); ///< "e4m3x2" ... "tf32"
/// The register width of the packed value: .b8 (e2m1x2), .b16 (the other pairs, e2m1x4), .b32 (tf32, the
/// other x4 forms).
[[nodiscard]] int packFmtBits(PackFmt f);

/// cvt forms handled by execPackedConvert: a PackFmt on either side, an f16x2/bf16x2 side, `.relu`, or
/// `.satfinite` (whose meaning, "NaN stays NaN, out of range becomes the largest finite value", differs
/// from `.sat`'s clamp to [0, 1]).
[[nodiscard]] bool isPackedCvt(const Op& op);
bool execPackedConvert(Machine& m, Warp& w, const Op& op, uint32_t mask);

/// `v` rounded to nearest (ties to even code) in the narrow format of `f` (E4M3x2 ... E3M2x2: one
/// element's code), with .satfinite (always on for these: PTX requires it): NaN -> 0x7F for e4m3/e5m2,
/// +max for the fp6/fp4 formats (no NaN; cuda_fp4.hpp, cuda_fp6.hpp); +-Inf and values beyond the largest
/// finite one -> +-max. `relu`: negative results (and -0) -> +0.
[[nodiscard]] uint32_t encodeNarrowRn(long double v, PackFmt f, bool relu);
/// The element format of a 4-wide PackFmt (E4M3x4 -> E4M3x2 ...); others unchanged.
[[nodiscard]] PackFmt pairFormat(PackFmt f);

/// cvt_stochastic.cpp: `cvt.rs{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b, rbits` and
/// `cvt.rs{.relu}.satfinite.{e4m3x4,e5m2x4,e2m3x4,e3m2x4,e2m1x4}.f32 d, {a, b, e, f}, rbits` (sm_100a,
/// sm_103a).
bool execStochasticConvert(Machine& m, Warp& w, const Op& op, uint32_t mask);
/// One element of a `.rs` conversion: |v| truncated to `man` stored significand bits at exponents
/// >= `emin` (no upper bound), plus one unit in the last place when the discarded fraction of that unit
/// plus rnd / 2^rndBits carries out (reaches 1). Returns the magnitude's value; `carried` tells whether it
/// rounded away from zero. `v` finite.
[[nodiscard]] long double stochasticMagnitude(long double v, int man, int emin, uint32_t rnd, int rndBits,
                                              bool& carried);
/// `v` as a ue8m0 code with .rz (floor of log2|v|) or .rp (ceiling), the sign ignored: NaN -> 0xFF,
/// exponents below -127 -> 0x00, above 127 (and Inf) -> 0xFF, or 0xFE with .satfinite.
[[nodiscard]] uint32_t encodeUe8m0(long double v, Rnd r, bool satfinite);

} // namespace layoutscope::exec
