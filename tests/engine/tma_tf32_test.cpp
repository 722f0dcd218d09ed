// TF32 rounding on TMA loads against 4096 FP32 patterns loaded by an H100 (tests/data/tf32_round_h100.txt,
// recorded with scripts/probes/tf32/tf32_probe.cu: ties, NaN/Inf, the largest finite values, denormals
// and random patterns; TFLOAT32_FTZ gave the same bits, FLOAT32/FLOAT32_FTZ left every pattern unchanged).
#include "tma_test_util.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

using namespace layoutscope;
using namespace tmatest;

namespace {

struct Pattern {
    uint32_t in, out;
};

std::vector<Pattern> measured() {
    std::ifstream f(std::string(LAYOUTSCOPE_TEST_DATA_DIR) + "/tf32_round_h100.txt");
    std::vector<Pattern> v;
    std::string a, b;
    while (f >> a >> b)
        v.push_back({uint32_t(std::stoul(a, nullptr, 16)), uint32_t(std::stoul(b, nullptr, 16))});
    return v;
}

/// Loads the patterns as a 1-D tensor of `type` with 64-element boxes, as the probe did.
std::vector<uint32_t> loadThroughTma(const std::vector<Pattern>& p, TensorDataType type) {
    const uint32_t n = uint32_t(p.size());
    const TensorMap map = mapOf({type, {n}, {64}});
    MachineState st(1, 0xA5);
    st.global.addRegion(kGlobal, n * 4ull,
                        [&p](uint64_t o) { return uint8_t(p[o / 4].in >> (8 * (o % 4))); });
    Trace trace;
    TraceBuilder tb(trace);
    for (uint32_t c = 0; c < n; c += 64) {
        TmaTileLoad op;
        op.map = map;
        op.coords[0] = int32_t(c);
        op.dstAddr = 1024 + c * 4;
        tb.beginInstr("cp.async.bulk.tensor.1d");
        REQUIRE(executeTmaLoad(op, st, tb).ok());
        tb.endInstr();
    }
    std::vector<uint32_t> out(n);
    const auto sm = st.smem[0].bytes();
    for (uint32_t i = 0; i < n; ++i)
        out[i] = uint32_t(sm[1024 + 4 * i]) | uint32_t(sm[1025 + 4 * i]) << 8 |
                 uint32_t(sm[1026 + 4 * i]) << 16 | uint32_t(sm[1027 + 4 * i]) << 24;
    return out;
}

} // namespace

TEST_CASE("TF32 loads round every FP32 pattern as the H100 does", "[tma][tf32]") {
    const std::vector<Pattern> p = measured();
    REQUIRE(p.size() == 4096);
    const TensorDataType type = GENERATE(TensorDataType::TFLOAT32, TensorDataType::TFLOAT32_FTZ);
    const std::vector<uint32_t> out = loadThroughTma(p, type);
    size_t wrong = 0;
    for (size_t i = 0; i < p.size(); ++i)
        if (out[i] != p[i].out && wrong++ < 8)
            UNSCOPED_INFO(std::hex << "pattern " << p[i].in << ": H100 " << p[i].out << ", engine "
                                   << out[i]);
    CHECK(wrong == 0);
}

TEST_CASE("FLOAT32 loads leave every FP32 pattern unchanged", "[tma][tf32]") {
    const std::vector<Pattern> p = measured();
    const std::vector<uint32_t> out =
        loadThroughTma(p, GENERATE(TensorDataType::FLOAT32, TensorDataType::FLOAT32_FTZ));
    for (size_t i = 0; i < p.size(); ++i) REQUIRE(out[i] == p[i].in);
}
