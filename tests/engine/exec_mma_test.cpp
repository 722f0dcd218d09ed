// Executor matrix instructions on real nvcc output (tests/data/exec/mma_kernels.cu/.ptx, README.md there):
// cp.async, ldmatrix/stmatrix, mma.sync and wgmma, each with integer-valued inputs, compared exactly with
// what the CUDA source means: a copy, the PTX ISA's ldmatrix fragment figure written out by hand here, and
// CPU GEMMs computed here (never the executor's own output).
#include "exec_test_util.hpp"

#include <cmath>
#include <map>
#include <sstream>

using namespace exectest;

namespace {

Result<ExecResult> runMma(const std::string& entry, uint32_t threads, std::vector<ExecArg> args) {
    return runDataKernel("mma_kernels.ptx", entry, threads, std::move(args));
}

// An integer-valued float (|v| < 2048) as f16 bits.
uint16_t halfBits(int v) {
    if (v == 0) return 0;
    const uint16_t sign = v < 0 ? 0x8000 : 0;
    uint32_t a = uint32_t(std::abs(v));
    int e = 0;
    while ((a >> e) > 1) ++e;
    const uint32_t man = (a << (10 - e)) & 0x3ff; // exact: a < 2048
    return uint16_t(sign | uint32_t(e + 15) << 10 | man);
}

std::vector<int> smallInts(size_t n, uint32_t seed) {
    std::vector<int> v(n);
    for (size_t i = 0; i < n; ++i) {
        seed = seed * 1664525u + 1013904223u;
        v[i] = int(seed >> 28) - 8; // -8..7
    }
    return v;
}

std::vector<uint16_t> halves(const std::vector<int>& v) {
    std::vector<uint16_t> h(v.size());
    for (size_t i = 0; i < v.size(); ++i) h[i] = halfBits(v[i]);
    return h;
}

} // namespace

TEST_CASE("exec nvcc: cp.async copies 16/8/4 bytes with src-size zero fill and ignore-src", "[exec][xmma]") {
    std::vector<uint8_t> in(1792);
    for (size_t i = 0; i < in.size(); ++i) in[i] = uint8_t(i * 7 + 3);
    auto r = runMma("cp_async_copy", 64,
                    {tensorArg("0", "u8", in), tensorArg("1", "u8", std::vector<uint8_t>(1792, 0xee))});
    REQUIRE(r);
    const auto out = values<uint8_t>(*r, "1");
    for (int t = 0; t < 64; ++t) {
        for (int i = 0; i < 16; ++i) CHECK(out[16 * t + i] == in[16 * ((t + 1) % 64) + i]);
        for (int i = 0; i < 8; ++i) CHECK(out[1024 + 8 * t + i] == (i < 5 ? in[1024 + 8 * t + i] : 0));
        for (int i = 0; i < 4; ++i) CHECK(out[1536 + 4 * t + i] == (t % 2 ? 0 : in[1536 + 4 * t + i]));
    }
}

TEST_CASE("exec nvcc: ldmatrix x4 (.trans) registers follow the PTX ISA figure; stmatrix writes them back",
          "[exec][xmma]") {
    std::vector<int> tile(256);
    for (int i = 0; i < 256; ++i) tile[i] = i - 128;
    auto r =
        runMma("ldmatrix_roundtrip", 32,
               {tensorArg("0", "f16", halves(tile)), tensorArg("1", "u32", std::vector<uint32_t>(256, 0)),
                tensorArg("2", "f16", std::vector<uint16_t>(512, 0))});
    REQUIRE(r);
    const auto regs = values<uint32_t>(*r, "1");
    const auto out = values<uint16_t>(*r, "2");
    // PTX ISA §9.7.14.5.15, figure "ldmatrix fragment": matrix q of the x4 is rows 8(q%2).., columns 8(q/2)..
    // of the tile (the kernel's row addresses); thread t holds row t/4, columns 2(t%4), 2(t%4)+1 of it;
    // with .trans, column t/4, rows 2(t%4), 2(t%4)+1.
    for (int t = 0; t < 32; ++t)
        for (int q = 0; q < 4; ++q)
            for (int h = 0; h < 2; ++h) {
                const int r0 = 8 * (q % 2), c0 = 8 * (q / 2);
                const uint16_t plain = halfBits(tile[(r0 + t / 4) * 16 + c0 + 2 * (t % 4) + h]);
                const uint16_t trans = halfBits(tile[(r0 + 2 * (t % 4) + h) * 16 + c0 + t / 4]);
                CHECK(uint16_t(regs[t * 8 + q] >> (16 * h)) == plain);
                CHECK(uint16_t(regs[t * 8 + 4 + q] >> (16 * h)) == trans);
            }
    for (int i = 0; i < 256; ++i) {
        CHECK(out[i] == halfBits(tile[i]));       // stmatrix of the plain registers
        CHECK(out[256 + i] == halfBits(tile[i])); // stmatrix.trans of the .trans registers
    }
}

TEST_CASE("exec nvcc: mma.sync m16n8k16 fed by ldmatrix equals the CPU GEMM", "[exec][xmma]") {
    const auto a = smallInts(16 * 32, 1), bt = smallInts(16 * 32, 2);
    auto r = runMma("mma_sync_gemm", 32,
                    {tensorArg("0", "f16", halves(a)), tensorArg("1", "f16", halves(bt)),
                     tensorArg("2", "f32", std::vector<float>(256, -1.0f))});
    REQUIRE(r);
    const auto c = values<float>(*r, "2");
    for (int m = 0; m < 16; ++m)
        for (int n = 0; n < 16; ++n) {
            int want = 0;
            for (int k = 0; k < 32; ++k) want += a[m * 32 + k] * bt[n * 32 + k];
            CHECK(c[m * 16 + n] == float(want));
        }
}

TEST_CASE("exec nvcc: wgmma m64n64k16 over SWIZZLE_128B K-major tiles equals the CPU GEMM", "[exec][xmma]") {
    const auto a = smallInts(64 * 64, 3), bt = smallInts(64 * 64, 4);
    auto r = runMma("wgmma_gemm", 128,
                    {tensorArg("0", "f16", halves(a)), tensorArg("1", "f16", halves(bt)),
                     tensorArg("2", "f32", std::vector<float>(64 * 64, -1.0f))});
    REQUIRE(r);
    const auto c = values<float>(*r, "2");
    int bad = 0;
    for (int m = 0; m < 64; ++m)
        for (int n = 0; n < 64; ++n) {
            int want = 0;
            for (int k = 0; k < 64; ++k) want += a[m * 64 + k] * bt[n * 64 + k];
            if (c[m * 64 + n] != float(want)) ++bad;
        }
    CHECK(bad == 0);
}

TEST_CASE("exec nvcc: the matrix kernels' output bytes equal the H100's (scripts/probes/exec_mma)",
          "[exec][xmma]") {
    // The probe runs the same kernels with the same inputs on an H100 and prints one JSON line per buffer.
    const std::string rec = readData("h200_mma.jsonl");
    if (rec.empty()) {
        WARN(
            "skipped: tests/data/exec/h200_mma.jsonl is not recorded yet (run scripts/probes/exec_mma/run.sh "
            "on an H100 and commit its exec_mma.jsonl there)");
        return;
    }
    std::map<std::string, std::string> want; // "kernel/buffer" -> hex
    std::istringstream in(rec);
    for (std::string line; std::getline(in, line);) {
        auto field = [&](const std::string& k) {
            const size_t a = line.find("\"" + k + "\":\"");
            if (a == std::string::npos) return std::string();
            const size_t b = a + k.size() + 4;
            return line.substr(b, line.find('"', b) - b);
        };
        if (!line.empty()) want[field("kernel") + "/" + field("buffer")] = field("hex");
    }
    auto hex = [](const ExecResult& r, const std::string& name) {
        std::string s;
        char b[3];
        for (const auto& t : r.tensors)
            if (t.name == name)
                for (uint8_t x : t.bytes) std::snprintf(b, sizeof b, "%02x", x), s += b;
        return s;
    };
    std::vector<uint8_t> cpIn(1792);
    for (size_t i = 0; i < cpIn.size(); ++i) cpIn[i] = uint8_t(i * 7 + 3);
    std::vector<int> tile(256);
    for (int i = 0; i < 256; ++i) tile[i] = i - 128;
    auto cp = runMma("cp_async_copy", 64,
                     {tensorArg("0", "u8", cpIn), tensorArg("1", "u8", std::vector<uint8_t>(1792, 0xee))});
    auto ld =
        runMma("ldmatrix_roundtrip", 32,
               {tensorArg("0", "f16", halves(tile)), tensorArg("1", "u32", std::vector<uint32_t>(256, 0)),
                tensorArg("2", "f16", std::vector<uint16_t>(512, 0))});
    auto ms = runMma("mma_sync_gemm", 32,
                     {tensorArg("0", "f16", halves(smallInts(512, 1))),
                      tensorArg("1", "f16", halves(smallInts(512, 2))),
                      tensorArg("2", "f32", std::vector<float>(256, -1.0f))});
    auto wg = runMma("wgmma_gemm", 128,
                     {tensorArg("0", "f16", halves(smallInts(4096, 3))),
                      tensorArg("1", "f16", halves(smallInts(4096, 4))),
                      tensorArg("2", "f32", std::vector<float>(4096, -1.0f))});
    REQUIRE((cp && ld && ms && wg));
    CHECK(want["cp_async_copy/1"] == hex(*cp, "1"));
    CHECK(want["ldmatrix_roundtrip/1"] == hex(*ld, "1"));
    CHECK(want["ldmatrix_roundtrip/2"] == hex(*ld, "2"));
    CHECK(want["mma_sync_gemm/2"] == hex(*ms, "2"));
    CHECK(want["wgmma_gemm/2"] == hex(*wg, "2"));
}
