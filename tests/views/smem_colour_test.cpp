// Colour modes of the shared-memory view: hand-derived from the definitions (bank = (addr / 4) mod
// 32, a 16-B chunk = 16 consecutive bytes at a 16-aligned address), flags kept in every mode.
#include "scene/smem_colour.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <tuple>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {
constexpr Rgba8 kBlank{kUntouched.r, kUntouched.g, kUntouched.b,
                       0}; // as smemSceneAt leaves an unwritten byte
/// 2 rows at 0x400: bytes 0..127 written by move 0 (instr 1), 128..255 by move 1 (instr 3), except
/// the first 3 bytes of row 1, untouched.
SmemScene makeScene(Trace& t) {
    ByteMove m0, m1;
    m0.instr = 1;
    m1.instr = 3;
    t.moves.push_back(m0);
    t.moves.push_back(m1);
    SmemScene s;
    s.window = {0, 0x400, 256};
    s.texels.assign(256, Rgba8{10, 20, 30, kFlagWritten});
    s.moveOf.assign(256, 0);
    for (size_t i = 128; i < 256; ++i) s.moveOf[i] = 1;
    for (size_t i = 128; i < 131; ++i) {
        s.texels[i] = kBlank;
        s.moveOf[i] = -1;
    }
    s.texels[5].a = kFlagWritten | kFlagCurrent;
    return s;
}
bool sameRgb(Rgba8 a, Rgba8 b) {
    return std::tie(a.r, a.g, a.b) == std::tie(b.r, b.g, b.b);
}
} // namespace

TEST_CASE("Colour by bank: each 4-byte word takes the colour of bank (addr / 4) mod 32",
          "[views][smem-colour]") {
    Trace t;
    SmemScene s = makeScene(t);
    std::vector<uint8_t> bytes(256, 0);
    recolourSmem(s, SmemColourBy::Bank, bytes, t);
    // 0x4b2 = byte 0xb2 of the window: word 0x4b2 / 4 = 300, 300 mod 32 = 12.
    CHECK(sameRgb(s.texels[0xb2], bankColour(12)));
    CHECK(sameRgb(s.texels[0xb0], s.texels[0xb3]));   // one word, one bank
    CHECK(sameRgb(s.texels[0], bankColour(0)));       // 0x400 / 4 = 256 -> bank 0
    CHECK(sameRgb(s.texels[128 + 4], bankColour(1))); // 0x484 / 4 = 289 -> bank 1 (rows are 32 banks)
    std::set<std::tuple<int, int, int>> distinct;
    for (uint32_t b = 0; b < 32; ++b) distinct.insert({bankColour(b).r, bankColour(b).g, bankColour(b).b});
    CHECK(distinct.size() == 32);
    CHECK(s.texels[5].a == (kFlagWritten | kFlagCurrent)); // flags kept
    CHECK(s.texels[128] == kBlank);                        // untouched bytes stay untouched
}

TEST_CASE("Colour by instruction: the instruction of the move that last wrote the byte",
          "[views][smem-colour]") {
    Trace t;
    SmemScene s = makeScene(t);
    recolourSmem(s, SmemColourBy::Instruction, std::vector<uint8_t>(256, 0), t);
    CHECK(sameRgb(s.texels[0], instrColour(1)));
    CHECK(sameRgb(s.texels[200], instrColour(3)));
    CHECK_FALSE(sameRgb(instrColour(1), instrColour(3)));
    CHECK(s.texels[129] == kBlank);
}

TEST_CASE("Colour by value: brighter for larger byte values", "[views][smem-colour]") {
    Trace t;
    SmemScene s = makeScene(t);
    std::vector<uint8_t> bytes(256);
    for (size_t i = 0; i < 256; ++i) bytes[i] = uint8_t(i);
    recolourSmem(s, SmemColourBy::Value, bytes, t);
    CHECK(sameRgb(s.texels[0x40], valueColour(0x40)));
    const auto luma = [](Rgba8 c) { return 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b; };
    for (int v = 17; v < 256; v += 17)
        CHECK(luma(valueColour(uint8_t(v))) > luma(valueColour(uint8_t(v - 17))));
}

TEST_CASE("Source colouring leaves the scene as it is", "[views][smem-colour]") {
    Trace t;
    SmemScene s = makeScene(t);
    const auto before = s.texels;
    recolourSmem(s, SmemColourBy::Source, std::vector<uint8_t>(256, 0), t);
    CHECK(s.texels == before);
}

TEST_CASE("16-B chunk cells take the colour and flags of the chunk's first written byte",
          "[views][smem-colour]") {
    Trace t;
    SmemScene s = makeScene(t);
    s.texels[128 + 3] = Rgba8{200, 100, 50, kFlagWritten | kFlagFill};
    chunkSmem(s);
    // Chunk 0 (bytes 0..15): byte 0 is its first written byte.
    for (size_t i = 0; i < 16; ++i) CHECK(s.texels[i] == (Rgba8{10, 20, 30, kFlagWritten}));
    // Chunk 8 (bytes 128..143): bytes 128..130 untouched, byte 131 first written.
    for (size_t i = 128; i < 144; ++i) CHECK(s.texels[i] == (Rgba8{200, 100, 50, kFlagWritten | kFlagFill}));
}
