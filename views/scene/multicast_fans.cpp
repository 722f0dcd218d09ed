#include "scene/multicast_fans.hpp"

#include "layoutscope/tcgen05/tmem.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace layoutscope::views {

/// A tcgen05.cp into TMEM that replicates rows (coord[2] = replica > 0) or writes two CTAs.
static bool isFanInstr(const Trace& t, uint32_t instr) {
    const TraceInstr& in = t.instrs[instr];
    if (in.endStep <= in.firstStep) return false;
    const size_t lo = t.movesOfStep(in.firstStep).first, hi = t.movesOfStep(in.endStep - 1).second;
    if (lo >= hi || t.moves[lo].src.space != MemSpace::SharedCta ||
        t.moves[lo].dst.space != MemSpace::TensorMemory)
        return false;
    for (size_t i = lo; i < hi; ++i)
        if (t.moves[i].coord[2] > 0 || t.moves[i].dst.cta != t.moves[lo].dst.cta) return true;
    return false;
}

MulticastFans multicastFansAt(const Document& doc, uint32_t step) {
    MulticastFans f;
    if (!doc.hasTrace()) return f;
    const Trace& t = doc.trace();
    std::optional<uint32_t> first, best;
    for (uint32_t i = 0; i < t.instrs.size(); ++i) {
        if (!isFanInstr(t, i)) continue;
        if (!first) first = i;
        if (t.instrs[i].firstStep < step) best = i;
    }
    const auto instr = best ? best : first;
    if (!instr) return f;
    f.valid = true;
    f.instr = *instr;
    const TraceInstr& in = t.instrs[*instr];
    const size_t lo = t.movesOfStep(in.firstStep).first, hi = t.movesOfStep(in.endStep - 1).second;
    // (cta, replica, 32-row block) -> edge
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, FanEdge> groups;
    for (size_t i = lo; i < hi; ++i) {
        const ByteMove& m = t.moves[i];
        const uint32_t row = uint32_t(m.coord[0]), rep = uint32_t(m.coord[2]);
        const TmemAddr a = decodeTmemAddress(uint32_t(m.dst.addr));
        f.srcRows = std::max(f.srcRows, row + 1);
        f.replicas = std::max(f.replicas, rep + 1);
        auto [it, fresh] = groups.try_emplace({m.dst.cta, rep, row / 32},
                                              FanEdge{row, row + 1, m.dst.cta, a.lane, a.lane + 1, a.column});
        FanEdge& e = it->second;
        if (fresh) continue;
        e.rowLo = std::min(e.rowLo, row);
        e.rowHi = std::max(e.rowHi, row + 1);
        e.laneLo = std::min(e.laneLo, a.lane);
        e.laneHi = std::max(e.laneHi, a.lane + 1);
        e.column = std::min(e.column, a.column);
    }
    for (auto& [k, e] : groups) f.edges.push_back(e);
    std::sort(f.edges.begin(), f.edges.end(), [](const FanEdge& a, const FanEdge& b) {
        return std::tie(a.cta, a.laneLo) < std::tie(b.cta, b.laneLo);
    });
    const std::string& text = in.text;
    const char* kind = text.find("warpx4") != std::string::npos          ? ".warpx4"
                       : text.find("warpx2::02_13") != std::string::npos ? ".warpx2::02_13"
                       : text.find("warpx2::01_23") != std::string::npos ? ".warpx2::01_23"
                                                                         : ".cta_group::2";
    f.label = std::string(kind) + ": " + std::to_string(f.srcRows) + " source rows -> " +
              std::to_string(f.edges.size()) + " lane blocks";
    return f;
}

} // namespace layoutscope::views
