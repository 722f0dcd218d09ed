#pragma once
// The move-by-move comparison the fast-path tests make between a fast executor's trace and the
// reference (per-move) executor's: every field of every move and the bytes before and after it.
#include "layoutscope/core/trace.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

namespace layoutscope::test {

inline void requireSameMoves(const Trace& ta, const Trace& tb) {
    REQUIRE(ta.stepCount == tb.stepCount);
    REQUIRE(ta.moves.size() == tb.moves.size());
    for (size_t i = 0; i < ta.moves.size(); ++i) {
        const ByteMove x = ta.moves[i], y = tb.moves[i];
        INFO("move " << i);
        REQUIRE(x.step == y.step);
        REQUIRE(x.instr == y.instr);
        REQUIRE((x.src.space == y.src.space && x.src.cta == y.src.cta && x.src.addr == y.src.addr));
        REQUIRE((x.dst.space == y.dst.space && x.dst.cta == y.dst.cta && x.dst.addr == y.dst.addr));
        REQUIRE(x.length == y.length);
        REQUIRE(x.transform == y.transform);
        REQUIRE(x.rule == y.rule);
        REQUIRE(x.logicalOffset == y.logicalOffset);
        REQUIRE(x.coord == y.coord);
        REQUIRE(ta.beforeBytes(x).size() == tb.beforeBytes(y).size());
        REQUIRE(std::equal(ta.beforeBytes(x).begin(), ta.beforeBytes(x).end(), tb.beforeBytes(y).begin()));
        REQUIRE(std::equal(ta.afterBytes(x).begin(), ta.afterBytes(x).end(), tb.afterBytes(y).begin()));
    }
}

} // namespace layoutscope::test
