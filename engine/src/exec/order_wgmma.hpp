#pragma once
/// Internal to the executor (issue 23 on real kernels): the registers of wgmma.mma_async in the order model
/// (order_wgmma.cpp). PTX ISA 9.2 §9.7.15.5.2: a thread that reads or writes the accumulator registers of a
/// wgmma.mma_async, or writes the registers of its register A fragment, before a wgmma.wait_group that
/// waits on the wgmma's group races with it (undefined behaviour); further wgmma.mma_async of the same shape
/// may use the accumulator without a wait. And §9.7.15.6.1: a register written by another instruction needs a
/// wgmma.fence before a wgmma.mma_async uses it, and a warp's first wgmma.mma_async a wgmma.fence (a warning:
/// ptxas inserts the fence).
#include "exec/machine.hpp"
#include "layoutscope/async/async.hpp"

#include <array>
#include <vector>

namespace layoutscope::exec {

/// The register ranges of wgmma.mma_async `op` for the order model: D's slots written and a register A
/// fragment's read, per thread of the warpgroup (runs of consecutive slots).
void wgmmaRegisterRanges(const Machine& m, const Op& op, const std::array<Warp*, 4>& warps,
                         std::vector<async::Range>& reads, std::vector<async::Range>& writes);
/// wgmma.mma_async of the warpgroup `warps` executed: its D (and register A) slots pending in each warp.
void orderWgmmaRegisters(Machine& m, const Op& op, const std::array<Warp*, 4>& warps);
/// wgmma.commit_group (commit) or wgmma.wait_group `waitN` by warp `w`.
void orderWgmmaGroupRegisters(Machine& m, const Warp& w, bool commit, int waitN);
/// Before each instruction (run.cpp): a pending wgmma register it reads or writes is a race; the registers it
/// writes need a wgmma.fence before a wgmma uses them. Cheap in a program without wgmma.
void orderWgmmaRegisterUse(Machine& m, Warp& w, const Op& op, uint32_t exec);

} // namespace layoutscope::exec
