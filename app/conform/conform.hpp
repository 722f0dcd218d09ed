#pragma once
/// Conformance runners over ../shared/golden. Each returns one outcome per record.
#include "conform/golden_reader.hpp"

#include <string>
#include <vector>

namespace layoutscope::conform {

/// golden/tma/*.jsonl(.gz): dispatches each record on its "category" (encode, tile_load, store,
/// im2col_load, multicast...). Records of a kind not modelled yet fail with "not modelled".
[[nodiscard]] Result<std::vector<CaseOutcome>> conformTma(const std::string& path);

} // namespace layoutscope::conform
