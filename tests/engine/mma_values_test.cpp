// tcgen05.mma accumulator values against the product of the global tiles (issue 24 item 4). Truth by hand:
// tcgen05_mma_i8_128x64.scn fills A (UINT8, dims [128,128]) and B (dims [128,64]) with their index, so
// A(m, k) = (128 m + k) mod 256 = k + 128 (m mod 2) and B(n, k) = k + 128 (n mod 2) for k < 32, and one
// kind::i8 MMA (K = 32, D s32) gives D[m][n] = sum_k (k + 128a)(k + 128b), a = m mod 2, b = n mod 2:
// 10416 (a = b = 0), 73904 (one of them 1), 661680 (both).
#include "layoutscope/analysis/mma_values.hpp"
#include "scenario_test_util.hpp"

#include <string>
#include <tuple>

using namespace layoutscope;

namespace {
Run runFile(const std::string& rel, Scenario& s) {
    auto text = readScenarioFile(std::string(LAYOUTSCOPE_ASSETS_DIR) + "/scenarios/" + rel);
    REQUIRE(text);
    auto sc = parseScenario(*text);
    REQUIRE(sc);
    s = std::move(*sc);
    auto run = runScenario(s);
    REQUIRE(run);
    return std::move(*run);
}
} // namespace

TEST_CASE("a kind::i8 accumulator equals the hand-computed product of its tiles", "[consumer][values]") {
    Scenario s;
    const Run run = runFile("tcgen05_mma_i8_128x64.scn", s);
    const std::vector<MmaDCheck> checks = mmaDValues(s, run);
    REQUIRE(checks.size() == 1);
    REQUIRE(checks[0].skipped.empty());
    REQUIRE(checks[0].cells.size() == 128 * 64);
    CHECK(checks[0].wrong == 0);
    auto at = [&](uint32_t m, uint32_t n) { return checks[0].cells[size_t(m) * 64 + n]; };
    for (auto [m, n, v] :
         {std::tuple{0u, 0u, 10416.0}, std::tuple{0u, 1u, 73904.0}, std::tuple{1u, 0u, 73904.0},
          std::tuple{1u, 1u, 661680.0}, std::tuple{127u, 63u, 661680.0}}) {
        CHECK(at(m, n).expected == v);
        CHECK(at(m, n).actual == v);
        CHECK(at(m, n).tolerance == 0); // exact for s32
    }
}

TEST_CASE("an f16 tile read as bf16 is a value error with the format named", "[consumer][values]") {
    const std::string broken = test::errorMessages(*readScenarioFile(
        std::string(LAYOUTSCOPE_ASSETS_DIR) + "/scenarios/broken/tcgen05_mma_idesc_bf16_for_f16.scn"));
    CHECK(broken.find("D differs from the product of the tiles it reads") != std::string::npos);
    CHECK(broken.find("set idesc bits [7,10) and [10,13) (A and B formats) to 0 (f16)") != std::string::npos);
    CHECK(broken.find("reads") != std::string::npos);
    const std::string fixed = test::errorMessages(*readScenarioFile(
        std::string(LAYOUTSCOPE_ASSETS_DIR) + "/scenarios/broken/tcgen05_mma_idesc_bf16_for_f16_fixed.scn"));
    CHECK(fixed == "");
}
