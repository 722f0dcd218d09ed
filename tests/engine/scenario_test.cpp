// Bundled scenarios: they parse cleanly, and running them puts hand-computed bytes at
// hand-computed addresses. Expected values come from the fill pattern of docs/scenario-format.md
// (element i of a tensor holds i) and the swizzle formulas of ../shared/ref/tma.md §4.2, worked
// out by hand in the comments; never from the engine's own output.
#include "layoutscope/engine.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

using namespace layoutscope;

namespace {

std::string readAsset(const std::string& name) {
    std::ifstream f(std::string(LAYOUTSCOPE_ASSETS_DIR) + "/scenarios/" + name, std::ios::binary);
    REQUIRE(f.good());
    std::ostringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

std::string describe(const std::vector<Diagnostic>& ds) {
    std::string s;
    for (const auto& d : ds) s += formatDiagnostic(d) + "\n";
    return s;
}

Scenario parsed(const std::string& name) {
    auto r = parseScenario(readAsset(name));
    if (!r) FAIL(name << " does not parse:\n" << describe(r.diagnostics()));
    return std::move(r).value();
}

// Runs a bundled scenario. Until the TMA executor exists this FAILS (it is not skipped).
Run ran(const Scenario& s) {
    auto r = runScenario(s);
    if (!r) FAIL("runScenario failed (is the TMA executor implemented?):\n" << describe(r.diagnostics()));
    return std::move(r).value();
}

uint16_t smem16(const Run& r, uint32_t cta, uint32_t addr) {
    const auto b = r.final.smem.at(cta).bytes();
    return static_cast<uint16_t>(b[addr] | (b[addr + 1] << 8));
}

uint64_t movedBytes(const Trace& t) {
    uint64_t n = 0;
    for (const auto& m : t.moves) n += m.length;
    return n;
}

} // namespace

TEST_CASE("every bundled scenario parses without diagnostics", "[scenario]") {
    auto name = GENERATE(as<std::string>{}, "tma_tile_64x64_f16_sw128.scn", "tma_tile_sw32.scn",
                         "tma_tile_sw64.scn", "tma_tile_noswizzle.scn", "tma_oob_edge_tile.scn",
                         "tma_store_tile.scn", "tma_multicast_cluster2.scn");
    INFO(name);
    Scenario s = parsed(name);
    CHECK_FALSE(s.instrs.empty());
}

TEST_CASE("the default scenario's declarations", "[scenario]") {
    Scenario s = parsed("tma_tile_64x64_f16_sw128.scn");
    CHECK(s.target == "sm_90a");
    CHECK(s.clusterSize == 1);
    const ScenarioBuffer* sA = s.findBuffer("sA");
    REQUIRE(sA);
    CHECK(sA->addr == 1024); // smemBase 1024 is already 1024-aligned
    CHECK(sA->size == 16384);
    const ScenarioBarrier* bar = s.findBarrier("bar");
    REQUIRE(bar);
    CHECK(bar->addr == 1024 + 16384); // next 8-aligned byte after sA
    const ScenarioTensorMap* A = s.findTensorMap("A");
    REQUIRE(A);
    CHECK(A->map.p.globalAddress == 0x7f0000000000ULL);
    CHECK(A->map.p.globalStrides[0] == 8192);
    CHECK(A->extent == 4096ull * 8192); // 4096*2 + 4095*8192
    REQUIRE(s.instrs.size() == 4);
    CHECK(s.instrs[0].kind == ScenarioInstrKind::MbarrierInit);
    CHECK(s.instrs[1].kind == ScenarioInstrKind::MbarrierExpectTx);
    CHECK(s.instrs[1].value == 8192);
    const auto* ld = std::get_if<TmaTileLoad>(&s.instrs[2].op);
    REQUIRE(ld);
    CHECK(s.instrs[2].kind == ScenarioInstrKind::Copy);
    CHECK(s.instrs[2].span.line == 16);
    CHECK(ld->dstAddr == 1024);
    CHECK(ld->mbarAddr == 1024 + 16384);
    CHECK(ld->coords[0] == 0);
    CHECK(ld->coords[1] == 0);
    CHECK(ld->map.p.swizzle == TensorSwizzle::S128B);
}

TEST_CASE("the index fill pattern: element i holds i, little-endian", "[scenario]") {
    Scenario s = parsed("tma_tile_64x64_f16_sw128.scn");
    const ByteGenerator g = scenarioFillGenerator(*s.findTensorMap("A"));
    // fp16 element (x=9, y=5) is at byte 5*8192 + 9*2 and holds 5*4096 + 9 = 20489 = 0x5009.
    CHECK(g(5 * 8192 + 18) == 0x09);
    CHECK(g(5 * 8192 + 19) == 0x50);
    // element (4095, 4095): index 16777215 -> low 16 bits 0xFFFF
    CHECK(g(4095ull * 8192 + 4095 * 2) == 0xFF);
}

TEST_CASE("default scenario: 64x64 fp16 lands 128B-swizzled", "[scenario][run][tma]") {
    Scenario s = parsed("tma_tile_64x64_f16_sw128.scn");
    Run r = ran(s);
    CHECK(movedBytes(r.trace) == 8192);
    REQUIRE(r.trace.instrs.size() == 4);
    CHECK(r.trace.instrs[2].sourceLine == 16);
    SECTION("element (9, 5)") {
        // L = 5*128 + 9*2 = 658, A = 1024 + 658 = 1682; (A>>7)&7 = 13&7 = 5; P = 1682 ^ (5<<4) = 1730.
        CHECK(smem16(r, 0, 1730) == 0x5009);
        CHECK(smem16(r, 0, 1682) != 0x5009); // not at the unswizzled address
    }
    SECTION("element (63, 63)") {
        // L = 63*128 + 126 = 8190, A = 9214; (9214>>7)&7 = 71&7 = 7; P = 9214 ^ 0x70 = 9102.
        // value 63*4096 + 63 = 258111 = 0x3F03F -> 0xF03F
        CHECK(smem16(r, 0, 9102) == 0xF03F);
    }
    SECTION("element (0, 0) and untouched bytes") {
        CHECK(smem16(r, 0, 1024) == 0x0000);
        CHECK(smem16(r, 0, 1026) == 0x0001);   // (1, 0): row 0 is not permuted
        CHECK(smem16(r, 0, 1024 + 8192) == 0); // past the box
    }
    SECTION("mbarrier balance") {
        // expect_tx 8192 then complete_tx of the 8192 box bytes (tma.md §6)
        const auto& mb = r.final.mbarriers.at({0u, 1024u + 16384u});
        CHECK(mb.txCount == 0);
        CHECK(mb.completedBytes == 8192);
    }
}

TEST_CASE("swizzle 32B and 64B and no swizzle", "[scenario][run][tma]") {
    SECTION("32B: box (0,4) of A at (16, 8)") {
        Run r = ran(parsed("tma_tile_sw32.scn"));
        CHECK(movedBytes(r.trace) == 16 * 32 * 2);
        // L = 4*32 = 128, A = 1152; (1152>>7)&1 = 1 -> P = 1152 ^ 16 = 1168.
        // element (16, 12) of a 256-wide fp16 tensor: index 12*256 + 16 = 3088 = 0x0C10
        CHECK(smem16(r, 0, 1168) == 0x0C10);
    }
    SECTION("64B: box (1,2) of A at (64, 32)") {
        Run r = ran(parsed("tma_tile_sw64.scn"));
        CHECK(movedBytes(r.trace) == 32 * 32 * 2);
        // L = 2*64 + 2 = 130, A = 1154; (1154>>7)&3 = 9&3 = 1 -> P = 1154 ^ 16 = 1170.
        // element (65, 34) of a 512-wide tensor: 34*512 + 65 = 17473 = 0x4441
        CHECK(smem16(r, 0, 1170) == 0x4441);
    }
    SECTION("none: fp32 box (3,2) of A at (32, 8)") {
        Run r = ran(parsed("tma_tile_noswizzle.scn"));
        CHECK(movedBytes(r.trace) == 32 * 8 * 4);
        // dense rows of 128 B: 1024 + 2*128 + 3*4 = 1292; element (35, 10): 10*1024 + 35 = 10275 = 0x2823
        const auto b = r.final.smem[0].bytes();
        CHECK(b[1292] == 0x23);
        CHECK(b[1293] == 0x28);
        CHECK(b[1294] == 0x00);
        CHECK(b[1295] == 0x00);
    }
}

TEST_CASE("box hanging off the tensor edge reads OOB-NaN", "[scenario][run][tma]") {
    Run r = ran(parsed("tma_oob_edge_tile.scn"));
    // T: 100 x 70 fp16, row stride 208 B; box 64x32 at (64, 48); sT at 1024 with SWIZZLE_128B.
    // box (0,0) = T(64,48): byte 48*208 + 128 = 10112, index 5056 = 0x13C0; P = 1024
    CHECK(smem16(r, 0, 1024) == 0x13C0);
    // box (35,21) = T(99,69): byte 69*208 + 198 = 14550, index 7275 = 0x1C6B.
    // L = 21*128 + 70 = 2758, A = 3782, (3782>>7)&7 = 29&7 = 5, P = 3782 ^ 0x50 = 3734
    CHECK(smem16(r, 0, 3734) == 0x1C6B);
    // box (36,0) = T(100,48) is out of bounds: L = 72, A = 1096, (1096>>7)&7 = 0 -> 0x7FF7 at 1096
    CHECK(smem16(r, 0, 1096) == 0x7FF7);
    // box (0,22) = T(64,70) is out of bounds: L = 2816, A = 3840, (3840>>7)&7 = 6, P = 3840 ^ 0x60 = 3936
    CHECK(smem16(r, 0, 3936) == 0x7FF7);
    // the whole box is credited, fill included (tma.md §6)
    CHECK(movedBytes(r.trace) == 4096);
    CHECK(r.final.mbarriers.at({0u, 1024u + 4096u}).completedBytes == 4096);
}

TEST_CASE("store writes the loaded tile back at another place", "[scenario][run][tma]") {
    Scenario s = parsed("tma_store_tile.scn");
    // A at 0x7f0000000000, extent 256*2 + 255*512 = 131072 -> C on the page after the next page
    const uint64_t c = 0x7f0000000000ULL + 131072 + 4096;
    REQUIRE(s.findTensorMap("C"));
    CHECK(s.findTensorMap("C")->map.p.globalAddress == c);
    Run r = ran(s);
    auto at = [&](uint64_t x, uint64_t y) {
        return static_cast<uint16_t>(r.final.global.readByte(c + y * 512 + x * 2) |
                                     (r.final.global.readByte(c + y * 512 + x * 2 + 1) << 8));
    };
    // C(64+x, 128+y) = A(x, y) = y*256 + x
    CHECK(at(64 + 9, 128 + 5) == 5 * 256 + 9);
    CHECK(at(64 + 63, 128 + 63) == 63 * 256 + 63);
    CHECK(at(64, 128) == 0); // A(0,0) is 0 as well
    CHECK(at(65, 128) == 1);
    CHECK(at(64 + 64, 128 + 5) == 0); // right of the block: untouched zero fill
    CHECK(r.initial.global.readByte(c + 133 * 512 + 73 * 2) == 0);
}

TEST_CASE("multicast writes both CTAs of the cluster", "[scenario][run][tma]") {
    Scenario s = parsed("tma_multicast_cluster2.scn");
    CHECK(s.clusterSize == 2);
    CHECK(s.findBuffer("sA1")->cta == 1);
    CHECK(s.findBuffer("sA1")->addr == 1024);
    CHECK(s.findBarrier("bar1")->addr == 1024 + 4096);
    // after init, expect_tx and fence.mbarrier_init in CTA 1, and the same plus barrier.cluster in CTA 0
    const auto* ld = std::get_if<TmaTileLoad>(&s.instrs.at(8).op);
    REQUIRE(ld);
    CHECK(ld->multicast);
    CHECK(ld->ctaMask == 0x3);
    Run r = ran(s);
    // element (9, 5) of a 1024-wide tensor: 5*1024 + 9 = 5129 = 0x1409, at P = 1730 (see default)
    CHECK(smem16(r, 0, 1730) == 0x1409);
    CHECK(smem16(r, 1, 1730) == 0x1409);
    CHECK(r.final.mbarriers.at({1u, 1024u + 4096u}).completedBytes == 4096);
    CHECK(r.final.mbarriers.at({0u, 1024u + 4096u}).completedBytes == 4096);
}
