// placeholder: owned by the PTX front-end work
#include "conform/conform.hpp"
namespace layoutscope::conform {
Result<std::vector<CaseOutcome>> conformPtxas(const std::string&) {
    return Diagnostic{Severity::Error, DiagCode::Unsupported, {}, "conform ptxas: not implemented yet", "", Provenance::Assumption};
}
} // namespace layoutscope::conform
