#pragma once
/// The values a tcgen05.mma (or a wgmma.mma_async, appended) leaves in its accumulator, against an
/// independent reference (issue 24 item 4): the product of the global tiles the TMA loads brought in, element
/// by element, as the operand check resolves them (the tile behind each descriptor, its direction from
/// `expect`, `roles=` or the box). A value check catches what the operand check cannot: the right bytes read
/// as the wrong type (an instruction descriptor saying bf16 for an f16 tensor), or an accumulation that
/// should not happen.
///
/// Reference: sum over k of A(m,k) * B(n,k) in binary64 from the global elements (decoded by the tensor
/// map's type: FLOAT16, BFLOAT16, FLOAT32, TFLOAT32; 8-bit tensors by the descriptor's signedness), plus
/// the previous reference of the same accumulator when enable-input-d is set. Tolerance: exact for s32;
/// f32 2^-20 * sum |a*b| (+ 2^-20 * |reference|); f16 2^-9 * (sum |a*b| + |reference|). Checked: dense
/// kind::f16 / kind::tf32 / kind::i8 with .cta_group::1 and A from shared memory; other forms are skipped,
/// with the reason.
#include "layoutscope/scenario/scenario.hpp"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace layoutscope {

/// One accumulator element: its expected value, the value in Tensor Memory (wgmma: in a register), and the
/// allowed difference.
struct MmaDValue {
    uint32_t m = 0, n = 0;         ///< the D element
    uint32_t lane = 0, column = 0; ///< its TMEM cell (absolute); wgmma: 0
    double expected = 0, actual = 0;
    double tolerance = 0;
    [[nodiscard]] double error() const { return actual - expected; }
    /// Within the tolerance, or the same value (an infinity both ways), or NaN both ways.
    [[nodiscard]] bool ok() const {
        return std::fabs(actual - expected) <= tolerance || actual == expected ||
               (std::isnan(actual) && std::isnan(expected));
    }
    /// appended, wgmma: the thread (in the CTA) and register number (the scenario's, %f5 -> 5) holding the
    /// element, and its half for .f16 accumulators (0: bits [0,16), 1: bits [16,32); .f32: 0).
    uint32_t thread = 0, reg = 0, half = 0;
};

/// The check of the accumulator one tcgen05.mma leaves.
struct MmaDCheck {
    size_t instr = 0; ///< the MMA's scenario instruction
    uint32_t cta = 0;
    std::vector<MmaDValue> cells; ///< m-major, every element of M x N; empty when skipped
    size_t wrong = 0;             ///< cells not ok()
    std::string skipped;          ///< why the accumulator was not checked ("" when it was)
};

/// Every tcgen05.mma's accumulator of a completed run, for the views (colour D by value and by error): the
/// expectation of the last MMA into each accumulator against the final Tensor Memory. An MMA whose D a
/// later MMA accumulates into carries the reference on and is not listed.
[[nodiscard]] std::vector<MmaDCheck> mmaDValues(const Scenario& s, const Run& run);

/// The same for every wgmma.mma_async of a completed run (D in the registers of the warpgroup, PTX ISA 9.2
/// §9.7.15.5.1.1): the reference of the last wgmma into each set of registers against their final values.
/// Reference as above, plus the registers' earlier values when scale-d is 1 and no checked wgmma wrote them
/// (the `regs` directive's); imm-scale-a/b = -1 negate. Tolerance: f32 2^-20 (sum |a*b| + |reference|),
/// f16 2^-9 (sum |a*b| + |reference|). Cells m-major (M = 64) with MmaDValue::thread / reg / half set.
[[nodiscard]] std::vector<MmaDCheck> wgmmaDValues(const Scenario& s, const Run& run);

} // namespace layoutscope
