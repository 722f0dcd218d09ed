// placeholder
#include "layoutscope/scenario.hpp"
namespace layoutscope {
const ScenarioTensorMap* Scenario::findTensorMap(std::string_view) const { return nullptr; }
const ScenarioBuffer* Scenario::findBuffer(std::string_view) const { return nullptr; }
Result<Scenario> parseScenario(std::string_view) {
    return Diagnostic{Severity::Error, DiagCode::Unsupported, {}, "not implemented", "", Provenance::Assumption};
}
} // namespace layoutscope
