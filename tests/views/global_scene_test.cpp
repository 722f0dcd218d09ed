// Global-tensor slices, hand-derived from the reference (../shared/ref/tma.md §3 tile boxes, §8
// gather4, §9 im2col walk; docs/im2col.md §1), never from the scene code's own output.
#include "scene/global_scene.hpp"
#include "scene/inspect.hpp"
#include "scene/smem_scene.hpp"

#include <catch2/catch.hpp>

#include <set>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {

// A rank-3 fp16 tensor {32, 8, 3}, box [16, 4, 3] at {8, 2, 1}, elementStrides [1, 1, 2]:
// tma.md §3: dim 0 = 8..23, dim 1 = 2..5, dim 2 = 1 + k*2 for k < ceil(3/2) = 2 -> {1, 3};
// dim 2 = 3 lies outside the tensor (OOB fill). 16 * 4 * 2 elements * 2 B = 256 B, dense rows of 32 B.
const char* kRank3 = R"(target sm_90a
tensormap T tiled FLOAT16 dims=[32,8,3] box=[16,4,3] elementStrides=[1,1,2]
smem s 256 align=128
mbarrier bar
mbarrier.init.shared::cta.b64 [bar], 1;
mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 256;
cp.async.bulk.tensor.3d.shared::cta.global.tile.mbarrier::complete_tx::bytes [s], [T, {8, 2, 1}], [bar];
mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0;
)";

std::unique_ptr<Document> load(const std::string& textOrPath, bool file = false) {
    auto doc = file ? Document::fromFile(textOrPath) : Document::fromText(textOrPath);
    INFO((doc->diagnostics().empty() ? std::string()
                                     : formatDiagnostic(doc->diagnostics().front(), doc->path())));
    REQUIRE(doc->hasTrace());
    return doc;
}

/// Instructions of the document that are TMA copies, in order.
std::vector<uint32_t> copies(const Document& doc) {
    std::vector<uint32_t> out;
    for (uint32_t i = 0; i < doc.trace().instrs.size(); ++i)
        if (doc.tileOf(i)) out.push_back(i);
    return out;
}

using Cell = std::pair<int64_t, int64_t>; // (across, down) slice coordinates
std::set<Cell> cellsWith(const GlobalScene& g, uint8_t flag) {
    std::set<Cell> out;
    for (uint32_t y = 0; y < g.h; ++y)
        for (uint32_t x = 0; x < g.w; ++x)
            if (g.texels[size_t(y) * g.w + x].a & flag)
                out.insert({*g.axes[0].coordOf(x), *g.axes[1].coordOf(y)});
    return out;
}

} // namespace

TEST_CASE("A rank-3 box sliced across dim 0 and down dim 2 shows what the box covers at dim 1 = k",
          "[views][scene][global]") {
    auto doc = load(kRank3);
    const auto tiles = copies(*doc);
    REQUIRE(tiles.size() == 1);
    const uint32_t instr = tiles[0];
    const auto frames = boxFrames(*doc);
    GlobalSlice s;
    s.dimX = 0;
    s.dimY = 2;
    SECTION("k = 3 (inside the box span 2..5): dim 0 8..23 x dim 2 {1, 3}; dim 2 = 2 skipped by the stride") {
        s.fixed = {0, 3, 0, 0, 0};
        const GlobalScene g = globalSceneAt(*doc, instr, doc->trace().stepCount, frames, s);
        std::set<Cell> box, skipped;
        for (int32_t c0 = 8; c0 < 24; ++c0) {
            box.insert({c0, 1});
            box.insert({c0, 3});
            skipped.insert({c0, 2});
        }
        CHECK(cellsWith(g, kFlagInBox) == box);
        CHECK(cellsWith(g, kFlagWritten) == box); // every element read by the end
        CHECK(cellsWith(g, kFlagSkipped) == skipped);
        const auto fill = cellsWith(g, kFlagFill); // outside the tensor: dim 2 >= 3, dim 0 outside 0..31
        CHECK(fill.count({10, 3}) == 1);
        CHECK(fill.count({10, 1}) == 0);
        CHECK(fill.count({10, -1}) == 1);
        REQUIRE(g.outlines.size() == 1);
        CHECK(g.outlines[0].kind == GlobalOutline::Kind::Box);
        CHECK(std::array<int64_t, 4>{g.outlines[0].x0, g.outlines[0].y0, g.outlines[0].x1,
                                     g.outlines[0].y1} == std::array<int64_t, 4>{8, 1, 24, 4});
        SECTION("the inspector names the full coordinate") {
            Replay r(doc->trace(), doc->initial());
            r.seek(doc->trace().stepCount);
            const auto cell = g.cellOf({10, 3, 1, 0, 0});
            REQUIRE(cell);
            const std::string text = inspectGlobalCell(*doc, g, r.state().global, (*cell)[0], (*cell)[1]);
            CHECK_THAT(text, Catch::Contains("element (x=10, y=3, z=1)"));
            CHECK_THAT(text, Catch::Contains("(dim 0, dim 1, dim 2)"));
        }
        SECTION("hovering element (10, 3, 3) links to its shared-memory bytes") {
            // Box row = k1 + 4*k2 with k1 = 3 - 2 = 1, k2 = (3 - 1) / 2 = 1 -> row 5; 32-B rows, no swizzle:
            // byte 5*32 + (10 - 8)*2 = 164 of the box (an OOB row: zero fill still lands there).
            const auto cell = g.cellOf({10, 3, 3, 0, 0});
            REQUIRE(cell);
            const auto span = smemOfGlobalCell(*doc, g, (*cell)[0], (*cell)[1], 0);
            REQUIRE(span);
            CHECK(span->addr == doc->tileOf(instr)->smemAddr + 164);
            CHECK(span->length == 2);
        }
    }
    SECTION("k = 6 (outside the box span): nothing of the box in the slice") {
        s.fixed = {0, 6, 0, 0, 0};
        const GlobalScene g = globalSceneAt(*doc, instr, doc->trace().stepCount, frames, s);
        CHECK(cellsWith(g, kFlagInBox).empty());
        CHECK(cellsWith(g, kFlagWritten).empty());
        CHECK(g.outlines.empty());
    }
    SECTION("the default slice is dims 0/1 at the box's first dim-2 coordinate") {
        const GlobalScene g = globalSceneAt(*doc, instr, doc->trace().stepCount, frames);
        CHECK(g.slice.dimX == 0);
        CHECK(g.slice.dimY == 1);
        CHECK(g.slice.fixed[2] == 1);
        CHECK(cellsWith(g, kFlagInBox).size() == 16 * 4);
        CHECK(cuteShape(doc->tileOf(instr)->map) == "(32,8,3):(1,32,256)");
    }
}

// gather4_rows.scn: {col, rows} = {64, 20, 3, 31, 0}, box [64, 1] on a 256 x 64 tensor (tma.md §8).
TEST_CASE("The gather4 scene marks exactly the 4 rows x box[0] columns", "[views][scene][global]") {
    auto doc = load(LAYOUTSCOPE_TEST_ASSETS "/scenarios/tma_gather4_rows.scn", true);
    const auto tiles = copies(*doc);
    REQUIRE(tiles.size() == 1);
    const InstrTile* t = doc->tileOf(tiles[0]);
    CHECK(t->kind == TileKind::Gather4);
    const auto frames = boxFrames(*doc);
    const GlobalScene g = globalSceneAt(*doc, tiles[0], doc->trace().stepCount, frames);
    std::set<Cell> want;
    for (int32_t row : {20, 3, 31, 0})
        for (int32_t c0 = 64; c0 < 128; ++c0) want.insert({c0, row});
    CHECK(cellsWith(g, kFlagInBox) == want);
    CHECK(cellsWith(g, kFlagWritten) == want);
    std::set<int32_t> outlinedRows;
    for (const GlobalOutline& o : g.outlines) {
        CHECK(o.kind == GlobalOutline::Kind::Row);
        CHECK(o.x0 == 64);
        CHECK(o.x1 == 128);
        CHECK(o.y1 == o.y0 + 1);
        outlinedRows.insert(o.y0);
    }
    CHECK(outlinedRows == std::set<int32_t>{0, 3, 20, 31});
    SECTION("row 31 (operand 2) went to shared-memory row 2") {
        // Logical row 2 at 2*128 B; 128B swizzle: 16-B chunk ^= row & 7 -> element 64 at 2*128 + 2*16.
        const auto cell = g.cellOf({64, 31, 0, 0, 0});
        REQUIRE(cell);
        const auto span = smemOfGlobalCell(*doc, g, (*cell)[0], (*cell)[1], 0);
        REQUIRE(span);
        CHECK(span->addr == t->smemAddr + 2 * 128 + (2 << 4));
    }
}

// tma_im2col_conv.scn: {C, W, H, N} = {8, 4, 3, 2}, lower [-1, -1], upper [-1, -1], 16 pixels, start
// {0, -1, -1, 0}. tma.md §9: W walks lo = -1 .. hi = 4 - 1 - 1 = 2, H -1 .. 1, then N + 1. Pixel k reads
// (w_k + offW, h_k + offH, n_k): k = 0..11 in image 0 (w fastest), k = 12..15 in image 1 at h = -1.
TEST_CASE("The im2col scene marks exactly the pixels the walk reads, OOB pixels flagged",
          "[views][scene][global]") {
    auto doc = load(LAYOUTSCOPE_TEST_ASSETS "/scenarios/tma_im2col_conv.scn", true);
    const auto taps = copies(*doc);
    REQUIRE(taps.size() == 3); // {0, 0}, {1, 1}, {2, 2}
    const auto frames = boxFrames(*doc);
    GlobalSlice s;                              // default dims: C across, W down
    auto pixelRows = [](const GlobalScene& g) { // W of each outlined pixel, and whether it is flagged OOB
        std::set<std::pair<int32_t, bool>> out;
        for (const GlobalOutline& o : g.outlines)
            if (o.kind == GlobalOutline::Kind::Pixel) {
                CHECK(o.x0 == 0);
                CHECK(o.x1 == 8);
                out.insert({o.y0, o.oob});
            }
        return out;
    };
    auto channels = [](std::initializer_list<int32_t> ws) {
        std::set<Cell> out;
        for (int32_t w : ws)
            for (int32_t c = 0; c < 8; ++c) out.insert({c, w});
        return out;
    };
    SECTION("tap {2, 2} at H = 2, N = 0: pixels k = 4..7 read W 1..4; W = 4 is outside the tensor") {
        s.fixed = {0, 0, 2, 0, 0};
        const GlobalScene g = globalSceneAt(*doc, taps[2], doc->trace().stepCount, frames, s);
        CHECK(g.tile->pixels.size() == 16);
        CHECK(cellsWith(g, kFlagInBox) == channels({1, 2, 3, 4}));
        CHECK(cellsWith(g, kFlagWritten) == channels({1, 2, 3, 4}));
        const auto fill = cellsWith(g, kFlagFill);
        for (const Cell& c : channels({4})) CHECK(fill.count(c) == 1);
        for (const Cell& c : channels({1, 2, 3})) CHECK(fill.count(c) == 0);
        CHECK(pixelRows(g) ==
              std::set<std::pair<int32_t, bool>>{{1, false}, {2, false}, {3, false}, {4, true}});
        CHECK(g.pixelsInSlice == 4);
        bool window = false; // filter bases W -1..2 shifted by offW = 2 -> W 1..4
        for (const GlobalOutline& o : g.outlines)
            if (o.kind == GlobalOutline::Kind::Window) {
                window = true;
                CHECK(std::array{o.x0, o.y0, o.x1, o.y1} == std::array<int64_t, 4>{0, 1, 8, 5});
            }
        CHECK(window);
    }
    SECTION("tap {2, 2} at H = 1, N = 1: the four pixels after the wrap into image 1") {
        s.fixed = {0, 0, 1, 1, 0};
        const GlobalScene g = globalSceneAt(*doc, taps[2], doc->trace().stepCount, frames, s);
        CHECK(cellsWith(g, kFlagInBox) == channels({1, 2, 3, 4}));
        CHECK(g.pixelsInSlice == 4);
    }
    SECTION("tap {2, 2} at H = 0: no pixel of the walk reads that row") {
        s.fixed = {0, 0, 0, 0, 0};
        const GlobalScene g = globalSceneAt(*doc, taps[2], doc->trace().stepCount, frames, s);
        CHECK(cellsWith(g, kFlagInBox).empty());
        CHECK(g.pixelsInSlice == 0);
    }
    SECTION("tap {0, 0} at H = 0, N = 0: pixels k = 4..7 read W -1..2; W = -1 is padding (fill)") {
        s.fixed = {0, 0, 0, 0, 0};
        const GlobalScene g = globalSceneAt(*doc, taps[0], doc->trace().stepCount, frames, s);
        CHECK(cellsWith(g, kFlagInBox) == channels({-1, 0, 1, 2}));
        CHECK(pixelRows(g) ==
              std::set<std::pair<int32_t, bool>>{{-1, true}, {0, false}, {1, false}, {2, false}});
        SECTION("element (3, 1, 0, 0) = pixel k = 6, 16-B rows without swizzle: smem byte 6*16 + 3*2") {
            const auto cell = g.cellOf({3, 1, 0, 0, 0});
            REQUIRE(cell);
            const auto span = smemOfGlobalCell(*doc, g, (*cell)[0], (*cell)[1], 0);
            REQUIRE(span);
            CHECK(span->addr == g.tile->smemAddr + 6 * 16 + 3 * 2);
            SECTION("and back: that smem byte's move lands on the same global cell") {
                const SmemScene sm = smemSceneAt(*doc, doc->trace().stepCount, frames);
                const auto idx = sm.indexOf(span->addr);
                REQUIRE(idx);
                const size_t mi = size_t(sm.moveOf[*idx]);
                const auto back =
                    globalCellOfMoveByte(*doc, g, mi, span->addr - uint32_t(doc->trace().moves[mi].dst.addr));
                REQUIRE(back);
                CHECK(*back == *cell);
            }
        }
    }
    SECTION("the default slice of tap {0, 0} is the first pixel inside the tensor: k = 5 at (0, 0, 0)") {
        const GlobalScene g = globalSceneAt(*doc, taps[0], doc->trace().stepCount, frames);
        CHECK(g.slice.fixed[2] == 0);
        CHECK(g.slice.fixed[3] == 0);
        CHECK(dimName(*g.tile, 2) == "H");
        CHECK(dimName(*g.tile, 3) == "N");
    }
    SECTION("part way (one pixel row per step): after 6 steps pixels 0..5 are read; pixel 5 is current") {
        const TraceInstr& in = doc->trace().instrs[taps[0]];
        s.fixed = {0, 0, 0, 0, 0};
        const GlobalScene g = globalSceneAt(*doc, taps[0], in.firstStep + 6, frames, s, 8, 4);
        CHECK(cellsWith(g, kFlagWritten) == channels({-1, 0})); // k = 4 (W -1), k = 5 (W 0)
        CHECK(cellsWith(g, kFlagCurrent) == channels({0}));
        CHECK(cellsWith(g, kFlagInBox) == channels({-1, 0, 1, 2}));
    }
}
