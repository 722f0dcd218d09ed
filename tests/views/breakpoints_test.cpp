// Breakpoints and instruction stepping (issue 16 item 4) over a hand-built trace whose expected stops
// are derived by hand below, and reverse stepping: memory at step k reached backwards equals memory at
// step k reached forwards (the fake SWIZZLE_128B load of fake_trace.hpp).
//
// The hand-built trace (positions: position p shows the moves of steps < p):
//   instr 0, line 1: steps 0..3, 16 B each to shared 0x100, 0x110, 0x120, 0x130 (SWIZZLE_128B, verified)
//   instr 1, line 2: no moves (a shared access; stands at position 4)
//   instr 2, line 3: step 4, 4 B to shared 0x116 (tcgen05.shift.down: unverified);
//                    step 5, 8 B to global 0x2000 (OOB zero fill, verified)
// stepCount = 6; instruction boundaries {0, 4, 6}.
#include "fake_trace.hpp"
#include "scene/breakpoints.hpp"

#include <catch2/catch.hpp>

#include <array>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {

Trace handTrace() {
    MachineState state(1);
    state.global.addRegion(0x2000, 64, [](uint64_t) { return uint8_t(0); });
    Trace t;
    TraceBuilder b(t);
    std::array<uint8_t, 16> bytes{};
    const auto mv = [&](MemRef dst, uint32_t len, RuleId rule) {
        ByteMove m;
        m.src = MemRef{MemSpace::Fill, 0, 0};
        m.dst = dst;
        m.length = len;
        m.rule = rule;
        b.move(state, m, std::span<const uint8_t>(bytes.data(), len));
    };
    b.beginInstr("load", 1);
    for (uint32_t k = 0; k < 4; ++k) mv({MemSpace::SharedCta, 0, 0x100 + 16 * k}, 16, RuleId::TmaSwizzle128B);
    b.endInstr("four chunks");
    b.beginInstr("ld.shared", 2);
    b.endInstr("no data movement");
    b.beginInstr("mixed", 3);
    mv({MemSpace::SharedCta, 0, 0x116}, 4, RuleId::Tcgen05ShiftDown);
    mv({MemSpace::Global, 0, 0x2000}, 8, RuleId::TmaOobFillZero);
    b.endInstr("two moves");
    return t;
}

} // namespace

TEST_CASE("The hand-built breakpoint trace has the layout the expectations assume", "[views][breakpoints]") {
    const Trace t = handTrace();
    REQUIRE(t.stepCount == 6);
    REQUIRE(t.instrs.size() == 3);
    CHECK(t.instrs[1].firstStep == 4);
    CHECK(t.instrs[1].endStep == 4);
    CHECK(t.instrs[2].firstStep == 4);
    CHECK(t.instrs[2].endStep == 6);
}

TEST_CASE("Break when a cell is written: the next move step writing it", "[views][breakpoints]") {
    const Trace t = handTrace();
    const std::array<DataLoc, 1> cell{DataLoc{MemSpace::SharedCta, 0, 0x118}};
    SECTION("next write step") {
        CHECK(nextWriteStep(t, cell, 0) == 1u); // 0x110 + 16 covers 0x118
        CHECK(nextWriteStep(t, cell, 1) == 1u);
        CHECK(nextWriteStep(t, cell, 2) == 4u); // 0x116 + 4 covers 0x118
        CHECK_FALSE(nextWriteStep(t, cell, 5));
    }
    SECTION("other CTA, space or an untouched byte never break") {
        const std::array<DataLoc, 3> none{DataLoc{MemSpace::SharedCta, 1, 0x118},
                                          DataLoc{MemSpace::Global, 0, 0x118},
                                          DataLoc{MemSpace::SharedCta, 0, 0x140}};
        CHECK_FALSE(nextWriteStep(t, none, 0));
    }
    SECTION("global byte") {
        const std::array<DataLoc, 1> g{DataLoc{MemSpace::Global, 0, 0x2007}};
        CHECK(nextWriteStep(t, g, 0) == 5u);
    }
    SECTION("stop positions: after the move is applied") {
        std::vector<Breakpoint> bps(1);
        bps[0].locs = {cell.begin(), cell.end()};
        auto h = nextBreak(t, bps, {}, 0);
        REQUIRE(h);
        CHECK(h->position == 2);
        CHECK(h->why.find("by step 1") != std::string::npos);
        h = nextBreak(t, bps, {}, 2);
        REQUIRE(h);
        CHECK(h->position == 5);
        CHECK_FALSE(nextBreak(t, bps, {}, 5));
        bps[0].enabled = false;
        CHECK_FALSE(nextBreak(t, bps, {}, 0));
    }
}

TEST_CASE("Break when a bank conflict exceeds N", "[views][breakpoints]") {
    const Trace t = handTrace();
    const std::array<uint32_t, 3> excess{0, 3, 0};
    std::vector<Breakpoint> bps(1);
    bps[0].kind = Breakpoint::Kind::BankExcess;
    SECTION("N = 2: the access (no moves) stops where it stands") {
        bps[0].maxExcess = 2;
        auto h = nextBreak(t, bps, excess, 0);
        REQUIRE(h);
        CHECK(h->position == 4);
        CHECK(h->why.find("3 excess wavefronts") != std::string::npos);
        CHECK_FALSE(nextBreak(t, bps, excess, 4));
    }
    SECTION("N = 3: not exceeded") {
        bps[0].maxExcess = 3;
        CHECK_FALSE(nextBreak(t, bps, excess, 0));
    }
    SECTION("excess from a scenario: 16 B per lane at a 128-B pitch is 28 excess, the XOR pattern 0") {
        // Hand count (docs/banks.md): quarter-warp phases of 8 lanes, all on banks 0..3 -> 8 wavefronts
        // per phase, 32 in all, ideal 4: 28 excess. XOR with lane % 8 spreads them: 0 excess.
        auto sc =
            parseScenario("smem pad 1024\nsmem sA 16384 align=1024\nwarp 1\n"
                          "ld.shared.v4.b32 {%r0, %r1, %r2, %r3}, [sA + lane * 128];\n"
                          "ld.shared.v4.b32 {%r0, %r1, %r2, %r3}, [sA + lane * 128 + ((lane % 8) << 4)];\n");
        REQUIRE(sc);
        auto run = runScenario(*sc);
        REQUIRE(run);
        const auto ex = bankExcessPerInstr(run->trace, *sc);
        REQUIRE(ex.size() == 2);
        CHECK(ex[0] == 28);
        CHECK(ex[1] == 0);
    }
}

TEST_CASE("Break when a rule flagged unverified is used", "[views][breakpoints]") {
    const Trace t = handTrace();
    std::vector<Breakpoint> bps(1);
    bps[0].kind = Breakpoint::Kind::UnverifiedRule;
    SECTION("the tcgen05.shift.down move of step 4 (provenance: assumed)") {
        CHECK(nextUnverifiedMove(t, 0)->step == 4u);
        auto h = nextBreak(t, bps, {}, 0);
        REQUIRE(h);
        CHECK(h->position == 5);
        CHECK(h->why.find("tcgen05.shift.down") != std::string::npos);
        CHECK_FALSE(nextBreak(t, bps, {}, 5));
    }
    SECTION("a rule named by the instruction only (alsoRules)") {
        Trace t2 = handTrace();
        t2.instrs[0].alsoRules.push_back(RuleId::Tcgen05CpSourceWalk);
        auto h = nextBreak(t2, bps, {}, 0);
        REQUIRE(h);
        CHECK(h->position == 1); // after the instruction's first step
    }
    SECTION("the earliest of several breakpoints wins") {
        bps.push_back(Breakpoint{});
        bps[1].locs = {DataLoc{MemSpace::SharedCta, 0, 0x130}};
        auto h = nextBreak(t, bps, {}, 0);
        REQUIRE(h);
        CHECK(h->position == 4); // the write at step 3 comes before the unverified move
    }
}

TEST_CASE("Instruction stepping lands on instruction boundaries", "[views][breakpoints]") {
    const Trace t = handTrace();
    CHECK(nextInstrPosition(t, 0) == 4);
    CHECK(nextInstrPosition(t, 2) == 4);
    CHECK(nextInstrPosition(t, 4) == 6);
    CHECK(nextInstrPosition(t, 6) == 6);
    CHECK(prevInstrPosition(t, 6) == 4);
    CHECK(prevInstrPosition(t, 5) == 4);
    CHECK(prevInstrPosition(t, 4) == 0);
    CHECK(prevInstrPosition(t, 0) == 0);
}

TEST_CASE("Reverse step: the state at step k reached backwards equals the one reached forwards",
          "[views][breakpoints][replay]") {
    auto doc = test::makeFakeSw128Document();
    const Trace& t = doc->trace();
    REQUIRE(t.stepCount == 512);
    for (uint32_t k : {0u, 1u, 7u, 100u, 511u}) {
        Replay fwd(t, doc->initial());
        fwd.seek(k);
        Replay back(t, doc->initial());
        back.seek(t.stepCount);
        for (uint32_t s = t.stepCount; s > k; --s) back.seek(s - 1); // one step back at a time
        CHECK(back.state().smem[0].bytes().size() == fwd.state().smem[0].bytes().size());
        CHECK(std::equal(back.state().smem[0].bytes().begin(), back.state().smem[0].bytes().end(),
                         fwd.state().smem[0].bytes().begin()));
        // Independent truth at k: chunk j (row j/8, chunk j%8) is written iff j < k, at the swizzled address.
        const auto bytes = fwd.state().smem[0].bytes();
        const uint32_t probe = k; // chunk number probe: written iff probe < k, i.e. never at k itself
        if (probe < 512) {
            const uint32_t addr = test::swizzle128(test::kSmemBase + probe * 16);
            CHECK(bytes[addr + 1] ==
                  0); // not yet written (smem starts zeroed; in-bounds high bytes are c1/4 > 0)
        }
        if (k > 0) {
            const uint32_t j = k - 1, r = j / 8, c = j % 8;
            const uint32_t addr = test::swizzle128(test::kSmemBase + r * 128 + c * 16);
            const int32_t c1 = test::kBoxRow0 + int32_t(r);
            const uint16_t want = c1 < int32_t(test::kRows) ? test::elementBits(int32_t(c * 8), c1) : 0;
            CHECK(bytes[addr] == uint8_t(want & 0xFF));
            CHECK(bytes[addr + 1] == uint8_t(want >> 8));
        }
    }
}
