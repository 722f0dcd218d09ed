#pragma once
// Internal: the Blackwell TMA extras in scenarios (tmaextra): .tile::gather4 / .tile::scatter4
// operations and their run-time dispatch and summary. Lowering (scenario_ops.cpp) and the runner
// (scenario_run.cpp) call these small hooks; the logic lives in scenario_tma_extra.cpp.
#include "layoutscope/scenario.hpp"

#include <string>

namespace layoutscope::scn {

/// A lowered gather4 load from a tile-style load whose coords hold {col, row0, row1, row2, row3}.
[[nodiscard]] ScenarioOp gather4Op(const TmaTileLoad& ld);
/// A lowered scatter4 store from a tile-style store whose coords hold {col, row0, row1, row2, row3}.
[[nodiscard]] ScenarioOp scatter4Op(const TmaTileStore& st);
/// The map whose box is the 4-row shared image of a gather4/scatter4 (for the buffer-size check).
[[nodiscard]] TensorMap fourRowBoxMap(const TensorMap& map);

/// Execute any ScenarioOp through the matching TMA executor.
[[nodiscard]] Status executeScenarioOp(const ScenarioOp& op, MachineState& state, TraceBuilder& trace);
/// The one-line summary of a gather4/scatter4 op ("" for the tile ops, which scenario_run.cpp describes).
[[nodiscard]] std::string extraOpSummary(const ScenarioOp& op, uint64_t bytesWritten);

} // namespace layoutscope::scn
