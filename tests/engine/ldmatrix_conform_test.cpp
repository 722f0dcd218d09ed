// The ldmatrix consumer model against what an H100 returned (scripts/probes/ldmatrix: shared memory
// holds its own b16 index, so every register half names the byte it came from). 144 records: x1, x2,
// x4, with and without .trans, dense / 128-B pitch / swizzled / random row addresses. 0 failed.
#include "layoutscope/analysis/consumer.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>

using namespace layoutscope;

TEST_CASE("ldmatrix: every register half comes from where the H100 took it",
          "[consumer][ldmatrix][conform]") {
    std::ifstream in(std::string(LAYOUTSCOPE_TEST_DATA_DIR) + "/ldmatrix/h100_records.jsonl");
    REQUIRE(in.good());
    std::string line;
    size_t records = 0, failed = 0;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        const auto j = nlohmann::json::parse(line);
        REQUIRE(!j.contains("error"));
        ++records;
        LdmatrixForm f{j.at("num").get<uint32_t>(), j.at("trans").get<bool>()};
        std::array<uint32_t, 32> rows{};
        for (uint32_t t = 0; t < 32; ++t) rows[t] = j.at("row_offset")[t].get<uint32_t>();
        bool ok = true;
        for (uint32_t t = 0; t < 32 && ok; ++t)
            for (uint32_t r = 0; r < f.num && ok; ++r) {
                const uint32_t v = j.at("regs")[t][r].get<uint32_t>();
                for (uint32_t h = 0; h < 2; ++h) {
                    const uint32_t measured = 2 * ((v >> (16 * h)) & 0xFFFF); // s[i] = i: byte 2i
                    if (ldmatrixSource(f, rows, t, r, h) != measured) {
                        ok = false;
                        UNSCOPED_INFO(j.at("id").get<std::string>()
                                      << ": thread " << t << " reg " << r << " half " << h
                                      << " measured byte " << measured);
                    }
                }
            }
        failed += ok ? 0 : 1;
    }
    CHECK(records == 144);
    CHECK(failed == 0);
}

TEST_CASE("ldmatrix reads name each half's matrix element", "[consumer][ldmatrix]") {
    std::array<uint32_t, 32> rows{};
    for (uint32_t t = 0; t < 32; ++t)
        rows[t] = 16 * t; // dense rows: matrix element (row, col) at 16*row + 2*col
    for (bool trans : {false, true}) {
        const auto reads = ldmatrixReads(LdmatrixForm{4, trans}, rows);
        REQUIRE(reads.size() == 32 * 4 * 2);
        for (const OperandRead& r : reads) CHECK(r.addr == 16 * r.m + r.kByte);
    }
}
