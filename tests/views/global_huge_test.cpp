// Huge extents in the views (issue 11): a gather4 whose rows are 10^8 apart, boxes at INT32_MIN/MAX.
// Scenes stay small (sparse axes with elided gaps, global_axis.hpp) and never overflow. Expected
// cells are derived by hand from the axis rule: every touched coordinate +- margin, runs merged when
// at most kMergeGap apart, one gap cell between runs; gather4 rows land in shared memory in operand
// order (tma.md §8).
#include "scene/global_scene.hpp"
#include "scene/inspect.hpp"
#include "scene/smem_scene.hpp"
#include "scene/tma_fans.hpp"

#include <catch2/catch.hpp>

#include <climits>
#include <set>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {

std::unique_ptr<Document> run(const std::string& text) {
    auto doc = Document::fromText(text);
    INFO((doc->diagnostics().empty() ? std::string() : formatDiagnostic(doc->diagnostics().front(), "")));
    REQUIRE(doc->hasTrace());
    return doc;
}

std::string gather4(const std::string& dims, const std::string& rows) {
    return "target sm_100a\ntensormap A tiled FLOAT16 dims=" + dims +
           " box=[64,1] swizzle=128B\nsmem sA 512 align=1024\nmbarrier bar\n"
           "mbarrier.init.shared::cta.b64 [bar], 1;\n"
           "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 512;\n"
           "cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes [sA], [A, "
           "{0, " +
           rows + "}], [bar];\nmbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0;\n";
}

uint32_t firstCopy(const Document& doc) {
    for (uint32_t i = 0; i < doc.trace().instrs.size(); ++i)
        if (doc.tileOf(i)) return i;
    FAIL("no TMA copy");
    return 0;
}

/// Down-axis coordinates of the rows whose cells carry `flag`.
std::set<int64_t> rowsWith(const GlobalScene& g, uint8_t flag) {
    std::set<int64_t> out;
    for (uint32_t y = 0; y < g.h; ++y)
        for (uint32_t x = 0; x < g.w; ++x)
            if (g.texels[size_t(y) * g.w + x].a & flag) out.insert(*g.axes[1].coordOf(y));
    return out;
}

} // namespace

TEST_CASE("A global axis is dense for a small span and sparse with gap cells for a huge one",
          "[views][scene][global][huge]") {
    SECTION("span 40 <= kMaxCells: one segment, margin included") {
        const auto a = GlobalAxis::over({{10, 20}, {30, 34}}, 3);
        CHECK(a.segments == std::vector<GlobalAxis::Segment>{{7, 37, 0}});
        CHECK(a.cells == 30);
        CHECK(a.dense());
    }
    SECTION("rows 0, 3, 50,000,000, 99,999,999 with margin 8") {
        const auto a = GlobalAxis::over({{0, 1}, {99999999, 100000000}, {50000000, 50000001}, {3, 4}}, 8);
        // [-8, 12) (0 and 3 merged), gap, [49999992, 50000009), gap, [99999991, 100000008).
        CHECK(a.segments == std::vector<GlobalAxis::Segment>{
                                {-8, 12, 0}, {49999992, 50000009, 21}, {99999991, 100000008, 39}});
        CHECK(a.cells == 56);
        CHECK_FALSE(a.dense());
        CHECK(a.cellOf(0) == 8u);
        CHECK(a.cellOf(99999999) == 47u);
        CHECK_FALSE(a.cellOf(1000));
        CHECK(a.coordOf(21) == 49999992);
        CHECK_FALSE(a.coordOf(20));
        CHECK(a.gapAt(20) == GlobalAxis::Interval{12, 49999992});
        CHECK(a.position(1000) == 20.5f); // inside the gap: its middle
        CHECK(a.position(12) == 20.0f);   // the first segment's end
        CHECK(a.position(49999992) == 21.0f);
    }
    SECTION("coordinates at INT32_MIN/MAX are clipped to the int32 range, no overflow") {
        const auto a =
            GlobalAxis::over({{INT32_MAX, int64_t(INT32_MAX) + 64}, {INT32_MIN, INT32_MIN + 1}}, 8);
        REQUIRE(a.segments.size() == 2);
        CHECK(a.segments[0] == GlobalAxis::Segment{INT32_MIN, int64_t(INT32_MIN) + 9, 0});
        CHECK(a.segments[1] == GlobalAxis::Segment{int64_t(INT32_MAX) - 8, int64_t(INT32_MAX) + 1, 10});
        CHECK(a.cells == 19);
    }
    SECTION("more touched coordinates than kMaxCells: capped, the rest one trailing gap cell") {
        std::vector<GlobalAxis::Interval> iv;
        for (int64_t r = 0; r < 4000; ++r) iv.push_back({r * 1000, r * 1000 + 1});
        const auto a = GlobalAxis::over(iv, 0);
        CHECK(a.truncated);
        CHECK(a.cells <= GlobalAxis::kMaxCells + 1);
        CHECK(a.gapAt(a.cells - 1).value()[1] == INT64_MAX);
    }
}

TEST_CASE("A gather4 of rows 10^8 apart builds a small global scene with the 4 rows and elided gaps",
          "[views][scene][global][huge]") {
    // dims [64, 100000000] (in bounds); rows in operand order 0, 99999999, 50000000, 3.
    auto doc = run(gather4("[64,100000000]", "0, 99999999, 50000000, 3"));
    const uint32_t instr = firstCopy(*doc);
    const auto frames = boxFrames(*doc);
    CHECK(frames[instr].rows() == 100000000);
    const GlobalScene g = globalSceneAt(*doc, instr, doc->trace().stepCount, frames);
    CHECK(g.w == 64 + 16);
    CHECK(g.h == 56); // the axis of the section above
    CHECK(g.texels.size() == size_t(g.w) * g.h);
    CHECK(rowsWith(g, kFlagInBox) == std::set<int64_t>{0, 3, 50000000, 99999999});
    CHECK(rowsWith(g, kFlagWritten) == std::set<int64_t>{0, 3, 50000000, 99999999});
    CHECK(g.outlines.size() == 4);
    SECTION("gap rows are elided cells; the inspector names what they stand for") {
        CHECK(g.isGap(0, 20));
        CHECK(g.texels[size_t(20) * g.w] == Rgba8{kElided.r, kElided.g, kElided.b, 0});
        const std::string text = inspectGlobalCell(*doc, g, doc->run().final.global, 0, 20);
        CHECK(text.find("dim 1 12..49999991 not shown") != std::string::npos);
    }
    SECTION("row 99999999 (operand 1) went to shared-memory row 1; SW128 chunk 0 ^ 1") {
        const auto cell = g.cellOf({0, 99999999, 0, 0, 0});
        REQUIRE(cell);
        const auto span = smemOfGlobalCell(*doc, g, (*cell)[0], (*cell)[1], 0);
        REQUIRE(span);
        CHECK(span->addr == g.tile->smemAddr + 128 + 16);
    }
    SECTION("the multicast fan (none here) and the smem scene stay bounded") {
        CHECK_FALSE(tmaFanAt(*doc, doc->trace().stepCount, frames).valid);
        CHECK(smemSceneAt(*doc, doc->trace().stepCount, frames).texels.size() <= 512 + 128);
    }
}

TEST_CASE("Boxes and rows at INT32_MIN/MAX build bounded scenes without overflow",
          "[views][scene][global][huge]") {
    SECTION("gather4 rows INT32_MAX, INT32_MIN, 0, 5 of a 100-row tensor: out-of-bounds rows are fill") {
        auto doc = run(gather4("[64,100]", "2147483647, -2147483648, 0, 5"));
        const uint32_t instr = firstCopy(*doc);
        const auto frames = boxFrames(*doc);
        CHECK(frames[instr].rows() == INT_MAX); // 2^32 rows: saturated
        const GlobalScene g = globalSceneAt(*doc, instr, doc->trace().stepCount, frames);
        // [INT32_MIN, INT32_MIN + 9), gap, [-8, 14), gap, [INT32_MAX - 8, INT32_MAX]: 9 + 1 + 22 + 1 + 9.
        CHECK(g.h == 42);
        CHECK(rowsWith(g, kFlagInBox) == std::set<int64_t>{INT32_MIN, 0, 5, INT32_MAX});
        const auto top = g.cellOf({0, INT32_MAX, 0, 0, 0});
        REQUIRE(top);
        CHECK((g.texels[size_t((*top)[1]) * g.w + (*top)[0]].a & kFlagFill) != 0);
    }
    SECTION("a 64x4 tile box at (INT32_MAX - 7, INT32_MAX - 1) is clipped at INT32_MAX") {
        auto doc =
            run("target sm_90a\ntensormap T tiled FLOAT16 dims=[64,64] box=[64,4]\nsmem s 512 align=128\n"
                "mbarrier bar\nmbarrier.init.shared::cta.b64 [bar], 1;\n"
                "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 512;\n"
                "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [s], "
                "[T, {2147483640, 2147483646}], [bar];\n"
                "mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0;\n");
        const uint32_t instr = firstCopy(*doc);
        const GlobalScene g = globalSceneAt(*doc, instr, doc->trace().stepCount, boxFrames(*doc));
        // The inner coordinate is 16-B aligned (8 fp16). Columns INT32_MAX - 15 .. INT32_MAX: the box's
        // 64 columns end past int32; rows INT32_MAX - 9 .. INT32_MAX.
        CHECK(g.w == 8 + 8);
        CHECK(g.h == 8 + 2);
        CHECK(g.cellOf({INT32_MAX, INT32_MAX, 0, 0, 0}) == std::array<uint32_t, 2>{15, 9});
        for (const Rgba8& t : g.texels) CHECK((t.a & kFlagFill) != 0); // all outside the 64x64 tensor
    }
}
