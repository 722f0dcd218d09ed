// `expect fragment SHAPE` (issue 12): an epilogue that indexes a tcgen05.ld's registers as another shape's
// fragment reads other accumulator cells. The counts below are derived by hand from the register maps of
// tcgen05.md §4.1 (PTX ISA 9.2 §9.7.16.2.3 figures), thread t, register j, relative lane/column:
//   32x32b   lane t,                  col j
//   16x64b   lane t/4 + 8*(t%2),      col 2j + (t/2)%2
//   16x128b  lane t/4 + 8*(j%2),      col 4*(j/2) + t%4
//   16x256b  lane t/4 + 8*((j/2)%2),  col 8*(j/4) + 2*(t%4) + j%2
#include "layoutscope/scenario/scenario.hpp"
#include "scenario_test_util.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace layoutscope;
using layoutscope::test::runErrors;

namespace {

const std::string kHead =
    "target sm_100a\nsmem buf 16\nwarp 0\nregs pattern=index\n"
    "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [buf], 32;\nlet tmem = 0\n";

std::string load(const std::string& shapeNum, int regs) {
    std::string v;
    for (int i = 0; i < regs; ++i) v += (i ? ", %r" : "%r") + std::to_string(i);
    return "tcgen05.ld.sync.aligned." + shapeNum + ".b32 {" + v + "}, [tmem];\n";
}

// wait::ld before the dealloc: a tcgen05.ld still in flight at tcgen05.dealloc is an ordering error.
const std::string kTail =
    "tcgen05.wait::ld.sync.aligned;\ntcgen05.dealloc.cta_group::1.sync.aligned.b32 tmem, 32;\n";

std::string parseErrors(const std::string& text) {
    auto sc = parseScenario(text);
    REQUIRE(!sc);
    std::string out;
    for (const Diagnostic& d : sc.diagnostics()) out += std::to_string(d.span.line) + ": " + d.message + "\n";
    return out;
}

} // namespace

TEST_CASE("A tcgen05.ld whose shape is not the fragment the epilogue assumes is an error",
          "[scenario][check][fragment]") {
    SECTION("16x256b.x1 read as the 32x32b fragment: only thread 0's registers 0 and 1 agree") {
        // 32x32b.x4 gives thread t (lane t, col j); 16x256b.x1 gives (t/4 + 8*(j/2), 2*(t%4) + j%2):
        // equal only for t = 0, j = 0 and 1 -> 126 of 32 x 4 pairs differ.
        const std::string e = runErrors(kHead + "expect fragment 32x32b\n" + load("16x256b.x1", 4) + kTail);
        CHECK(
            e.find("8: tcgen05.ld.sync.aligned.16x256b.x1.b32 puts other accumulator cells in 126 of 128 "
                   "(thread, register) pairs than the epilogue's 32x32b fragment assumes (stated at line 7); "
                   "thread 0 register 2: the epilogue assumes (lane 0, column 2), the load gives (lane 8, "
                   "column 0)") == 0);
        CHECK(
            e.find("Fix: load with the shape the epilogue assumes: tcgen05.ld.sync.aligned.32x32b.x4.b32 (it "
                   "covers 32 lanes instead of 16") != std::string::npos);
    }
    SECTION("16x64b.x2 read as the 16x128b fragment: j=0 agrees for t%4 == 0, j=1 for t%4 == 3") {
        const std::string e = runErrors(kHead + "expect fragment 16x128b\n" + load("16x64b.x2", 2) + kTail);
        CHECK(e.find("in 48 of 64 (thread, register) pairs") != std::string::npos);
        CHECK(
            e.find("tcgen05.ld.sync.aligned.16x128b.x1.b32, or index the registers as the 16x64b fragment") !=
            std::string::npos);
    }
    SECTION("no 16x256b load gives one register per thread") {
        const std::string e = runErrors(kHead + "expect fragment 16x256b\n" + load("32x32b.x1", 1) + kTail);
        CHECK(
            e.find("8: tcgen05.ld.sync.aligned.32x32b.x1.b32 gives 1 register per thread; no 16x256b load") ==
            0);
    }
    SECTION("fixed twin: the load the epilogue assumes") {
        CHECK(runErrors(kHead + "expect fragment 32x32b\n" + load("32x32b.x4", 4) + kTail) == "");
        CHECK(runErrors(kHead + "expect fragment 16x256b\n" + load("16x256b.x1", 4) + kTail) == "");
    }
    SECTION("expect fragment none ends the statement") {
        CHECK(runErrors(kHead + "expect fragment 32x32b\nexpect fragment none\n" + load("16x256b.x1", 4) +
                        kTail) == "");
    }
}

TEST_CASE("A malformed expect fragment names what it expects", "[scenario][check][fragment]") {
    SECTION("unknown shape") {
        CHECK(parseErrors(kHead + "expect fragment 32x16b\n").find("7: unknown shape '32x16b'") == 0);
    }
    SECTION("16x32bx2 without its half offset") {
        CHECK(parseErrors(kHead + "expect fragment 16x32bx2\n").find("7: 16x32bx2 needs imm=N") == 0);
    }
    SECTION("imm= on another shape") {
        CHECK(parseErrors(kHead + "expect fragment 16x64b imm=4\n")
                  .find("7: imm= is the half offset of the "
                        "16x32bx2 shape only") == 0);
    }
    SECTION("imm= that is no column: a huge number, a word, a negative one") {
        for (const char* bad : {"99999999999999999999999", "abc", "-4", "512"}) {
            const std::string e = parseErrors(kHead + "expect fragment 16x32bx2 imm=" + bad + "\n");
            INFO(e);
            CHECK(e.find("7: ") == 0);
            CHECK(e.find("imm=") != std::string::npos);
        }
    }
    SECTION("nothing after fragment") {
        CHECK(parseErrors(kHead + "expect fragment\n").find("7: expected 'expect fragment SHAPE") == 0);
    }
}
