#pragma once
// Internal: the accumulator value check of tcgen05.mma during a run (mma_values.cpp; the public view of
// the same reference is layoutscope/analysis/mma_values.hpp).
#include "layoutscope/analysis/mma_values.hpp"
#include "layoutscope/tcgen05/exec.hpp"
#include "scenario/parse.hpp"

#include <map>
#include <utility>

namespace layoutscope::scn {

class MmaValueCheck {
  public:
    /// tcgen05.mma `instrIndex` has run (its operand checks clean): compare its accumulator in `tmem`
    /// with the reference; an error per instruction whose D differs. Returns the cells (empty: skipped).
    MmaDCheck check(const Scenario& s, size_t instrIndex, const Trace& t, ProducerIndex& index,
                    const GlobalMemory& g, const TmemState& tmem, std::vector<Diagnostic>* findings);

  private:
    /// (CTA, d-tmem) -> the reference the last checked MMA left there (M x N, and the sum of |a*b|).
    std::map<std::pair<uint32_t, uint32_t>, std::pair<std::vector<double>, std::vector<double>>> m_ref;
};

} // namespace layoutscope::scn
