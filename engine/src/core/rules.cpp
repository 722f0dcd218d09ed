#include "layoutscope/core/rules.hpp"

#include <array>
#include <cstddef>

namespace layoutscope {
namespace {

using P = Provenance;
constexpr const char* kGoldenTma = "golden/tma README, Observed semantics";

constexpr std::array<RuleInfo, static_cast<std::size_t>(RuleId::kCount)> kRules{{
    {RuleId::None, "none", "", "", P::Assumption},
    {RuleId::TmaBoxTraversal, "box traversal",
     "The box is dense and row-major in shared memory, dimension 0 fastest; dimension i>=1 moves "
     "ceil(boxDim[i]/elementStrides[i]) entries at coord[i] + j*elementStrides[i].",
     "PTX ISA 9.2 §5.5.3; tma.md §3; golden/tma rule 1", P::HardwareSm90},
    {RuleId::TmaElementStride0Ignored, "elementStrides[0] ignored",
     "With interleave NONE, dimension 0 always yields boxDim[0] contiguous elements.",
     "cuda.h cuTensorMapEncodeTiled; golden/tma rule 1", P::HardwareSm90},
    {RuleId::TmaSwizzledRowPitch, "swizzled row pitch",
     "With a swizzle, each dimension-0 row starts at a multiple of the swizzle span; bytes between "
     "rows are left untouched.",
     "tma.md §4.1; golden/tma rule 2", P::HardwareSm90},
    {RuleId::TmaSwizzle32B, "SWIZZLE_32B",
     "phys = A ^ (((A>>7)&1)<<4) on the absolute shared address: Sw<1,4,3>",
     "PTX ISA 9.2 §5.5.7; golden/tma rule 3", P::HardwareSm90},
    {RuleId::TmaSwizzle64B, "SWIZZLE_64B",
     "phys = A ^ (((A>>7)&3)<<4) on the absolute shared address: Sw<2,4,3>",
     "PTX ISA 9.2 §5.5.7; golden/tma rule 3", P::HardwareSm90},
    {RuleId::TmaSwizzle128B, "SWIZZLE_128B",
     "phys = A ^ (((A>>7)&7)<<4) on the absolute shared address: Sw<3,4,3>",
     "PTX ISA 9.2 §5.5.7; golden/tma rule 3", P::HardwareSm90},
    {RuleId::TmaSwizzle128BAtom32B, "SWIZZLE_128B_ATOM_32B",
     "unverified: phys = A ^ (((A>>7)&3)<<5): Sw<2,5,2> (sm_100 only, not measured)",
     "PTX ISA 9.2 §5.5.7 Table; tma.md §4.2; open-questions.md", P::Assumption},
    {RuleId::TmaSwizzle128BAtom32BFlip8B, "SWIZZLE_128B_ATOM_32B_FLIP_8B",
     "unverified: as ATOM_32B, then the 8-byte halves of every 16 B swap on odd 128-B lines",
     "PTX ISA 9.2 §5.5.7 prose; tma.md §4.2; open-questions.md", P::Assumption},
    {RuleId::TmaSwizzle128BAtom64B, "SWIZZLE_128B_ATOM_64B",
     "unverified: phys = A ^ (((A>>7)&1)<<6): Sw<1,6,1> (sm_100 only, not measured)",
     "PTX ISA 9.2 §5.5.7 Table; tma.md §4.2; open-questions.md", P::Assumption},
    {RuleId::TmaOobFillZero, "OOB zero fill",
     "An element with any coordinate outside [0, globalDim[i]) reads as zero.",
     "PTX ISA 9.2 §5.5.3.3; golden/tma rule 4", P::HardwareSm90},
    {RuleId::TmaOobFillNaN, "OOB NaN fill",
     "With FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA every 16-bit unit of an out-of-bounds element is 0x7FF7.",
     "PTX ISA 9.2 §5.5.3.3; golden/tma rule 4", P::HardwareSm90},
    {RuleId::TmaTf32Round, "TF32 rounding",
     "TFLOAT32(_FTZ) loads round each finite FP32 pattern to nearest even at bit 13 (low 13 bits cleared; "
     "carry may reach Inf); no denormal flush; Inf kept; every NaN becomes 0x7FFFE000.",
     "tma.md §3.2; golden/tma tile_load_0249; H100 probe of 4096 patterns (docs/tf32.md)", P::HardwareSm90},
    {RuleId::TmaStoreUpperEdge, "store upper edge",
     "Stores skip out-of-bounds elements, except in dimension 0 where the bound is rounded up to a "
     "whole 16-byte granule.",
     "golden/tma rule 5 (store_0060, store_0061)", P::HardwareSm90},
    {RuleId::TmaTxBytes, "transaction bytes",
     "complete_tx credits the dense box bytes, fill included, not the padded footprint.",
     "tma.md §6; golden/tma rule 1", P::HardwareSm90},
    {RuleId::TmaInterleave, "interleaved layout",
     "INTERLEAVE_16B / 32B layout rule (see docs/interleave.md).", "tma.md §5; golden/tma interleaved cases",
     P::HardwareSm90},
    {RuleId::TmaFaultInnerCoordAlign, "inner coordinate alignment",
     "coords[0]*elementBytes must be a multiple of 16, else the copy raises cudaErrorIllegalInstruction.",
     "PTX ISA 9.2 §5.5.3.1; golden/tma Surprises", P::HardwareSm90},
    {RuleId::TmaFaultSmemAlign, "shared address alignment",
     "The shared-memory address must be 128-byte aligned, else cudaErrorMisalignedAddress.",
     "CUDA C++ PG alignment table; golden/tma Surprises (H_dst_align_sub128)", P::HardwareSm90},
    {RuleId::TmaFaultStoreNegative, "store start coordinates",
     "A store with any negative start coordinate raises cudaErrorIllegalInstruction.",
     "PTX ISA 9.2 §9.7.9.25.5.1; golden/tma store_0075..0081", P::HardwareSm90},
    {RuleId::TmaMulticast, "multicast",
     "Every CTA whose ctaMask bit is set receives the box at the same CTA-relative offset and its "
     "mbarrier at the same offset is credited.",
     "PTX ISA 9.2 §9.7.9.25.5.2; golden/tma rule 7", P::HardwareSm90},
    {RuleId::TmaFaultMulticastMask, "multicast mask",
     "A ctaMask bit at or beyond the cluster size raises cudaErrorLaunchFailure.", "golden/tma Surprises",
     P::HardwareSm90},
    {RuleId::EncodeRule, "tensor map encode", "A cuTensorMapEncode* parameter rule.", "cuda.h; tma.md §2",
     P::CudaDriver},
    {RuleId::ScenarioSyntax, "scenario syntax", "Scenario file grammar.", "README: scenario format",
     P::Assumption},
    {RuleId::PtxSyntax, "PTX syntax", "PTX instruction grammar.", "PTX ISA 9.2", P::PtxText},
    {RuleId::TmemAlloc, "tcgen05.alloc",
     "Allocation unit is columns (all 128 lanes); nCols is a power of two in [32,512]; the warp blocks until "
     "enough "
     "columns are free; everything must be deallocated before exit.",
     "PTX ISA 9.2 §9.7.16.7.1; tcgen05.md §2.2", P::PtxText},
    {RuleId::TmemAllocMonotonic, "alloc size non-increasing",
     "An allocation must not request more columns than the CTA's previous allocation.",
     "PTX ISA 9.2 §9.7.16.7.1; tcgen05.md §2.2; open-questions.md 23", P::PtxText},
    {RuleId::TmemRelinquish, "relinquish_alloc_permit",
     "After any thread of the CTA executes relinquish_alloc_permit, further tcgen05.alloc by that CTA is "
     "illegal.",
     "PTX ISA 9.2 §9.7.16.7.1; tcgen05.md §2.2", P::PtxText},
    {RuleId::TmemAllocPolicy, "allocation policy",
     "unverified: first fit over 32-column granules, start column aligned to nCols, returned lane field 0.",
     "tcgen05.md §2.2; open-questions.md 23", P::Assumption},
    {RuleId::TmemLaneQuarter, "lane quarter",
     "unverified: warp w may tcgen05.ld/st only lanes 32*(w%4) .. 32*(w%4)+31 (PTX text for CTAs of a "
     "multiple of 128 threads; w%4 otherwise as CuTe asserts); any base lane is accepted if every touched "
     "lane is in that quarter.",
     "PTX ISA 9.2 §9.7.16.8.1; CuTe copy_traits_sm100.hpp copy_unpack; open-questions.md 24, 27",
     P::Assumption},
    {RuleId::TmemLdStMap, "ld/st thread map",
     "Register j of thread t is the 32-bit cell given by the shape's closed form (32x32b, 16x64b, 16x128b, "
     "16x256b, "
     "16x32bx2).",
     "tcgen05.md §4.1; CuTe copy_traits_sm100.hpp; golden/cute tmem_ld_st.json", P::Cute},
    {RuleId::TmemPack16b, "pack::16b / unpack::16b",
     "Register bits [15:0] and [31:16] are the low 16 bits of columns 2k and 2k+1 of the unpacked column k.",
     "PTX ISA 9.2 §9.7.16.8.2; tcgen05.md §4.2; golden/cute tmem_ld_st.json", P::Cute},
    {RuleId::TmemUnpackUpperBits, "unpack upper half",
     "unverified: .unpack::16b stores write zero into bits [31:16] of each target cell.",
     "tcgen05.md §4.2; open-questions.md 19", P::Assumption},
    {RuleId::Tcgen05CpRowMap, "tcgen05.cp row map",
     "Source row r goes to the shape's TMEM lanes; 32-bit word w of the row to column taddr.col + w, bits "
     "preserved.",
     "PTX ISA 9.2 §9.7.16.9.2; tcgen05.md §5.2; golden/cute utccp.json", P::Cute},
    {RuleId::Tcgen05CpWarpx2, "tcgen05.cp warpx2",
     "unverified: 02_13 sends rows 0-31 to warps 0 and 2, rows 32-63 to warps 1 and 3; 01_23 rows 0-31 to "
     "warps 0 "
     "and 1, rows 32-63 to warps 2 and 3.",
     "tcgen05.md §5.2; golden/cute README §9.1; open-questions.md 20", P::Assumption},
    {RuleId::Tcgen05Cp4x256b, "tcgen05.cp 4x256b",
     "unverified: source row r of .4x256b goes to lane taddr.lane + 32r.",
     "tcgen05.md §5.2; golden/cute README §9.2; open-questions.md 2", P::Assumption},
    {RuleId::Tcgen05CpSourceWalk, "tcgen05.cp source walk",
     "unverified: row r, byte b is read at the K-major canonical address of the descriptor (no swizzle: "
     "start+(r%8)*16+(r/8)*SBO+(b/16)*LBO+b%16; swizzled: start+(r%8)*W+(r/8)*SBO+b, then the XOR).",
     "tcgen05.md §5.1; golden/cute utccp.json; open-questions.md 3", P::Assumption},
    {RuleId::Tcgen05CpCtaPair, "tcgen05.cp cta pair",
     "unverified: with .cta_group::2 each CTA of the pair copies from its own shared memory into its own "
     "TMEM.",
     "tcgen05.md §5.4; open-questions.md 21", P::Assumption},
    {RuleId::Tcgen05Decompress4to8, "decompress b4x16_p64",
     "unverified: 4-bit element e (bits [4e+3:4e] of the 8 packed bytes) becomes byte e = value<<2; padding "
     "ignored; "
     "container bits [7:6], [1:0] zero.",
     "PTX ISA 9.2 §9.7.16.9.1 (Figures 194-195); tcgen05.md §5.3; open-questions.md 3, 28", P::Assumption},
    {RuleId::Tcgen05Decompress6to8, "decompress b6x16_p32",
     "unverified: 6-bit element e (bits [6e+5:6e] of the 12 packed bytes) becomes byte e = value; bits [7:6] "
     "zero.",
     "PTX ISA 9.2 §9.7.16.9.1 (Figures 196-198); tcgen05.md §5.3; open-questions.md 3, 28", P::Assumption},
    {RuleId::Tcgen05ShiftDown, "tcgen05.shift.down",
     "unverified: within the 32-lane quarter at taddr.lane, rows L0..L0+30 of 8 columns move one lane down "
     "(towards higher lanes); row L0 keeps its value; old row L0+31 is lost.",
     "PTX ISA 9.2 §9.7.16.9.3; tcgen05.md §6; open-questions.md 2", P::Assumption},
    {RuleId::SmemDescriptorFields, "shared memory descriptor",
     "start [0,14), LBO [16,30), SBO [32,46) in 16-byte units; version [46,49)=1; base offset [49,52); LBO "
     "mode 52; "
     "layout type [61,64).",
     "PTX ISA 9.2 §9.7.16.4.1 Table 40; CuTe mma_sm100_desc.hpp; golden/cute umma_smem_desc.json", P::Cute},
    {RuleId::SmemDescriptorSwizzle, "descriptor swizzle",
     "Layout type 0/1/2/4/6 = Swizzle<0,4,3>/<2,5,2>/<3,4,3>/<2,4,3>/<1,4,3> on the absolute shared byte "
     "address.",
     "PTX ISA 9.2 §9.7.16.3.3; golden/cute umma_smem_desc.json, swizzle.json", P::Cute},
    {RuleId::SmemDescriptorBaseOffset, "descriptor base offset",
     "unverified for tcgen05 (sm_100; measured for wgmma on Hopper, 288 records in tests/data/wgmma): the "
     "XOR uses absolute address bits; a non-zero base offset b counts the line phase from b: phase = "
     "((addr >> 7) - b) mod 2^B (PTX: b = (pattern start >> 7) & 7).",
     "tcgen05.md §7.2; open-questions.md 22", P::Assumption},
    {RuleId::TmemHalfSplitoff, "16x32bx2 immHalfSplitoff",
     "unverified: the first access (threads 0-15) is at taddr, the second (threads 16-31) at taddr + "
     "immHalfSplitoff (PTX text; the thread split from CuTe); any immediate is accepted, including 0, "
     "negative and overlapping values (PTX is silent; ptxas accepts them).",
     "PTX ISA 9.2 §9.7.16.8.3-4 (seed 002); tcgen05.md §4.1; open-questions.md 25", P::Assumption},
    {RuleId::TmaSubBytePacked, "sub-byte .b4x16",
     "16U4_ALIGN8B (.b4x16): two 4-bit values per byte with no gaps; the shared-memory image holds the "
     "global bytes "
     "unchanged (box rows of boxDim[0]/2 bytes, then the tile pitch/swizzle).",
     "PTX ISA 9.2 §5.5.1.1; cuda.h CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B; tma.md §7", P::CudaHeader},
    {RuleId::TmaSubBytePadded, "sub-byte padded load",
     "16U4_ALIGN16B (.b4x16_p64) / 16U6_ALIGN16B (.b6x16_p32) loads: each 16-element group's 8 / 12 packed "
     "global "
     "bytes land at the start of its own 16-byte shared chunk; the remaining 8 / 4 bytes are uninitialised "
     "(left "
     "unchanged here). One 128-element row = 128 shared bytes.",
     "PTX ISA 9.2 §5.5.1.1; cuda.h 16U4_ALIGN16B / 16U6_ALIGN16B gaps; tma.md §7", P::CudaHeader},
    {RuleId::TmaSubByteStorePack, "sub-byte .b6p2x16 store",
     "unverified: a 16U6_ALIGN16B store (.b6p2x16) reads one byte per element and writes bits [5:0] of it "
     "packed, "
     "element j of a 16-group at bits [6j+5:6j] of the 12 little-endian global bytes; bits [7:6] are "
     "discarded.",
     "PTX ISA 9.2 §5.5.1.1 (figure only); tma.md §7; open-questions.md 10", P::Assumption},
    {RuleId::TmaSubByteTxBytes, "sub-byte transaction bytes",
     "unverified: padded sub-byte loads credit complete_tx with the packed global bytes (64 / 96 B per 128 "
     "elements), not the 128-byte shared footprint.",
     "tma.md §6; CUTLASS sm100_blockscaled_mma_warpspecialized.hpp; open-questions.md 4", P::Assumption},
    {RuleId::TmaSubByteRestriction, "sub-byte restriction",
     "A restriction of PTX on .b4x16 / .b4x16_p64 / .b6x16_p32 / .b6p2x16 copies (direction, first "
     "coordinate, "
     "box size, swizzle, fill, target).",
     "PTX ISA 9.2 §9.7.9.25.5.1 (seed 004); tma.md §7, §12", P::PtxText},
    {RuleId::TmaGather4, "tile::gather4 / scatter4",
     "unverified: the four rows {row0..row3} of box[0] elements starting at column col are stacked in shared "
     "memory "
     "in operand order as a 4-row box (pitch/swizzle as a tile box); complete_tx = 4 * box[0] bytes of data.",
     "PTX ISA 9.2 §5.5.3.4; tma.md §8; open-questions.md 11, 4", P::Assumption},
    {RuleId::TmaCtaGroup2, ".cta_group::2 mbarrier",
     "unverified: with .cta_group::2 the complete_tx for destination CTA d goes to CTA (d & ~1) | (mbar CTA "
     "& 1) at "
     "mbar's offset, so both CTAs of a pair may credit one barrier.",
     "PTX ISA 9.2 §9.7.9.25.5.2 (seed 003); tma.md §10; open-questions.md 12", P::Assumption},
    {RuleId::TmaSwizzle96B, "96B swizzle (PTX only)",
     "unverified: PTX .swizzle_mode 4 (no cuda.h enumerator): phys = A ^ (((A>>7)&1)<<4) on the absolute "
     "shared "
     "address (PTX table: 128-byte lines 0..7, then 1 0 3 2 5 4 7 6); rows 96 B apart (96 or 128 is "
     "unknown).",
     "PTX ISA 9.2 §5.5.7 Table; tma.md §2.1, §4.2; open-questions.md 1", P::Assumption},
    {RuleId::TmaIm2colWalk, "im2col pixel walk",
     "Pixels are walked W first, then H, D, then N: each spatial coordinate runs over [lower, "
     "globalDim-1+upper] in "
     "steps of elementStrides, wraps to lower and carries; N steps by elementStrides[N] unbounded. The pixel "
     "read is the "
     "walk position plus the instruction's offsets; each pixel row holds channelsPerPixel elements from "
     "coords[0].",
     "PTX ISA 9.2 §5.5.4; tma.md §9; golden/tma rule 6", P::HardwareSm90},
    {RuleId::TmaIm2colInterleave, "im2col with interleave",
     "With INTERLEAVE_16B/32B the im2col walk runs over dimensions 0..rank-3 (dimension 0 in 16/32-byte "
     "slices), "
     "dimension rank-2 stays at its coordinate, and every position moves one slice densely; tx = "
     "pixelsPerColumn * slice.",
     "docs/interleave.md §4; golden im2col_load_0050/0051; probes I1-I9, J1-J9", P::HardwareSm90},
    {RuleId::TmaFaultIm2colBox, "im2col start outside the box",
     "An im2col load whose start pixel (W, H, D coordinates) lies outside [lower, globalDim-1+upper] raises "
     "cudaErrorIllegalInstruction; N past the tensor does not fault (it yields fill).",
     "PTX ISA 9.2 §5.5.4.1; golden/tma Surprises (im2col_load_0060-0064)", P::HardwareSm90},
    {RuleId::TmaIm2colOffsetRange, "im2col offset range",
     "wHalo must lie in [0, 512) (.im2col::w) or [0, 32) (.im2col::w::128) and wOffset in [0, 32) (the "
     ".im2col "
     "offsets' ranges are in TmaIm2colOffsetPacking).",
     "PTX ISA 9.2 §5.5.4.1, §9.7.9.25.5.2 (seed 003)", P::PtxText},
    {RuleId::TmaIm2colWide, "im2col::w / w::128",
     "unverified: only W is walked (stride elementStrides[1]) at fixed H/D; wOffset shifts the walk and the "
     "box; wHalo "
     "extra pixels continue the walk after the main pixels (::w) or after every 32 pixels (::w::128), placed "
     "right after "
     "them; complete_tx counts halo pixels too.",
     "PTX ISA 9.2 §5.5.5; tma.md §9.1; open-questions.md 4, 5", P::Assumption},
    {RuleId::TmaIm2colNoOffsStore, "im2col_no_offs store",
     "The store reads pixelsPerColumn rows of channelsPerPixel elements (row pitch as for loads) from shared "
     "memory and "
     "writes them along the im2col walk without offsets; pixels outside the tensor are skipped, channels "
     "past C are "
     "written up to the 16-byte granule that holds C (as tile stores); a bounding box reaching outside the "
     "tensor "
     "(lower < 0 or upper > 0), a start outside the box or a negative coordinate raises "
     "cudaErrorIllegalInstruction.",
     "PTX ISA 9.2 §9.7.9.25.5.1 (seed 004); docs/im2col.md §4 (H100 probes S1-S13)", P::HardwareSm90},
    {RuleId::TmaIm2colOffsetPacking, "im2col offsets beyond the PTX range",
     "PTX allows offsets up to 2^16-1 (.3d), 2^8-1 (.4d), 2^5-1 (.5d). Larger values run on sm_90 (code from "
     "ptxas 13.0): "
     ".4d keeps the low 8 bits of each offset; .5d adds offW + offH*32 + offD*1024, keeps 15 bits and splits "
     "them into "
     "5-bit W, H, D fields again, so a W offset of 32 adds 1 to H.",
     "PTX ISA 9.2 §5.5.4.1; docs/im2col.md §4 (H100 probes L5-L8, M1-M6)", P::HardwareSm90},
    {RuleId::SmemBankWavefronts, "shared-memory bank wavefronts (measured on H100)",
     "32 banks of 4-byte words, bank = (address / 4) % 32; threads reading the same word share it "
     "(broadcast). "
     "Phases of 128 requested bytes: the warp (<= 4 B), half-warps (8 B), quarter-warps (16 B), one per "
     "ldmatrix "
     "8x8 matrix; each phase takes as many wavefronts as its busiest bank has distinct words. 8/16-B loads "
     "where "
     "every lane reads the address of lane t^1 (or every lane that of lane t^2) count the phases in pairs; "
     "excess = wavefronts - counted phases.",
     "../shared/golden/banks (1,004 H100 records, Nsight Compute l1tex__data_pipe_lsu_wavefronts_mem_shared "
     "and "
     "l1tex__data_bank_conflicts_pipe_lsu_mem_shared); docs/banks.md; banks.hpp",
     P::HardwareSm90},
    {RuleId::Tcgen05MmaDLayout, "tcgen05.mma accumulator layout",
     "D[m][n] of tcgen05.mma lands at d-tmem + (lane, column): M=128 ::1 lane m, column n (Layout D); M=64 "
     "::1 "
     "lane m%16 + 32*(m/16) (Layout F); M=256 ::2 CTA m/128, lane m%128 (Layout A); M=128 ::2 CTA m/64, lane "
     "m%64 + 64*(n/(N/2)), column n%(N/2) (Layout B); .ws M=64 lane m + 64*(n/(N/2)), column n%(N/2) "
     "(Layout E); .ws M=32 lane m + 32*(n/(N/4)), column n%(N/4) (Layout G); .sp M=128 ::2 CTA m/64 in "
     "Layout F's lanes (Layout C, unverified). f32/s32/f16 elements take one 32-bit column each (f16 "
     "in bits [0,16), unverified).",
     "PTX ISA 9.2 §9.7.16.10.5 (data path layout organization); CuTe UMMA::tmem_frg (mma_traits_sm100.hpp)",
     P::PtxText},
    {RuleId::Tcgen05MmaValues, "tcgen05.mma values",
     "unverified: D = A x B (+ D with enable-input-d) with the products summed in binary64 and rounded once "
     "to "
     "the D type (f32, f16 round to nearest even; s32 wraps, or clamps with .satfinite); tf32 inputs use the "
     "top 19 bits. The hardware's accumulation order and intermediate rounding are not modelled.",
     "PTX ISA 9.2 §9.7.16.10.9 (tcgen05.mma); CuTe UMMA::InstrDescriptor; not measured", P::Assumption},
    {RuleId::Tcgen05MmaATmem, "tcgen05.mma A from Tensor Memory",
     "unverified: with [a-tmem], A[m][k] is read from the lane that holds row m of D in the same data path "
     "layout, column k*bits/32 from a-tmem's column, elements packed little-endian in each 32-bit column.",
     "PTX ISA 9.2 §9.7.16.10.5; CuTe UMMA::tmem_frg (A fragments share D's datapath lanes)", P::Assumption},
    {RuleId::Tcgen05MmaCtaPair, "tcgen05.mma .cta_group::2 split",
     "unverified: a pair MMA reads A rows [0, M/2) and B rows [0, N/2) from the even CTA's shared memory and "
     "the other halves from the odd CTA's, through the same descriptors; D rows are split as the layout "
     "says.",
     "PTX ISA 9.2 §9.7.16.10.5 Layouts A, B; CuTe SM100_MMA_*_2x1SM_SS; tilus tcgen05.mma docs",
     P::Assumption},
    {RuleId::Tcgen05MmaScaleFactors, "tcgen05.mma block scale factors",
     "unverified: a .block_scale MMA reads scale factor j of row r (r = r0 + 32*r1) of A or B at lane r0 of "
     "each lane quarter (the 4 replicas tcgen05.cp .32x128b.warpx4 writes), column r1 from [scale-A|B-tmem], "
     "byte sf_id + j (idesc bits [29,31) / [4,6)); the model reads the replica in quarter r1 % 4. D = sum "
     "(A*SFA)(B*SFB) with UE8M0 2^(e-127) or UE4M3 scales; packed e2m1 elements are read low nibble first.",
     "PTX ISA 9.2 §9.7.16.10.7 (block scaling); CuTe UMMA::tmem_sf_frg, InstrDescriptorBlockScaled, "
     "make_runtime_instr_desc_block_scaled; golden/cute blockscaled_sf_utccp.json; formats.md §3.2 [infer]",
     P::Assumption},
    {RuleId::Tcgen05MmaSparse, "tcgen05.mma.sp sparse A",
     "A holds K/2 values a row; each chunk of 4 elements has 2, placed by a 4-bit metadata nibble (bits "
     "[0,2) "
     "the first value's position, [2,4) the second's; only 0b0100, 0b1000, 0b1100, 0b1001, 0b1101, 0b0110, "
     "0b1110 are meaningful). unverified: the metadata's place in Tensor Memory (16-bit kinds: row r at lane "
     "r%8 + 8*(K half) + 16*(r/16), bits 16*((r/8)%2) + 4*chunk of column sp-meta + selector; 8-bit kinds: "
     "lane r, column chunk/8, bits 4*(chunk%8)).",
     "PTX ISA 9.2 §9.7.16.10.8 (sparse matrices, metadata values); CuTe UMMA::tmem_e_frg / tmem_e_frg_ws "
     "(mma_traits_sm100_frag.hpp); JAX format_tcgen05_sparse_metadata; the PTX layout figures are images",
     P::Assumption},
    {RuleId::Tcgen05MmaWs, "tcgen05.mma.ws weight stationary",
     "M = 64 puts the second half of N in lanes 64-127 (Layout E), M = 32 quarter q of N in lanes 32q.. "
     "(Layout G), M = 128 is Layout D. .collector::bN::fill keeps B in buffer N, ::use / ::lastuse read it "
     "from there (lastuse then drops it), ::discard (the default, b0) drops it. The zero-column mask zeroes "
     "the B columns its runs name; the column shift reads B column n + shift for D column n. unverified: the "
     "mask vs. shift order and a use with a b-desc other than the fill's.",
     "PTX ISA 9.2 §9.7.16.10.5 (Layouts E, G), §9.7.16.10.9.3 (tcgen05.mma.ws), §9.7.16.4.3 (zero-column "
     "mask); CuTe UMMA::tmem_frg_ws",
     P::Assumption},
    {RuleId::WgmmaDFragment, "wgmma accumulator fragment",
     "D[m][n] of wgmma.mma_async .m64nNk16 is held by warp m/16 of the warpgroup, lane 4*(m%8) + (n%8)/2, "
     "element i = (n%2) + 2*((m%16)/8) + 4*(n/8) of its fragment: .f32 one element a register (register i), "
     ".f16 two (register i/2, element i%2 in bits [16*(i%2), 16*(i%2)+16)).",
     "PTX ISA 9.2 §9.7.15.5.1.1 (Matrix fragments for wgmma .m64nNk16, accumulator D); CuTe "
     "mma_traits_sm90_gmma.hpp CLayout_64xN",
     P::PtxText},
    {RuleId::WgmmaValues, "wgmma values",
     "unverified: D = A x B (+ D when scale-d is 1), A and B negated by imm-scale-a/b = -1, with the "
     "products "
     "summed in binary64 and rounded once to the D type (f32, f16: round to nearest even). The hardware's "
     "accumulation order and intermediate rounding are not modelled.",
     "PTX ISA 9.2 §9.7.15.5.2 (wgmma.mma_async); not measured", P::Assumption},
}};

} // namespace

const RuleInfo& ruleInfo(RuleId id) {
    const auto i = static_cast<std::size_t>(id);
    return i < kRules.size() ? kRules[i] : kRules[0];
}

} // namespace layoutscope
