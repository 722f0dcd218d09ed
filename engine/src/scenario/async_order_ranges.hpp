#pragma once
// The bytes a scenario instruction read or wrote, as the async model's ranges (scenario/async_order.cpp).
#include "layoutscope/async/async.hpp"
#include "layoutscope/scenario/scenario.hpp"

#include <string>
#include <vector>

namespace layoutscope::scn {

/// The buffer of CTA `cta` that holds shared::cta address `addr` ("" if none).
std::string bufferName(const Scenario& s, uint32_t cta, uint64_t addr);

/// Merged ranges of the moves of trace instruction `idx`: sources (reads) or destinations (writes, `dst`)
/// in shared memory, Tensor Memory (columns, one lane each) and registers; with onlyCta >= 0 only that
/// CTA's. Sorted by (space, CTA, begin); touching ranges merge (Tensor Memory: within a lane). Read from
/// the trace's runs (MoveTable::runSpans), not move by move: the same ranges as merging every move's.
std::vector<async::Range> movesRanges(const Scenario& s, const Trace& tr, uint32_t idx, bool dst,
                                      int onlyCta = -1);

} // namespace layoutscope::scn
