// placeholder
#include "layoutscope/scenario.hpp"
namespace layoutscope {
Result<Run> runScenario(const Scenario&) {
    return Diagnostic{Severity::Error, DiagCode::Unsupported, {}, "not implemented", "", Provenance::Assumption};
}
} // namespace layoutscope
