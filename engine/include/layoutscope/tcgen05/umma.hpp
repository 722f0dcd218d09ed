#pragma once
/// tcgen05.mma executed (PTX ISA 9.2 §9.7.16.10.9): D = A x B (+ D), A (M x K) from shared memory through
/// a matrix descriptor or from Tensor Memory, B (N x K) through a descriptor, D (M x N) in Tensor Memory
/// at the data path layout of umma_layout.hpp.
///
/// [SECTION] index: kinds and types · instruction descriptor · operand reads · block scaling
/// (umma_scale.cpp) · execution (exec.hpp)
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

/// Dense kinds, then the block-scaled ones (`.block_scale`, scale factors from Tensor Memory).
enum class UmmaKind : uint8_t { F16, Tf32, F8f6f4, I8, Mxf8f6f4, Mxf4, Mxf4nvf4 };
[[nodiscard]] const char* ummaKindName(UmmaKind k); ///< "kind::f16", ..., "kind::mxf4nvf4"
[[nodiscard]] bool ummaKindBlockScaled(UmmaKind k); ///< kind::mxf8f6f4, mxf4, mxf4nvf4

/// Element types of A, B and D. E2m1: 4 bits, two a byte (kind::mxf4 / mxf4nvf4, packed).
enum class UmmaType : uint8_t { F16, Bf16, Tf32, E4m3, E5m2, U8, S8, F32, S32, E2m1 };
[[nodiscard]] const char* ummaTypeName(UmmaType t); ///< "f16", "bf16", "tf32", "e4m3", ..., "s32"
/// Bits an element of the type takes in shared memory (16, 32, 8 or 4) or in a D cell (32 for f32/s32, 16
/// f16).
[[nodiscard]] uint32_t ummaTypeBits(UmmaType t);
/// The value of an input element from its `ummaTypeBits` raw bits (tf32: the low 13 bits ignored).
[[nodiscard]] double ummaInputValue(UmmaType t, uint32_t raw);

// [SECTION] instruction descriptor --------------------------------------------------------------------

/// Scale-factor format of a block-scaled MMA (idesc bit 23: CuTe UMMA::ScaleFormat).
enum class UmmaScaleFormat : uint8_t { Ue4m3 = 0, Ue8m0 = 1 };

/// `.collector::bN::op` of tcgen05.mma.ws (PTX ISA 9.2 §9.7.16.10.9.3): what happens to collector buffer N
/// that can hold B. Omitted = b0::discard. Semantics in umma_ws_sp.hpp.
enum class UmmaCollectorOp : uint8_t { Discard, Fill, Use, Lastuse };
struct UmmaCollector {
    uint32_t buffer = 0; ///< b0..b3
    UmmaCollectorOp op = UmmaCollectorOp::Discard;
};
[[nodiscard]] const char* ummaCollectorOpName(UmmaCollectorOp o); ///< "discard", "fill", "use", "lastuse"

/// Which instruction form a descriptor is decoded for: `.ws` (weight stationary) and/or `.sp` (sparse A).
struct UmmaForm {
    bool ws = false;
    bool sparse = false;
};

/// A validated tcgen05.mma: dense or block-scaled, and the .ws / .sp forms of the dense kinds.
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
    // Block scaling (kind::mxf8f6f4 / mxf4 / mxf4nvf4 `.block_scale`); all zero for the dense kinds.
    uint32_t scaleVecSize =
        0; ///< elements of K one scale factor covers: 32 (1X, 2X, .block32) or 16 (4X, .block16)
    UmmaScaleFormat sfFormat = UmmaScaleFormat::Ue8m0; ///< idesc bit 23
    uint32_t sfaId = 0, sfbId = 0;       ///< idesc bits [29,31) and [4,6): first SF byte in a column
    uint32_t sfaTaddr = 0, sfbTaddr = 0; ///< `[scale-A-tmem]`, `[scale-B-tmem]` (lane << 16 | column)
    // .ws / .sp (umma_ws_sp.hpp); all zero for the plain forms.
    bool ws = false;                ///< tcgen05.mma.ws: weight stationary, .cta_group::1, M 32/64/128
    bool sparse = false;            ///< tcgen05.mma.sp: A is M x K/2 values + 2:4 (1:2 tf32) metadata
    uint32_t spSelector = 0;        ///< idesc bits [0,2): sparsity selector (.sp)
    uint32_t spMetaTaddr = 0;       ///< `[sp-meta-tmem]` (lane << 16 | column)
    uint32_t maxShift = 0;          ///< idesc bits [30,32) (.ws): maximum B shift 0, 8, 16 or 32
    UmmaCollector collector;        ///< .ws: `.collector::bN::op` (default b0::discard)
    bool hasZeroColumnMask = false; ///< .ws: the optional zero-column-mask-desc operand is present
    uint64_t zeroColumnMask = 0;    ///< .ws: zero-column mask descriptor (§9.7.16.4.3)
};

/// K of one instruction: 256 bits of K per row: 16 (16-bit types), 8 (tf32), 32 (8-bit types), 64 (e2m1);
/// twice that for .sp (A then holds K / 2 stored values a row).
[[nodiscard]] uint32_t ummaK(const UmmaOp& op);
/// The accumulator shape of an op.
[[nodiscard]] UmmaDShape ummaDShape(const UmmaOp& op);

/// Decode and check the instruction descriptor of a `kind` MMA with `.cta_group::ctaGroup`: every field a
/// dense tcgen05.mma allows, with diagnostics naming the bits (InvalidValue) or saying what is not
/// modelled (Unsupported: f6/f4 formats). Fills kind, ctaGroup, m, n, a, b, d, trans*, neg*, saturate,
/// idesc. `form`: .ws (bits [30,32) max shift allowed; .cta_group::1, M 32/64/128, N 64/128/256) and/or .sp
/// (bit 2 must be 1, bits [0,2) the sparsity selector; N at most 128 with .ws; umma_ws_sp.hpp says which
/// sparse shapes are modelled) — PTX ISA 9.2 §9.7.16.2.1 (Table 39), §9.7.16.4.2. Fills ws, sparse,
/// spSelector, maxShift too.
[[nodiscard]] Result<UmmaOp> decodeUmmaIdesc(UmmaKind kind, uint32_t ctaGroup, uint32_t idesc,
                                             UmmaForm form = {});

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

// [SECTION] block scaling (umma_scale.cpp) -------------------------------------------------------------

/// Decode and check the block-scaled instruction descriptor (CuTe UMMA::InstrDescriptorBlockScaled) of a
/// `.kind::mxf8f6f4|mxf4|mxf4nvf4.block_scale` MMA whose scale vector covers `scaleVecSize` (16 or 32)
/// elements of K:
///   bits [0,2) sparse id2, [2,3) sparse flag (must be 0), [3,4) reserved, [4,6) B scale-factor id,
///   [6,7) reserved, [7,10) A format, [10,13) B format, [13,14) negate A, [14,15) negate B, [15,16) A major,
///   [16,17) B major, [17,23) N >> 3, [23,24) scale format (0 UE4M3, 1 UE8M0), [24,29) M >> 4,
///   [29,31) A scale-factor id, [31,32) K size (kind::mxf4*: 1 = K96, sm_103 only; must be 0 here).
/// Formats: kind::mxf8f6f4 0 E4M3, 1 E5M2 (3 E2M3, 4 E3M2, 5 E2M1 in 8-bit containers: Unsupported);
/// kind::mxf4 / mxf4nvf4 1 E2M1 (packed). D is always F32. Fills the block-scaling fields except the
/// scale-factor addresses.
[[nodiscard]] Result<UmmaOp> decodeUmmaIdescBlockScaled(UmmaKind kind, uint32_t ctaGroup,
                                                        uint32_t scaleVecSize, uint32_t idesc);

/// Scale factors per row of A or B in one MMA: K / scaleVecSize (1 for mxf8f6f4, 2 or 4 for mxf4*).
[[nodiscard]] uint32_t ummaScalesPerRow(const UmmaOp& op);

enum class UmmaOperand : uint8_t { A, B };
/// Where scale factor `kBlock` (elements [kBlock * scaleVecSize, (kBlock + 1) * scaleVecSize) of K) of row
/// `row` of A or B is read, as an offset from [scale-A-tmem] / [scale-B-tmem]: CuTe UMMA::tmem_sf_frg, 4x1
/// data path (ScaleFactorDuplicated4by1): row r = r0 + 32 * r1 (r0 < 32) is held at lanes r0 + 32q of all
/// four lane quarters q, column r1, byte sfId + kBlock (golden/cute blockscaled_sf_utccp.json). The cell
/// returned is the replica in quarter r1 % 4 (lane r % 128 for r < 128: the lane that holds D's row r).
/// unverified: which replica the hardware reads (RuleId::Tcgen05MmaScaleFactors). .cta_group::2: the row's
/// CTA and row there as ummaARow / ummaBRow.
[[nodiscard]] UmmaDCell ummaScaleCell(const UmmaOp& op, UmmaOperand which, uint32_t row, uint32_t kBlock);
/// Columns the scale factors of A (rows M, per CTA) or B (rows N) span from their address: ceil(rows / 32).
[[nodiscard]] uint32_t ummaScaleColumns(const UmmaOp& op, UmmaOperand which);
/// The value of a scale-factor byte: UE8M0 2^(e - 127) (0xFF NaN), UE4M3 E4M3 without sign (0x7F NaN; bit 7
/// ignored, unverified: open question 30).
[[nodiscard]] double ummaScaleValue(UmmaScaleFormat f, uint8_t raw);

} // namespace layoutscope
