// The executor's reduce element operation against the GPU: scripts/probes/bulk (bulk_probe.cu) ran
// cp.reduce.async.bulk.tensor.1d.global.shared::cta.OP.tile.bulk_group over 256 random bytes (NaNs,
// infinities and subnormals included) for every (OP, data type) on an H200 (sm_90a);
// tests/data/exec/bulk_h200.jsonl holds its 30 accepted pairs' global bytes before, the shared source and the
// global bytes after. The same kernel run by the executor must leave the same bytes. Plain
// cp.reduce.async.bulk uses the same element operation (reduceValue), so this is its hardware check too.
#include "exec_move_util.hpp"

using namespace movetest;

namespace {

std::string field(const std::string& line, const std::string& key) {
    const std::string k = "\"" + key + "\": \"";
    const size_t a = line.find(k);
    if (a == std::string::npos) return "";
    const size_t b = line.find('"', a + k.size());
    return line.substr(a + k.size(), b - a - k.size());
}

std::vector<uint8_t> unhex(const std::string& h) {
    std::vector<uint8_t> b(h.size() / 2);
    for (size_t i = 0; i < b.size(); ++i) b[i] = uint8_t(std::stoul(h.substr(2 * i, 2), nullptr, 16));
    return b;
}

} // namespace

TEST_CASE("exec move: tensor reduces leave the bytes the H200 left (every accepted op and type)",
          "[exec][exec-move]") {
    std::stringstream lines(readData("bulk_h200.jsonl"));
    std::string line;
    int checkedCases = 0;
    while (std::getline(lines, line)) {
        if (field(line, "case") != "reduce" || line.find("\"error\"") != std::string::npos) continue;
        const std::string op = field(line, "op"), dtype = field(line, "dtype");
        const auto before = unhex(field(line, "before")), src = unhex(field(line, "src")),
                   after = unhex(field(line, "after"));
        REQUIRE(before.size() == 256);
        const uint32_t eb = dtype.find("64") != std::string::npos   ? 8
                            : dtype.find("16") != std::string::npos ? 2
                                                                    : 4;
        DYNAMIC_SECTION(op << "." << dtype) {
            const std::string ptx = storeKernel("sm_90a", "mov.u32 %r20, 0;\n",
                                                "cp.reduce.async.bulk.tensor.1d.global.shared::cta." + op +
                                                    ".tile.bulk_group [%rd4, {%r20}], [%r2];",
                                                64);
            Launch l = moveLaunch("T=tensor:u8[256]:zeros",
                                  "tiled " + dtype + " dims=[" + std::to_string(256 / eb) + "] box=[" +
                                      std::to_string(256 / eb) + "] address=T",
                                  src);
            l.tensors[0].bytes = before;
            auto r = runText(ptx, l);
            if (!r) FAIL(formatDiagnostic(r.error()));
            const auto got = tensorBytes(*r, "T");
            for (size_t e = 0; e < 256; e += eb) {
                INFO(op << "." << dtype << " element " << e / eb << ": before "
                        << field(line, "before").substr(2 * e, 2 * eb) << " src "
                        << field(line, "src").substr(2 * e, 2 * eb));
                CHECK(std::vector<uint8_t>(got.begin() + e, got.begin() + e + eb) ==
                      std::vector<uint8_t>(after.begin() + e, after.begin() + e + eb));
            }
        }
        ++checkedCases;
    }
    CHECK(checkedCases == 30);
}
