// Bank-conflict heat map scene: named warp patterns over a 64x64 fp16 tile (128-B rows). Expected
// wavefronts derived by hand: bank = (P/4)%32, phases of 32/8 threads for 2-B/16-B accesses, and
// the 128B swizzle P = A ^ (((A>>7)&7)<<4) (tma.md §4.2) moving row r's chunk c to chunk c ^ (r%8).
#include "scene/bank_scene.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {
TileInSmem tile(TensorSwizzle s) {
    TileInSmem t;
    t.swizzle = s;
    t.base = 0;
    t.rows = 64;
    t.cols = 64;
    t.elemBytes = 2;
    t.pitch = 128;
    return t;
}
uint32_t wavefronts(TensorSwizzle s, AccessPattern p, uint32_t col = 0) {
    auto h = bankHeat(tile(s), p, 0, col);
    REQUIRE(h.ok());
    return h->report.wavefronts;
}
} // namespace

TEST_CASE("bank heat: wavefronts of named patterns, unswizzled vs 128B", "[bank-heat]") {
    SECTION("column of fp16: rows 128 B apart -> one bank, 32-way; 128B swizzle -> rows 8 apart collide, 4") {
        CHECK(wavefronts(TensorSwizzle::NONE, AccessPattern::ColumnRead) == 32);
        CHECK(wavefronts(TensorSwizzle::S128B, AccessPattern::ColumnRead) == 4);
    }
    SECTION("row of fp16: 32 x 2 B = 64 contiguous bytes -> 1 wavefront either way") {
        CHECK(wavefronts(TensorSwizzle::NONE, AccessPattern::RowRead) == 1);
        CHECK(wavefronts(TensorSwizzle::S128B, AccessPattern::RowRead) == 1);
    }
    SECTION("ld.shared.v4 row-major: each quarter-warp reads one whole 128-B row -> 4, no excess") {
        CHECK(wavefronts(TensorSwizzle::NONE, AccessPattern::VectorRow16) == 4);
        CHECK(wavefronts(TensorSwizzle::S128B, AccessPattern::VectorRow16) == 4);
    }
    SECTION("column of 16-B chunks: unswizzled 8 rows share banks 0..3 -> 8 per phase, 32; 128B -> 4") {
        CHECK(wavefronts(TensorSwizzle::NONE, AccessPattern::ColumnChunks16) == 32);
        CHECK(wavefronts(TensorSwizzle::S128B, AccessPattern::ColumnChunks16) == 4);
        CHECK(wavefronts(TensorSwizzle::S128B, AccessPattern::ColumnChunks16, 40) == 4);
    }
    SECTION("ldmatrix .x4: unswizzled 8 rows of a matrix in one chunk column -> 8 each, 32; 128B -> 4") {
        CHECK(wavefronts(TensorSwizzle::NONE, AccessPattern::Ldmatrix8x8x4) == 32);
        CHECK(wavefronts(TensorSwizzle::S128B, AccessPattern::Ldmatrix8x8x4) == 4);
    }
    SECTION("the summary names the count, ideal and excess") {
        auto h = bankHeat(tile(TensorSwizzle::NONE), AccessPattern::ColumnRead);
        REQUIRE(h.ok());
        CHECK(h->summary == "warp reads a column: 32 wavefronts (ideal 1, 31 excess)");
    }
}

TEST_CASE("bank heat texels colour the touched bytes by their bank's load", "[bank-heat]") {
    auto h = bankHeat(tile(TensorSwizzle::NONE), AccessPattern::ColumnRead);
    REQUIRE(h.ok());
    const auto tex = bankHeatTexels(*h, 0, 64);
    REQUIRE(tex.size() == 64 * 128);
    // Thread t reads bytes t*128, t*128+1 (bank 0, 32 words: the worst -> red).
    CHECK(tex[5 * 128] == [] {
        auto c = heatColour(32, 32);
        c.a = kFlagWritten;
        return c;
    }());
    CHECK(tex[5 * 128 + 2] == kUntouched);
    CHECK(tex[40 * 128] == kUntouched); // only rows 0..31 are read
    CHECK(heatColour(0, 4) == kUntouched);
    CHECK(heatColour(1, 1) == hslToRgb(120.0f, 0.75f, 0.45f)); // conflict-free: green
}
