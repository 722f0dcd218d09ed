#pragma once
// Internal to conform cute: what the checks of one golden/cute file kind share (the Check collector) and
// the checks themselves, by file kind: conform_cute_tmem.cpp (tmem_ld_st, tiled examples, utccp) and
// conform_cute_smem.cpp (umma_smem_desc, swizzle, blockscaled_sf_utccp). conform_cute.cpp dispatches.
#include "conform/conform.hpp"
#include "layoutscope/tcgen05/tcgen05.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace layoutscope::conform::cute {

using Json = nlohmann::json;
using Outcomes = std::vector<CaseOutcome>;

inline std::string str(const Json& j) {
    return j.dump();
}

/// Collects every difference of one check unit: the first kListed are kept verbatim, the rest counted.
struct Check {
    static constexpr size_t kListed = 8;
    std::string id;
    std::vector<std::string> listed;
    size_t found = 0;
    bool eq(const std::string& what, const Json& expected, const Json& got) {
        if (expected != got) fail(what + ": expected " + str(expected) + ", got " + str(got));
        return expected == got;
    }
    void fail(std::string msg) {
        if (found++ < kListed) listed.push_back(std::move(msg));
    }
    [[nodiscard]] CaseOutcome done() const {
        CaseOutcome o{id, found == 0, listed.empty() ? std::string() : listed.front()};
        if (listed.size() > 1) o.moreDifferences.assign(listed.begin() + 1, listed.end());
        o.unlistedDifferences = found - listed.size();
        return o;
    }
};

// --- conform_cute_tmem.cpp ---
CaseOutcome checkLdStAtom(const Json& atom, const std::map<std::string, const Json*>& byName);
/// Register bit v of thread t is TMEM bit ValID(R(t, v)), R = DstLayout (load) or SrcLayout (store).
CaseOutcome checkLdStAgainstLayouts(const Json& atom, const LdStForm& f);
CaseOutcome checkTiledExample(const Json& ex);
CaseOutcome checkUtccpAtom(const Json& atom);

// --- conform_cute_smem.cpp ---
Outcomes checkDescExample(const Json& ex);
CaseOutcome checkSwizzle(const Json& e);
Outcomes checkBlockScaled(const Json& ex);

} // namespace layoutscope::conform::cute
