#pragma once
/// Internal to the executor's matrix instructions (mma_sync.cpp, wgmma.cpp, ldmatrix.cpp): element
/// formats, register fragments (PTX ISA 9.2 §9.7.14.5 mma.sync fragment figures, §9.7.15.5.1 wgmma
/// register fragments) and the exact multiply-accumulate.
#include "exec/machine.hpp"

namespace layoutscope::exec {

/// The value of an `e`-format element held in the low meBits(e) bits of `bits` (tf32: the f32 bits with
/// the low 13 significand bits ignored; e4m3: no infinities, S.1111.111 is NaN; e5m2: IEEE-like).
[[nodiscard]] long double meValue(uint64_t bits, ME e);
/// `v` rounded to the accumulator format `e` (f16/f32/f64: round to nearest even; s32: wraps, or clamps
/// with `satfinite`), as register bits.
[[nodiscard]] uint64_t meStore(long double v, ME e, bool satfinite);

/// The accumulator bits of `v` (meStore); when the exact value had to be rounded (or clamped), a warning
/// once per instruction: unverified, the hardware's accumulation order and precision may differ there.
[[nodiscard]] uint64_t meStoreNoted(Machine& m, const Op& op, long double v, ME e, bool satfinite);

/// Element `i` of a thread's register fragment: which register (index into the operand's vector), which
/// bit offset in it, and the (row, col) of the matrix element: A (m, k), B (k, n), C/D (m, n).
struct FragElem {
    uint32_t reg = 0, shift = 0;
    uint32_t row = 0, col = 0;
};
/// Elements per thread of A, B and C/D of mma.sync `f` (A of wgmma: the same as mma.sync m16n8kK).
[[nodiscard]] uint32_t fragCount(const MmaForm& f, char which);
/// mma.sync fragments (lane 0..31); for wgmma's A from registers and D add 16 * (warp in warpgroup) to
/// the row (wgmmaD gives D's element for N columns).
[[nodiscard]] FragElem mmaFrag(const MmaForm& f, char which, uint32_t lane, uint32_t i);
[[nodiscard]] FragElem wgmmaD(const MmaForm& f, uint32_t warpInGroup, uint32_t lane, uint32_t i);

/// wgmma.mma_async.sp (wgmma_sparse.cpp): `A`, the stored 64 x K/2 values (row-major), becomes the 64 x K
/// matrix the metadata (sp-meta, Op::o.back(), of the 4 warps) places them in; false (m.error) on invalid
/// metadata.
[[nodiscard]] bool expandSparseA(Machine& m, const Op& op, const std::array<Warp*, 4>& warps,
                                 const MmaForm& f, std::vector<long double>& A);

/// mma.sp (mma_sparse.cpp): `A`, the stored 16 x K/2 values (row-major), becomes the 16 x K matrix the
/// metadata (Op::o[4] of the lanes the selector names) places them in; false (m.fail) on metadata the
/// PTX ISA calls undefined.
[[nodiscard]] bool expandMmaSpA(Machine& m, Warp& w, const Op& op, const MmaForm& f,
                                std::vector<long double>& A);

/// The register slot of element `i` of a vector operand (the operand itself when it is not a vector);
/// -1 for an immediate or sink.
[[nodiscard]] inline int vecReg(const Opnd& o, size_t i) {
    const Opnd& e = o.kind == OK::Vec ? o.elems[i] : o;
    return e.kind == OK::Reg ? int(e.reg) : -1;
}
/// Address of a memory operand `[reg+imm]` / `[sym+imm]` for `lane`.
[[nodiscard]] inline uint64_t memAddress(Machine& m, Warp& w, const Opnd& o, int lane) {
    uint64_t a = static_cast<uint64_t>(o.imm);
    if (o.hasBase) a += m.reg(w, o.reg, lane);
    if (o.sym >= 0) a += symbolAddress(m, m.p.symbols[o.sym], w, lane);
    return a;
}

} // namespace layoutscope::exec
