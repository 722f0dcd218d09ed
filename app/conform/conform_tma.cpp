// placeholder
#include "conform/tma_records.hpp"
namespace layoutscope::conform {
CaseOutcome checkTileLoadRecord(const Json& rec) { return {rec.value("case_id", ""), false, "not implemented"}; }
CaseOutcome checkStoreRecord(const Json& rec) { return {rec.value("case_id", ""), false, "not implemented"}; }
} // namespace layoutscope::conform
