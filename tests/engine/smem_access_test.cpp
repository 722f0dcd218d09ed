// Consumer access patterns in scenarios: per-lane address expressions evaluated by hand, and the
// wavefronts of the classic patterns (bank = (addr / 4) % 32; 16-B accesses in quarter-warp phases):
// 16 B per lane at a 128-B pitch puts the 8 lanes of a phase on the same 4 banks (8 wavefronts per
// phase, 32 in all); XOR-ing the chunk with lane % 8 (the 128B swizzle) spreads them (4, the ideal).
#include "layoutscope/analysis/metrics.hpp"
#include "layoutscope/scenario/scenario.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <string>

using namespace layoutscope;

namespace {

Result<Scenario> parse(const std::string& body) {
    return parseScenario("smem pad 1024\nsmem sA 16384 align=1024\nwarp 1\n" + body);
}

} // namespace

TEST_CASE("Scenario shared accesses evaluate their address expression per lane", "[scenario][smem-access]") {
    auto sc =
        parse("let pitch = 128\n"
              "ld.shared.v4.b32 {%r0, %r1, %r2, %r3}, [sA + lane * pitch + ((lane % 8) ^ (lane / 8)) * 16];\n"
              "st.shared.b32 [sA + tid * 4], %r0;\n"
              "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%r0, %r1}, [sA + (lane & 7) * 64 + (lane >> "
              "3) * 16];\n");
    REQUIRE(sc);
    const uint32_t base = sc->findBuffer("sA")->addr;
    REQUIRE(sc->instrs.size() == 3);
    const SmemAccess& a = *sc->instrs[0].smemAccess;
    CHECK(a.widthBytes == 16);
    for (uint32_t l = 0; l < 32; ++l) CHECK(a.addr[l] == base + l * 128 + ((l % 8) ^ (l / 8)) * 16);
    const SmemAccess& st = *sc->instrs[1].smemAccess;
    CHECK(st.kind == SmemAccess::Kind::Store);
    CHECK(st.addr[5] == base + (32 * 1 + 5) * 4); // warp 1: tid = 32 + lane
    const SmemAccess& lm = *sc->instrs[2].smemAccess;
    CHECK(lm.kind == SmemAccess::Kind::Ldmatrix);
    CHECK(lm.activeMask == 0xFFFFu); // .x2: threads 0..15 give the row addresses
    CHECK(lm.addr[9] == base + 1 * 64 + 1 * 16);
}

TEST_CASE("Malformed shared accesses name what is wrong", "[scenario][smem-access]") {
    SECTION("unknown name") {
        auto sc = parse("ld.shared.b32 %r0, [sB + lane * 4];\n");
        REQUIRE(!sc);
        CHECK(sc.diagnostics()[0].message.find("'sB' is not lane, warp, tid, an smem buffer or a let name") !=
              std::string::npos);
    }
    SECTION("division by zero") {
        auto sc = parse("ld.shared.b32 %r0, [sA + lane / 0];\n");
        REQUIRE(!sc);
        CHECK(sc.diagnostics()[0].message.find("division by zero") != std::string::npos);
    }
    SECTION("outside shared memory") {
        auto sc = parse("ld.shared.b32 %r0, [sA + lane * 100000];\n");
        REQUIRE(!sc);
        CHECK(sc.diagnostics()[0].message.find("outside the CTA's 228 KiB") != std::string::npos);
    }
    SECTION("more than 16 bytes per thread") {
        auto sc = parse("ld.shared.v4.b64 {%r0, %r1, %r2, %r3}, [sA];\n");
        REQUIRE(!sc);
        CHECK(sc.diagnostics()[0].message.find("at most 16 bytes per thread") != std::string::npos);
    }
}

TEST_CASE("Shared access patterns count their wavefronts", "[scenario][smem-access][metrics]") {
    auto sc = parse("ld.shared.v4.b32 {%r0, %r1, %r2, %r3}, [sA + lane * 128];\n"
                    "ld.shared.v4.b32 {%r0, %r1, %r2, %r3}, [sA + lane * 128 + ((lane % 8) << 4)];\n"
                    "ld.shared.b32 %r0, [sA + lane * 4];\n");
    REQUIRE(sc);
    auto run = runScenario(*sc);
    REQUIRE(run);
    CHECK(run->trace.instrs[0].summary.find("32 shared wavefronts (ideal 4, 28 excess") != std::string::npos);
    CHECK(run->trace.instrs[1].summary.find("4 shared wavefronts (ideal 4, 0 excess") != std::string::npos);
    CHECK(run->trace.instrs[2].summary.find("1 shared wavefronts (ideal 1, 0 excess") != std::string::npos);
    std::map<std::string, int64_t> m;
    for (const MetricValue& v : scenarioMetrics(*sc, *run)) m[v.name] = v.value;
    CHECK(m["shared access patterns (ld/st.shared, ldmatrix)"] == 3);
    CHECK(m["shared wavefronts"] == 37);
    CHECK(m["shared excess wavefronts (bank conflicts)"] == 28);
    // A misaligned address is a run error (cudaErrorMisalignedAddress on hardware).
    auto bad = parse("ld.shared.b32 %r0, [sA + lane * 2];\n");
    REQUIRE(bad);
    CHECK(!runScenario(*bad));
}

TEST_CASE("Address expressions stay bounded", "[scenario][smem-access]") {
    SECTION("overflowing products are an error, not undefined behaviour") {
        auto sc = parse("ld.shared.b32 %r0, [4294967295 * 4294967295 * 4294967295 + lane];\n");
        REQUIRE(!sc);
        CHECK(sc.diagnostics()[0].message.find("leaves +-2^40 (overflow)") != std::string::npos);
    }
    SECTION("deep nesting is an error, not a stack overflow") {
        auto sc =
            parse("ld.shared.b32 %r0, [" + std::string(200, '(') + "lane" + std::string(200, ')') + "];\n");
        REQUIRE(!sc);
        CHECK(sc.diagnostics()[0].message.find("nests deeper than 64 levels") != std::string::npos);
    }
}
