// placeholder
#include "layoutscope/tma.hpp"
namespace layoutscope {
Status executeTmaLoad(const TmaTileLoad&, MachineState&, TraceBuilder&) {
    return Diagnostic{Severity::Error, DiagCode::Unsupported, {}, "not implemented", "", Provenance::Assumption};
}
Status executeTmaStore(const TmaTileStore&, MachineState&, TraceBuilder&) {
    return Diagnostic{Severity::Error, DiagCode::Unsupported, {}, "not implemented", "", Provenance::Assumption};
}
} // namespace layoutscope
