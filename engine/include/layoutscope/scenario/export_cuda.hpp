#pragma once
/// A standalone CUDA program that replays a scenario on a GPU and checks the bytes the engine predicts
/// (issue 13 item 6, `layoutscope-cli export-cuda`; docs/export-cuda.md).
///
/// The program encodes every tensor map with the driver (cuTensorMapEncodeTiled / Im2col / Im2colWide,
/// the scenario's parameters with the real allocation as globalAddress), fills each tensor with the
/// scenario's fill pattern, runs the scenario's instructions as inline PTX (each CTA of the cluster
/// issues its own, thread 0, in program order), dumps every CTA's shared-memory buffers and the global
/// tensors, and compares them with the engine's prediction embedded in the source. It prints `PASS`
/// or the first differing byte, and exits 0 / 1.
///
/// Shared memory: buffers keep their address modulo 1024 (the swizzle atom), so swizzled layouts are
/// reproduced exactly. Ordering across CTAs: each CTA's leading mbarrier.init run first, then a cluster
/// barrier; `barrier.cluster.wait` in the scenario becomes a cluster barrier of every thread.
#include "layoutscope/core/result.hpp"
#include "layoutscope/scenario/scenario.hpp"

#include <string>
#include <string_view>

namespace layoutscope {

struct ExportCudaOptions {
    std::string sourceName;        ///< the scenario's file name, quoted in the program's header comment
    uint32_t spinLimit = 1u << 24; ///< try_wait retries before the program reports a timeout
};

/// The .cu text. `text` is the scenario source (for its `let` names). Errors (DiagCode::Unsupported):
/// instructions the exporter cannot express yet (tcgen05.*, wgmma, per-lane shared accesses), tensors
/// over 1 GiB, a 96-byte swizzle (no cuda.h value).
[[nodiscard]] Result<std::string> exportCuda(const Scenario& s, const Run& run, std::string_view text,
                                             const ExportCudaOptions& options = {});

} // namespace layoutscope
