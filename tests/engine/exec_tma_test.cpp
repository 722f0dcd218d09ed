// TMA loads through an mbarrier in the executor, on nvcc's PTX of tests/data/exec/tma_kernels.cu. Each
// kernel copies the raw shared-memory tile to `out`; the expected bytes are derived here from the
// tensor's contents and the swizzle functions of ../shared/ref/tma.md §4.2 (written out independently:
// SWIZZLE_128B moves 16-byte chunk j of 128-byte line r to chunk j ^ (r % 8), as P = A ^ (((A>>7)&7)<<4)).
// The planted-bug kernels must stop with a diagnostic naming their line.
#include "exec_test_util.hpp"

using namespace exectest;

namespace {

constexpr int kRows = 128, kCols = 128; // T: u16[128,128], element (y, x) holds y * 128 + x

Launch tmaLaunch(const std::string& entry, const std::string& mapDesc, int c0, int c1, uint32_t ctas = 1) {
    Launch l;
    l.entry = entry;
    l.block = {128, 1, 1};
    l.grid = {ctas, 1, 1};
    l.cluster = {ctas, 1, 1};
    auto t = parseExecTensor("T=tensor:u16[128,128]:index");
    REQUIRE(t);
    l.tensors.push_back(*t);
    auto map = parseExecArg("0=tensormap:" + mapDesc);
    REQUIRE(map);
    l.args.push_back(*map);
    l.args.push_back(tensorArg<uint8_t>("1", "u8", std::vector<uint8_t>(8192 * ctas, 0xEE)));
    l.args.push_back(scalarArg("2", std::to_string(c0)));
    l.args.push_back(scalarArg("3", std::to_string(c1)));
    return l;
}

// The dense box image: row r (dim 1), column c (dim 0) of a [64 x 64] u16 box at (c0, c1).
std::vector<uint8_t> denseBox(int c0, int c1, int rows = 64) {
    std::vector<uint8_t> b(size_t(rows) * 128);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < 64; ++c) {
            const int y = c1 + r, x = c0 + c;
            const uint16_t v = (y < kRows && x < kCols) ? uint16_t(y * kCols + x) : 0; // OOB reads zero
            b[size_t(r) * 128 + size_t(c) * 2] = uint8_t(v),
                                            b[size_t(r) * 128 + size_t(c) * 2 + 1] = uint8_t(v >> 8);
        }
    return b;
}

std::vector<uint8_t> swizzle128(const std::vector<uint8_t>& dense, uint32_t base = 0) {
    std::vector<uint8_t> s(dense.size());
    for (uint32_t a = 0; a < dense.size(); ++a) {
        const uint32_t A = base + a;
        const uint32_t line = A / 128, chunk = (A / 16) % 8;
        const uint32_t P = (A & ~0x7fu) | (((chunk ^ (line % 8)) * 16) | (A % 16));
        s[P - base] = dense[a];
    }
    return s;
}

} // namespace

TEST_CASE("exec TMA: a 2-D tile through an mbarrier lands as the swizzle says", "[exec][exec_tma]") {
    const std::string ptx = readData("tma_kernels.ptx");
    SECTION("SWIZZLE_128B") {
        auto r = runText(
            ptx, tmaLaunch("tma_load_2d",
                           "tiled UINT16 dims=[128,128] strides=[256] box=[64,64] swizzle=128B address=T", 64,
                           32));
        if (!r) FAIL(formatDiagnostic(r.error()));
        CHECK(values<uint8_t>(*r, "1") == swizzle128(denseBox(64, 32)));
    }
    SECTION("SWIZZLE_NONE") {
        auto r =
            runText(ptx, tmaLaunch("tma_load_2d",
                                   "tiled UINT16 dims=[128,128] strides=[256] box=[64,64] address=T", 8, 5));
        if (!r) FAIL(formatDiagnostic(r.error()));
        CHECK(values<uint8_t>(*r, "1") == denseBox(8, 5));
    }
    SECTION("out of bounds rows are zero-filled") {
        auto r = runText(
            ptx, tmaLaunch("tma_load_2d",
                           "tiled UINT16 dims=[128,128] strides=[256] box=[64,64] swizzle=128B address=T", 64,
                           100));
        if (!r) FAIL(formatDiagnostic(r.error()));
        CHECK(values<uint8_t>(*r, "1") == swizzle128(denseBox(64, 100)));
    }
}

TEST_CASE("exec TMA: a multicast in a 2-CTA cluster fills both CTAs", "[exec][exec_tma]") {
    // Each CTA loads a [64, 32] half (rows c1 + 32 * rank) multicast to both, at tile + rank * 4096.
    auto r = runText(readData("tma_kernels.ptx"),
                     tmaLaunch("tma_multicast_2d",
                               "tiled UINT16 dims=[128,128] strides=[256] box=[64,32] swizzle=128B address=T",
                               0, 16, 2));
    if (!r) FAIL(formatDiagnostic(r.error()));
    const auto out = values<uint8_t>(*r, "1");
    // Rows 0..31 from CTA 0's copy, rows 32..63 from CTA 1's: together the [64, 64] box at (0, 16), each
    // half swizzled at its own address (4096 = 4 * 1024, so the pattern phase is the same).
    const auto expect = swizzle128(denseBox(0, 16));
    CHECK(std::vector<uint8_t>(out.begin(), out.begin() + 8192) == expect);
    CHECK(std::vector<uint8_t>(out.begin() + 8192, out.end()) == expect);
}

TEST_CASE("exec TMA: planted bugs stop with a diagnostic naming the line", "[exec][exec_tma]") {
    const std::string ptx = readData("tma_kernels.ptx");
    const std::string map = "tiled UINT16 dims=[128,128] strides=[256] box=[64,64] swizzle=128B address=T";
    SECTION("a wait on the wrong parity is a hang") {
        auto r = runText(ptx, tmaLaunch("bug_wrong_parity", map, 0, 0));
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("hang"));
        CHECK_THAT(r.error().message, Catch::Contains("waiting for the phase of parity 1"));
        CHECK_THAT(r.error().message, Catch::Contains("(a wrong parity?)"));
        CHECK_THAT(r.error().message, Catch::Contains("tma_kernels.cu:"));
    }
    SECTION("expect_tx with twice the bytes is a hang naming the missing tx bytes") {
        auto r = runText(ptx, tmaLaunch("bug_tx_count", map, 0, 0));
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message,
                   Catch::Contains("8192 tx bytes expected that no copy in flight delivers"));
    }
}

TEST_CASE("exec TMA: a tile store un-swizzles shared memory into the tensor", "[exec][exec_tma]") {
    // in[i] = i % 256 is copied to the tile as is; the SWIZZLE_128B store reads box byte L (row L / 128,
    // column (L % 128) / 2) from shared address swizzle(L), and writes it to T at (c0, c1) + (column, row).
    Launch l =
        tmaLaunch("tma_store_2d",
                  "tiled UINT16 dims=[128,128] strides=[256] box=[64,64] swizzle=128B address=T", 32, 48);
    std::vector<uint8_t> in(8192);
    for (size_t i = 0; i < in.size(); ++i) in[i] = uint8_t(i);
    l.args[1] = tensorArg<uint8_t>("1", "u8", in);
    auto r = runText(readData("tma_kernels.ptx"), l);
    if (!r) FAIL(formatDiagnostic(r.error()));
    const auto t = values<uint8_t>(*r, "T");
    // The inverse of swizzle128: dense box byte L sits at shared byte P(L).
    std::vector<uint8_t> dense(8192);
    for (uint32_t L = 0; L < 8192; ++L) {
        const uint32_t P = (L & ~0x7fu) | ((((L / 16) % 8) ^ ((L / 128) % 8)) * 16) | (L % 16);
        dense[L] = in[P];
    }
    for (int y = 0; y < kRows; ++y)
        for (int x = 0; x < kCols; ++x) {
            const bool inBox = y >= 48 && y < 112 && x >= 32 && x < 96;
            const size_t g = (size_t(y) * kCols + size_t(x)) * 2;
            const uint16_t orig = uint16_t(y * kCols + x);
            const uint8_t lo = inBox ? dense[size_t(y - 48) * 128 + size_t(x - 32) * 2] : uint8_t(orig);
            const uint8_t hi =
                inBox ? dense[size_t(y - 48) * 128 + size_t(x - 32) * 2 + 1] : uint8_t(orig >> 8);
            if (t[g] != lo || t[g + 1] != hi) {
                FAIL_CHECK("T(" << y << "," << x << ") differs");
                return;
            }
        }
}

TEST_CASE("exec bulk copies: global -> shared through an mbarrier, shared -> global", "[exec][exec_tma]") {
    Launch l;
    l.entry = "bulk_copy";
    l.block = {64, 1, 1};
    std::vector<uint8_t> src(4096);
    for (size_t i = 0; i < src.size(); ++i) src[i] = uint8_t(i * 7 + 3);
    l.args.push_back(tensorArg<uint8_t>("0", "u8", src));
    l.args.push_back(tensorArg<uint8_t>("1", "u8", std::vector<uint8_t>(4096, 0)));
    auto r = runText(readData("tma_kernels.ptx"), l);
    if (!r) FAIL(formatDiagnostic(r.error()));
    CHECK(values<uint8_t>(*r, "1") == src);
}

TEST_CASE("exec TMA: the executor's bytes equal the H100's (when recorded)", "[exec][exec_tma]") {
    // scripts/probes/exec_tma/run.sh records these on an H100 into tests/data/exec/h200/.
    struct Case {
        const char* file;
        const char* entry;
        const char* map;
        int c0, c1;
        uint32_t ctas;
        const char* tensor; // which tensor to compare
    };
    const std::string sw128 = "tiled UINT16 dims=[128,128] strides=[256] box=[64,64] swizzle=128B address=T";
    const std::string none = "tiled UINT16 dims=[128,128] strides=[256] box=[64,64] address=T";
    const std::string half = "tiled UINT16 dims=[128,128] strides=[256] box=[64,32] swizzle=128B address=T";
    const Case cases[] = {
        {"tma_load_sw128_64_32.bin", "tma_load_2d", sw128.c_str(), 64, 32, 1, "1"},
        {"tma_load_none_8_5.bin", "tma_load_2d", none.c_str(), 8, 5, 1, "1"},
        {"tma_load_sw128_64_100.bin", "tma_load_2d", sw128.c_str(), 64, 100, 1, "1"},
        {"tma_multicast_0_16.bin", "tma_multicast_2d", half.c_str(), 0, 16, 2, "1"},
        {"tma_store_sw128_32_48.bin", "tma_store_2d", sw128.c_str(), 32, 48, 1, "T"},
    };
    const std::string ptx = readData("tma_kernels.ptx");
    for (const Case& c : cases) {
        const std::string recorded = readData("h200/" + std::string(c.file));
        if (recorded.empty()) {
            WARN("skipped: tests/data/exec/h200/"
                 << c.file << " not recorded yet (run scripts/probes/exec_tma/run.sh on an H100)");
            continue;
        }
        Launch l = tmaLaunch(c.entry, c.map, c.c0, c.c1, c.ctas);
        if (std::string(c.entry) == "tma_store_2d") {
            std::vector<uint8_t> in(8192);
            for (size_t i = 0; i < in.size(); ++i) in[i] = uint8_t(i);
            l.args[1] = tensorArg<uint8_t>("1", "u8", in);
        }
        auto r = runText(ptx, l);
        if (!r) FAIL(formatDiagnostic(r.error()));
        INFO(c.file);
        CHECK(values<uint8_t>(*r, c.tensor) == std::vector<uint8_t>(recorded.begin(), recorded.end()));
    }
}

TEST_CASE("exec order: a read of the tile with no wait is a race naming both lines",
          "[exec][exec_tma][exec_order]") {
    const std::string ptx = readData("tma_kernels.ptx");
    const std::string map = "tiled UINT16 dims=[128,128] strides=[256] box=[64,64] swizzle=128B address=T";
    auto r = runText(ptx, tmaLaunch("bug_no_wait", map, 0, 0));
    REQUIRE_FALSE(r);
    const std::string msg = r.error().message;
    CHECK_THAT(msg, Catch::Contains("race (")); // RAW or WAR, by which warp runs first
    CHECK_THAT(msg, Catch::Contains("cp.async.bulk.tensor.2d"));
    CHECK_THAT(msg, Catch::Contains("ld.shared"));
    SECTION("with the order model off the same run completes") {
        auto m = readPtxModule(ptx);
        REQUIRE(m);
        ExecOptions o;
        o.order = false;
        CHECK(runKernel(*m, tmaLaunch("bug_no_wait", map, 0, 0), o));
    }
}

TEST_CASE("exec TMA: a tensor reduce adds the un-swizzled tile into the box", "[exec][exec_tma]") {
    // T: u32[128,64] holding its index; the [32, 64] box at (16, 8) (128-byte rows, SWIZZLE_128B) gets
    // the tile added: element (r, c) of the box += the u32 at shared byte P(r * 128 + c * 4).
    Launch l;
    l.entry = "tma_reduce_add_2d";
    l.block = {128, 1, 1};
    auto t = parseExecTensor("T=tensor:u32[128,64]:index");
    REQUIRE(t);
    l.tensors.push_back(*t);
    auto map = parseExecArg(
        "0=tensormap:tiled UINT32 dims=[64,128] strides=[256] box=[32,64] swizzle=128B address=T");
    REQUIRE(map);
    l.args.push_back(*map);
    std::vector<uint32_t> in(2048);
    for (size_t i = 0; i < in.size(); ++i) in[i] = uint32_t(i * 3 + 1);
    l.args.push_back(tensorArg<uint32_t>("1", "u32", in));
    l.args.push_back(scalarArg("2", "16"));
    l.args.push_back(scalarArg("3", "8"));
    auto r = runText(readData("tma_kernels.ptx"), l);
    if (!r) FAIL(formatDiagnostic(r.error()));
    const auto got = values<uint32_t>(*r, "T");
    for (uint32_t y = 0; y < 128; ++y)
        for (uint32_t x = 0; x < 64; ++x) {
            uint32_t expect = y * 64 + x;
            if (y >= 8 && y < 72 && x >= 16 && x < 48) {
                const uint32_t L = (y - 8) * 128 + (x - 16) * 4;
                const uint32_t P = (L & ~0x7fu) | ((((L / 16) % 8) ^ ((L / 128) % 8)) * 16) | (L % 16);
                expect += in[P / 4];
            }
            if (got[size_t(y) * 64 + x] != expect) {
                FAIL_CHECK("T(" << y << "," << x << ") is " << got[size_t(y) * 64 + x] << ", expected "
                                << expect);
                return;
            }
        }
}

TEST_CASE("exec order: a TMA store of st.shared data without fence.proxy.async is reported",
          "[exec][exec_order]") {
    // tma_store_2d with its fence.proxy.async removed from the PTX: the generic-proxy writes of the tile
    // are consumed by the async proxy (the TMA store) with no proxy fence in between.
    std::string ptx = readData("tma_kernels.ptx");
    const std::string fence = "fence.proxy.async.shared::cta;";
    for (size_t at; (at = ptx.find(fence)) != std::string::npos;) ptx.erase(at, fence.size());
    Launch l =
        tmaLaunch("tma_store_2d",
                  "tiled UINT16 dims=[128,128] strides=[256] box=[64,64] swizzle=128B address=T", 32, 48);
    auto r = runText(ptx, l);
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error().message, Catch::Contains("order:"));
    CHECK_THAT(r.error().message, Catch::Contains("fence.proxy.async"));
    SECTION("the fixed twin (the committed PTX) runs clean") {
        CHECK(runText(readData("tma_kernels.ptx"), l));
    }
}
