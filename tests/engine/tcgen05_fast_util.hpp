#pragma once
// What the tcgen05 fast-path tests share (tcgen05_fast_test.cpp: ld/st; tcgen05_cp_fast_test.cpp: cp): a
// scenario run with the bulk paths on or off, and the comparison of two runs, move by move and byte by byte.
#include "layoutscope/scenario/scenario.hpp"
#include "tcgen05/exec_detail.hpp"

#include "trace_compare.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace layoutscope::test {

inline Result<Run> runWith(const std::string& text, bool fast) {
    detail::setTcgen05FastPath(fast);
    auto sc = parseScenario(text);
    auto r = sc ? runScenario(*sc) : Result<Run>(sc.diagnostics());
    detail::setTcgen05FastPath(true);
    return r;
}

inline void requireSameRun(const Run& a, const Run& b) {
    const Trace &ta = a.trace, &tb = b.trace;
    requireSameMoves(ta, tb);
    for (size_t i = 0; i < ta.moves.size(); ++i) // where each move's bytes sit in the trace's store
        REQUIRE(ta.moves[i].dataOffset == tb.moves[i].dataOffset);
    // `before` is compared move by move (requireSameMoves): a register destination's bytes are implied
    // zeros that neither path need store.
    REQUIRE(ta.sameStoredAfter(tb));
    REQUIRE(ta.instrs.size() == tb.instrs.size());
    for (size_t i = 0; i < ta.instrs.size(); ++i) {
        const TraceInstr &x = ta.instrs[i], &y = tb.instrs[i];
        CHECK(x.summary == y.summary);
        CHECK(x.alsoRules == y.alsoRules);
        CHECK((x.firstStep == y.firstStep && x.endStep == y.endStep));
        CHECK((x.firstMove == y.firstMove && x.endMove == y.endMove && x.bytesMoved == y.bytesMoved));
    }
    for (size_t c = 0; c < a.tmemFinal.ctas.size(); ++c)
        for (uint32_t lane = 0; lane < kTmemLanes; ++lane) {
            const auto x = a.tmemFinal.ctas[c].laneCells(lane), y = b.tmemFinal.ctas[c].laneCells(lane);
            REQUIRE(std::equal(x.begin(), x.end(), y.begin(), y.end()));
        }
    REQUIRE(a.warps.size() == b.warps.size());
    for (size_t w = 0; w < a.warps.size(); ++w) CHECK(a.warps[w].final == b.warps[w].final);
    CHECK(a.warnings.size() == b.warnings.size());
}

inline std::string regList(const std::vector<uint32_t>& names) {
    std::string s = "{";
    for (size_t i = 0; i < names.size(); ++i) s += (i ? ", %r" : "%r") + std::to_string(names[i]);
    return s + "}";
}

inline std::string hex(uint32_t v) {
    char b[16];
    std::snprintf(b, sizeof b, "0x%x", v);
    return b;
}

/// `sc` run at trace budget `budget` with the bulk paths on (first) and off (second), both successful.
inline std::pair<Run, Run> runBothAtBudget(const Scenario& sc, uint64_t budget) {
    detail::setTcgen05FastPath(true);
    auto fast = runScenario(sc, RunOptions{budget});
    detail::setTcgen05FastPath(false);
    auto slow = runScenario(sc, RunOptions{budget});
    detail::setTcgen05FastPath(true);
    REQUIRE(fast);
    REQUIRE(slow);
    return {std::move(*fast), std::move(*slow)};
}

} // namespace layoutscope::test
