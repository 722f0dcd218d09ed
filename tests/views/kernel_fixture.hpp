#pragma once
/// Hand-built fixture of a recorded kernel (issue 22 item 4): a trace whose instructions carry
/// SourceOrigin as the executor's recording does, written with TraceBuilder (independent of the
/// executor), and a small PTX module + CUDA file on disk for the source pane.
///
///   instr 0  cp.async.bulk.tensor (TMA)  PTX line 12, kernel.cu:7,  warp 0 of CTA 0  steps [0,4): 4 x 16 B
///   -> 0x400 instr 1  mbarrier.try_wait           PTX line 15, kernel.cu:9,  warp 1 of CTA 0  no steps instr
///   2  st.shared.v4.u32            PTX line 20, kernel.cu:11, warp 1 of CTA 0  step 4: 16 B -> 0x500 instr 3
///   st.shared.u32               PTX line 24, no CUDA line, warp 2 of CTA 0  step 5: 4 B -> 0x600
#include "scene/document.hpp"

#include <memory>
#include <string>

namespace layoutscope::views::test {

/// The document; its kernelPtxPath() is `ptxPath` (may be empty). `cudaLines` false: no instruction has a
/// CUDA line (a module compiled without -lineinfo).
std::unique_ptr<Document> makeRecordedDocument(const std::string& ptxPath = {}, bool cudaLines = true);

/// Write `dir`/kernel.ptx (30 numbered lines: "// line N") and, when `withCuda`, `dir`/src/kernel.cu
/// (20 lines "// cu line N"); returns the .ptx path. The trace's cudaFile is "src/kernel.cu", found
/// relative to the .ptx's folder.
std::string writeRecordedSources(const std::string& dir, bool withCuda);

} // namespace layoutscope::views::test
