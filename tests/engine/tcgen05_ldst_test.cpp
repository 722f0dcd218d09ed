// tcgen05.ld / tcgen05.st maps, hand-computed from the closed forms of tcgen05.md §4.1-4.2
// (PTX ISA 9.2 §9.7.16.8; register counts from PTX Tables 49/50).
#include "layoutscope/tcgen05/tcgen05.hpp"
#include "layoutscope/tcgen05/tmem.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope;

namespace {
LdStForm form(const char* ptx) {
    auto f = parseLdSt(ptx);
    REQUIRE(f.ok());
    return *f;
}
RegSegment seg(const char* ptx, uint32_t t, uint32_t j, size_t i = 0) {
    return ldStSegments(form(ptx), t, j).at(i);
}
} // namespace

TEST_CASE("tcgen05.ld/st register counts per shape and .num", "[tcgen05][ldst]") {
    CHECK(regsPerThread(form("tcgen05.ld.sync.aligned.32x32b.x128.b32")) == 128);
    CHECK(regsPerThread(form("tcgen05.ld.sync.aligned.16x128b.x64.b32")) == 128);
    CHECK(regsPerThread(form("tcgen05.ld.sync.aligned.16x256b.x32.pack::16b.b32")) == 128);
    CHECK(regsPerThread(form("tcgen05.st.sync.aligned.16x64b.x4.unpack::16b.b32")) == 4);
    SECTION("forms over 128 registers are rejected") {
        CHECK_FALSE(parseLdSt("tcgen05.ld.sync.aligned.16x256b.x64.b32").ok());
        CHECK_FALSE(parseLdSt("tcgen05.ld.sync.aligned.16x128b.x128.b32").ok());
        CHECK_FALSE(parseLdSt("tcgen05.ld.sync.aligned.32x32b.x3.b32").ok());
    }
}

TEST_CASE("tcgen05.ld thread/register -> lane/column, one pair per shape", "[tcgen05][ldst]") {
    SECTION("32x32b: lane t, column j") {
        auto s = seg("tcgen05.ld.sync.aligned.32x32b.x4.b32", 5, 3);
        CHECK((s.laneOff == 5 && s.colOff == 3 && s.nbits == 32));
    }
    SECTION("16x64b: lane t/4 + 8(t%2), column 2j + (t/2)%2") {
        auto a = seg("tcgen05.ld.sync.aligned.16x64b.x4.b32", 5, 3);
        CHECK((a.laneOff == 9 && a.colOff == 6));
        auto b = seg("tcgen05.ld.sync.aligned.16x64b.x4.b32", 6, 0);
        CHECK((b.laneOff == 1 && b.colOff == 1));
        auto c = seg("tcgen05.ld.sync.aligned.16x64b.x4.b32", 3, 1);
        CHECK((c.laneOff == 8 && c.colOff == 3));
    }
    SECTION("16x128b: lane t/4 + 8(j%2), column 4(j/2) + t%4") {
        auto a = seg("tcgen05.ld.sync.aligned.16x128b.x2.b32", 5, 3);
        CHECK((a.laneOff == 9 && a.colOff == 5));
        auto b = seg("tcgen05.ld.sync.aligned.16x128b.x2.b32", 30, 2);
        CHECK((b.laneOff == 7 && b.colOff == 6));
    }
    SECTION("16x256b: lane t/4 + 8((j/2)%2), column 8(j/4) + 2(t%4) + j%2") {
        auto a = seg("tcgen05.ld.sync.aligned.16x256b.x2.b32", 5, 3);
        CHECK((a.laneOff == 9 && a.colOff == 3));
        auto b = seg("tcgen05.ld.sync.aligned.16x256b.x2.b32", 31, 6);
        CHECK((b.laneOff == 15 && b.colOff == 14));
    }
    SECTION("16x32bx2 with any immHalfSplitoff: threads 16-31 at taddr + imm") {
        auto a = seg("tcgen05.ld.sync.aligned.16x32bx2.x4.b32 {r0,r1,r2,r3}, [taddr], 10;", 20, 2);
        CHECK((a.laneOff == 4 && a.colOff == 12));
        auto b = seg("tcgen05.ld.sync.aligned.16x32bx2.x4.b32 {r0,r1,r2,r3}, [taddr], 10;", 3, 1);
        CHECK((b.laneOff == 3 && b.colOff == 1));
        auto st = form("tcgen05.st.sync.aligned.16x32bx2.x1.b32 [taddr], 7, {r0};");
        CHECK(st.immHalfSplitoff == 7);
    }
}

TEST_CASE("pack::16b puts the low halves of columns 2k and 2k+1 in one register", "[tcgen05][ldst][pack]") {
    SECTION("32x32b.x2.pack::16b thread 7 register 1") {
        auto f = form("tcgen05.ld.sync.aligned.32x32b.x2.pack::16b.b32");
        auto s = ldStSegments(f, 7, 1);
        REQUIRE(s.size() == 2);
        CHECK((s[0] == RegSegment{0, 16, 7, 2, 0}));
        CHECK((s[1] == RegSegment{16, 16, 7, 3, 0}));
        CHECK(ldStBit(f, 7, 1, 20).colOff == 3);
        CHECK(ldStBit(f, 7, 1, 20).bit == 4);
    }
    SECTION("16x32bx2.x2.pack::16b: the half offset is added unscaled") {
        auto s = ldStSegments(form("tcgen05.ld.sync.aligned.16x32bx2.x2.pack::16b.b32 {r0,r1}, [taddr], 8;"),
                              17, 1);
        CHECK((s[0] == RegSegment{0, 16, 1, 10, 0}));
        CHECK((s[1] == RegSegment{16, 16, 1, 11, 0}));
    }
}

TEST_CASE("ld/st outside the warp's lane quarter is a diagnostic", "[tcgen05][ldst][quarter]") {
    auto f = form("tcgen05.ld.sync.aligned.16x64b.x2.b32");
    CHECK(checkLdStAccess(f, 1, tmemAddress(48, 0)).ok());
    CHECK_FALSE(checkLdStAccess(f, 1, tmemAddress(56, 0)).ok());
    CHECK_FALSE(checkLdStAccess(form("tcgen05.st.sync.aligned.32x32b.x1.b32"), 2, tmemAddress(32, 0)).ok());
    SECTION("columns past 511 are a diagnostic too") {
        CHECK_FALSE(
            checkLdStAccess(form("tcgen05.ld.sync.aligned.32x32b.x8.b32"), 0, tmemAddress(0, 508)).ok());
    }
}

TEST_CASE("tcgen05.ld.red forms and reduction", "[tcgen05][ldst][red]") {
    CHECK_FALSE(parseLdSt("tcgen05.ld.red.sync.aligned.32x32b.x1.max.f32").ok()); // .x2 or more
    CHECK_FALSE(parseLdSt("tcgen05.ld.red.sync.aligned.16x64b.x2.max.f32").ok()); // 32x32b / 16x32bx2 only
    CHECK_FALSE(parseLdSt("tcgen05.ld.red.sync.aligned.32x32b.x2.max.abs.u32").ok());
    auto f = parseLdSt("tcgen05.ld.red.sync.aligned.32x32b.x4.max.abs.f32 {r0,r1,r2,r3}, redval, [taddr];");
    REQUIRE(f.ok());
    CHECK(ldStSegments(*f, 3, 2).front() == RegSegment{0, 32, 3, 2, 0}); // same map as 32x32b
    // -3.0f (0xC0400000), 1.0f, 2.0f, 0.5f: max |x| = 3.0f = 0x40400000
    CHECK(ldRedReduce(*f, {0xC0400000u, 0x3F800000u, 0x40000000u, 0x3F000000u}) == 0x40400000u);
    auto mn = parseLdSt("tcgen05.ld.red.sync.aligned.32x32b.x2.min.s32");
    REQUIRE(mn.ok());
    CHECK(ldRedReduce(*mn, {5u, 0xFFFFFFFFu}) == 0xFFFFFFFFu); // -1 < 5
}
