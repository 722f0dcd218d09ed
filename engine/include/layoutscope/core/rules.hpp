#pragma once
/// The catalogue of semantic rules the engine applies. Each byte move and each diagnostic names one,
/// and each rule names its reference and provenance, so the UI can answer "who put this byte here,
/// and how sure are we?". Add rules at the end of a group; never renumber.
#include "layoutscope/core/provenance.hpp"

#include <cstdint>

namespace layoutscope {

enum class RuleId : uint16_t {
    None = 0,
    // --- TMA tile mode (tma.md §3–§4, golden/tma README "Observed semantics") ---
    TmaBoxTraversal,             ///< dense row-major box, dim 0 fastest, ceil(box[i]/E[i]) entries for i >= 1
    TmaElementStride0Ignored,    ///< elementStrides[0] ignored when interleave = NONE
    TmaSwizzledRowPitch,         ///< rows start at multiples of the swizzle span; tail untouched
    TmaSwizzle32B,               ///< A ^ (((A>>7)&1)<<4), absolute shared address
    TmaSwizzle64B,               ///< A ^ (((A>>7)&3)<<4)
    TmaSwizzle128B,              ///< A ^ (((A>>7)&7)<<4)
    TmaSwizzle128BAtom32B,       ///< A ^ (((A>>7)&3)<<5)  (sm_100, unverified)
    TmaSwizzle128BAtom32BFlip8B, ///< atom-32B then ^ (((A>>7)&1)<<3) (sm_100, unverified)
    TmaSwizzle128BAtom64B,       ///< A ^ (((A>>7)&1)<<6)  (sm_100, unverified)
    TmaOobFillZero,              ///< out-of-bounds elements read as zero
    TmaOobFillNaN,               ///< OOB-NaN fill: 0x7FF7 in every 16-bit unit
    TmaTf32Round,                ///< TFLOAT32 loads: round to nearest even at bit 13
    TmaStoreUpperEdge,           ///< stores: dim-0 bound rounded up to a 16-byte granule; others skipped
    TmaTxBytes,                  ///< complete_tx = dense box bytes (fill included)
    TmaInterleave,               ///< interleaved layouts (INTERLEAVE_16B / 32B)
    TmaFaultInnerCoordAlign,     ///< coords[0]*elemBytes % 16 != 0 -> cudaErrorIllegalInstruction
    TmaFaultSmemAlign,           ///< shared address not 128-B aligned -> cudaErrorMisalignedAddress
    TmaFaultStoreNegative,       ///< store with a negative coordinate -> cudaErrorIllegalInstruction
    TmaMulticast,                ///< multicast: same offset in every CTA of ctaMask
    TmaFaultMulticastMask,       ///< mask bit beyond the cluster -> cudaErrorLaunchFailure
    // --- tensor map encode (tma.md §2) ---
    EncodeRule, ///< a cuTensorMapEncode* parameter rule (message says which)
    // --- scenario / PTX front end ---
    ScenarioSyntax,
    PtxSyntax,
    // --- tcgen05 (tcgen05.md, golden/cute README) ---
    TmemAlloc, ///< tcgen05.alloc/dealloc: nCols power of two in [32,512], whole warp, blocks when full
    TmemAllocMonotonic,  ///< successive allocations must not request more columns than the previous one
    TmemRelinquish,      ///< after relinquish_alloc_permit the CTA may not alloc again
    TmemAllocPolicy,     ///< unverified: first fit, column aligned to nCols, lane field 0 (open question 23)
    TmemLaneQuarter,     ///< warp (warpid % 4) = q may ld/st only lanes 32q..32q+31
    TmemLdStMap,         ///< tcgen05.ld/st (thread, register) -> (lane, column) for every shape
    TmemPack16b,         ///< .pack::16b/.unpack::16b: register halves <-> low 16 bits of adjacent columns
    TmemUnpackUpperBits, ///< unverified: .unpack::16b writes zero to bits [31:16] (open question 19)
    Tcgen05CpRowMap,     ///< tcgen05.cp: source row r -> TMEM lanes, word w -> column taddr.col + w
    Tcgen05CpWarpx2, ///< unverified: .64x128b.warpx2 pair replication as CuTe models it (open question 20)
    Tcgen05Cp4x256b, ///< unverified: .4x256b row r -> lane 32r (open question 2)
    Tcgen05CpSourceWalk, ///< unverified: cp source rows walk the descriptor as a K-major canonical layout (oq
                         ///< 3)
    Tcgen05CpCtaPair,    ///< unverified: .cta_group::2 each CTA copies its own smem (open question 21)
    Tcgen05Decompress4to8, ///< unverified: .b8x16.b4x16_p64: nibble e -> byte e bits [5:2], rest zero (oq 3,
                           ///< 28)
    Tcgen05Decompress6to8, ///< unverified: .b8x16.b6x16_p32: 6-bit e -> byte e bits [5:0], rest zero (oq 3,
                           ///< 28)
    Tcgen05ShiftDown,      ///< unverified: shift.down: rows L0..L0+30 move to L0+1..L0+31, 8 columns (oq 2)
    SmemDescriptorFields,  ///< shared-memory matrix descriptor bit fields (PTX Table 40)
    SmemDescriptorSwizzle, ///< descriptor layout type -> Swizzle<B,M,S> on absolute shared byte addresses
    SmemDescriptorBaseOffset, ///< unverified: base offset bits [49,52) do not change addresses (oq 22)
    TmemHalfSplitoff, ///< unverified: 16x32bx2 threads 16..31 access taddr + immHalfSplitoff, any value (oq
                      ///< 25)
    // --- TMA Blackwell extras (docs/tma-blackwell.md; tma.md §7, §8, §10; seed 004) ---
    TmaSubBytePacked,    ///< .b4x16 (16U4_ALIGN8B): packed 4-bit bytes, shared image identical to global
    TmaSubBytePadded,    ///< .b4x16_p64 / .b6x16_p32 loads: 8/12 packed bytes then 8/4 untouched bytes per 16
                         ///< elements
    TmaSubByteStorePack, ///< unverified: .b6p2x16 store packs bits [5:0] of each smem byte, element 0 lowest
                         ///< (oq 10)
    TmaSubByteTxBytes,   ///< unverified: padded sub-byte loads credit the packed global bytes (oq 4)
    TmaSubByteRestriction, ///< a seed-004 restriction on the sub-byte types (PTX §9.7.9.25.5.1)
    TmaGather4,    ///< unverified: gather4/scatter4 rows stacked in operand order, tx 4*box0 (oq 11, 4)
    TmaCtaGroup2,  ///< unverified: .cta_group::2 signals (d & ~1) | parity(mbar CTA) (oq 12)
    TmaSwizzle96B, ///< unverified: PTX-only 96B swizzle, A ^ (((A>>7)&1)<<4), rows 96 B apart (oq 1)
    // --- TMA im2col family (docs/im2col.md; tma.md §9; golden/tma rule 6) ---
    TmaIm2colWalk,        ///< .im2col: pixel walk W,H,D with wrap to lower corner and carry to N; rows of
                          ///< channelsPerPixel
    TmaIm2colInterleave,  ///< .im2col with INTERLEAVE_16B/32B: walk shifted down one dimension, one slice per
                          ///< pixel
    TmaFaultIm2colBox,    ///< start pixel outside the bounding box -> cudaErrorIllegalInstruction
    TmaIm2colOffsetRange, ///< im2col offsets: rank 3 [0,2^16), rank 4 [0,2^8), rank 5 [0,2^5)
    TmaIm2colWide,        ///< unverified: .im2col::w / ::w::128 walk, wOffset and halo pixels (oq 4, 5)
    TmaIm2colNoOffsStore, ///< .im2col_no_offs store = im2col walk without offsets, read from smem (measured
                          ///< sm_90)
    TmaIm2colOffsetPacking, ///< .im2col offsets beyond the PTX range: .4d keeps 8 bits each, .5d
                            ///< (W+H*32+D*1024)&0x7fff
    // --- shared-memory bank conflicts (banks.hpp; CUDA C Programming Guide, Nsight Compute) ---
    SmemBankWavefronts, ///< bank=(addr/4)%32, same word broadcast; unverified: 8/16-B half/quarter-warp
                        ///< phases
    // --- tcgen05.mma (umma_layout.hpp, umma.hpp) ---
    Tcgen05MmaDLayout, ///< D[m][n] -> TMEM (lane, column): PTX data path Layouts A-G; f16 in bits
                       ///< [0,16)
    Tcgen05MmaValues,  ///< unverified: D = A*B (+D) summed in binary64, rounded once; accumulation order
                       ///< unknown
    Tcgen05MmaATmem,   ///< unverified: A[m][k] from TMEM at row m's lane of the D layout, packed 32 bits a
                       ///< column
    Tcgen05MmaCtaPair, ///< unverified: .cta_group::2: A rows and B rows (N) split in halves between the pair
    Tcgen05MmaScaleFactors, ///< unverified: block-scaled MMA: SF(row, j) at lane row%32 (+32q replicas),
                            ///< column row/32, byte sf_id + j; which replica is read; e2m1 low nibble first
    Tcgen05MmaSparse, ///< .sp: A = K/2 stored values + 2:4 metadata from [sp-meta-tmem]; unverified: the
                      ///< selector as a column offset, the metadata lanes (CuTe tmem_e_frg)
    Tcgen05MmaWs,     ///< .ws: Layouts E/G, collector buffers b0-b3, zero-column mask; unverified: the mask
                      ///< vs. shift order, use with another b-desc
    // --- wgmma.mma_async accumulator in scenarios (scenario/wgmma_d.hpp, core/wgmma_fragment.hpp) ---
    WgmmaDFragment, ///< D[m][n] -> (thread, register) of the warpgroup: PTX ISA §9.7.15.5.1.1 D fragment
    WgmmaValues,    ///< unverified: D = A*B (+D) summed in binary64, rounded once; accumulation order unknown
    kCount
};

struct RuleInfo {
    RuleId id;
    const char* name;        ///< short name shown in the inspector
    const char* description; ///< one sentence, plain words
    const char* reference;   ///< PTX ISA section / cuda.h / tma.md section / golden case
    Provenance provenance;
};

/// The catalogue entry of a rule (never fails for a valid id).
[[nodiscard]] const RuleInfo& ruleInfo(RuleId id);

} // namespace layoutscope
