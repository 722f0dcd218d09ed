#pragma once
// Internal: im2col in scenarios (scenario_im2col.cpp). The tensor-map directive form
//   tensormap NAME im2col TYPE dims=[C,W,H,N] lower=[..] upper=[..] channels=N pixels=N [elementStrides=..]
//                            [strides=..] [interleave=..] [swizzle=..] [l2=..] [oob=..] [address=..]
//                            [fill=..]
//   tensormap NAME im2col_wide TYPE dims=[..] lower=W upper=W channels=N pixels=N mode=W|W128 ...
// and the lowering hooks scenario_ops.cpp calls for .im2col / .im2col::w / .im2col::w::128 loads and
// .im2col_no_offs stores, plus their execution and summary for scenario_run.cpp.
#include "layoutscope/scenario/scenario.hpp"
#include "scenario/directives.hpp"

#include <optional>
#include <string>
#include <vector>

namespace layoutscope::scn {

/// `tensormap NAME im2col|im2col_wide ...`; r is positioned after the mode word `mode`, `t` holds the
/// name and its span.
void im2colTensormap(DirectiveReader& r, ScenarioTensorMap t, const Tok& mode);

/// The im2col qualifier of a cp.async.bulk.tensor opcode token, if it is one.
struct Im2colQualifier {
    TmaIm2colMode mode = TmaIm2colMode::Im2col;
    bool noOffs = false; ///< .im2col_no_offs (stores)
};
[[nodiscard]] std::optional<Im2colQualifier> im2colQualifier(std::string_view opcodeToken);

/// A lowered im2col load: `info` holds the im2colInfo vector ({offW, offH, offD} or {wHalo, wOffset}).
[[nodiscard]] ScenarioOp im2colLoadOp(const TmaTileLoad& ld, TmaIm2colMode mode,
                                      const std::vector<int64_t>& info);
[[nodiscard]] ScenarioOp im2colStoreOp(const TmaTileStore& st);
/// A tile map whose box has the shared-memory footprint of the im2col column (for the buffer-size check).
[[nodiscard]] TensorMap im2colBoxMap(const TensorMap& map, TmaIm2colMode mode, uint32_t wHalo);

/// Execute an im2col ScenarioOp (precondition: it holds TmaIm2colLoad or TmaIm2colStore).
[[nodiscard]] Status executeIm2colScenarioOp(const ScenarioOp& op, MachineState& state, TraceBuilder& trace);
/// One-line summary of an im2col op ("" for other ops).
[[nodiscard]] std::string im2colOpSummary(const ScenarioOp& op, uint64_t bytesWritten);

} // namespace layoutscope::scn
