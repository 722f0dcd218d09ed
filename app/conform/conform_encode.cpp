// placeholder
#include "conform/tma_records.hpp"
namespace layoutscope::conform {
CaseOutcome checkEncodeRecord(const Json& rec) { return {rec.value("case_id", ""), false, "not implemented"}; }
} // namespace layoutscope::conform
