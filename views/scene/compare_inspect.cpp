// The compare window's inspector lines (compare_inspect.hpp).
#include "scene/compare_inspect.hpp"

#include "layoutscope/core/coord_text.hpp"

#include <cstdio>

namespace layoutscope::views {

std::string describeElement(const ElementKey& k) {
    char buf[160];
    if (k.space == MemSpace::Global) { // "(x=5, y=3)" as the inspector writes it; dims 2.. when not 0
        uint32_t rank = 2;
        for (uint32_t d = 2; d < 5; ++d)
            if (k.coord[d] != 0) rank = d + 1;
        std::snprintf(buf, sizeof buf, "tensor @0x%llx element %s, byte %u",
                      static_cast<unsigned long long>(k.addr), elementCoordText(k.coord, rank).c_str(),
                      k.byte);
    } else {
        std::snprintf(buf, sizeof buf, "from space %d, CTA %u, address 0x%llx", int(k.space), k.cta,
                      static_cast<unsigned long long>(k.addr));
    }
    return buf;
}

std::string matchText(const CellMatches& m, size_t i, size_t pane, bool written,
                      const std::function<std::string(int64_t)>& where) {
    if (i >= m.kind.size() || m.kind[i] == CellMatch::Same) return {};
    const bool reshuffled = m.kind[i] == CellMatch::Reshuffled;
    if (pane == 0)
        return reshuffled ? "\nreshuffled: another pane has it elsewhere (same value)"
                          : "\ndiffers: another pane lacks it (with this value)";
    if (reshuffled) return "\nreshuffled: pane 1 has it at " + where(m.refAt[i]) + " (same value)";
    if (m.refAt[i] < 0) return "\ndiffers: pane 1 has this element nowhere";
    if (!written) return "\ndiffers: pane 1 has an element here that this pane lacks";
    return "\ndiffers: pane 1 has it with another value at " + where(m.refAt[i]);
}

} // namespace layoutscope::views
