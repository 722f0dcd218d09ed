#pragma once
/// Multicast fans: which source rows of a replicating tcgen05.cp (.warpx2::02_13, .warpx2::01_23,
/// .warpx4; PTX ISA 9.2 §9.7.16.9.1) or a .cta_group::2 copy go to which lane quarter of which CTA,
/// as a bounded list of edges (one per 32-row block x replica x CTA, never one per byte).
/// Pure C++ (no Qt, no GL); the TMEM overlay draws the edges as bezier bands.
#include "scene/document.hpp"

#include <optional>
#include <string>
#include <vector>

namespace layoutscope::views {

struct FanEdge {
    uint32_t rowLo = 0, rowHi = 0;   ///< source rows [lo, hi)
    uint32_t cta = 0;                ///< destination CTA
    uint32_t laneLo = 0, laneHi = 0; ///< destination lanes [lo, hi)
    uint32_t column = 0;             ///< first destination column
    friend bool operator==(const FanEdge&, const FanEdge&) = default;
};

struct MulticastFans {
    bool valid = false;
    uint32_t instr = 0;
    uint32_t srcRows = 0;       ///< rows of the source
    uint32_t replicas = 1;      ///< copies of each row per CTA
    std::vector<FanEdge> edges; ///< sorted by (cta, laneLo)
    std::string label;          ///< e.g. ".warpx2::02_13: 64 rows -> 4 lane quarters"
};

/// The fan of the replicating copy shown at `step`: the last such tcgen05.cp whose first step is < step,
/// else the first one; invalid when the trace has none.
[[nodiscard]] MulticastFans multicastFansAt(const Document& doc, uint32_t step);

} // namespace layoutscope::views
