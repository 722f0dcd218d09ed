// decodeTensorMap against every CUtensorMap the CUDA driver wrote on the H100: the 128 bytes of each
// successful encode (golden/tma: 233 encode records + 99 copy records, the 4 replace-address images,
// and the 953 random-probe records of tests/data/tma_random) must decode to the parameters the record
// says were passed (compared field by field with the record's `tensor_map`, cuda.h names included)
// and re-encode to the same bytes, also through the scenario directive that decode prints.
#include "conform/tma_records.hpp"
#include "layoutscope/scenario/scenario.hpp"
#include "layoutscope/tma/tensor_map_decode.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope;
using conform::Json;

namespace {

const std::string kGolden = std::string(LAYOUTSCOPE_GOLDEN_DIR) + "/tma/";
const std::string kRandom = std::string(LAYOUTSCOPE_TEST_DATA_DIR) + "/tma_random/";

TensorMapImage imageOf(const std::string& hex) {
    const std::vector<uint8_t> v = conform::fromHex(hex);
    TensorMapImage b{};
    REQUIRE(v.size() == 128);
    std::copy(v.begin(), v.end(), b.begin());
    return b;
}

/// The record's parameters as the decoder reports them. Im2colWide records decode as the im2col
/// map with the same bytes: the W corners first, zero H/D corners, no mode (W and W128 write the same).
Json expectedJson(const Json& tensorMap, const std::string& address) {
    Json want = tensorMap;
    if (want.at("fn") == "cuTensorMapEncodeIm2colWide") {
        const size_t spatial = want.at("tensorRank").get<size_t>() - 2;
        Json lower = Json::array(), upper = Json::array();
        for (size_t d = 0; d < spatial; ++d) {
            lower.push_back(d ? 0 : want.at("pixelBoxLowerCornerWidth").get<int>());
            upper.push_back(d ? 0 : want.at("pixelBoxUpperCornerWidth").get<int>());
        }
        for (const char* k : {"pixelBoxLowerCornerWidth", "pixelBoxUpperCornerWidth", "mode", "modeValue"})
            want.erase(k);
        want["fn"] = "cuTensorMapEncodeIm2col";
        want["pixelBoxLowerCorner"] = lower;
        want["pixelBoxUpperCorner"] = upper;
    }
    want["global_address"] = address;
    return want;
}

/// "" when `hex` decodes to exactly the record's parameters at `address` and re-encodes to `hex`.
std::string checkImage(const std::string& hex, const Json& tensorMap, const std::string& address) {
    const TensorMapImage b = imageOf(hex);
    const auto d = decodeTensorMap(b);
    if (!d) return "decode failed: " + formatDiagnostic(d.error());
    if (tensorMapBytes(d->map) != b) return "re-encoded bytes differ";
    Json got = Json::parse(tensorMapJson(*d));
    const bool wide = tensorMap.at("fn") == "cuTensorMapEncodeIm2colWide";
    if (wide && !d->im2colWideEquivalent) return "an Im2colWide record not flagged as Im2colWide-equivalent";
    got.erase("notes");
    const Json want = expectedJson(tensorMap, address);
    if (got != want) return "decoded " + got.dump() + "\n   record " + want.dump();
    // The printed directive, run as a scenario, encodes the same bytes.
    const std::string directive = tensorMapDirective(*d, "M");
    auto sc = parseScenario(directive + "mbarrier bar\nmbarrier.init.shared::cta.b64 [bar], 1;\n");
    if (!sc) return directive + "   does not parse: " + formatDiagnostic(sc.error());
    if (sc->tensorMaps.size() != 1) return directive + "   declares no tensor map";
    TensorMap fromScenario = sc->tensorMaps[0].map;
    if (d->addressByReplace) { // encode_0529: INTERLEAVE_32B map re-pointed to a 16-byte aligned address
        if (directive.find("cuTensorMapReplaceAddress put it there") == std::string::npos)
            return directive + "   does not say that the address came from cuTensorMapReplaceAddress";
        auto moved = replaceAddress(fromScenario, d->map.p.globalAddress);
        if (!moved) return "replaceAddress rejects the decoded address";
        fromScenario = *moved;
    }
    if (tensorMapBytes(fromScenario) != b) return directive + "   encodes other bytes as a scenario";
    return "";
}

struct Tally {
    size_t decoded = 0;
    size_t failed = 0;
};

void walk(const std::string& path, Tally& t) {
    auto lines = conform::readJsonLines(path);
    REQUIRE(lines.ok());
    for (const std::string& line : *lines) {
        const Json rec = Json::parse(line);
        const std::string result = rec.value("result", rec.value("encode_result", std::string()));
        if (result != "CUDA_SUCCESS" || !rec.contains("tensormap_hex")) continue;
        const std::string id = rec.value("case_id", "?");
        std::string why = checkImage(rec.at("tensormap_hex"), rec.at("tensor_map"), rec.at("global_address"));
        ++t.decoded;
        if (why.empty() && rec.contains("tensormap_hex_after_replace") &&
            rec.value("replace_result", "") == "CUDA_SUCCESS") {
            ++t.decoded;
            why = checkImage(rec.at("tensormap_hex_after_replace"), rec.at("tensor_map"),
                             rec.at("replace_address"));
        }
        if (!why.empty()) {
            ++t.failed;
            UNSCOPED_INFO(id << ": " << why);
        }
    }
}

} // namespace

TEST_CASE("decode: every successful golden encode decodes to its parameters and re-encodes",
          "[tma][decode][golden]") {
    SECTION("the encode sweep: 233 encodes and 4 replace-address images") {
        Tally t;
        walk(kGolden + "tensormap_encode.jsonl.gz", t);
        CHECK(t.failed == 0);
        CHECK(t.decoded == 237);
    }
    SECTION("the encodes of the copy records: 49 tile loads, 19 stores, 22 im2col, 9 multicast") {
        Tally t;
        for (const char* f : {"tma_tile_load", "tma_store", "tma_im2col", "tma_multicast"})
            walk(kGolden + f + ".jsonl.gz", t);
        CHECK(t.failed == 0);
        CHECK(t.decoded == 99);
    }
    SECTION("the random probe: 674 tile loads and 279 stores") {
        Tally t;
        walk(kRandom + "tile_load.jsonl.gz", t);
        walk(kRandom + "store.jsonl.gz", t);
        CHECK(t.failed == 0);
        CHECK(t.decoded == 953);
    }
}
