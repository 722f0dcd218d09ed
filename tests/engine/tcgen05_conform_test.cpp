// The tcgen05 engine against every golden/cute file (CuTe-derived maps, descriptors, swizzles).
#include "conform/conform.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

TEST_CASE("conform cute: every golden/cute check passes", "[tcgen05][conform]") {
    auto r = layoutscope::conform::conformCute(std::string(LAYOUTSCOPE_GOLDEN_DIR) + "/cute");
    REQUIRE(r.ok());
    REQUIRE(r->size() > 100);
    for (const auto& o : *r) {
        INFO(o.id << ": " << o.firstDifference);
        CHECK(o.passed);
    }
}

TEST_CASE("conform cute reports the first difference of an altered golden entry", "[tcgen05][conform]") {
    namespace fs = std::filesystem;
    std::ifstream in(std::string(LAYOUTSCOPE_GOLDEN_DIR) + "/cute/tmem_ld_st.json");
    REQUIRE(in);
    nlohmann::json doc = nlohmann::json::parse(in);
    auto& seg = doc["atoms"][0]["map"][5][2][0];
    seg[3] = seg[3].get<int>() + 1; // thread 5, register 2: one column off
    const fs::path tmp = fs::temp_directory_path() /
                         ("layoutscope_tcgen05_conform_altered_" + std::to_string(::getpid()) + ".json");
    std::ofstream(tmp) << doc.dump();
    auto r = layoutscope::conform::conformCute(tmp.string());
    fs::remove(tmp);
    REQUIRE(r.ok());
    size_t failed = 0;
    for (const auto& o : *r) {
        if (o.passed) continue;
        ++failed;
        CHECK(o.firstDifference.find("thread 5 r2") != std::string::npos);
    }
    CHECK(failed == 1);
}
