#pragma once
/// Internal to the executor's TMA and bulk copies (PTX ISA 9.2 §9.7.9.25): the pieces the tile copies
/// (tma.cpp), the im2col / gather4 / scatter4 forms (tma_modes.cpp) and the plain bulk copies and reduces
/// (tma_bulk.cpp) share. The placement is always the engine's (layoutscope/tma/tma.hpp): each copy runs on a
/// MachineState whose global regions read the executor's tensors and whose shared memory is copied in and
/// back (stateFor / deliverLoad / storeBack).
#include "exec/decode_async.hpp"
#include "exec/machine.hpp"
#include "layoutscope/tma/tma.hpp"

#include <cstdint>
#include <string>

namespace layoutscope::exec {

inline constexpr const char* kCopyRef = "PTX ISA 9.2 §9.7.9.25 (bulk and tensor copies)";

/// The TMA restrictions of the module's target (sm_90*, sm_100*, sm_103*, sm_12*).
[[nodiscard]] TmaArch archOf(const std::string& sm);

/// A shared-memory operand -> (CTA index, shared::cta offset); `cluster`: a .shared::cluster address.
bool sharedTarget(Machine& m, Warp& w, const Op& op, bool cluster, uint64_t addr, uint32_t& cta,
                  uint32_t& off, const char* what);

/// The engine's machine state over the executor's memory: tensors as generated regions (read in place, or
/// every byte `fill` when fill >= 0), the shared memory of the CTAs in `ctaMask` copied in.
[[nodiscard]] MachineState stateFor(Machine& m, uint32_t ctaMask, int fill = -1);

/// An engine diagnostic as the run's error at `op`. Always false.
bool engineError(Machine& m, const Op& op, const Status& s);

/// The decoded tensor map of a `[tensorMap, {coords}]` operand (a .param symbol or a generic address).
[[nodiscard]] const TensorMap* mapOperand(Machine& m, Warp& w, const Op& op, const Opnd& mapOp, int lane);

/// A reduction's element operation (PTX ISA 9.2 §9.7.9.25.5.3, §9.7.9.25.4.2): `old` in the destination
/// combined with `v` from the source, both of type `ty` (f16 / bf16 / f32 / f64 / integers).
[[nodiscard]] uint64_t reduceValue(AtomOp a, Ty ty, uint64_t old, uint64_t v);
/// The element type of a tensor map's data type, as an executor type (for reduceValue).
[[nodiscard]] Ty elementTy(TensorDataType dt);

/// The common operands of every tensor load `[dst], [map, {coords}], [mbar] ...`: fills ld (map, coords,
/// CTAs, addresses, .multicast's ctaMask read from operand `maskIdx`, .cta_group, arch) and `targets` (the
/// CTAs written). `coordsNeeded`: the number of coordinates the mode takes.
bool prepareLoad(Machine& m, Warp& w, const Op& op, int lane, TmaTileLoad& ld, uint32_t& targets,
                 size_t coordsNeeded, size_t maskIdx);

/// After the engine ran a load on `st`: copies the targets' shared memory back, credits each destination's
/// mbarrier with the bytes the engine delivered, and issues one order-model unit per destination (its
/// written range [dst, dst + bytes), unverified: a swizzle permutes 16-byte chunks within it).
/// Returns the bytes delivered to one destination (0 when nothing was delivered), or -1 on an error.
int64_t deliverLoad(Machine& m, Warp& w, const Op& op, int lane, const TmaTileLoad& ld, uint32_t targets,
                    MachineState& st);

/// The common operands of every tensor store `[map, {coords}], [src]`.
bool prepareStore(Machine& m, Warp& w, const Op& op, int lane, TmaTileStore& sto, size_t coordsNeeded);

/// After the engine ran a store on `st0` (global memory all 0x00) and `stFF` (all 0xFF): the bytes that read
/// the same in both are the ones the store wrote (the shared-memory values); they go into the executor's
/// tensors (element-wise through reduceValue with `atom` when it is not None), recorded as pokes. Then the
/// order model gets the store's shared-memory read of `srcBytes` bytes (OpKind `kind`, bulk async-group).
bool storeBack(Machine& m, Warp& w, const Op& op, int lane, const TmaTileStore& sto, MachineState& st0,
               MachineState& stFF, AtomOp atom, uint64_t srcBytes);

/// Plain cp.async.bulk (every direction) and cp.reduce.async.bulk (tma_bulk.cpp).
bool bulkCopy(Machine& m, Warp& w, const Op& op, CopyForm f, int lane);
bool bulkReduce(Machine& m, Warp& w, const Op& op, int lane);

/// The load modes .im2col / .im2col::w / .im2col::w::128 / .tile::gather4 and the store modes
/// .im2col_no_offs / .tile::scatter4, with or without a reduction (tma_modes.cpp).
bool tensorLoadMode(Machine& m, Warp& w, const Op& op, int lane);
bool tensorStoreMode(Machine& m, Warp& w, const Op& op, int lane, bool reduce);

} // namespace layoutscope::exec
