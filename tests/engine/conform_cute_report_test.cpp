// conform cute on small altered copies of golden/cute/tmem_ld_st.json, written to a temp directory: what it
// must report when nothing can be compared, and that it lists every difference of a record (capped).
#include "conform/conform.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

Json goldenLdSt() {
    std::ifstream in(std::string(LAYOUTSCOPE_GOLDEN_DIR) + "/cute/tmem_ld_st.json");
    REQUIRE(in);
    return Json::parse(in);
}

// Writes `atoms` as the only content of a tmem_ld_st-like file in a fresh temp directory; runs conform cute
// on the directory and returns the printed report.
std::string conformReport(const Json& atoms, size_t& failed) {
    // One folder per process: ctest -j runs the test cases of this file at the same time.
    const fs::path dir =
        fs::temp_directory_path() / ("layoutscope_conform_cute_report_test_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(dir / "tmem_ld_st.json") << Json{{"atoms", atoms}}.dump();
    auto r = layoutscope::conform::conformCute(dir.string());
    fs::remove_all(dir);
    REQUIRE(r.ok());
    std::ostringstream out;
    failed = layoutscope::conform::reportOutcomes(*r, out);
    return out.str();
}

} // namespace

TEST_CASE("conform cute fails a store atom whose twin is absent and that has no cute_layouts",
          "[tcgen05][conform]") {
    const Json golden = goldenLdSt();
    Json store;
    for (const Json& a : golden.at("atoms"))
        if (a.contains("map_same_as")) store = a;
    REQUIRE(store.is_object());
    const std::string twin = store.at("map_same_as");
    store.erase("cute_layouts"); // its load twin is not written either: no map of any kind is left
    size_t failed = 0;
    const std::string report = conformReport(Json::array({store}), failed);
    INFO(report);
    CHECK(failed == 1);
    CHECK(report.find("FAIL tmem_ld_st " + store.at("name").get<std::string>() +
                      ": nothing could be compared for the register map: its map_same_as twin " + twin +
                      " is not in this file") != std::string::npos);
    CHECK(report.find("0 passed, 1 failed\n") != std::string::npos);
}

TEST_CASE("conform cute lists every difference of a record, at most 8, then how many more",
          "[tcgen05][conform]") {
    const Json golden = goldenLdSt();
    Json atom;
    for (const Json& a : golden.at("atoms"))
        if (a.contains("map") && atom.is_null()) atom = a;
    REQUIRE(atom.is_object());
    // Threads 0..9, register 0: one column off each (segment [regbit, n, lane, col, bit]): 10 differences.
    for (int t = 0; t < 10; ++t) {
        Json& seg = atom["map"][t][0][0];
        seg[3] = seg[3].get<int>() + 1;
    }
    size_t failed = 0;
    const std::string report = conformReport(Json::array({atom}), failed);
    INFO(report);
    CHECK(failed == 1); // the map record; the same atom's check against its CuTe layouts still passes
    CHECK(report.find("FAIL tmem_ld_st " + atom.at("name").get<std::string>() + ": thread 0 r0 segments") ==
          0);
    for (int t = 1; t < 8; ++t)
        CHECK(report.find("\n  also: thread " + std::to_string(t) + " r0 segments") != std::string::npos);
    CHECK(report.find("thread 8 r0") == std::string::npos); // beyond the cap: counted, not listed
    CHECK(report.find("\n  ... and 2 more\n") != std::string::npos);
    CHECK(report.find("\n1 passed, 1 failed\n") != std::string::npos);
}
