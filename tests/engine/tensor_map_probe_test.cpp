// Encode facts measured by probing cuTensorMapEncode* on an H100 with the golden driver
// (580.159.04, CUDA 13.0): docs/tensormap-layout.md §3. Each row is one hardware answer.
#include "layoutscope/tma/tensor_map.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope;

namespace {

constexpr uint64_t kAddr = 0x7f0000000000;

TensorMapTiledParams tiled(TensorDataType t, uint32_t rank, std::array<uint64_t, 5> gd,
                           std::array<uint64_t, 4> gs, std::array<uint32_t, 5> box) {
    TensorMapTiledParams p;
    p.dataType = t;
    p.tensorRank = rank;
    p.globalAddress = kAddr;
    p.globalDim = gd;
    p.globalStrides = gs;
    p.boxDim = box;
    return p;
}

TensorMapIm2colParams im2col(TensorDataType t, uint32_t rank, std::array<uint64_t, 5> gd,
                             std::array<uint64_t, 4> gs, std::array<int32_t, 3> lo, std::array<int32_t, 3> up,
                             uint32_t cpp, uint32_t ppc) {
    TensorMapIm2colParams p;
    p.base = tiled(t, rank, gd, gs, {});
    p.pixelBoxLowerCorner = lo;
    p.pixelBoxUpperCorner = up;
    p.channelsPerPixel = cpp;
    p.pixelsPerColumn = ppc;
    return p;
}

} // namespace

TEST_CASE("probe: tensorMap pointer alignment is not checked at all", "[tma][encode][probe]") {
    auto p = tiled(TensorDataType::FLOAT16, 2, {64, 32}, {128}, {64, 8});
    p.swizzle = TensorSwizzle::S128B;
    for (uint64_t mis : {1u, 2u, 4u, 12u, 60u}) {
        p.tensorMapAddress = 0x1000 + mis;
        CHECK(encodeTiled(p).ok());
    }
}

TEST_CASE("probe: entries beyond tensorRank are ignored", "[tma][encode][probe]") {
    auto p = tiled(TensorDataType::FLOAT16, 2, {64, 32, 0, 0, 0}, {128, 8, 8, 8}, {64, 8, 300, 300, 300});
    p.elementStrides = {1, 1, 9, 9, 9};
    CHECK(encodeTiled(p).ok());
    auto q = tiled(TensorDataType::FLOAT16, 1, {64, 0}, {8}, {64, 0});
    q.swizzle = TensorSwizzle::S128B;
    CHECK(encodeTiled(q).ok());
}

TEST_CASE("probe: box-bytes limit of 233472 bytes", "[tma][encode][probe]") {
    SECTION("UINT8 rows of 256 B: 912 rows accepted, 913 rejected") {
        auto p = tiled(TensorDataType::UINT8, 3, {4096, 4096, 4096}, {32768, uint64_t(32768) * 4096},
                       {256, 114, 8});
        CHECK(encodeTiled(p).ok()); // 256 * 114 * 8 = 233472
        p.boxDim = {256, 83, 11};   // 913 rows: 233728
        CHECK_FALSE(encodeTiled(p).ok());
    }
    SECTION("interleaved maps divide boxDim[0] by elementStrides[0] too") {
        auto p = tiled(TensorDataType::FLOAT64, 3, {4096, 4096, 4096}, {32768, 134217728}, {256, 114, 1});
        p.interleave = TensorInterleave::I16B;
        CHECK(encodeTiled(p).ok()); // 2048 * 114
        p.boxDim = {256, 230, 1};
        p.elementStrides = {2, 1, 1}; // 1024 * 230 = 235520
        CHECK_FALSE(encodeTiled(p).ok());
    }
    SECTION("im2col and im2col-wide: 256 FLOAT16 channels x 456 pixels accepted, 457 rejected") {
        auto p = im2col(TensorDataType::FLOAT16, 4, {256, 16, 16, 2}, {512, 8192, 131072}, {-1, -1}, {-1, -1},
                        256, 456);
        CHECK(encodeIm2col(p).ok());
        TensorMapIm2colWideParams w;
        w.base = p.base;
        w.pixelBoxLowerCornerWidth = -1;
        w.pixelBoxUpperCornerWidth = -1;
        w.channelsPerPixel = 256;
        w.pixelsPerColumn = 456;
        CHECK(encodeIm2colWide(w).ok());
        p.pixelsPerColumn = 457;
        w.pixelsPerColumn = 457;
        CHECK_FALSE(encodeIm2col(p).ok());
        CHECK_FALSE(encodeIm2colWide(w).ok());
    }
}

TEST_CASE("probe: im2col extents are computed in 32-bit arithmetic", "[tma][encode][probe]") {
    // int32(globalDim + upper) - lower >= 1 per spatial dimension.
    auto p = im2col(TensorDataType::FLOAT16, 3, {64, 16, 2}, {128, 2048}, {-1}, {-1}, 64, 32);
    p.base.swizzle = TensorSwizzle::S128B;
    struct Row {
        uint64_t w;
        int32_t lo, up;
        bool ok;
    };
    const Row rows[] = {
        {uint64_t(1) << 32, -5, -2, true}, // 0 + 3
        {uint64_t(1) << 32, 0, -1, false}, // 0 - 1
        {4294967295u, -1, 1, true},        // -1 + 1 + 1 = 1
        {4294967295u, 0, 1, false},        // 0
        {uint64_t(1) << 31, -5, -1, true}, // 2^31 - 1 + 5
        {uint64_t(1) << 31, -1, 0, false}, // wraps to -2^31
        {4, 0, -3, true},                  // 1 (golden encode_0407)
        {4, 0, -4, false},                 // 0 (golden encode_0406)
    };
    for (const Row& r : rows) {
        p.base.globalDim[1] = r.w;
        p.pixelBoxLowerCorner[0] = r.lo;
        p.pixelBoxUpperCorner[0] = r.up;
        INFO("W=" << r.w << " lower=" << r.lo << " upper=" << r.up);
        CHECK(encodeIm2col(p).ok() == r.ok);
    }
}

TEST_CASE("probe: interleaved im2col pairs corner d with dimension d", "[tma][encode][probe]") {
    // encode_0469's NHWC map (C = 8, W = 10) with INTERLEAVE_16B: the W corners bound globalDim[0] = 8,
    // not W = 10 (non-interleaved pairing would accept every row below).
    auto p = im2col(TensorDataType::UINT16, 4, {8, 10, 6, 2}, {16, 160, 960}, {0, -1}, {-8, -1}, 8, 32);
    p.base.interleave = TensorInterleave::I16B;
    p.base.swizzle = TensorSwizzle::NONE;
    struct Row {
        int32_t lo, up;
        bool ok;
    };
    const Row rows[] = {{-5, -12, true}, {-5, -13, false}, {0, -7, true},
                        {0, -8, false},  {5, -2, true},    {5, -3, false}};
    for (const Row& r : rows) {
        p.pixelBoxLowerCorner[0] = r.lo;
        p.pixelBoxUpperCorner[0] = r.up;
        INFO("lower=" << r.lo << " upper=" << r.up);
        CHECK(encodeIm2col(p).ok() == r.ok);
    }
}

TEST_CASE("probe: the im2col-wide driver is looser and stricter than cuda.h", "[tma][encode][probe]") {
    TensorMapIm2colWideParams w;
    w.base = tiled(TensorDataType::FLOAT16, 4, {256, 16, 16, 2}, {512, 8192, 131072}, {});
    w.pixelBoxLowerCornerWidth = -1;
    w.pixelBoxUpperCornerWidth = -1;
    w.channelsPerPixel = 16; // 32 B
    w.pixelsPerColumn = 32;
    SECTION("SWIZZLE_NONE and SWIZZLE_32B accepted within the span") {
        w.base.swizzle = TensorSwizzle::S32B;
        CHECK(encodeIm2colWide(w).ok());
        w.channelsPerPixel = 32;
        CHECK_FALSE(encodeIm2colWide(w).ok());
        w.base.swizzle = TensorSwizzle::NONE;
        w.channelsPerPixel = 128; // 256 B
        CHECK(encodeIm2colWide(w).ok());
    }
    SECTION("width corners follow the im2col per-rank ranges, not cuda.h's [-32768, 32767]") {
        w.pixelBoxLowerCornerWidth = -32768;
        w.pixelBoxUpperCornerWidth = 32767;
        CHECK_FALSE(encodeIm2colWide(w).ok()); // rank 4
        w.pixelBoxUpperCornerWidth = 0;
        w.pixelBoxLowerCornerWidth = -129;
        CHECK_FALSE(encodeIm2colWide(w).ok());
        w.base.tensorRank = 5;
        w.base.globalDim = {256, 16, 16, 4, 2};
        w.base.globalStrides = {512, 8192, 131072, 524288};
        w.pixelBoxLowerCornerWidth = -17;
        CHECK_FALSE(encodeIm2colWide(w).ok());
        w.pixelBoxLowerCornerWidth = -5;
        w.pixelBoxUpperCornerWidth = 3;
        CHECK(encodeIm2colWide(w).ok());
    }
    SECTION("H and D must be positive as int32 although the box spans only one pixel there") {
        w.base.globalDim[2] = uint64_t(1) << 32;
        CHECK_FALSE(encodeIm2colWide(w).ok());
        w.base.globalDim[2] = 16;
        CHECK(encodeIm2colWide(w).ok());
    }
}

TEST_CASE("probe: 128-byte image of high stride bits and wide corners", "[tma][encode][probe]") {
    SECTION("bits [36,40) of globalStrides[i] land in word 28 nibble i") {
        auto p = tiled(TensorDataType::FLOAT16, 5, {64, 32, 4, 4, 4},
                       {128, uint64_t(3) << 36, uint64_t(5) << 36, uint64_t(15) << 36}, {64, 8, 2, 2, 2});
        auto m = encodeTiled(p);
        REQUIRE(m.ok());
        const auto b = tensorMapBytes(*m);
        CHECK(b[28] == 0x30); // hardware: 30 f5 00 00
        CHECK(b[29] == 0xf5);
    }
    SECTION("rank-4 wide corners -5 / 3 as 8-bit fields: fb 00 03 00") {
        TensorMapIm2colWideParams w;
        w.base = tiled(TensorDataType::FLOAT16, 4, {64, 16, 16, 2}, {128, 2048, 32768}, {});
        w.base.swizzle = TensorSwizzle::S128B;
        w.pixelBoxLowerCornerWidth = -5;
        w.pixelBoxUpperCornerWidth = 3;
        w.channelsPerPixel = 64;
        w.pixelsPerColumn = 32;
        auto m = encodeIm2colWide(w);
        REQUIRE(m.ok());
        const auto b = tensorMapBytes(*m);
        CHECK(b[56] == 0xfb);
        CHECK(b[57] == 0x00);
        CHECK(b[58] == 0x03);
        CHECK(b[59] == 0x00);
    }
}
