#pragma once
// Internal: the non-interleaved tile walk and the per-byte helpers shared by the TMA load and store
// executors (tma_execute.cpp). Interleaved maps use interleavedBoxPlan (tma_box.hpp) instead.
#include "layoutscope/core/rules.hpp"
#include "layoutscope/tma/tma.hpp"
#include "tma/box.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace layoutscope::detail {

/// The box of a tile copy as 16-byte pieces in traversal order (golden/tma rules 1, 2, 4, 5):
/// rows of innerBytes at the row pitch (swizzle span or inner), a piece split where dimension 0
/// leaves [0, globalDim[0]) at element granularity (loads) or at the 16-byte granule that holds
/// globalDim[0] (stores, rule 5). Dispatches to interleavedBoxPlan for interleaved maps.
[[nodiscard]] BoxPlan tileBoxPlan(const TensorMap& map, const std::array<int32_t, 5>& coords, bool forStore);

/// The swizzle rule applied by mode `s` (TmaBoxTraversal for NONE).
[[nodiscard]] RuleId swizzleRule(TensorSwizzle s);

/// TF32 rounding of one FP32 bit pattern: round to nearest even at bit 13, low 13 bits cleared,
/// no flush of subnormals (tma.md §3.2, golden tile_load_0249).
[[nodiscard]] uint32_t roundToTf32(uint32_t bits);

/// Bytes of one element in shared memory for the byte types (0 for the sub-byte types).
[[nodiscard]] uint32_t tmaElemBytes(const TensorMap& map);

/// Dimension-0 bound a store honours: globalDim[0] rounded up to a whole 16-byte granule of the row
/// (golden/tma rule 5, store_0060/0061), in elements.
[[nodiscard]] uint64_t storeDim0Bound(const TensorMap& map);

// ---- appended (tmaextra): shared executor pieces and the sub-byte types (tma_subbyte.cpp) ----

/// Validates the destinations of a load (cluster ranks, multicast mask, .cta_group::2 peer rule) and
/// lists the destination CTAs (empty: mask 0, a no-op). Shared by tile and gather4 loads.
[[nodiscard]] std::optional<Diagnostic> loadDestinations(const TmaTileLoad& op, const MachineState& state,
                                                         std::vector<uint8_t>& dests);

/// Faults and restrictions shared by every tile-family copy (coordinates, sub-byte rules, smem alignment).
[[nodiscard]] std::optional<Diagnostic> tileFaults(const TensorMap& map, const std::array<int32_t, 5>& coords,
                                                   uint32_t smemAddr, bool store, TmaArch arch,
                                                   bool clusterDst);

/// Writes a planned load into every destination CTA and credits the mbarriers (cta_group aware).
/// `placeRule` overrides the placement rule of in-bounds bytes (RuleId::None: by map).
[[nodiscard]] Status deliverLoad(const TmaTileLoad& op, const BoxPlan& plan,
                                 const std::vector<uint8_t>& dests, MachineState& state, TraceBuilder& trace,
                                 RuleId placeRule = RuleId::None);

/// The row-at-a-time load of tma_fast.cpp: nullopt when the load is not one it takes (multicast,
/// sub-byte, interleaved, FLIP_8B, TF32, dimension 0 partly out of bounds, a box that does not fit),
/// else exactly what deliverLoad(tileBoxPlan(...)) would do. setTileFastPath(false) turns it off
/// (tests cross-check the two).
[[nodiscard]] std::optional<Status> fastTileLoad(const TmaTileLoad& op, const std::vector<uint8_t>& dests,
                                                 MachineState& state, TraceBuilder& trace);
void setTileFastPath(bool enabled);

/// Writes a planned store from the source CTA's shared memory to global memory.
[[nodiscard]] Status deliverStore(const TmaTileStore& op, const BoxPlan& plan, MachineState& state,
                                  TraceBuilder& trace, RuleId placeRule = RuleId::None);

/// Sub-byte box plan (16U4_ALIGN8B, 16U4_ALIGN16B, 16U6_ALIGN16B), tma.md §7. Loads and .b4x16 stores:
/// one piece per in/out-of-bounds run of a 16-element group, `length` = its packed global bytes, placed
/// at the group's shared chunk (8 B dense for .b4x16, 16 B with padding for the padded types).
/// .b6p2x16 stores (16U6_ALIGN16B, forStore): one piece per group, `length` = 16 shared bytes (one per
/// element), globalAddr = the group's 12 packed bytes.
[[nodiscard]] BoxPlan subByteBoxPlan(const TensorMap& map, const std::array<int32_t, 5>& coords,
                                     bool forStore);

/// The seed-004 restrictions checked when a sub-byte copy executes (precondition: isSubByteType);
/// `arch` selects the sm_103a .b6p2x16 store rules and the sm_120a .shared::cluster rule.
[[nodiscard]] std::optional<Diagnostic> subByteFaults(const TensorMap& map,
                                                      const std::array<int32_t, 5>& coords, bool store,
                                                      TmaArch arch, bool clusterDst);

/// The seed-004 restrictions fixed by the copy's form alone (direction, target, map type), checkable
/// before it runs: 2 (no .b4x16_p64 store) and 3 (no sub-byte .shared::cluster load on sm_120a).
[[nodiscard]] std::optional<Diagnostic> subByteDirectionFaults(const TensorMap& map, bool store, TmaArch arch,
                                                               bool clusterDst);

/// The sm_120a restriction on every type: no .swizzle_atomicity (128B_ATOM_*) with .shared::cluster.global;
/// and for a PTX-only 96B map, its target (sm_103) and restrictions (swizzle96BFaults).
[[nodiscard]] std::optional<Diagnostic> targetSwizzleFaults(const TensorMap& map, TmaArch arch,
                                                            bool clusterDst);

/// The 96B swizzle (PTX-only .swizzle_mode 4; tma_swizzle96.cpp): the diagnostic naming its targets
/// (sm_103a, sm_103f), and seed 004's 96B restrictions 2..5 for a map's type, interleave, inner box
/// (boxDim[0] or channelsPerPixel, in elements) and im2col-wide mode W128 (= .im2col::w::128).
[[nodiscard]] Diagnostic swizzle96BTargetFault(const std::string& target);
[[nodiscard]] std::optional<Diagnostic> swizzle96BFaults(TensorDataType type, TensorInterleave interleave,
                                                         uint64_t innerCount, bool w128);
/// The same at execution for a map carrying TensorSwizzle::PTX_96B (`arch` must be Sm103); else nullopt.
[[nodiscard]] std::optional<Diagnostic> swizzle96BFaults(const TensorMap& map, TmaArch arch);

/// Shared-memory bytes of one dimension-0 row of a sub-byte box (dense .b4x16: boxDim[0]/2; padded: 128).
[[nodiscard]] uint32_t subByteRowBytes(const TensorMap& map);

/// .b6p2x16 store: packs bits [5:0] of each shared byte into 6-bit global values (unverified, oq 10).
[[nodiscard]] Status storeB6p2x16(const TmaTileStore& op, const BoxPlan& plan, MachineState& state,
                                  TraceBuilder& trace);

} // namespace layoutscope::detail
