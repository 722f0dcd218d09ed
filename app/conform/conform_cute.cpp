// placeholder: owned by the tcgen05 work
#include "conform/conform.hpp"
namespace layoutscope::conform {
Result<std::vector<CaseOutcome>> conformCute(const std::string&) {
    return Diagnostic{Severity::Error, DiagCode::Unsupported, {}, "conform cute: not implemented yet", "", Provenance::Assumption};
}
} // namespace layoutscope::conform
