#pragma once
// Internal: the accumulator value check of tcgen05.mma during a run (mma_values.cpp; the public view of
// the same reference is layoutscope/analysis/mma_values.hpp).
#include "layoutscope/analysis/mma_values.hpp"
#include "layoutscope/tcgen05/exec.hpp"
#include "scenario/parse.hpp"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace layoutscope::scn {

struct ResolvedOperand; // consumer_operands.hpp

/// The values of operand `r` (rows x K, [i * K + k]) from the global elements of the tile behind it, as the
/// operand check resolves them (decoded by the tensor map's type; 8-bit by the signedness of `t`), negated
/// when `negate`; nullopt: an element type the value checks do not model. Shared with wgmma_values.cpp.
[[nodiscard]] std::optional<std::vector<double>> tileValues(const ResolvedOperand& r, uint32_t rows,
                                                            uint32_t K, UmmaType t, bool negate,
                                                            const GlobalMemory& g);
/// A value for a diagnostic: %.7g.
[[nodiscard]] std::string valueText(double v);

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
