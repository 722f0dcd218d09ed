#pragma once
/// Figures of a scenario run for design review (issue 14, `layoutscope-cli compare`): what a tiling costs
/// in instructions, bytes, shared-memory footprint, global sectors and lines, Tensor Memory.
#include "layoutscope/scenario/scenario.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace layoutscope {

struct MetricValue {
    enum class Better : uint8_t { None, Lower, Higher };
    std::string name; ///< row label, e.g. "global 32-B sectors read"
    int64_t value = 0;
    Better better = Better::None; ///< which way is better when scenarios are compared (None: neither)
};

/// Every figure of one run, in a fixed order (the rows of a comparison):
///   instructions; TMA loads; TMA stores; mbarrier ops; tcgen05 ops; wgmma ops;
///   bytes moved; mbarrier complete-tx bytes; OOB-filled bytes;
///   shared bytes declared; shared footprint (first to last byte of the buffers); alignment padding;
///   global 32-B sectors read; 128-B lines read; 128-B line requests (distinct lines per instruction,
///   summed: two boxes that split a line fetch it twice); sectors and lines written;
///   shared access patterns, their wavefronts and excess wavefronts (bank model, banks.hpp);
///   TMEM columns allocated (every tcgen05.alloc, a pair's in both CTAs); TMEM columns written;
///   check errors (the run's Error diagnostics).
[[nodiscard]] std::vector<MetricValue> scenarioMetrics(const Scenario& s, const Run& run);

} // namespace layoutscope
