#pragma once
/// Where a recorded kernel's instruction comes from (issue 22 item 4): the PTX line and CUDA line of a
/// TraceInstr (TraceInstr::origin), in words, and the files the source pane shows. Plain C++.
#include "layoutscope/core/trace.hpp"

#include <cstdint>
#include <string>

namespace layoutscope::views {

/// The instruction whose moves lead to `step` (the views show memory after steps 0..step-1: the
/// instruction with firstStep < step <= endStep), else the last one that starts at or before it; -1
/// for an empty trace. Binary search: instructions are in step order.
[[nodiscard]] int32_t instrOfStep(const Trace& t, uint32_t step);

/// "PTX line 812, 01_mma_sm100.cu:143, warp 2 of CTA 0" (the CUDA file by its last path component; the
/// issuer when known); "no line info" when the instruction does not come from a kernel's PTX.
[[nodiscard]] std::string originText(const SourceOrigin& o);

/// The file `written` (a `.file` name) names: the path as written when it is a readable regular file,
/// else relative to the folder of `ptxPath`; empty when neither is.
[[nodiscard]] std::string resolveSourcePath(const std::string& written, const std::string& ptxPath);

} // namespace layoutscope::views
