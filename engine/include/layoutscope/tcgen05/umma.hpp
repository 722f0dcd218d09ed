#pragma once
/// tcgen05.mma executed (PTX ISA 9.2 §9.7.16.10.9): D = A x B (+ D), A (M x K) from shared memory through
/// a matrix descriptor or from Tensor Memory, B (N x K) through a descriptor, D (M x N) in Tensor Memory
/// at the data path layout of umma_layout.hpp.
///
/// [SECTION] index: kinds and types · instruction descriptor · operand reads · execution (exec.hpp)
///
/// Instruction descriptor (32 bits; CuTe UMMA::InstrDescriptor, cute/arch/mma_sm100_desc.hpp):
///   bits [0,2) sparse id2, [2,3) sparse flag, [3,4) saturate (kind::i8), [4,6) D format (0 F16, 1 F32,
///   2 S32), [7,10) A format, [10,13) B format, [13,14) negate A, [14,15) negate B, [15,16) A major
///   (0 K, 1 MN), [16,17) B major, [17,23) N >> 3, [24,29) M >> 4, [30,32) max shift (.ws only).
///   A/B formats: kind::f16 0 F16, 1 BF16; kind::tf32 2 TF32; kind::f8f6f4 0 E4M3, 1 E5M2 (3 E2M3,
///   4 E3M2, 5 E2M1 are not modelled); kind::i8 0 U8, 1 S8.
#include "layoutscope/core/result.hpp"
#include "layoutscope/tcgen05/umma_layout.hpp"

#include <cstdint>

namespace layoutscope {

// [SECTION] kinds and types -------------------------------------------------------------------------

enum class UmmaKind : uint8_t { F16, Tf32, F8f6f4, I8 };
[[nodiscard]] const char* ummaKindName(UmmaKind k); ///< "kind::f16", ...

/// Element types of A, B and D.
enum class UmmaType : uint8_t { F16, Bf16, Tf32, E4m3, E5m2, U8, S8, F32, S32 };
[[nodiscard]] const char* ummaTypeName(UmmaType t); ///< "f16", "bf16", "tf32", "e4m3", ..., "s32"
/// Bits an element of the type takes in shared memory (16, 32 or 8) or in a D cell (32 for f32/s32, 16 f16).
[[nodiscard]] uint32_t ummaTypeBits(UmmaType t);
/// The value of an input element from its `ummaTypeBits` raw bits (tf32: the low 13 bits ignored).
[[nodiscard]] double ummaInputValue(UmmaType t, uint32_t raw);

// [SECTION] instruction descriptor --------------------------------------------------------------------

/// A validated tcgen05.mma (dense, non-.ws, not block-scaled).
struct UmmaOp {
    UmmaKind kind = UmmaKind::F16;
    uint32_t ctaGroup = 1;
    uint32_t m = 128, n = 64; ///< from the instruction descriptor
    UmmaType a = UmmaType::F16, b = UmmaType::F16, d = UmmaType::F32;
    bool transA = false, transB = false; ///< 1 = MN-major
    bool negA = false, negB = false;
    bool saturate = false;     ///< kind::i8 .satfinite (idesc bit 3): clamp to s32 instead of wrapping
    uint64_t descA = 0;        ///< shared-memory descriptor of A (unless aFromTmem)
    uint64_t descB = 0;        ///< shared-memory descriptor of B
    bool aFromTmem = false;    ///< `[a-tmem]` operand form
    uint32_t aTaddr = 0;       ///< TMEM address of A (lane << 16 | column) when aFromTmem
    uint32_t dTaddr = 0;       ///< TMEM address of D
    bool enableInputD = false; ///< enable-input-d: D = A*B + D (else D = A*B)
    uint32_t idesc = 0;
};

/// K of one instruction: 256 bits of K per row: 16 (16-bit types), 8 (tf32), 32 (8-bit types).
[[nodiscard]] uint32_t ummaK(const UmmaOp& op);
/// The accumulator shape of an op.
[[nodiscard]] UmmaDShape ummaDShape(const UmmaOp& op);

/// Decode and check the instruction descriptor of a `kind` MMA with `.cta_group::ctaGroup`: every field a
/// dense tcgen05.mma allows, with diagnostics naming the bits (InvalidValue) or saying what is not
/// modelled (Unsupported: f6/f4 formats). Fills kind, ctaGroup, m, n, a, b, d, trans*, neg*, saturate,
/// idesc.
[[nodiscard]] Result<UmmaOp> decodeUmmaIdesc(UmmaKind kind, uint32_t ctaGroup, uint32_t idesc);

// [SECTION] operand reads ------------------------------------------------------------------------------

/// Where A[m][k] is read from when A is in Tensor Memory (`[a-tmem]`), as an offset from a-tmem:
/// the lane that holds row m of D in the same data path layout (Layout B: the CTA's row m % 64 in lanes
/// 0-63; CuTe duplicates it into lanes 64-127), column k * bits / 32, byte (k * bits / 8) % 4: elements
/// packed little-endian, 32 bits a column. unverified (RuleId::Tcgen05MmaATmem).
[[nodiscard]] UmmaDCell ummaATmemCell(const UmmaOp& op, uint32_t m, uint32_t k);

/// Which CTA of the pair (0 even, 1 odd) holds A row m / B row n, and its row there: .cta_group::1 (0, m);
/// ::2 rows [0, M/2) in the even CTA and [M/2, M) in the odd one (B likewise with N). unverified
/// (RuleId::Tcgen05MmaCtaPair).
struct UmmaRowHome {
    uint32_t cta = 0;
    uint32_t row = 0;
};
[[nodiscard]] UmmaRowHome ummaARow(const UmmaOp& op, uint32_t m);
[[nodiscard]] UmmaRowHome ummaBRow(const UmmaOp& op, uint32_t n);

} // namespace layoutscope
