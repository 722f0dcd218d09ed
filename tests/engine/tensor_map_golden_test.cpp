// The encoder against every encode result recorded on the H100: the full encode sweep through the
// conformance runner, and the encode_result carried by every copy record (tile, store, im2col,
// multicast), whose other checks belong to conform_tma.cpp.
#include "conform/conform.hpp"
#include "conform/tma_records.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope;

namespace {
const std::string kGolden = std::string(LAYOUTSCOPE_SHARED_DIR) + "/golden/tma/";
}

TEST_CASE("encode: the whole golden encode sweep passes the conformance runner", "[tma][encode][golden]") {
    auto r = conform::conformTma(kGolden + "tensormap_encode.jsonl.gz");
    REQUIRE(r.ok());
    CHECK(r->size() == 530);
    size_t failed = 0;
    for (const auto& o : *r)
        if (!o.passed) {
            ++failed;
            UNSCOPED_INFO(o.id << ": " << o.firstDifference);
        }
    CHECK(failed == 0);
}

TEST_CASE("encode: agrees with encode_result of every golden copy record", "[tma][encode][golden]") {
    const char* file = GENERATE("tma_tile_load.jsonl.gz", "tma_store.jsonl.gz", "tma_im2col.jsonl.gz",
                                "tma_multicast.jsonl.gz");
    auto lines = conform::readJsonLines(kGolden + file);
    REQUIRE(lines.ok());
    REQUIRE_FALSE(lines->empty());
    size_t disagree = 0;
    for (const std::string& line : *lines) {
        const auto rec = conform::Json::parse(line);
        const uint64_t addr = conform::parseHexAddress(rec.at("global_address").get<std::string>());
        const auto enc = conform::encodeFromJson(rec.at("tensor_map"), addr);
        const bool expected = rec.at("encode_result_value").get<int64_t>() == 0;
        if (enc.ok() != expected) {
            ++disagree;
            UNSCOPED_INFO(rec.value("case_id", "?") << ": expected " << (expected ? "success" : "rejection")
                                                    << (enc.ok() ? "" : ", engine: " + enc.error().message));
        }
    }
    CHECK(disagree == 0);
}
