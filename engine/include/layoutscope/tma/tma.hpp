#pragma once
/// TMA tile-mode copies: cp.async.bulk.tensor (PTX ISA 9.2 §9.7.9.25.5.2).
/// Loads: global -> shared::cta / shared::cluster (optionally .multicast::cluster).
/// Stores: shared::cta -> global (.bulk_group).
/// Execution applies the hardware-measured semantics of ../shared/golden/tma/README.md and
/// ../shared/ref/tma.md §3–§6, and reports hardware faults as the CUDA errors they raise.
#include "layoutscope/core/memory.hpp"
#include "layoutscope/core/result.hpp"
#include "layoutscope/core/trace.hpp"
#include "layoutscope/tma/tensor_map.hpp"

#include <array>
#include <cstdint>

namespace layoutscope {

/// cp.async.bulk.tensor.<n>d.shared::{cta,cluster}.global.tile.mbarrier::complete_tx::bytes
///   [dstMem], [tensorMap, {coords}], [mbar] {, ctaMask}
struct TmaTileLoad {
    TensorMap map;
    std::array<int32_t, kMaxTensorRank> coords{}; ///< dim 0 first; only tensorRank entries used
    uint32_t issuingCta = 0;                      ///< %cluster_ctarank of the issuing CTA
    uint32_t dstCta = 0;    ///< destination CTA (shared::cluster) — issuing CTA for shared::cta
    uint32_t dstAddr = 0;   ///< shared::cta byte address of dstMem in dstCta (absolute)
    uint32_t mbarAddr = 0;  ///< shared::cta byte address of the mbarrier
    bool multicast = false; ///< .multicast::cluster
    uint16_t ctaMask = 0;   ///< with multicast: bit i selects %cluster_ctarank i
    // appended (tmaextra): .cta_group (PTX ISA 9.2 §9.7.9.25.5.2; tma.md §10)
    uint32_t ctaGroup = 1;   ///< .cta_group::1 (default) or ::2
    uint32_t mbarCta = 0;    ///< with .cta_group::2: the CTA holding mbar (dstCta or its peer dstCta ^ 1)
    bool clusterDst = false; ///< .shared::cluster destination (sm_120a restrictions)
    TmaArch arch = TmaArch::Sm100; ///< target whose PTX restrictions apply (sm_103a / sm_120a differ)
};

/// cp.async.bulk.tensor.<n>d.global.shared::cta.tile.bulk_group [tensorMap, {coords}], [srcMem]
struct TmaTileStore {
    TensorMap map;
    std::array<int32_t, kMaxTensorRank> coords{};
    uint32_t srcCta = 0;
    uint32_t srcAddr = 0;          ///< shared::cta byte address of srcMem (absolute)
    TmaArch arch = TmaArch::Sm100; ///< appended (tmaextra): target (sm_103a relaxes .b6p2x16 stores)
};

/// cp.async.bulk.tensor.2d.shared::{cta,cluster}.global.tile::gather4.mbarrier::complete_tx::bytes
///   [dstMem], [tensorMap, {col, row0, row1, row2, row3}], [mbar] {, ctaMask}   (PTX ISA 9.2 §5.5.3.4)
struct TmaGather4Load {
    TmaTileLoad load;              ///< everything but the coordinates (load.coords is ignored)
    int32_t col = 0;               ///< dimension-0 start shared by the four rows
    std::array<int32_t, 4> rows{}; ///< dimension-1 coordinates, stacked in this order
};

/// cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4.bulk_group [tensorMap, {col, row0..row3}],
/// [srcMem]
struct TmaScatter4Store {
    TmaTileStore store; ///< everything but the coordinates (store.coords is ignored)
    int32_t col = 0;
    std::array<int32_t, 4> rows{};
};

/// Dense box geometry derived from a tensor map (tma.md §3, §4.1).
struct TileGeometry {
    std::array<uint32_t, kMaxTensorRank> count{}; ///< elements moved per dimension
    uint32_t elemBytes = 0;
    uint32_t innerBytes = 0; ///< shared bytes per dim-0 row (padded sub-byte types: 128, padding included)
    uint32_t rowPitch = 0;   ///< smem bytes between rows (inner, or the swizzle span)
    uint32_t rows = 0;       ///< product of count[1..rank-1]
    uint64_t boxBytes = 0; ///< dense box bytes = transaction bytes (sub-byte: packed global bytes, tma.md §6)
};
[[nodiscard]] TileGeometry tileGeometry(const TensorMap& map);

/// Physical shared address for an absolute logical address under a swizzle mode (tma.md §4.2).
[[nodiscard]] uint32_t swizzleAddress(TensorSwizzle s, uint32_t addr);
/// The rule (and so the provenance) behind swizzle mode `s`: TmaSwizzle32B ... TmaSwizzle96B, and
/// TmaBoxTraversal for NONE.
[[nodiscard]] RuleId swizzleModeRule(TensorSwizzle s);

/// Execute a tile load: writes every destination CTA's shared memory and credits its mbarrier.
/// Fails (nothing written) with a Fault* diagnostic when the hardware would raise an error.
[[nodiscard]] Status executeTmaLoad(const TmaTileLoad& op, MachineState& state, TraceBuilder& trace);

/// Execute a tile store: writes global memory from the source CTA's shared memory.
[[nodiscard]] Status executeTmaStore(const TmaTileStore& op, MachineState& state, TraceBuilder& trace);

/// Execute .tile::gather4 / .tile::scatter4 (2-D maps only; tma_gather4.cpp). unverified: row
/// stacking, boxDim[1] == 1 and the tx count follow tma.md §8 / open questions 4 and 11.
[[nodiscard]] Status executeTmaGather4(const TmaGather4Load& op, MachineState& state, TraceBuilder& trace);
[[nodiscard]] Status executeTmaScatter4(const TmaScatter4Store& op, MachineState& state, TraceBuilder& trace);

/// The CTA whose mbarrier (at mbar's offset) is credited for destination CTA `dstCta`: dstCta with
/// .cta_group::1; (dstCta & ~1) | (mbarCta & 1) with .cta_group::2 (tma.md §10; unverified, oq 12).
[[nodiscard]] uint32_t tmaSignalCta(uint32_t ctaGroup, uint32_t dstCta, uint32_t mbarCta);

// ---- appended (im2col): the im2col load family and .im2col_no_offs stores (docs/im2col.md) ----

/// The im2col load modes (PTX ISA 9.2 §5.5.4, §5.5.5).
enum class TmaIm2colMode : uint8_t { Im2col, W, W128 };

/// cp.async.bulk.tensor.<n>d.shared::{cta,cluster}.global.{im2col,im2col::w,im2col::w::128}.mbarrier::complete_tx::bytes
///   [dstMem], [tensorMap, {c, w, h, d, n}], [mbar], {im2colInfo} {, ctaMask}      (n = 3..5)
/// .im2col: im2colInfo = {offW, offH, offD} (n-2 entries); .im2col::w / ::w::128: {wHalo, wOffset}.
struct TmaIm2colLoad {
    TmaTileLoad load; ///< map (from encodeIm2col / encodeIm2colWide), coords, CTAs, dstMem, mbar, multicast
    TmaIm2colMode mode = TmaIm2colMode::Im2col;
    std::array<uint16_t, 3> offsets{}; ///< .im2col: W, H, D order
    uint16_t wHalo = 0;                ///< .im2col::w*: halo pixels
    uint16_t wOffset = 0;              ///< .im2col::w*: W shift
};

/// cp.async.bulk.tensor.<n>d.global.shared::cta.im2col_no_offs.bulk_group [tensorMap, {c, w, h, d, n}],
/// [srcMem]
struct TmaIm2colStore {
    TmaTileStore store; ///< map from encodeIm2col; coords {c, w, h, d, n}
};

/// Execute an im2col-family load (tma_im2col.cpp): PTX ISA 9.2 §5.5.4 / §5.5.5, measured on an H100 for
/// .im2col (golden/tma rule 6, docs/interleave.md §4); .im2col::w / ::w::128 follow tma.md §9.1 (unverified,
/// oq 4, 5).
[[nodiscard]] Status executeTmaIm2colLoad(const TmaIm2colLoad& op, MachineState& state, TraceBuilder& trace);

/// Execute an .im2col_no_offs store: the .im2col walk without offsets, read from shared memory (measured on
/// an H100, docs/im2col.md §4; PTX ISA 9.2 §9.7.9.25.5.1 box-inside-tensor restriction).
[[nodiscard]] Status executeTmaIm2colStore(const TmaIm2colStore& op, MachineState& state,
                                           TraceBuilder& trace);

} // namespace layoutscope
