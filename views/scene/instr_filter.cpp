#include "scene/instr_filter.hpp"

#include <algorithm>
#include <cctype>
#include <map>

namespace layoutscope::views {

namespace {
bool startsWith(std::string_view s, std::string_view p) {
    return s.substr(0, p.size()) == p;
}
/// The opcode: the first word after an optional guard.
std::string_view opcodeOf(std::string_view s) {
    auto skipSpace = [&s] {
        while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    };
    skipSpace();
    if (!s.empty() && s.front() == '@') { // @p, @!p, @%p1
        const size_t e = s.find_first_of(" \t");
        s = e == std::string_view::npos ? std::string_view() : s.substr(e);
        skipSpace();
    }
    const size_t e = s.find_first_of(" \t;");
    return e == std::string_view::npos ? s : s.substr(0, e);
}
} // namespace

InstrFamily instrFamilyOf(std::string_view ptx) {
    const std::string_view op = opcodeOf(ptx);
    // Most specific first: a tensor copy is also a bulk copy, a bulk copy also a cp.async.
    if (startsWith(op, "cp.async.bulk.tensor") || startsWith(op, "cp.reduce.async.bulk.tensor") ||
        startsWith(op, "cp.async.bulk.prefetch.tensor"))
        return InstrFamily::Tma;
    if (startsWith(op, "cp.async.bulk") || startsWith(op, "cp.reduce.async.bulk"))
        return InstrFamily::BulkCopy;
    if (startsWith(op, "cp.async")) return InstrFamily::CpAsync;
    if (startsWith(op, "mbarrier.")) return InstrFamily::Mbarrier;
    if (startsWith(op, "tcgen05.mma")) return InstrFamily::Tcgen05Mma;
    if (startsWith(op, "tcgen05.")) return InstrFamily::Tcgen05;
    if (startsWith(op, "wgmma.")) return InstrFamily::Wgmma;
    if (startsWith(op, "mma.")) return InstrFamily::MmaSync;
    for (std::string_view p : {"ld.", "st.", "ldu.", "atom.", "red.", "ldmatrix.", "stmatrix."})
        if (startsWith(op, p)) return InstrFamily::LdSt;
    if (op == "poke") return InstrFamily::LdSt; // a recorded kernel's thread stores
    return InstrFamily::Other;
}

const char* instrFamilyName(InstrFamily f) {
    switch (f) {
    case InstrFamily::Tma:
        return "TMA";
    case InstrFamily::BulkCopy:
        return "bulk copy";
    case InstrFamily::CpAsync:
        return "cp.async";
    case InstrFamily::Mbarrier:
        return "mbarrier";
    case InstrFamily::Tcgen05Mma:
        return "tcgen05.mma";
    case InstrFamily::Tcgen05:
        return "tcgen05 (other)";
    case InstrFamily::Wgmma:
        return "wgmma";
    case InstrFamily::MmaSync:
        return "mma.sync";
    case InstrFamily::LdSt:
        return "ld/st";
    case InstrFamily::Other:
    case InstrFamily::Count:
        break;
    }
    return "other";
}

bool InstrFilter::passes(const TraceInstr& in) const {
    return passes(in, instrFamilyOf(in.text));
}

bool InstrFilter::passes(const TraceInstr& in, InstrFamily family) const {
    if (cta >= 0 && in.origin.cta != cta) return false;
    if (warp >= 0 && in.origin.warp != warp) return false;
    return (families >> uint32_t(family)) & 1u;
}

std::vector<InstrFamily> instrFamilies(const Trace& t, std::string_view ptxText) {
    std::vector<size_t> lineStart; // made on the first poke with an origin
    std::vector<InstrFamily> out;
    out.reserve(t.instrs.size());
    for (const TraceInstr& in : t.instrs) {
        InstrFamily f = instrFamilyOf(in.text);
        if (opcodeOf(in.text) == "poke" && in.origin.ptxLine > 0 && !ptxText.empty()) {
            if (lineStart.empty()) {
                lineStart.push_back(0);
                for (size_t i = 0; i < ptxText.size(); ++i)
                    if (ptxText[i] == '\n') lineStart.push_back(i + 1);
            }
            const size_t l = size_t(in.origin.ptxLine) - 1;
            if (l < lineStart.size()) {
                const size_t end = l + 1 < lineStart.size() ? lineStart[l + 1] : ptxText.size();
                const InstrFamily g = instrFamilyOf(ptxText.substr(lineStart[l], end - lineStart[l]));
                if (g != InstrFamily::Other) f = g; // a store the module names (else: ld/st, as recorded)
            }
        }
        out.push_back(f);
    }
    return out;
}

std::vector<IssuingWarp> issuingWarps(const Trace& t) {
    std::map<std::pair<int32_t, int32_t>, uint32_t> n;
    for (const TraceInstr& in : t.instrs)
        if (in.origin.warp >= 0) ++n[{in.origin.cta, in.origin.warp}];
    std::vector<IssuingWarp> out;
    for (const auto& [k, c] : n) out.push_back({k.first, k.second, c});
    return out;
}

std::vector<uint32_t> familyCounts(const std::vector<InstrFamily>& families) {
    std::vector<uint32_t> n(size_t(InstrFamily::Count), 0);
    for (InstrFamily f : families) ++n[size_t(f)];
    return n;
}

} // namespace layoutscope::views
