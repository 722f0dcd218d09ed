#pragma once
// Internal: the word kernels of the tcgen05.ld / st bulk path (exec_ldst_bulk.cpp; issue 25 item 10). A warp
// access is 32 threads x n registers; its trace keeps the moves in the order (j, t[, si]): register j
// outer, thread t inner (PTX ISA 9.2 §9.7.16.8; tcgen05.md §4), while each thread's registers are a row of
// its own. These kernels move words between the three layouts:
//   rows  regs[t][j]                 (a thread's registers)
//   JT    jt[(j - j0) * 32 + t]      (the trace's move order; with .unpack::16b two words a move pair)
//   cells cells[offT[t] + offJ[j]]   (Tensor Memory: the form's map, a thread part plus a register part)
// Transposes go through 4x4 SSE2 blocks where the target has SSE2, else scalar; both give the same words.
#include "layoutscope/tcgen05/tcgen05.hpp"

#include <array>
#include <cstdint>

namespace layoutscope::detail {

using RegRows = std::array<uint32_t*, 32>;
using ConstRegRows = std::array<const uint32_t*, 32>;

/// jt[(j - j0) * 32 + t] = regs[t][j] for j in [j0, j1).
void regsToJT(const ConstRegRows& regs, uint32_t j0, uint32_t j1, uint32_t* jt);
/// The same with each register split in two moves' words (.unpack::16b): jt[2k] = low half, jt[2k + 1] =
/// high half, zero-extended.
void regsToJTUnpack(const ConstRegRows& regs, uint32_t j0, uint32_t j1, uint32_t* jt);
/// regs[t][j] = jt[(j - j0) * 32 + t] for j in [j0, j1).
void jtToRegs(const uint32_t* jt, uint32_t j0, uint32_t j1, const RegRows& regs);

/// jt[((j - j0) * 32 + t) * w + i] = cell i of (t, j): cells[offT[t] + offJ[j] + i], w = 2 with `pairs` (an
/// .unpack::16b store's two cells a register), else 1. Read thread by thread (a lane's run of cells), four
/// threads at a time, then transposed: the move order's gather would touch 32 Tensor Memory lanes 2 KiB apart
/// for every register, more cache lines of one set than L1 holds.
/// `contiguous`: offJ[j] = offJ[0] + w j (a lane's cells are one run), read as rows without a gather.
void cellsToJT(const uint32_t* cells, const int32_t* offT, const int32_t* offJ, uint32_t j0, uint32_t j1,
               bool pairs, bool contiguous, uint32_t* jt);

/// Whether the lane kernels below take the whole access (registers 0 .. n) of `shape`, with `pairs` two
/// cells a register (.pack / .unpack::16b): .16x64b, .16x128b, .16x256b, where the target has SSE2 (else
/// the thread-by-thread path runs).
[[nodiscard]] bool lanesTake(LdStShape shape, uint32_t n, bool pairs);
/// The whole access of a form lanesTake() takes, between its lanes (`cells`: lane taddr.lane, column
/// taddr.column; lanes `stride` cells apart) and JT, by vector shuffles of each lane's runs (ldst_rows.cpp).
void lanesToJT(LdStShape shape, const uint32_t* cells, uint32_t stride, uint32_t n, bool pairs, uint32_t* jt);
/// lanesToJT of a .pack::16b load, each register's pair of cells packed into its one word (the trace's word).
void lanesToJTPacked(LdStShape shape, const uint32_t* cells, uint32_t stride, uint32_t n, uint32_t* jt);
void jtToLanes(LdStShape shape, const uint32_t* jt, uint32_t stride, uint32_t n, bool pairs, uint32_t* cells);

/// r[j] = (p[2j] & 0xFFFF) | (p[2j + 1] << 16) for j < n: a thread's .pack::16b registers from a run of
/// cells.
void packRun(const uint32_t* p, uint32_t n, uint32_t* r);
/// p[2j] = r[j] & 0xFFFF, p[2j + 1] = r[j] >> 16 for j < n: the .unpack::16b store of a run.
void unpackRun(const uint32_t* r, uint32_t n, uint32_t* p);

} // namespace layoutscope::detail
