#pragma once
// Internal: the Blackwell TMA extras in scenarios (tmaextra): .tile::gather4 / .tile::scatter4
// operations and their run-time dispatch and summary. Lowering (scenario_ops.cpp) and the runner
// (scenario_run.cpp) call these small hooks; the logic lives in scenario_tma_extra.cpp.
#include "layoutscope/scenario/scenario.hpp"

#include <optional>
#include <string>

namespace layoutscope::scn {

struct Context; // scenario_parse.hpp

/// A lowered gather4 load from a tile-style load whose coords hold {col, row0, row1, row2, row3}.
[[nodiscard]] ScenarioOp gather4Op(const TmaTileLoad& ld);
/// A lowered scatter4 store from a tile-style store whose coords hold {col, row0, row1, row2, row3}.
[[nodiscard]] ScenarioOp scatter4Op(const TmaTileStore& st);
/// The map whose box is the 4-row shared image of a gather4/scatter4 (for the buffer-size check).
[[nodiscard]] TensorMap fourRowBoxMap(const TensorMap& map);

/// Restrictions a TMA copy's form alone decides (seed 004 sub-byte restrictions 2 and 3: direction,
/// target, map type), so `check` reports them at the instruction rather than the run.
[[nodiscard]] std::optional<Diagnostic> staticCopyFaults(const TensorMap& map, bool store, TmaArch arch,
                                                         bool clusterDst);

/// `swizzle=96B` on a tensormap directive: PTX .swizzle_mode 4, which has no cuda.h value. The target must
/// be sm_103a / sm_103f with PTX 8.8+ and seed 004's 96B restrictions must hold (type, interleave, inner
/// box in elements, im2col-wide mode W128); otherwise an error at `span` and false. The caller encodes the
/// map with SWIZZLE_NONE and then sets TensorSwizzle::PTX_96B, as tensormap.replace would in a kernel.
[[nodiscard]] bool allow96BSwizzle(Context& ctx, SourceSpan span, TensorDataType type,
                                   TensorInterleave interleave, uint64_t innerCount, bool w128);

/// Execute any ScenarioOp through the matching TMA executor.
[[nodiscard]] Status executeScenarioOp(const ScenarioOp& op, MachineState& state, TraceBuilder& trace);
/// The one-line summary of a gather4/scatter4 op ("" for the tile ops, which scenario_run.cpp describes).
[[nodiscard]] std::string extraOpSummary(const ScenarioOp& op, uint64_t bytesWritten);

} // namespace layoutscope::scn
