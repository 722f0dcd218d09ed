// tcgen05 instructions in scenarios: operand binding, directives and execution, against hand-derived
// expectations from the PTX ISA 9.2 text (§9.7.16.2.3 matrix fragments, §9.7.16.9.1 tcgen05.cp).
#include "layoutscope/scenario/scenario.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace layoutscope;

namespace {

const char* kHead = "target sm_100a\nptx 8.8\nsmem taddrBuf 16\nlet tmem = 0\n"
                    "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], 128;\n"; // lines 1-5

Result<Run> runText(const std::string& text) {
    auto s = parseScenario(text);
    if (!s) return s.diagnostics();
    return runScenario(*s);
}

const ScenarioWarp* findWarp(const Run& r, uint32_t cta, uint32_t warp) {
    for (const ScenarioWarp& w : r.warps)
        if (w.cta == cta && w.warp == warp) return &w;
    return nullptr;
}

} // namespace

TEST_CASE("scenario tcgen05.st 32x32b: thread t register j lands at lane base+t, column base+j",
          "[tcgen05][scenario]") {
    SECTION("warp 0, regs pattern=index, .x4 at column 8") {
        auto r = runText(std::string(kHead) +
                         "let t8 = 8\nregs pattern=index\n"
                         "tcgen05.st.sync.aligned.32x32b.x4.b32 [t8], {%r0, %r1, %r2, %r3};\n");
        REQUIRE(r);
        for (uint32_t t = 0; t < 32; ++t)
            for (uint32_t j = 0; j < 4; ++j) CHECK(r->tmemFinal.ctas[0].cell(t, 8 + j) == (t << 16 | j));
        CHECK(r->tmemFinal.ctas[0].cell(0, 12) == 0);
        CHECK(r->tmemFinal.ctas[0].cell(32, 8) == 0);
        CHECK(r->tmemInitial.ctas[0].cell(0, 8) == 0);
    }
    SECTION("warp 5 (lane quarter 1) with registers named r10..r11 writes lanes 32..63") {
        auto r = runText(std::string(kHead) + "let q1 = 0x200000\nwarp 5\nregs pattern=lane\n"
                                              "tcgen05.st.sync.aligned.32x32b.x2.b32 [q1], {r10, r11};\n");
        REQUIRE(r);
        for (uint32_t t = 0; t < 32; ++t) {
            CHECK(r->tmemFinal.ctas[0].cell(32 + t, 0) == t);
            CHECK(r->tmemFinal.ctas[0].cell(32 + t, 1) == t);
        }
        REQUIRE(findWarp(*r, 0, 5));
    }
}

TEST_CASE("scenario tcgen05.ld writes the loaded values back into the named registers",
          "[tcgen05][scenario]") {
    auto r = runText(std::string(kHead) + "regs pattern=index\n"
                                          "tcgen05.st.sync.aligned.32x32b.x2.b32 [tmem], {%r0, %r1};\n"
                                          "tcgen05.ld.sync.aligned.32x32b.x2.b32 {%r7, %r9}, [tmem];\n");
    REQUIRE(r);
    const ScenarioWarp* w = findWarp(*r, 0, 0);
    REQUIRE(w);
    for (uint32_t t = 0; t < 32; ++t) {
        CHECK(w->initial[t][7] == (t << 16 | 7));
        CHECK(w->final[t][7] == (t << 16 | 0)); // register 7 <- column 0 = thread t's r0
        CHECK(w->final[t][9] == (t << 16 | 1));
    }
}

TEST_CASE("scenario tcgen05.cp 64x128b warpx2::02_13 copies row r into lanes r and 64+r",
          "[tcgen05][scenario]") {
    auto r = runText(
        "target sm_100a\nptx 8.8\ntensormap F tiled UINT8 dims=[16,64] box=[16,64]\nfill F pattern=bytes\n"
        "smem sA 1024 align=128\nsmem taddrBuf 16\nmbarrier bar\n"
        "desc sd start=sA lbo=1024 sbo=128 swizzle=none\nlet tmem = 0\n"
        "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [F, {0, 0}], "
        "[bar];\n"
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], 32;\n"
        "tcgen05.cp.cta_group::1.64x128b.warpx2::02_13 [tmem], sd;\n");
    REQUIRE(r);
    const TensorMemory& m = r->tmemFinal.ctas[0];
    // Source row r is bytes 16r..16r+15 of sA (fill bytes: byte o holds o & 0xFF). Rows 0..31 go to
    // quarters 0 and 2, rows 32..63 to quarters 1 and 3: lanes r and 64 + r in both cases.
    for (uint32_t row : {0u, 5u, 31u, 32u, 63u}) {
        const uint32_t lane0 = row;
        const uint32_t lane1 = 64 + row;
        for (uint32_t b = 0; b < 16; ++b) {
            CHECK(m.byte(lane0, b / 4, b % 4) == static_cast<uint8_t>(16 * row + b));
            CHECK(m.byte(lane1, b / 4, b % 4) == static_cast<uint8_t>(16 * row + b));
        }
    }
}

TEST_CASE("scenario tcgen05 diagnostics", "[tcgen05][scenario]") {
    SECTION("a warp touching another lane quarter: line and column of the instruction") {
        auto r = runText(std::string(kHead) + "warp 1\n"
                                              "tcgen05.st.sync.aligned.32x32b.x1.b32 [tmem], {%r0};\n");
        REQUIRE_FALSE(r);
        CHECK(r.diagnostics()[0].span.line == 7);
        CHECK(r.diagnostics()[0].span.column == 1);
    }
    SECTION("allocation beyond 512 columns") {
        auto r = runText(std::string(kHead) +
                         "smem t2 16\n"
                         "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [t2], 512;\n");
        REQUIRE_FALSE(r);
        CHECK(r.diagnostics()[0].span.line == 7);
    }
    SECTION("malformed directives") {
        auto check = [](const std::string& line, int col) {
            auto s = parseScenario(std::string("target sm_100a\n") + line + "\n");
            REQUIRE_FALSE(s);
            CHECK(s.diagnostics()[0].span.line == 2);
            CHECK(s.diagnostics()[0].span.column == col);
        };
        check("warp 32", 6);
        check("warp", 1);
        check("regs pattern=plaid", 14);
        check("desc d start=nowhere sbo=128", 14);
        check("desc d lbo=16", 6);
    }
    SECTION("a vector register without a number and a taddr that is not a let name") {
        auto s =
            parseScenario(std::string(kHead) + "tcgen05.st.sync.aligned.32x32b.x1.b32 [tmem], {%acc};\n");
        REQUIRE_FALSE(s);
        CHECK(s.diagnostics()[0].span.line == 6);
        CHECK(s.diagnostics()[0].span.column == 48);
        auto s2 =
            parseScenario(std::string(kHead) + "tcgen05.st.sync.aligned.32x32b.x1.b32 [nothing], {%r0};\n");
        REQUIRE_FALSE(s2);
        CHECK(s2.diagnostics()[0].span.line == 6);
    }
}

TEST_CASE("scenario [taddrBuf] uses the TMEM address tcgen05.alloc stored there", "[tcgen05][scenario]") {
    // First fit (open question 23): 64 columns at column 0 into t2, then 32 at column 64 into taddrBuf.
    auto r = runText("target sm_100a\nptx 8.8\nsmem taddrBuf 16\nsmem t2 16\nregs pattern=index\n"
                     "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [t2], 64;\n"
                     "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], 32;\n"
                     "tcgen05.st.sync.aligned.32x32b.x1.b32 [taddrBuf], {%r9};\n"
                     "tcgen05.dealloc.cta_group::1.sync.aligned.b32 taddrBuf, 32;\n");
    REQUIRE(r);
    for (uint32_t t = 0; t < 32; ++t) CHECK(r->tmemFinal.ctas[0].cell(t, 64) == (t << 16 | 9));
    // The trace names register 9 (byte address 9*4), not the vector position 0.
    bool sawR9 = false;
    for (const ByteMove& m : r->trace.moves)
        if (m.src.space == MemSpace::Register && m.src.addr == (5u << 16 | 36u)) sawR9 = true;
    CHECK(sawR9);
    auto bad = parseScenario("target sm_100a\nptx 8.8\nsmem taddrBuf 16\n"
                             "tcgen05.st.sync.aligned.32x32b.x1.b32 [taddrBuf+4], {%r0};\n");
    REQUIRE_FALSE(bad);
    CHECK(bad.diagnostics()[0].span.line == 4);
}

TEST_CASE("scenario trace has one instruction per scenario instruction, dealloc included",
          "[tcgen05][scenario]") {
    auto s = parseScenario(std::string(kHead) + "tcgen05.dealloc.cta_group::1.sync.aligned.b32 tmem, 128;\n"
                                                "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n"
                                                "tcgen05.wait::st.sync.aligned;\n");
    REQUIRE(s);
    auto r = runScenario(*s);
    REQUIRE(r);
    REQUIRE(r->trace.instrs.size() == s->instrs.size());
    CHECK(r->trace.instrs[1].sourceLine == 6);
    CHECK(r->trace.instrs[2].sourceLine == 7);
}
