#pragma once
/// The tcgen05.ld fragment comparison (issue 12): which registers of a load hold another TMEM cell than
/// the fragment an epilogue assumes (`expect fragment SHAPE`, docs/scenario-format.md). One model for
/// the run's check (scenario/fragment_check.cpp) and the Registers view's marks.
#include "layoutscope/scenario/scenario.hpp"
#include "layoutscope/tcgen05/tcgen05.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace layoutscope {

struct FragmentDiff {
    LdStForm assumed;             ///< the load that gives the assumed fragment (same registers per thread)
    uint32_t regs = 0;            ///< registers per thread
    std::vector<uint8_t> differs; ///< [t * regs + j]: 1 when thread t's register j holds another cell
    uint64_t count = 0;           ///< how many differ
};

/// Compares `got` register by register with `e`'s shape at the same registers per thread (the maps of
/// tcgen05.md §4.1). nullopt: no load of that shape gives that many registers per thread.
[[nodiscard]] std::optional<FragmentDiff> fragmentDiff(const LdStForm& got, const FragmentExpectation& e);

} // namespace layoutscope
