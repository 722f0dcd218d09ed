// Machine state and trace replay: sparse global memory, seek forwards/backwards.
#include "layoutscope/core/memory.hpp"
#include "layoutscope/core/trace.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace layoutscope;

TEST_CASE("global memory is generated on demand and costs only touched pages", "[memory]") {
    GlobalMemory g;
    // A 16384 x 16384 fp16 tensor: 512 MiB if materialised.
    const uint64_t base = 0x7f0000000000;
    const uint64_t bytes = 16384ull * 16384ull * 2ull;
    g.addRegion(base, bytes, [](uint64_t off) { return uint8_t(off * 7 + 3); });

    SECTION("reads come from the generator without materialising anything") {
        CHECK(g.readByte(base + 123456789) == uint8_t(123456789ull * 7 + 3));
        CHECK(g.materialisedPages() == 0);
        CHECK(g.isMapped(base, bytes));
        CHECK_FALSE(g.isMapped(base + bytes - 1, 2));
    }
    SECTION("a write materialises one 4 KiB page and keeps the rest of it generated") {
        const uint8_t v[2] = {0xAB, 0xCD};
        g.write(base + 8192 + 10, v);
        CHECK(g.materialisedPages() == 1);
        CHECK(g.readByte(base + 8192 + 10) == 0xAB);
        CHECK(g.readByte(base + 8192 + 11) == 0xCD);
        CHECK(g.readByte(base + 8192 + 12) == uint8_t((8192 + 12) * 7 + 3));
    }
    SECTION("unmapped addresses read as zero") {
        CHECK(g.readByte(0x1000) == 0);
    }
}

TEST_CASE("machine state has one shared memory of 228 KiB per CTA of the cluster", "[memory]") {
    MachineState s(4, 0xA5);
    REQUIRE(s.smem.size() == 4);
    CHECK(s.smem[3].size() == 228u * 1024u);
    CHECK(s.smem[2].bytes()[1000] == 0xA5);
}

namespace {
// Three steps: two moves into CTA 0, then one multicast step writing the same bytes to CTA 0 and 1.
Trace makeTrace(MachineState& s) {
    Trace t;
    TraceBuilder b(t);
    b.beginInstr("test", 1);
    const std::vector<uint8_t> a(16, 0x11), c(16, 0x22), d(8, 0x33);
    ByteMove m;
    m.dst = {MemSpace::SharedCta, 0, 0};
    m.length = 16;
    b.move(s, m, a);
    m.dst.addr = 16;
    b.move(s, m, c);
    m.dst = {MemSpace::SharedCta, 0, 8};
    m.length = 8;
    b.move(s, m, d);
    m.dst.cta = 1;
    b.move(s, m, d, /*newStep=*/false);
    b.tx(s, 0, 0x100, 40);
    b.endInstr("done");
    return t;
}
} // namespace

TEST_CASE("trace replay rebuilds memory at any step, forwards and backwards", "[trace]") {
    MachineState initial(2, 0xA5);
    MachineState live = initial;
    const Trace t = makeTrace(live);
    REQUIRE(t.stepCount == 3);
    REQUIRE(t.moves.size() == 4);
    CHECK(t.instrs[0].firstStep == 0);
    CHECK(t.instrs[0].endStep == 3);
    CHECK(live.mbarriers[{0u, 0x100u}].completedBytes == 40);

    Replay r(t, initial);
    SECTION("step 0 is the initial state") {
        CHECK(r.state().smem[0].bytes()[0] == 0xA5);
    }
    SECTION("seeking to the end equals executing") {
        r.seek(3);
        for (uint32_t cta = 0; cta < 2; ++cta)
            for (uint32_t i = 0; i < 64; ++i)
                CHECK(r.state().smem[cta].bytes()[i] == live.smem[cta].bytes()[i]);
        CHECK(r.state().smem[0].bytes()[8] == 0x33);
        CHECK(r.state().smem[0].bytes()[20] == 0x22);
        CHECK(r.state().smem[1].bytes()[8] == 0x33);
    }
    SECTION("seeking back restores the bytes each move overwrote") {
        r.seek(3);
        r.seek(2);
        CHECK(r.state().smem[0].bytes()[8] == 0x11); // first move's byte, before the third step
        CHECK(r.state().smem[1].bytes()[8] == 0xA5);
        r.seek(1);
        CHECK(r.state().smem[0].bytes()[20] == 0xA5);
        CHECK(r.state().smem[0].bytes()[0] == 0x11);
        r.seek(0);
        CHECK(r.state().smem[0].bytes()[0] == 0xA5);
    }
    SECTION("moves of a step are found by binary search") {
        CHECK(t.movesOfStep(2) == std::pair<size_t, size_t>{2, 4});
        CHECK(t.movesOfStep(0) == std::pair<size_t, size_t>{0, 1});
    }
}
