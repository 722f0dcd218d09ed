// st.shared in a scenario stores its warp's registers (issue 23: the generic-proxy write a TMA store or an
// MMA may read): each active lane writes its source registers' low bytes at its address, so the bytes a proxy
// race would leave stale are in the trace and in an export-cuda repro. PTX ISA 9.2 §9.7.9.10 (st).
#include "scenario/parse.hpp"

#include <algorithm>

namespace layoutscope::scn {

std::string storeSharedData(const Scenario& s, const ScenarioInstr& in, std::vector<ScenarioWarp>& warps,
                            MachineState& state, TraceBuilder& tb) {
    const SmemAccess& a = *in.smemAccess;
    if (a.srcRegs.empty())
        return "; its data is unknown (the source is not a register %r0..%r127): no byte moves";
    const bool modelled =
        std::any_of(s.warps.begin(), s.warps.end(),
                    [&](const ScenarioWarp& w) { return w.cta == in.cta && w.warp == in.warp; }) ||
        std::any_of(warps.begin(), warps.end(),
                    [&](const ScenarioWarp& w) { return w.cta == in.cta && w.warp == in.warp; });
    if (!modelled)
        return "; its data is unknown (warp " + std::to_string(in.warp) +
               " has no register values: give it `regs pattern=...`): no byte moves";
    const ScenarioWarp& w = scenarioWarp(warps, s, in.cta, in.warp);
    const uint32_t elem = a.widthBytes / uint32_t(a.srcRegs.size());
    std::vector<ByteMove> ms;
    std::vector<uint8_t> bytes;
    // unverified: lanes that store to the same bytes: PTX leaves which one wins open; here the highest lane.
    for (uint32_t lane = 0; lane < 32; ++lane) {
        if (!(a.activeMask >> lane & 1)) continue;
        const uint64_t thread = 32 * uint64_t(in.warp) + lane;
        for (size_t e = 0; e < a.srcRegs.size(); ++e) {
            const uint32_t r = a.srcRegs[e], v = w.final[lane][r];
            ByteMove m;
            m.src = MemRef{MemSpace::Register, static_cast<uint8_t>(in.cta), thread << 16 | uint64_t(r) * 4};
            m.dst =
                MemRef{MemSpace::SharedCta, static_cast<uint8_t>(in.cta), uint64_t(a.addr[lane]) + e * elem};
            m.length = elem;
            ms.push_back(m);
            for (uint32_t b = 0; b < elem; ++b) bytes.push_back(static_cast<uint8_t>(v >> (8 * b)));
        }
    }
    tb.moveBatch(state, ms, bytes, true); // one step: the warp's stores land together
    return "; stores registers " + std::string(a.srcRegs.size() > 1 ? "{" : "") +
           [&] {
               std::string r;
               for (size_t e = 0; e < a.srcRegs.size(); ++e)
                   r += (e ? ", %r" : "%r") + std::to_string(a.srcRegs[e]);
               return r;
           }() +
           (a.srcRegs.size() > 1 ? "}" : "") + " of warp " + std::to_string(in.warp) + " (" +
           std::to_string(bytes.size()) + " B)";
}

} // namespace layoutscope::scn
