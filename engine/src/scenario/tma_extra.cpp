// Scenario hooks for the Blackwell TMA extras: .tile::gather4 / .tile::scatter4 (PTX ISA 9.2
// §5.5.3.4; tma.md §8) and the dispatch of every ScenarioOp to its executor. .cta_group::2 and the
// sub-byte tensor maps need no op of their own: they are fields of TmaTileLoad / the TensorMap.
#include "scenario/tma_extra.hpp"
#include "layoutscope/core/hex.hpp"
#include "scenario/im2col.hpp"
#include "scenario/parse.hpp"
#include "tma/plan.hpp"

#include <cstdio>
#include <type_traits>

namespace layoutscope::scn {
namespace {

std::string rowsText(const std::array<int32_t, 4>& rows) {
    std::string s;
    for (int32_t r : rows) s += (s.empty() ? "" : ", ") + std::to_string(r);
    return s;
}

} // namespace

ScenarioOp gather4Op(const TmaTileLoad& ld) {
    TmaGather4Load g;
    g.load = ld;
    g.col = ld.coords[0];
    for (size_t i = 0; i < 4; ++i) g.rows[i] = ld.coords[i + 1];
    g.load.coords = {};
    return g;
}

ScenarioOp scatter4Op(const TmaTileStore& st) {
    TmaScatter4Store s;
    s.store = st;
    s.col = st.coords[0];
    for (size_t i = 0; i < 4; ++i) s.rows[i] = st.coords[i + 1];
    s.store.coords = {};
    return s;
}

std::optional<Diagnostic> staticCopyFaults(const TensorMap& map, bool store, TmaArch arch, bool clusterDst) {
    return detail::subByteDirectionFaults(map, store, arch, clusterDst);
}

bool allow96BSwizzle(Context& ctx, SourceSpan span, TensorDataType type, TensorInterleave interleave,
                     uint64_t innerCount, bool w128) {
    const PtxTarget t = ctx.ptxTarget();
    std::optional<Diagnostic> f;
    if ((t.sm != "sm_103a" && t.sm != "sm_103f") || t.ptxMajor * 10 + t.ptxMinor < 88)
        f = detail::swizzle96BTargetFault(t.sm + " with PTX " + std::to_string(t.ptxMajor) + "." +
                                          std::to_string(t.ptxMinor));
    else
        f = detail::swizzle96BFaults(type, interleave, innerCount, w128);
    if (!f) return true;
    f->span = span;
    ctx.diags.push_back(std::move(*f));
    return false;
}

TensorMap fourRowBoxMap(const TensorMap& map) {
    TensorMap m = map;
    m.p.boxDim[1] = 4; // four one-row boxes stacked (tma.md §8)
    m.p.elementStrides[1] = 1;
    return m;
}

Status executeScenarioOp(const ScenarioOp& op, MachineState& state, TraceBuilder& trace) {
    return std::visit(
        [&](const auto& o) -> Status {
            using T = std::decay_t<decltype(o)>;
            if constexpr (std::is_same_v<T, TmaTileLoad>)
                return executeTmaLoad(o, state, trace);
            else if constexpr (std::is_same_v<T, TmaTileStore>)
                return executeTmaStore(o, state, trace);
            else if constexpr (std::is_same_v<T, TmaGather4Load>)
                return executeTmaGather4(o, state, trace);
            else if constexpr (std::is_same_v<T, TmaScatter4Store>)
                return executeTmaScatter4(o, state, trace);
            else
                return executeIm2colScenarioOp(op, state, trace); // im2col (scenario_im2col.cpp)
        },
        op);
}

std::string extraOpSummary(const ScenarioOp& op, uint64_t bytesWritten) {
    if (const auto* g = std::get_if<TmaGather4Load>(&op))
        return "TMA gather4 of rows {" + rowsText(g->rows) + "} from column " + std::to_string(g->col) +
               ", " + std::to_string(bytesWritten) + " B written at " + hex(g->load.dstAddr) +
               " (rows stacked in operand order; unverified)";
    if (const auto* s = std::get_if<TmaScatter4Store>(&op))
        return "TMA scatter4 to rows {" + rowsText(s->rows) + "} at column " + std::to_string(s->col) + ", " +
               std::to_string(bytesWritten) + " B written to global from CTA " +
               std::to_string(s->store.srcCta);
    return "";
}

} // namespace layoutscope::scn
