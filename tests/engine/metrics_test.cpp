// Design-review figures (metrics.hpp) against hand-derived counts. A 128 x 64 fp16 operand: 128 rows of
// 128 B at a global row pitch of 4096 * 2 = 8192 B (128-B aligned): 4 sectors and 1 line per row.
// One 64 x 128 SW128 box fetches each line once; two 32 x 128 SW64 boxes fetch each line twice (each
// box reads one 64-B half of every row).
#include "layoutscope/analysis/metrics.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

using namespace layoutscope;

namespace {

std::map<std::string, int64_t> metricsOf(const std::string& path) {
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    auto sc = parseScenario(ss.str());
    REQUIRE(sc);
    auto run = runScenario(*sc);
    REQUIRE(run);
    std::map<std::string, int64_t> m;
    for (const MetricValue& v : scenarioMetrics(*sc, *run)) m[v.name] = v.value;
    return m;
}

} // namespace

TEST_CASE("Metrics of one SW128 box against two SW64 boxes of the same operand", "[metrics][compare]") {
    const std::string dir = std::string(LAYOUTSCOPE_ASSETS_DIR) + "/reviews/";
    auto one = metricsOf(dir + "operand_sw128_one_box.scn");
    auto two = metricsOf(dir + "operand_sw64_two_boxes.scn");
    CHECK(one["TMA loads"] == 1);
    CHECK(two["TMA loads"] == 2);
    for (auto* m : {&one, &two}) {
        CHECK((*m)["bytes moved"] == 128 * 128);
        CHECK((*m)["mbarrier complete-tx bytes"] == 16384);
        CHECK((*m)["global 32-B sectors read"] == 128 * 4);
        CHECK((*m)["global 128-B lines read"] == 128);
        CHECK((*m)["OOB-filled bytes"] == 0);
        CHECK((*m)["shared alignment padding"] == 0);
        CHECK((*m)["check errors"] == 0);
    }
    CHECK(one["global 128-B line requests (per instruction)"] == 128);
    CHECK(two["global 128-B line requests (per instruction)"] == 256);
}

TEST_CASE("Metrics count OOB fill, alignment padding and TMEM columns", "[metrics]") {
    // A 64x64 fp16 box at x = 224 of a 256-wide tensor: columns 256..287 are out of bounds: 32 elements
    // x 2 B x 64 rows = 4096 B of fill. Buffers of 100 B then 1024 B aligned to 1024: from 1024 the
    // first ends at 1124, the second starts at 2048: 924 B of padding. tcgen05.alloc 64 columns.
    auto sc = parseScenario(
        "target sm_100a\ntensormap A tiled FLOAT16 dims=[256,256] box=[64,64]\n"
        "smem small 100 align=1024\nsmem sA 8192 align=1024\nsmem taddrBuf 16\nwarp 0\n"
        "mbarrier bar\nmbarrier.init.shared::cta.b64 [bar], 1;\n"
        "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [A, "
        "{224, 0}], [bar];\n"
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], 64;\n"
        "let tmem = 0\ntcgen05.dealloc.cta_group::1.sync.aligned.b32 tmem, 64;\n");
    REQUIRE(sc);
    auto run = runScenario(*sc);
    REQUIRE(run);
    std::map<std::string, int64_t> m;
    for (const MetricValue& v : scenarioMetrics(*sc, *run)) m[v.name] = v.value;
    CHECK(m["OOB-filled bytes"] == 4096);
    CHECK(m["shared alignment padding"] == 924);
    CHECK(m["TMEM columns allocated"] == 64);
}
