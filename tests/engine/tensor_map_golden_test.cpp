// The encoder against every encode result recorded on the H100: the full encode sweep through the
// conformance runner, and the encode_result carried by every copy record (tile, store, im2col,
// multicast), whose other checks belong to conform_tma.cpp.
#include "conform/conform.hpp"
#include "conform/tma_records.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope;

namespace {
const std::string kGolden = std::string(LAYOUTSCOPE_GOLDEN_DIR) + "/tma/";
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
        } else if (enc.ok() && rec.contains("tensormap_hex")) {
            const std::string diff =
                conform::compareTensorMapBytes(rec.at("tensormap_hex").get<std::string>(), *enc);
            if (!diff.empty()) {
                ++disagree;
                UNSCOPED_INFO(rec.value("case_id", "?") << ": " << diff);
            }
        }
    }
    CHECK(disagree == 0);
}

TEST_CASE("encode: the 128 tensormap bytes of encode_0000 and a corrupted copy", "[tma][encode][golden]") {
    // encode_0000 as recorded on the H100 (FLOAT16 64x32, box 64x8, SWIZZLE_128B).
    const std::string hex = "0000e06f9d7f0000106300000800000000000000000000000000000000000000"  // [0,32)
                            "3f0000001f0000000000000000000000000000000000003f0700000000000000"  // [32,64)
                            "0004000000000000000400000000000000000000000000000000000000000000"  // [64,96)
                            "0000000000000000000000000000000000000000000000000000000000000000"; // [96,128)
    TensorMapTiledParams p;
    p.dataType = TensorDataType::FLOAT16;
    p.globalAddress = 0x7f9d6fe00000;
    p.globalDim = {64, 32};
    p.globalStrides = {128};
    p.boxDim = {64, 8};
    p.swizzle = TensorSwizzle::S128B;
    auto m = encodeTiled(p);
    REQUIRE(m.ok());
    SECTION("matches") {
        CHECK(conform::compareTensorMapBytes(hex, *m).empty());
    }
    SECTION("a changed boxDim[1] is reported at byte 56") {
        m->p.boxDim[1] = 16;
        CHECK(conform::compareTensorMapBytes(hex, *m).rfind("tensormap byte 56 ", 0) == 0);
    }
}
