#pragma once
// A slow, obviously-correct model of TMA tile loads and stores, written straight from the golden/tma
// README "Observed semantics" 1-5, 7 and "Surprises and hazards", one element and one byte at a time.
// It shares no code with the engine's executor (no chunking, no plans, its own swizzle and TF32
// rounding), so the oracle test can compare the two. Interleaved maps are not modelled here.
#include "layoutscope/core/memory.hpp"
#include "layoutscope/core/result.hpp"
#include "layoutscope/tma/tma.hpp"

#include <cstdint>
#include <optional>

namespace layoutscope::reference {

/// CuTe Swizzle<B,M,S> on an absolute shared address: bits [M+S, M+S+B) XOR-ed into bits [M, M+B).
[[nodiscard]] uint32_t cuteSwizzle(uint32_t bBits, uint32_t mBase, uint32_t sShift, uint32_t addr);
/// The physical address of `addr` under a CUtensorMapSwizzle mode, via cuteSwizzle (tma.md §4.2).
[[nodiscard]] uint32_t referenceSwizzle(TensorSwizzle s, uint32_t addr);
/// FP32 -> TF32 by comparing the 13 dropped bits with one half (ties to even), tma.md §3.2; NaN ->
/// 0x7FFFE000.
[[nodiscard]] uint32_t referenceTf32(uint32_t bits);

/// Apply a load to `state` (smem of every destination CTA, mbarrier completedBytes/txCount).
/// Returns the fault code instead, writing nothing, when the hardware would fault.
[[nodiscard]] std::optional<DiagCode> referenceLoad(const TmaTileLoad& op, MachineState& state);
/// Apply a store to `state.global`; returns the fault code instead when the hardware would fault.
[[nodiscard]] std::optional<DiagCode> referenceStore(const TmaTileStore& op, MachineState& state);

} // namespace layoutscope::reference
