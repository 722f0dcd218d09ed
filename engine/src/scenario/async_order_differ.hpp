#pragma once
// The async model's value cross-check for scenarios (async::Model::ValueDiffers, scenario/async_order.cpp):
// whether an instruction's writes change any byte of an overlap range, read from the trace's runs.
#include "layoutscope/async/async.hpp"
#include "layoutscope/core/trace.hpp"

#include <cstdint>
#include <vector>

namespace layoutscope::scn {

/// Whether trace instruction `idx`'s writes change any byte of `ov` (after != before): for each of its moves
/// whose destination (same space and CTA) overlaps `ov`, the bytes inside `ov` (Tensor Memory: the whole
/// move, whose extent is in columns). The same answer as reading every move of the instruction, at a cost
/// proportional to the moves that overlap (issue 25 item 3): runs and their levels whose address bounds
/// miss `ov` are skipped whole, and an instruction none of whose bytes change answers at once.
class WritesDiffer {
  public:
    explicit WritesDiffer(const Trace& tr) : m_tr(tr), m_changes(tr.instrs.size(), kUnknown) {}
    bool operator()(uint32_t idx, const async::Range& ov);

  private:
    enum : uint8_t { kUnknown, kNone, kSome };
    /// kNone when no byte of the instruction's moves changes (read in bulk from the stores), else kSome
    /// (some byte changes, or its bytes are not all kept as they are).
    uint8_t changes(uint32_t idx);
    const Trace& m_tr;
    std::vector<uint8_t> m_changes; ///< per instruction, computed once
};

} // namespace layoutscope::scn
