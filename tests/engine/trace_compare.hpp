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
        const MoveBytes bx = ta.beforeBytes(x), by = tb.beforeBytes(y), ax = ta.afterBytes(x),
                        ay = tb.afterBytes(y);
        REQUIRE(bx.size() == by.size());
        REQUIRE(ax.size() == ay.size());
        REQUIRE(std::equal(bx.begin(), bx.end(), by.begin()));
        REQUIRE(std::equal(ax.begin(), ax.end(), ay.begin()));
    }
}

} // namespace layoutscope::test
