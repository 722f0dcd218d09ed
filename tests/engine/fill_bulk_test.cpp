// The bulk form of a scenario fill must give the same bytes as the per-byte generator (whose values
// scenario_test.cpp pins by hand), for every fill, element size and range alignment.
#include "layoutscope/scenario/scenario.hpp"

#include <catch2/catch.hpp>

#include <random>
#include <vector>

using namespace layoutscope;

TEST_CASE("A bulk fill generator agrees with the per-byte one on every range", "[memory][fill]") {
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
            for (int trial = 0; trial < 50; ++trial) {
                const uint64_t off = rng() % (1ull << 40), n = rng() % 300;
                std::vector<uint8_t> got(n);
                bulk(off, got);
                for (uint64_t i = 0; i < n; ++i) REQUIRE(got[i] == one(off + i));
            }
        }
}
