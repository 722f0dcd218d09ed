#pragma once
/// Where tcgen05.mma puts its accumulator: the Tensor Memory (lane, column) of D[m][n] for every M, N,
/// .cta_group and D width (PTX ISA 9.2 §9.7.16.10.5 "Data path layout organization", Layouts A-G;
/// CuTe UMMA::tmem_frg and tmem_frg_ws in cute/atom/mma_traits_sm100_frag.hpp).
///
/// The PTX layouts (M is the instruction's M; lanes and columns are offsets
/// from d-tmem's lane and column):
///   Layout D  M = 128, .cta_group::1   lane m, column n                              (128 lanes x N)
///   Layout F  M =  64, .cta_group::1   lane (m % 16) + 32 * (m / 16), column n      (lanes 0-15 of each
///                                      warp's 32-lane quarter; the other 16 lanes stay free)
///   Layout A  M = 256, .cta_group::2   CTA m / 128 of the pair, lane m % 128, column n
///   Layout B  M = 128, .cta_group::2   CTA m / 64, lane (m % 64) + 64 * (n / (N/2)), column n % (N/2)
///                                      (each CTA's 64 rows; columns [0, N/2) in lanes 0-63, [N/2, N) in
///                                      lanes 64-127: N/2 columns per CTA)
///   Layout C  M = 128, .cta_group::2, .sp   CTA m / 64, lane (r % 16) + 32 * (r / 16) with r = m % 64,
///                                      column n (the F organization in each CTA: "4x1, 1/2 datapath";
///                                      unverified: the row order, the PTX figure is an image)
///   Layout E  M =  64, .ws             lane m + 64 * (n / (N/2)), column n % (N/2)   ("2x3": B's fold)
///   Layout G  M =  32, .ws             lane m + 32 * (n / (N/4)), column n % (N/4)   ("1x4": one quarter
///                                      of N per 32-lane quarter)
///   .ws M = 128 is Layout D.
/// CuTe (virtual addressing, lane stride 1, column stride 128): M = 64 ((16,4),N):((1,32),128); M = 128
/// (128,N):(1,128); 2SM M_MMA = 128 (128,N):(1,128); 2SM M_MMA = 64 (64,(N/2,2)):(1,(128,64)) — the same
/// four maps; tmem_frg_ws M = 64 (64,(N/2,2)):(1,(128,64)), M = 32 (32,(N/4,4)):(1,(128,32)) — E and G.
/// Shape table: PTX ISA 9.2 §9.7.16.2.1 (.ws: .cta_group::1 only, M 32/64/128, N 64/128/256, with .sp N
/// 64/128).
///
/// Element width: an f32 or s32 element fills one 32-bit column. An f16 accumulator element also takes one
/// 32-bit column (CuTe's tmem_frg<half_t> stores each value in a uint32_t), in bits [0,16).
/// unverified: which half of the cell an f16 accumulator uses and what the other half holds — only CuTe's
/// storage type and PTX's tcgen05.ld .pack::16b ("two 16-bit elements from adjacent columns") back the low
/// half; this model writes zero into bits [16,32) (RuleId::Tcgen05MmaDLayout).
#include "layoutscope/core/result.hpp"

#include <cstdint>

namespace layoutscope {

/// The shape of a tcgen05.mma accumulator.
struct UmmaDShape {
    uint32_t m = 128;      ///< the instruction's M (idesc bits [24,29) << 4): 64, 128 or 256
    uint32_t n = 64;       ///< the instruction's N (idesc bits [17,23) << 3)
    uint32_t ctaGroup = 1; ///< .cta_group::1 or ::2
    uint32_t dBits = 32;   ///< accumulator element width: 32 (f32, s32) or 16 (f16)
    bool ws = false;       ///< tcgen05.mma.ws (Layouts E, G, D)
    bool sparse = false;   ///< tcgen05.mma.sp (M = 128 .cta_group::2: Layout C)
};

/// The PTX data path layout letter of a shape.
enum class UmmaDLayout : uint8_t { A, B, C, D, E, F, G };
[[nodiscard]] const char* ummaDLayoutName(UmmaDLayout l); ///< "Layout A (M=256, .cta_group::2)", ...

/// Where one accumulator element lives.
struct UmmaDCell {
    uint32_t cta = 0;    ///< 0: the issuing CTA (.cta_group::1) or the even CTA of the pair; 1: the odd peer
    uint32_t lane = 0;   ///< lane offset from d-tmem's lane field
    uint32_t column = 0; ///< column (32-bit cell) offset from d-tmem's column field
    uint32_t byte = 0;   ///< first byte of the element in its cell (0; f16 uses bytes 0-1)
    friend bool operator==(const UmmaDCell&, const UmmaDCell&) = default;
};

/// The shape rules the layouts need: M 64/128 with .cta_group::1, 128/256 with ::2; N a multiple of 8 (M =
/// 64) or 16 in [8|16, 256]; .ws: .cta_group::1, M 32/64/128, N 64/128/256 (128 at most with .sp); dBits
/// 16 or 32. Error diagnostics name the rule broken.
[[nodiscard]] Status checkUmmaDShape(const UmmaDShape& s);
/// The layout of a valid shape.
[[nodiscard]] UmmaDLayout ummaDLayout(const UmmaDShape& s);
/// D[m][n] of a valid shape (m < M, n < N).
[[nodiscard]] UmmaDCell ummaDCell(const UmmaDShape& s, uint32_t m, uint32_t n);
/// Columns each CTA's accumulator spans from d-tmem's column: N (Layouts A, C, D, F), N / 2 (B, E) or
/// N / 4 (G).
[[nodiscard]] uint32_t ummaDColumns(const UmmaDShape& s);
/// Lanes each CTA's accumulator spans from d-tmem's lane: 128 (A, B, D, E, G) or 112 (C, F: lanes up to
/// 96 + 15).
[[nodiscard]] uint32_t ummaDLaneSpan(const UmmaDShape& s);

} // namespace layoutscope
