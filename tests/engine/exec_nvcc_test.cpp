// Executor on real nvcc output (tests/data/exec/kernels.ptx, README.md there): every kernel's results
// against a CPU reference computed here from the CUDA source's meaning.
#include "exec_test_util.hpp"

#include <cmath>

using namespace exectest;

namespace {

__extension__ typedef unsigned __int128 U128;

Result<ExecResult> runEntry(const std::string& file, const std::string& entry, Dim3 grid, Dim3 block,
                            Dim3 cta, std::vector<ExecArg> args) {
    const std::string text = readData(file);
    REQUIRE_FALSE(text.empty());
    Launch l;
    l.entry = entry;
    l.grid = grid;
    l.block = block;
    l.cta = cta;
    l.args = std::move(args);
    auto r = runText(text, l);
    if (!r) UNSCOPED_INFO(formatDiagnostic(r.error()));
    return r;
}

std::vector<float> iota(size_t n, float scale, float offset) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = float(i) * scale + offset;
    return v;
}

} // namespace

TEST_CASE("exec nvcc: vadd and saxpy match the CPU for one CTA of a larger grid", "[exec]") {
    const int n = 300; // the last CTA (cta 2 of 3, threads 256..383) is partly past n
    const auto a = iota(384, 0.25f, 1.0f), b = iota(384, -0.5f, 3.0f);
    SECTION("vadd") {
        auto r = runEntry("kernels.ptx", "vadd", {3, 1, 1}, {128, 1, 1}, {2, 0, 0},
                          {tensorArg("0", "f32", a), tensorArg("1", "f32", b),
                           tensorArg("2", "f32", std::vector<float>(384, -1.0f)),
                           scalarArg("3", std::to_string(n))});
        REQUIRE(r);
        const auto c = values<float>(*r, "2");
        for (int i = 0; i < 384; ++i) CHECK(c[i] == (i >= 256 && i < n ? a[i] + b[i] : -1.0f));
    }
    SECTION("saxpy (by parameter name)") {
        auto r = runEntry("kernels.ptx", "saxpy", {3, 1, 1}, {128, 1, 1}, {2, 0, 0},
                          {scalarArg("saxpy_param_0", std::to_string(n)), scalarArg("saxpy_param_1", "1.5"),
                           tensorArg("saxpy_param_2", "f32", a), tensorArg("saxpy_param_3", "f32", b)});
        REQUIRE(r);
        const auto y = values<float>(*r, "saxpy_param_3");
        for (int i = 0; i < 384; ++i) CHECK(y[i] == (i >= 256 && i < n ? std::fma(1.5f, a[i], b[i]) : b[i]));
    }
}

TEST_CASE("exec nvcc: tiled transpose through shared memory with bar.sync", "[exec]") {
    const int rows = 40, cols = 70; // CTA (1,1) covers columns 32..63 and rows 32..39 (partial tile)
    const auto in = iota(size_t(rows) * cols, 1.0f, 0.0f);
    auto r = runEntry("kernels.ptx", "transpose", {3, 2, 1}, {32, 8, 1}, {1, 1, 0},
                      {tensorArg("0", "f32", in),
                       tensorArg("1", "f32", std::vector<float>(size_t(rows) * cols, -1.0f)),
                       scalarArg("2", std::to_string(rows)), scalarArg("3", std::to_string(cols))});
    REQUIRE(r);
    const auto out = values<float>(*r, "1");
    for (int c = 0; c < cols; ++c)
        for (int rr = 0; rr < rows; ++rr) {
            const bool mine = c >= 32 && c < 64 && rr >= 32 && rr < 64;
            CHECK(out[size_t(c) * rows + rr] == (mine ? in[size_t(rr) * cols + c] : -1.0f));
        }
}

TEST_CASE("exec nvcc: warp reduction with shfl.sync.down and atom.global.add", "[exec]") {
    std::vector<int32_t> in(256);
    for (int i = 0; i < 256; ++i) in[i] = (i * 37) % 101 - 50;
    auto r = runEntry("kernels.ptx", "warp_reduce", {2, 1, 1}, {128, 1, 1}, {1, 0, 0},
                      {tensorArg("0", "s32", in), tensorArg("1", "s32", std::vector<int32_t>(8, 0)),
                       tensorArg("2", "s32", std::vector<int32_t>(1, 7))});
    REQUIRE(r);
    const auto sums = values<int32_t>(*r, "1");
    int total = 7;
    for (int wi = 0; wi < 8; ++wi) {
        int s = 0;
        for (int l = 0; l < 32; ++l) s += in[wi * 32 + l];
        CHECK(sums[wi] == (wi >= 4 ? s : 0)); // CTA 1 holds warps 4..7
        if (wi >= 4) total += s;
    }
    CHECK(values<int32_t>(*r, "2")[0] == total);
}

TEST_CASE("exec nvcc: divergent loop and ballot after reconvergence", "[exec]") {
    std::vector<int32_t> in(64);
    for (int i = 0; i < 64; ++i) in[i] = (i * 7 + 3) % 23;
    auto r = runEntry("kernels.ptx", "divergent", {1, 1, 1}, {64, 1, 1}, {0, 0, 0},
                      {tensorArg("0", "s32", in), tensorArg("1", "s32", std::vector<int32_t>(64, 0)),
                       tensorArg("2", "u32", std::vector<uint32_t>(2, 0))});
    REQUIRE(r);
    const auto out = values<int32_t>(*r, "1");
    uint32_t ballot[2] = {0, 0};
    for (int i = 0; i < 64; ++i) {
        int v = in[i], e;
        if (i & 1) {
            e = 0;
            for (int k = 0; k < (v & 15); ++k) e += k * v;
        } else {
            e = v * v - 3;
        }
        CHECK(out[i] == e);
        if (e & 1) ballot[i / 32] |= 1u << (i % 32);
    }
    const auto b = values<uint32_t>(*r, "2");
    CHECK(b[0] == ballot[0]);
    CHECK(b[1] == ballot[1]);
}

TEST_CASE("exec nvcc: a loop calling a .func (with and without -lineinfo)", "[exec]") {
    const auto in = iota(64, 0.125f, -2.0f);
    const int n = 7;
    for (const char* file : {"kernels.ptx", "kernels_lineinfo.ptx"}) {
        auto r = runEntry(file, "loop_call", {1, 1, 1}, {64, 1, 1}, {0, 0, 0},
                          {tensorArg("0", "f32", in), tensorArg("1", "f32", std::vector<float>(64, 0.0f)),
                           scalarArg("2", std::to_string(n))});
        REQUIRE(r);
        const auto out = values<float>(*r, "1");
        for (int i = 0; i < 64; ++i) {
            float s = 0.0f;
            for (int k = 0; k < n; ++k) {
                const float x = in[i] + float(k);
                float p = 1.0f;
                for (int j = 0; j < (k & 3); ++j) p = std::fma(p, x, 0.5f); // nvcc contracts r*x+0.5 to fma
                s += p;
            }
            CHECK(out[i] == s);
        }
    }
}

TEST_CASE("exec nvcc: 64-bit multiply-high, bit ops and f32 -> f16 conversion", "[exec]") {
    std::vector<uint32_t> in(32);
    for (uint32_t i = 0; i < 32; ++i) in[i] = i % 2 ? i * 0x9E3779B9u + 12345u : i * 997u + 777u;
    auto r = runEntry("kernels.ptx", "intmix", {1, 1, 1}, {32, 1, 1}, {0, 0, 0},
                      {tensorArg("0", "u32", in), tensorArg("1", "u64", std::vector<uint64_t>(32, 0)),
                       tensorArg("2", "f32", std::vector<float>(32, 0)),
                       tensorArg("3", "u16", std::vector<uint16_t>(32, 0))});
    REQUIRE(r);
    const auto o64 = values<uint64_t>(*r, "1");
    const auto of = values<float>(*r, "2");
    const auto oh = values<uint16_t>(*r, "3");
    for (int i = 0; i < 32; ++i) {
        const uint32_t v = in[i];
        const uint64_t w = uint64_t(v) * 0x9E3779B97F4A7C15ull;
        const uint64_t hi = uint64_t((U128(w) * 0xD6E8FEB86659FD93ull) >> 64);
        uint32_t rev = 0;
        for (int b = 0; b < 32; ++b) rev |= ((v >> b) & 1u) << (31 - b);
        const uint64_t e =
            hi ^ rev ^ (uint64_t(__builtin_popcount(v)) << 40) ^ (uint64_t(__builtin_clz(v | 1)) << 48);
        CHECK(o64[i] == e);
        const float f =
            std::fma(float(int(v)), 0.001f, -3.5f); // nvcc contracts x * 0.001f - 3.5f to fma.rn.f32
        CHECK(of[i] == f);
        // f32 -> f16 round to nearest even, by hand: even i give |f| in [0.5, 35] (normal), odd i overflow.
        uint32_t fb;
        std::memcpy(&fb, &f, 4);
        const uint32_t sign = (fb >> 16) & 0x8000u;
        const int exp = int((fb >> 23) & 0xff) - 127 + 15;
        uint32_t man = fb & 0x7fffffu;
        uint32_t h = (uint32_t(exp) << 10) | (man >> 13);
        const uint32_t rest = man & 0x1fffu;
        if (rest > 0x1000u || (rest == 0x1000u && (h & 1))) ++h;
        if (exp >= 31 || h >= 0x7c00u) h = 0x7c00u; // |f| >= 65520 rounds to infinity
        CHECK(oh[i] == (sign | h));
    }
}

TEST_CASE("exec: bad launches get clear errors", "[exec]") {
    const std::string text = readData("kernels.ptx");
    auto m = readPtxModule(text);
    REQUIRE(m);
    Launch l;
    l.entry = "vadd";
    l.block = {32, 1, 1};
    const auto a = tensorArg("0", "f32", std::vector<float>(32, 0));
    SECTION("unknown entry") {
        l.entry = "nope";
        auto r = runKernel(*m, l);
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("unknown entry `nope`") && Catch::Contains("0: vadd"));
    }
    SECTION("missing arguments") {
        l.args = {a};
        auto r = runKernel(*m, l);
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message,
                   Catch::Contains("takes 4 parameters") && Catch::Contains("parameter 1"));
    }
    SECTION("a tensor for a 32-bit parameter") {
        l.args = {a, tensorArg("1", "f32", std::vector<float>(32, 0)),
                  tensorArg("2", "f32", std::vector<float>(32, 0)),
                  tensorArg("3", "f32", std::vector<float>(32, 0))};
        auto r = runKernel(*m, l);
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("is a tensor but parameter `vadd_param_3` is .u32"));
    }
    SECTION("an unknown parameter name") {
        l.args = {scalarArg("bogus", "1")};
        auto r = runKernel(*m, l);
        REQUIRE_FALSE(r);
        CHECK(r.error().code == DiagCode::UnknownName);
    }
    SECTION("--cta outside the grid") {
        l.grid = {2, 1, 1};
        l.cta = {2, 0, 0};
        auto r = runKernel(*m, l);
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("outside --grid"));
    }
    SECTION("too much shared memory") {
        l.entry = "transpose";
        l.dynamicSmem = 230000; // + 4224 static > 232448
        auto r = runKernel(*m, l);
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("227 KiB"));
    }
    SECTION("a block over 1024 threads") {
        l.block = {1025, 1, 1};
        auto r = runKernel(*m, l);
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("at most 1024"));
    }
}

TEST_CASE("exec: launch text (extents, tensor arguments)", "[exec]") {
    CHECK(parseDim3("4,2")->y == 2);
    CHECK(parseDim3("4,2")->z == 1);
    CHECK_FALSE(parseDim3("0"));
    CHECK(parseDim3("0,0,0", true));
    CHECK_FALSE(parseDim3("1,2,3,4"));
    CHECK_FALSE(parseDim3("x"));
    auto a = parseExecArg("2=tensor:f16[3,2]:index");
    REQUIRE(a);
    CHECK(a->isTensor);
    CHECK(a->tensor.shape == std::vector<uint64_t>{3, 2});
    REQUIRE(a->tensor.bytes.size() == 12);
    CHECK(a->tensor.bytes[10] == 0x00); // element 5 = 5.0 = f16 0x4500, little-endian
    CHECK(a->tensor.bytes[11] == 0x45);
    CHECK_FALSE(parseExecArg("2=tensor:f17[3]:index"));
    CHECK_FALSE(parseExecArg("2=tensor:f16[3]:sideways"));
    CHECK_FALSE(parseExecArg("=5"));
    CHECK_FALSE(parseExecArg("2=tensor:u8[65536,65536,65536]:zeros"));
    CHECK(parseExecArg("n=512")->scalar == "512");
}

TEST_CASE("exec nvcc: with -lineinfo a stopped run names the CUDA source line too", "[exec]") {
    // 64 threads store out[i] into a 32-element tensor: thread 32 is the first past its end, at
    // `out[i] = s;`, line 68 of kernels.cu.
    auto r = runEntry("kernels_lineinfo.ptx", "loop_call", {1, 1, 1}, {64, 1, 1}, {0, 0, 0},
                      {tensorArg("0", "f32", std::vector<float>(64, 1.0f)),
                       tensorArg("1", "f32", std::vector<float>(32, 0.0f)), scalarArg("2", "1")});
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error().message, Catch::Contains("(kernels.cu:68)") && Catch::Contains("thread (32,0,0)") &&
                                      Catch::Contains("past the end of tensor `1`"));
    CHECK(r.error().span.line > 0);
}
