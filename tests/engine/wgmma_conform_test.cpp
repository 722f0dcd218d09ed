// The shared-memory matrix descriptor model (smem_descriptor.hpp: canonicalOffset + the swizzle on
// absolute address bits) against what wgmma.mma_async read on an H100 (scripts/probes/wgmma: one operand
// holds numbered f16 values, the other a one-hot identity, so D names the element each (mn, k) read).
// 208 records: A and B, K- and MN-major, every layout type, LBO/SBO pairs, start offsets off the 1024-B
// atom, a random sweep. The sm_90 layout types 0/1/2/3 (none/128B/64B/32B, bits [62,64)) are the sm_100
// types 0/2/4/6 (bits [61,64)): this is the part of the sm_100 descriptor Hopper proves.
#include "layoutscope/tcgen05/smem_descriptor.hpp"
#include "wgmma_record.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>

using namespace layoutscope;

TEST_CASE("wgmma operands read the element the descriptor model says, on H100",
          "[consumer][wgmma][conform]") {
    std::ifstream in(std::string(LAYOUTSCOPE_TEST_DATA_DIR) + "/wgmma/h100_records.jsonl");
    REQUIRE(in.good());
    std::string line;
    size_t records = 0, failed = 0;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        const auto j = nlohmann::json::parse(line);
        REQUIRE(!j.contains("error"));
        ++records;
        const SmemDescriptor d = test::wgmmaRecordDescriptor(j);
        const MatrixMajor major = test::wgmmaRecordMajor(j);
        const auto& offs = j.at("byte_offset");
        size_t bad = 0;
        for (uint32_t mn = 0; mn < 64; ++mn)
            for (uint32_t k = 0; k < 16; ++k)
                if (elementAddress(d, major, 16, mn, k) != offs[mn * 16 + k].get<uint32_t>()) ++bad;
        if (bad) {
            ++failed;
            UNSCOPED_INFO(j.at("id").get<std::string>() << ": " << bad << " of 1024 elements differ");
        }
    }
    CHECK(records == 208);
    CHECK(failed == 0);
}
