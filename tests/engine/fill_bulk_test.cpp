// The bulk form of a scenario fill must give the same bytes as the per-byte generator (whose values
// scenario_test.cpp pins by hand), for every fill, element size and range alignment.
#include "layoutscope/scenario/scenario.hpp"

#include <catch2/catch.hpp>

#include <random>
#include <vector>

using namespace layoutscope;

TEST_CASE("A bulk fill generator agrees with the per-byte one on every range and row stride",
          "[memory][fill]") {
    const TensorDataType types[] = {TensorDataType::UINT8, TensorDataType::FLOAT16, TensorDataType::FLOAT32,
                                    TensorDataType::FLOAT64, TensorDataType::INT64};
    const ScenarioFill fills[] = {ScenarioFill::Index, ScenarioFill::Zero, ScenarioFill::Bytes,
                                  ScenarioFill::Random};
    std::mt19937_64 rng(3);
    for (TensorDataType type : types)
        for (ScenarioFill fill : fills) {
            ScenarioTensorMap t;
            t.map.p.dataType = type;
            t.fill = fill;
            const ByteGenerator one = scenarioFillGenerator(t);
            const BulkByteGenerator bulk = scenarioFillBulkGenerator(t);
            if (!one) {
                CHECK(!bulk); // zero fill: neither generates
                continue;
            }
            REQUIRE(bulk);
            { // one run of bytes
                for (int trial = 0; trial < 50; ++trial) {
                    const uint64_t off = rng() % (1ull << 40), n = rng() % 300;
                    std::vector<uint8_t> got(n);
                    bulk(ByteRows{off, 0, n, 1}, got.data());
                    for (uint64_t i = 0; i < n; ++i) REQUIRE(got[i] == one(off + i));
                }
            }
            { // rows at a stride (a TMA box), every alignment (not SECTIONs: Catch2 runs one per pass)
                for (int trial = 0; trial < 50; ++trial) {
                    const ByteRows rows{rng() % (1ull << 40), rng() % 20000, rng() % 200, rng() % 9};
                    std::vector<uint8_t> got(rows.rowBytes * rows.count);
                    bulk(rows, got.data());
                    for (uint64_t i = 0; i < rows.count; ++i)
                        for (uint64_t j = 0; j < rows.rowBytes; ++j)
                            REQUIRE(got[i * rows.rowBytes + j] == one(rows.offset + i * rows.stride + j));
                }
            }
        }
}
