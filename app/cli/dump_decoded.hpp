#pragma once
// dump --tmem / --regs (cmd_scenario.cpp): the final cells and registers decoded as the accumulator type of
// the MMA that wrote them.
#include "layoutscope/scenario/scenario.hpp"

#include <array>
#include <cstdint>
#include <ostream>

namespace layoutscope::cli {

/// The TMEM box (lanes box[0]..box[1], columns box[2]..box[3], inclusive) of CTA `cta` decoded as the D type
/// (f32, s32, f16 in bits [0,16)) of the CTA's last tcgen05.mma (PTX ISA 9.2 §9.7.16.10.4.1); nothing without
/// one.
void printDecodedTmem(const Scenario& sc, const std::array<uint32_t, 4>& box, uint32_t cta,
                      const TensorMemory& m, std::ostream& out);
/// The {d...} registers of warp `w`'s last wgmma.mma_async (its warpgroup's) decoded as .f32, or .f16 two a
/// register (PTX ISA 9.2 §9.7.15.5.1.1), one row per thread; nothing without one.
void printDecodedWgmmaD(const Scenario& sc, const ScenarioWarp& w, std::ostream& out);

} // namespace layoutscope::cli
