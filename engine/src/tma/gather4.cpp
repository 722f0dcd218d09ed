// .tile::gather4 / .tile::scatter4 (PTX ISA 9.2 §5.5.3.4; tma.md §8). No hardware record exists
// (sm_100 only); the reading below is the reference pack's, tagged with open questions 4 and 11.
//
//   coordinates {col, row0, row1, row2, row3} of a 2-D tensor map; each (col, row_i) starts its own
//   boxDim[0] x 1 bounding box. Shared memory (gather4; scatter4 reads the same image):
//     logical row i  <- tensor row row_i, columns col .. col+boxDim[0]-1      (operand order)
//     pitch, swizzle, OOB fill, alignment: exactly as a 4-row tile box (tma.md §4)
//   complete_tx = 4 * boxDim[0] * elemsize (fill included).
#include "tma/plan.hpp"

#include <string>

namespace layoutscope {
namespace {

Diagnostic invalid(std::string msg, std::string ref, Provenance prov) {
    return Diagnostic{Severity::Error, DiagCode::InvalidValue, {}, std::move(msg), std::move(ref), prov};
}

// The map rules of gather4/scatter4 (rank, interleave, box height).
std::optional<Diagnostic> mapFaults(const TensorMap& map, const char* mode) {
    if (map.mode != TensorMap::Mode::Tiled)
        return invalid(std::string(mode) + " needs a tiled tensor map, not an im2col one",
                       "PTX ISA 9.2 §5.5.3.4", Provenance::PtxText);
    if (map.p.tensorRank != 2)
        return invalid(std::string(mode) + " needs a 2-D tensor map; this one has rank " +
                           std::to_string(map.p.tensorRank) +
                           " (PTX: \"only 2-dimensional tensors\"; ptxas rejects .3d)",
                       "PTX ISA 9.2 §5.5.3.4; tma.md §1, §12 item 8", Provenance::PtxText);
    if (map.p.interleave != TensorInterleave::NONE)
        return invalid(std::string(mode) + " does not support interleaved layouts (" +
                           cudaName(map.p.interleave) + ")",
                       "PTX ISA 9.2 §5.5.6; tma.md §5, §12 item 8", Provenance::PtxText);
    // unverified (open question 11): PTX says the bounding box is one row high; whether the map's
    // boxDim[1] must be 1 or is ignored is not stated. The pack (and public gather4 helpers) use 1.
    if (map.p.boxDim[1] != 1) {
        const RuleInfo& r = ruleInfo(RuleId::TmaGather4);
        return invalid(std::string(mode) + " with boxDim[1] = " + std::to_string(map.p.boxDim[1]) +
                           ": each of the four boxes is boxDim[0] x 1 (PTX: \"the size of the bounding box "
                           "in dimension 1 must be "
                           "one\"); encode the map with boxDim[1] = 1",
                       std::string(r.reference), r.provenance);
    }
    return std::nullopt;
}

// The four one-row boxes stacked at logical rows 0..3 (rows at the tile pitch).
detail::BoxPlan stackedPlan(const TensorMap& map, int32_t col, const std::array<int32_t, 4>& rows,
                            bool forStore) {
    const uint32_t pitch = tileGeometry(map).rowPitch;
    detail::BoxPlan plan;
    for (uint32_t i = 0; i < 4; ++i) {
        detail::BoxPlan one = detail::tileBoxPlan(map, {col, rows[i], 0, 0, 0}, forStore);
        for (detail::BoxPiece piece : one.pieces) {
            piece.smemOffset += i * pitch;
            plan.pieces.push_back(piece);
        }
        plan.txBytes += one.txBytes; // unverified: 4 * box0 * es (open question 4)
    }
    return plan;
}

} // namespace

Status executeTmaGather4(const TmaGather4Load& op, MachineState& state, TraceBuilder& trace) {
    const TmaTileLoad& ld = op.load;
    std::vector<uint8_t> dests;
    if (auto f = detail::loadDestinations(ld, state, dests)) return *f;
    if (auto f = mapFaults(ld.map, ".tile::gather4")) return *f;
    for (int32_t row : op.rows)
        if (auto f =
                detail::tileFaults(ld.map, {op.col, row, 0, 0, 0}, ld.dstAddr, false, ld.arch, ld.clusterDst))
            return *f;
    if (dests.empty()) return okStatus(); // mask 0, as for tile loads
    return detail::deliverLoad(ld, stackedPlan(ld.map, op.col, op.rows, false), dests, state, trace,
                               RuleId::TmaGather4);
}

Status executeTmaScatter4(const TmaScatter4Store& op, MachineState& state, TraceBuilder& trace) {
    const TmaTileStore& st = op.store;
    if (st.srcCta >= state.clusterSize)
        return invalid("CTA rank outside the cluster of " + std::to_string(state.clusterSize), "tma.md §11",
                       Provenance::PtxText);
    if (auto f = mapFaults(st.map, ".tile::scatter4")) return *f;
    // Stores need non-negative start coordinates (seed 004; PTX 9.3 relaxes this for sm_107f only).
    for (int32_t row : op.rows)
        if (auto f = detail::tileFaults(st.map, {op.col, row, 0, 0, 0}, st.srcAddr, true, st.arch, false))
            return *f;
    return detail::deliverStore(st, stackedPlan(st.map, op.col, op.rows, true), state, trace,
                                RuleId::TmaGather4);
}

} // namespace layoutscope
