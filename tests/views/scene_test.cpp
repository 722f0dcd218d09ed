#include "fake_trace.hpp"
#include "scene/inspect.hpp"
#include "scene/smem_scene.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope;
using namespace layoutscope::views;
using namespace layoutscope::views::test;

TEST_CASE("HSL colours follow CSS Color 3", "[views][colour]") {
    CHECK(hslToRgb(0, 1, 0.5f) == Rgba8{255, 0, 0, 255});
    CHECK(hslToRgb(120, 1, 0.5f) == Rgba8{0, 255, 0, 255});
    CHECK(hslToRgb(240, 1, 0.5f) == Rgba8{0, 0, 255, 255});
    CHECK(hslToRgb(77, 0, 0.5f) == Rgba8{128, 128, 128, 255});
    SECTION("hue follows the row, lightness the column") {
        CHECK(colourForCoord(0, 0, 64, 64) == hslToRgb(0, 0.85f, 0.25f));
        CHECK(colourForCoord(63, 63, 64, 64) == hslToRgb(300, 0.85f, 0.75f));
    }
}

// Independent truth: for physical byte A of the 64x64 fp16 SW128 box at 0x400, the logical
// address is A ^ (((A>>7)&7)<<4) (the swizzle is an involution), so row = (L-0x400)/128 and
// column = ((L-0x400)%128)/2.
TEST_CASE("SMEM scene colours every byte by its source coordinate through SWIZZLE_128B", "[views][scene]") {
    auto doc = makeFakeSw128Document();
    const auto frames = boxFrames(*doc);
    REQUIRE(frames.size() == 1);
    CHECK(frames[0].lo == std::array<int64_t, 2>{0, kBoxRow0});
    CHECK(frames[0].hi == std::array<int64_t, 2>{64, kBoxRow0 + 64});
    const SmemScene s = smemSceneAt(*doc, doc->trace().stepCount, frames);
    REQUIRE(s.texels.size() == 64 * 128);
    int mismatches = 0;
    for (uint32_t a = kSmemBase; a < kSmemBase + 64 * 128; ++a) {
        const uint32_t l = swizzle128(a) - kSmemBase;
        const int row = static_cast<int>(l / 128), col = static_cast<int>((l % 128) / 2);
        Rgba8 t = s.texels[a - kSmemBase];
        t.a &= static_cast<uint8_t>(~kFlagCurrent); // the last chunk is highlighted as "arrived now"
        Rgba8 expect = colourForCoord(row, col, 64, 64);
        const bool oob = kBoxRow0 + row >= static_cast<int>(kRows);
        expect.a = kFlagWritten | (oob ? kFlagFill : 0);
        if (!(t == expect)) ++mismatches;
        const ByteMove& m = doc->trace().moves[s.moveOf[a - kSmemBase]];
        const auto c = coordOfByte(m, a - static_cast<uint32_t>(m.dst.addr), 2);
        if (c[0] != col || c[1] != kBoxRow0 + row) ++mismatches;
    }
    CHECK(mismatches == 0);
}

TEST_CASE("SMEM scene at a step holds only the moves of earlier steps", "[views][scene]") {
    auto doc = makeFakeSw128Document();
    const auto frames = boxFrames(*doc);
    SECTION("step 0: nothing written") {
        const SmemScene s = smemSceneAt(*doc, 0, frames);
        for (const Rgba8& t : s.texels) REQUIRE(t.a == 0);
    }
    SECTION("step 9: nine chunks; the ninth (row 1, chunk 0 -> physical 0x490) is highlighted") {
        const SmemScene s = smemSceneAt(*doc, 9, frames);
        int written = 0, current = 0;
        for (const Rgba8& t : s.texels) {
            written += (t.a & kFlagWritten) ? 1 : 0;
            current += (t.a & kFlagCurrent) ? 1 : 0;
        }
        CHECK(written == 9 * 16);
        CHECK(current == 16);
        // row 1 logical 0x480 -> 0x480 ^ (1<<4) = 0x490
        CHECK((s.texels[0x490 - kSmemBase].a & kFlagCurrent) != 0);
        CHECK((s.texels[0x480 - kSmemBase].a & kFlagWritten) == 0);
    }
}

TEST_CASE("A fading trail mixes recent moves towards white", "[views][scene]") {
    const Rgba8 c{100, 0, 200, kFlagWritten};
    CHECK(fadeTowardsWhite(c, 0, 8) == c); // the current step: the shader highlights it
    CHECK(fadeTowardsWhite(c, 8, 8) == c); // faded out
    CHECK(fadeTowardsWhite(c, 3, 0) == c); // no trail
    // age 4 of 8: weight 0.45 * 0.5 = 0.225 towards 255
    CHECK(fadeTowardsWhite(c, 4, 8) == Rgba8{135, 57, 212, kFlagWritten});
}

TEST_CASE("Global scene marks the box, out-of-bounds rows and what was read", "[views][scene]") {
    auto doc = makeFakeSw128Document();
    const auto frames = boxFrames(*doc);
    const GlobalScene g = globalSceneAt(*doc, 0, doc->trace().stepCount, frames, 8);
    REQUIRE(g.w == 64 + 16);
    REQUIRE(g.h == 64 + 16);
    auto texelOf = [](const GlobalScene& s, int c0, int c1) {
        const auto k = s.cellOf({c0, c1, 0, 0, 0});
        REQUIRE(k);
        return s.texels[size_t((*k)[1]) * s.w + (*k)[0]];
    };
    auto cell = [&](int c0, int c1) { return texelOf(g, c0, c1); };
    CHECK((cell(0, 48).a & (kFlagInBox | kFlagWritten)) == (kFlagInBox | kFlagWritten));
    CHECK((cell(0, 48).a & kFlagFill) == 0);
    CHECK((cell(63, 111).a & kFlagFill) != 0); // row 111 >= globalDim[1] = 100
    CHECK((cell(-1, 60).a & kFlagInBox) == 0); // left of the box
    CHECK((cell(-1, 60).a & kFlagFill) != 0);  // and outside the tensor
    CHECK((cell(64, 60).a & kFlagInBox) == 0); // right of the box, outside the tensor (dim 0 = 64)
    const GlobalScene g0 = globalSceneAt(*doc, 0, 0, frames, 8);
    CHECK((texelOf(g0, 0, 48).a & kFlagWritten) == 0);
}

TEST_CASE("fp16 and bf16 decode as IEEE 754 binary16 / bfloat16", "[views][inspect]") {
    CHECK(halfToFloat(0x3C00) == 1.0f);
    CHECK(halfToFloat(0xC000) == -2.0f);
    CHECK(halfToFloat(0x7BFF) == 65504.0f);
    CHECK(halfToFloat(0x0001) == Approx(5.9604645e-8f));
    CHECK(bf16ToFloat(0x3F80) == 1.0f);
    CHECK(formatElement(TensorDataType::FLOAT16, std::array<uint8_t, 2>{0x00, 0x3E}) == "fp16 1.5");
    CHECK(formatElement(TensorDataType::INT32, std::array<uint8_t, 4>{0xFD, 0xFF, 0xFF, 0xFF}) == "i32 -3");
}

TEST_CASE("Inspector names address, bank, source, value, rule and provenance", "[views][inspect]") {
    auto doc = makeFakeSw128Document();
    const auto frames = boxFrames(*doc);
    const uint32_t step = doc->trace().stepCount;
    const SmemScene s = smemSceneAt(*doc, step, frames);
    Replay replay(doc->trace(), doc->initial());
    replay.seek(step);
    const auto smem = replay.state().smem[0].bytes();
    SECTION("an in-bounds byte: physical 0x4b2 holds row 1, logical 0x4a2 -> element (17, 49)") {
        // 0x4b2 ^ (1<<4) = 0x4a2: offset 0xa2 = row 1, byte 34 -> column 17
        const std::string text = inspectSmemByte(*doc, s, smem, 0x4b2);
        CHECK_THAT(text, Catch::Contains("0x04b2"));
        CHECK_THAT(text, Catch::Contains("bank:    12")); // 0x4b2 / 4 = 300, 300 mod 32 = 12
        CHECK_THAT(text, Catch::Contains("element (x=17, y=49)"));
        CHECK_THAT(text, Catch::Contains("element 0x0c51")); // (49 << 6) | 17
        CHECK_THAT(text, Catch::Contains("SWIZZLE_128B"));
        CHECK_THAT(text, Catch::Contains("verified on H100"));
    }
    SECTION("a zero-filled byte of an out-of-bounds row") {
        // row 60 (coordinate 108): logical 0x400 + 60*128 = 0x2200, chunk 0 -> physical 0x2200 ^ (4<<4) =
        // 0x2240
        const std::string text = inspectSmemByte(*doc, s, smem, 0x2240);
        CHECK_THAT(text, Catch::Contains("element (x=0, y=108)"));
        CHECK_THAT(text, Catch::Contains("out of bounds"));
        CHECK_THAT(text, Catch::Contains("OOB zero fill"));
    }
}

TEST_CASE("A malformed scenario gives diagnostics and no trace, without crashing", "[views][document]") {
    SECTION("unreadable file") {
        auto doc = Document::fromFile("/nonexistent/dir/x.scn");
        CHECK_FALSE(doc->hasTrace());
        REQUIRE_FALSE(doc->diagnostics().empty());
        CHECK(doc->diagnostics().front().code == DiagCode::Io);
    }
    SECTION("garbage text") {
        auto doc = Document::fromText("target sm_90a\nthis is not a scenario line @@\n");
        CHECK_FALSE(doc->hasTrace());
        CHECK_FALSE(doc->diagnostics().empty());
        const SmemScene s = smemSceneAt(*doc, 3, {});
        CHECK(s.texels.empty());
    }
}
