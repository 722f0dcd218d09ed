#pragma once
/// Scenarios: small text files that read like what a kernel engineer writes.
///
///   target sm_90a
///   cluster 1                       # or: cluster 2x1x1
///   tensormap A tiled FLOAT16 dims=[4096,4096] strides=[8192] box=[64,64] swizzle=128B
///   smem sA 16384 align=1024        # optional: cta=N
///   mbarrier bar
///   cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [A, {0, 0}], [bar];
///
/// Pure stages: parseScenario (text -> Scenario) then runScenario (Scenario -> Run with a Trace).
#include "layoutscope/memory.hpp"
#include "layoutscope/result.hpp"
#include "layoutscope/tensor_map.hpp"
#include "layoutscope/tma.hpp"
#include "layoutscope/trace.hpp"

#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace layoutscope {

struct ScenarioTensorMap {
    std::string name;
    TensorMap map;
    SourceSpan span;
};

struct ScenarioBuffer {
    std::string name;
    uint32_t cta = 0;
    uint32_t addr = 0;  ///< shared::cta byte address assigned by the layout pass
    uint32_t size = 0;
    uint32_t align = 16;
    SourceSpan span;
};

struct ScenarioBarrier {
    std::string name;
    uint32_t cta = 0;
    uint32_t addr = 0;
    SourceSpan span;
};

/// A validated operation ready to execute.
using ScenarioOp = std::variant<TmaTileLoad, TmaTileStore>;

struct ScenarioInstr {
    std::string text;
    SourceSpan span;
    ScenarioOp op;
};

struct Scenario {
    std::string target = "sm_90a";
    uint32_t clusterSize = 1;
    uint32_t smemBase = 1024;  ///< first shared::cta byte address available to buffers
    std::vector<ScenarioTensorMap> tensorMaps;
    std::vector<ScenarioBuffer> buffers;
    std::vector<ScenarioBarrier> barriers;
    std::vector<ScenarioInstr> instrs;

    [[nodiscard]] const ScenarioTensorMap* findTensorMap(std::string_view name) const;
    [[nodiscard]] const ScenarioBuffer* findBuffer(std::string_view name) const;
};

/// Parse and validate a scenario. Every diagnostic has a line and column.
[[nodiscard]] Result<Scenario> parseScenario(std::string_view text);

struct Run {
    MachineState initial; ///< memory before the first instruction (global tensors generated)
    MachineState final;
    Trace trace;
};

/// Execute every instruction. A hardware fault stops the run with its diagnostic.
[[nodiscard]] Result<Run> runScenario(const Scenario& s);

} // namespace layoutscope
