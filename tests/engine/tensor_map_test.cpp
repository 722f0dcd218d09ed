// cuTensorMapEncode* rules, one TEST_CASE per rule family. Expectations are hand-derived from the
// cuda.h doc comments and the facts measured on an H100 (golden/tma README, tma.md §2), never from
// the encoder's own output.
#include "layoutscope/tma/tensor_map.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope;

namespace {

constexpr uint64_t kAddr = 0x7f9d6fe00000; // 256-aligned, as the golden pool

/// encode_0000: FLOAT16, rank 2, 64x32, rows of 128 B, box 64x8, SWIZZLE_128B (accepted on H100).
TensorMapTiledParams base() {
    TensorMapTiledParams p;
    p.dataType = TensorDataType::FLOAT16;
    p.tensorRank = 2;
    p.globalAddress = kAddr;
    p.globalDim = {64, 32};
    p.globalStrides = {128};
    p.boxDim = {64, 8};
    p.swizzle = TensorSwizzle::S128B;
    return p;
}

/// encode_0364: FLOAT16 NHWC 64x16x16x2, corners -1, 64 channels, 32 pixels, SWIZZLE_128B.
TensorMapIm2colParams im2colBase() {
    TensorMapIm2colParams p;
    p.base = base();
    p.base.tensorRank = 4;
    p.base.globalDim = {64, 16, 16, 2};
    p.base.globalStrides = {128, 2048, 32768};
    p.pixelBoxLowerCorner = {-1, -1};
    p.pixelBoxUpperCorner = {-1, -1};
    p.channelsPerPixel = 64;
    p.pixelsPerColumn = 32;
    return p;
}

bool ok(const TensorMapTiledParams& p, TmaArch a = TmaArch::Sm90) {
    return encodeTiled(p, a).ok();
}
bool ok(const TensorMapIm2colParams& p, TmaArch a = TmaArch::Sm90) {
    return encodeIm2col(p, a).ok();
}

} // namespace

TEST_CASE("encode: the valid base maps are accepted", "[tma][encode]") {
    CHECK(ok(base()));
    CHECK(ok(im2colBase()));
    auto m = encodeTiled(base());
    REQUIRE(m.ok());
    CHECK(m->elemBits == 16);
    CHECK(m->mode == TensorMap::Mode::Tiled);
}

TEST_CASE("encode: tensorRank is 1..5, interleave needs rank >= 3", "[tma][encode]") {
    auto p = base();
    SECTION("rank 0 rejected") {
        p.tensorRank = 0;
        CHECK_FALSE(ok(p));
    }
    SECTION("rank 1 accepted") {
        p.tensorRank = 1;
        CHECK(ok(p));
    }
    SECTION("rank 5 accepted") {
        p.tensorRank = 5;
        p.globalDim = {64, 32, 4, 4, 4};
        p.globalStrides = {128, 4096, 16384, 65536};
        p.boxDim = {64, 8, 2, 2, 2};
        CHECK(ok(p));
    }
    SECTION("rank 6 rejected") {
        p.tensorRank = 6;
        CHECK_FALSE(ok(p));
    }
    SECTION("INTERLEAVE_16B at rank 2 rejected, rank 3 accepted") {
        p.interleave = TensorInterleave::I16B;
        p.swizzle = TensorSwizzle::NONE;
        p.globalDim = {8, 32, 4};
        p.globalStrides = {16, 512};
        p.boxDim = {8, 8, 2};
        CHECK_FALSE(ok(p));
        p.tensorRank = 3;
        CHECK(ok(p));
    }
}

TEST_CASE("encode: enum values outside cuda.h are rejected", "[tma][encode]") {
    auto p = base();
    SECTION("dataType 16") {
        p.dataType = TensorDataType(16);
        CHECK_FALSE(ok(p));
    }
    SECTION("dataType -1") {
        p.dataType = TensorDataType(0xffffffffu);
        CHECK_FALSE(ok(p));
    }
    SECTION("interleave 3") {
        p.interleave = TensorInterleave(3);
        CHECK_FALSE(ok(p));
    }
    SECTION("swizzle 7") {
        p.swizzle = TensorSwizzle(7);
        CHECK_FALSE(ok(p));
    }
    SECTION("l2Promotion 3 accepted, 4 rejected") {
        p.l2Promotion = TensorL2Promotion::L2_256B;
        CHECK(ok(p));
        p.l2Promotion = TensorL2Promotion(4);
        CHECK_FALSE(ok(p));
    }
    SECTION("oobFill 2") {
        p.oobFill = TensorOobFill(2);
        CHECK_FALSE(ok(p));
    }
}

TEST_CASE("encode: globalAddress alignment", "[tma][encode]") {
    auto p = base();
    SECTION("null address accepted (driver is lenient)") {
        p.globalAddress = 0;
        CHECK(ok(p));
    }
    SECTION("16-aligned accepted, 8 rejected") {
        p.globalAddress = kAddr + 16;
        CHECK(ok(p));
        p.globalAddress = kAddr + 8;
        CHECK_FALSE(ok(p));
        p.globalAddress = kAddr + 24;
        CHECK_FALSE(ok(p));
    }
    SECTION("INTERLEAVE_32B needs 32-byte alignment") {
        p.tensorRank = 3;
        p.interleave = TensorInterleave::I32B;
        p.swizzle = TensorSwizzle::S32B;
        p.globalDim = {16, 32, 8};
        p.globalStrides = {32, 1024};
        p.boxDim = {16, 8, 2};
        p.globalAddress = kAddr + 32;
        CHECK(ok(p));
        p.globalAddress = kAddr + 48;
        CHECK_FALSE(ok(p));
    }
    SECTION("tensorMap pointer only 8-byte aligned is accepted") {
        p.tensorMapAddress = 0x1008;
        CHECK(ok(p));
    }
}

TEST_CASE("encode: globalDim is in [1, 2^32]", "[tma][encode]") {
    auto p = base();
    SECTION("0 rejected") {
        p.globalDim[1] = 0;
        CHECK_FALSE(ok(p));
    }
    SECTION("2^32 accepted") {
        p.globalDim[0] = uint64_t(1) << 32;
        CHECK(ok(p));
    }
    SECTION("2^32 + 1 rejected") {
        p.globalDim[1] = (uint64_t(1) << 32) + 1;
        CHECK_FALSE(ok(p));
    }
}

TEST_CASE("encode: globalStrides multiple of 16 and below 2^40, not monotonic", "[tma][encode]") {
    auto p = base();
    SECTION("0 accepted") {
        p.globalStrides[0] = 0;
        CHECK(ok(p));
    }
    SECTION("smaller than a row accepted") {
        p.globalStrides[0] = 64;
        CHECK(ok(p));
    }
    SECTION("120 and 136 rejected, 144 accepted") {
        p.globalStrides[0] = 120;
        CHECK_FALSE(ok(p));
        p.globalStrides[0] = 136;
        CHECK_FALSE(ok(p));
        p.globalStrides[0] = 144;
        CHECK(ok(p));
    }
    SECTION("2^40 - 16 accepted, 2^40 rejected") {
        p.globalStrides[0] = (uint64_t(1) << 40) - 16;
        CHECK(ok(p));
        p.globalStrides[0] = uint64_t(1) << 40;
        CHECK_FALSE(ok(p));
    }
    SECTION("non-monotonic [4096, 128] accepted") {
        p.tensorRank = 3;
        p.globalDim = {64, 32, 8};
        p.globalStrides = {4096, 128};
        p.boxDim = {64, 8, 2};
        CHECK(ok(p));
    }
    SECTION("INTERLEAVE_32B strides multiple of 32: 48 rejected, 64 accepted") {
        p.tensorRank = 3;
        p.interleave = TensorInterleave::I32B;
        p.swizzle = TensorSwizzle::S32B;
        p.globalDim = {16, 32, 8};
        p.boxDim = {16, 8, 2};
        p.globalStrides = {48, 1536};
        CHECK_FALSE(ok(p));
        p.globalStrides = {64, 2048};
        CHECK(ok(p));
    }
}

TEST_CASE("encode: boxDim is in [1, 256] and the inner box is whole 16-byte units", "[tma][encode]") {
    auto p = base();
    p.swizzle = TensorSwizzle::NONE;
    p.globalDim = {512, 32};
    p.globalStrides = {1024};
    SECTION("boxDim[1] 256 accepted, 257 and 0 rejected") {
        p.boxDim[1] = 256;
        CHECK(ok(p));
        p.boxDim[1] = 257;
        CHECK_FALSE(ok(p));
        p.boxDim[1] = 0;
        CHECK_FALSE(ok(p));
    }
    SECTION("FLOAT16 boxDim[0] 8 (16 B) accepted, 7, 9, 12 rejected, 256 accepted, 257 rejected") {
        for (uint32_t b : {8u, 16u, 64u, 256u}) {
            p.boxDim[0] = b;
            CHECK(ok(p));
        }
        for (uint32_t b : {1u, 7u, 9u, 12u, 63u, 257u}) {
            p.boxDim[0] = b;
            CHECK_FALSE(ok(p));
        }
    }
    SECTION("FLOAT64 rows of 2048 B accepted with SWIZZLE_NONE") {
        p.dataType = TensorDataType::FLOAT64;
        p.globalStrides = {4096};
        p.boxDim = {256, 4};
        CHECK(ok(p));
    }
    SECTION("a 256x256x256 FLOAT16 box (32 MiB) is rejected") {
        p.tensorRank = 3;
        p.globalDim = {256, 256, 256};
        p.globalStrides = {512, 131072};
        p.boxDim = {256, 256, 256};
        CHECK_FALSE(ok(p));
    }
    SECTION("box bytes: 228 KiB accepted, one more 2 KiB row rejected (H100 probe)") {
        p.dataType = TensorDataType::FLOAT64; // rows of 256 x 8 B = 2048 B
        p.globalDim = {4096, 4096};
        p.globalStrides = {32768};
        p.boxDim = {256, 114}; // 233472 B
        CHECK(ok(p));
        p.boxDim = {256, 115}; // 235520 B
        CHECK_FALSE(ok(p));
    }
    SECTION("box bytes divide by elementStrides, element 0 included: 256^3 FLOAT16 with strides 8,8,8 fits") {
        p.tensorRank = 3;
        p.globalDim = {256, 256, 256};
        p.globalStrides = {512, 131072};
        p.boxDim = {256, 256, 256};
        p.elementStrides = {8, 8, 8}; // (256/8)*2 * 32 * 32 = 64 KiB
        CHECK(ok(p));
        p.elementStrides = {1, 8, 8}; // 512 * 32 * 32 = 512 KiB
        CHECK_FALSE(ok(p));
    }
    SECTION(
        "interleaved: inner box whole 16-byte units too (probe: 16, 48 B accepted; 8, 24, 40 B rejected)") {
        p.dataType = TensorDataType::UINT16;
        p.tensorRank = 3;
        p.interleave = TensorInterleave::I16B;
        p.globalDim = {256, 32, 8};
        p.globalStrides = {512, 16384};
        for (uint32_t b : {8u, 24u, 128u, 256u}) {
            p.boxDim = {b, 8, 2};
            CHECK(ok(p));
        }
        for (uint32_t b : {4u, 12u, 20u}) {
            p.boxDim = {b, 8, 2};
            CHECK_FALSE(ok(p));
        }
    }
}

TEST_CASE("encode: elementStrides in [1, 8], element 0 included", "[tma][encode]") {
    auto p = base();
    SECTION("elementStrides[0] 0 and 9 rejected, 3 accepted") {
        p.elementStrides[0] = 0;
        CHECK_FALSE(ok(p));
        p.elementStrides[0] = 9;
        CHECK_FALSE(ok(p));
        p.elementStrides[0] = 3;
        CHECK(ok(p));
    }
    SECTION("elementStrides[1] 8 accepted, 9 rejected") {
        p.elementStrides[1] = 8;
        CHECK(ok(p));
        p.elementStrides[1] = 9;
        CHECK_FALSE(ok(p));
    }
}

TEST_CASE("encode: swizzle limits the inner box to its span", "[tma][encode]") {
    auto p = base();
    p.dataType = TensorDataType::UINT8;
    p.globalDim = {512, 16};
    p.globalStrides = {512};
    auto inner = [&](TensorSwizzle s, uint32_t bytes) {
        p.swizzle = s;
        p.boxDim[0] = bytes;
        return ok(p);
    };
    SECTION("32B: 32 accepted, 48 rejected") {
        CHECK(inner(TensorSwizzle::S32B, 32));
        CHECK_FALSE(inner(TensorSwizzle::S32B, 48));
    }
    SECTION("64B: 64 accepted, 80 rejected") {
        CHECK(inner(TensorSwizzle::S64B, 64));
        CHECK_FALSE(inner(TensorSwizzle::S64B, 80));
    }
    SECTION("128B: 128 accepted, 144 rejected") {
        CHECK(inner(TensorSwizzle::S128B, 128));
        CHECK_FALSE(inner(TensorSwizzle::S128B, 144));
    }
    SECTION("FLOAT16 boxDim[0]=128 (256 B) with 128B rejected") {
        p.dataType = TensorDataType::FLOAT16;
        CHECK_FALSE(inner(TensorSwizzle::S128B, 128));
    }
    SECTION("the span limit does not apply to interleaved maps") {
        p.tensorRank = 3;
        p.interleave = TensorInterleave::I16B;
        p.globalDim = {64, 32, 8};
        p.globalStrides = {64, 2048};
        p.boxDim[2] = 2;
        CHECK(inner(TensorSwizzle::S128B, 128));
    }
    SECTION("INTERLEAVE_32B with SWIZZLE_NONE is accepted (cuda.h says 32B only)") {
        p.tensorRank = 3;
        p.interleave = TensorInterleave::I32B;
        p.globalDim = {64, 32, 8};
        p.globalStrides = {64, 2048};
        p.boxDim[2] = 2;
        CHECK(inner(TensorSwizzle::NONE, 32));
    }
}

TEST_CASE("encode: sm_100 swizzles and sub-byte types", "[tma][encode]") {
    auto p = base();
    SECTION("the 128B atom swizzles are rejected on sm_90, accepted on sm_100") {
        for (auto s : {TensorSwizzle::S128B_ATOM_32B, TensorSwizzle::S128B_ATOM_32B_FLIP_8B,
                       TensorSwizzle::S128B_ATOM_64B}) {
            p.swizzle = s;
            CHECK_FALSE(ok(p, TmaArch::Sm90));
            CHECK(ok(p, TmaArch::Sm100));
        }
    }
    // cuda.h: padded types need 32-B address and strides, globalDim[0] % 128, boxDim[0] == 128.
    p.dataType = TensorDataType::T16U4_ALIGN16B;
    p.swizzle = TensorSwizzle::NONE;
    p.globalDim = {256, 16};
    p.globalStrides = {256};
    p.boxDim = {128, 8};
    SECTION("16U4_ALIGN16B: rejected on sm_90, accepted on sm_100") {
        CHECK_FALSE(ok(p, TmaArch::Sm90));
        CHECK(ok(p, TmaArch::Sm100));
    }
    SECTION("16U4_ALIGN16B on sm_100: each documented rule") {
        auto q = p;
        q.globalAddress = kAddr + 16;
        CHECK_FALSE(ok(q, TmaArch::Sm100));
        q = p;
        q.globalDim[0] = 192;
        CHECK_FALSE(ok(q, TmaArch::Sm100));
        q = p;
        q.globalStrides[0] = 272;
        CHECK_FALSE(ok(q, TmaArch::Sm100));
        q = p;
        q.boxDim[0] = 64;
        CHECK_FALSE(ok(q, TmaArch::Sm100));
        q = p;
        q.swizzle = TensorSwizzle::S64B;
        CHECK_FALSE(ok(q, TmaArch::Sm100));
        q.swizzle = TensorSwizzle::S128B_ATOM_32B;
        CHECK(ok(q, TmaArch::Sm100));
        q.swizzle = TensorSwizzle::S128B_ATOM_64B; // store-only for 16U6, not listed for 16U4
        CHECK_FALSE(ok(q, TmaArch::Sm100));
    }
    SECTION("16U6_ALIGN16B: 128B_ATOM_64B allowed, 32B not; interleave must be NONE") {
        p.dataType = TensorDataType::T16U6_ALIGN16B;
        p.swizzle = TensorSwizzle::S128B_ATOM_64B;
        CHECK(ok(p, TmaArch::Sm100));
        p.swizzle = TensorSwizzle::S32B;
        CHECK_FALSE(ok(p, TmaArch::Sm100));
        p.swizzle = TensorSwizzle::NONE;
        p.tensorRank = 3;
        p.globalDim = {256, 16, 4};
        p.globalStrides = {256, 4096};
        p.boxDim = {128, 8, 2};
        p.interleave = TensorInterleave::I16B;
        CHECK_FALSE(ok(p, TmaArch::Sm100));
    }
    SECTION("16U4_ALIGN8B: globalDim[0] must be even") {
        p.dataType = TensorDataType::T16U4_ALIGN8B;
        p.globalStrides = {128};
        CHECK(ok(p, TmaArch::Sm100));
        p.globalDim[0] = 255;
        CHECK_FALSE(ok(p, TmaArch::Sm100));
    }
}

TEST_CASE("encode: NaN OOB fill only for floating-point types", "[tma][encode]") {
    auto p = base();
    p.swizzle = TensorSwizzle::NONE;
    p.globalDim = {256, 16};
    p.oobFill = TensorOobFill::NAN_REQUEST_ZERO_FMA;
    SECTION("FLOAT16 accepted") {
        p.globalStrides = {512};
        CHECK(ok(p));
    }
    SECTION("UINT8 rejected") {
        p.dataType = TensorDataType::UINT8;
        p.globalStrides = {256};
        p.boxDim = {128, 8};
        CHECK_FALSE(ok(p));
    }
    SECTION("INT32 rejected, TFLOAT32 accepted") {
        p.dataType = TensorDataType::INT32;
        p.globalStrides = {1024};
        p.boxDim = {32, 8};
        CHECK_FALSE(ok(p));
        p.dataType = TensorDataType::TFLOAT32;
        CHECK(ok(p));
    }
    SECTION("sub-byte types rejected even on sm_100") {
        p.dataType = TensorDataType::T16U4_ALIGN16B;
        p.globalStrides = {256};
        p.boxDim = {128, 8};
        CHECK_FALSE(ok(p, TmaArch::Sm100));
    }
}

TEST_CASE("encode im2col: rank, corners, channels, pixels", "[tma][encode][im2col]") {
    auto p = im2colBase();
    SECTION("rank 2 and 6 rejected, 3 and 5 accepted") {
        p.base.tensorRank = 2;
        CHECK_FALSE(ok(p));
        p.base.tensorRank = 3;
        p.base.globalDim = {64, 16, 16};
        p.pixelBoxLowerCorner = {-1};
        p.pixelBoxUpperCorner = {-1};
        CHECK(ok(p));
    }
    SECTION("rank 4 corners in [-128, 127]") {
        p.pixelBoxLowerCorner[0] = -128;
        CHECK(ok(p));
        p.pixelBoxLowerCorner[0] = -129;
        CHECK_FALSE(ok(p));
        p.pixelBoxLowerCorner[0] = -1;
        p.pixelBoxUpperCorner[0] = 127;
        CHECK(ok(p));
        p.pixelBoxUpperCorner[0] = 128;
        CHECK_FALSE(ok(p));
    }
    SECTION("the box limit: 256 FLOAT16 channels x 456 pixels (228 KiB) accepted, 457 rejected (probe)") {
        p.base.swizzle = TensorSwizzle::NONE;
        p.base.globalDim[0] = 256;
        p.channelsPerPixel = 256;
        p.pixelsPerColumn = 456;
        CHECK(ok(p));
        p.pixelsPerColumn = 457;
        CHECK_FALSE(ok(p));
    }
    SECTION("an empty extent in one dimension is rejected even if the other is positive (probe)") {
        p.base.globalDim = {64, 4, 4, 2};
        p.base.globalStrides = {128, 512, 2048};
        p.pixelBoxLowerCorner = {0, -2};
        p.pixelBoxUpperCorner = {-4, 2}; // W: 0, H: 8
        CHECK_FALSE(ok(p));
    }
    SECTION("bounding box must be non-empty: W + upper - lower >= 1") {
        p.base.globalDim = {64, 4, 4, 2};
        p.base.globalStrides = {128, 512, 2048};
        p.pixelBoxLowerCorner = {0, 0};
        p.pixelBoxUpperCorner = {-3, -3}; // 4 - 3 - 0 = 1
        CHECK(ok(p));
        p.pixelBoxUpperCorner = {-4, -4}; // 0
        CHECK_FALSE(ok(p));
        p.pixelBoxLowerCorner = {2, 2};
        p.pixelBoxUpperCorner = {-2, -2}; // 0
        CHECK_FALSE(ok(p));
    }
    SECTION("channelsPerPixel: 16-byte multiple, <= 256, <= swizzle span") {
        p.base.globalDim[0] = 512;
        p.base.swizzle = TensorSwizzle::NONE;
        p.channelsPerPixel = 4; // 8 B
        CHECK_FALSE(ok(p));
        p.channelsPerPixel = 256;
        CHECK(ok(p));
        p.channelsPerPixel = 257;
        CHECK_FALSE(ok(p));
        p.base.swizzle = TensorSwizzle::S128B;
        p.channelsPerPixel = 64;
        CHECK(ok(p));
        p.channelsPerPixel = 128; // 256 B > 128
        CHECK_FALSE(ok(p));
    }
    SECTION("pixelsPerColumn in [1, 1024]") {
        p.pixelsPerColumn = 1024;
        CHECK(ok(p));
        p.pixelsPerColumn = 1025;
        CHECK_FALSE(ok(p));
        p.pixelsPerColumn = 0;
        CHECK_FALSE(ok(p));
    }
}

TEST_CASE("encode im2col-wide: mode and swizzle", "[tma][encode][im2col]") {
    TensorMapIm2colWideParams p;
    p.base = im2colBase().base;
    p.base.swizzle = TensorSwizzle::NONE;
    p.pixelBoxLowerCornerWidth = -1;
    p.pixelBoxUpperCornerWidth = -1;
    p.channelsPerPixel = 64;
    p.pixelsPerColumn = 32;
    SECTION("W and W128 with NONE or 128B accepted on the H100 driver") {
        for (auto m : {TensorIm2colWideMode::W, TensorIm2colWideMode::W128})
            for (auto s : {TensorSwizzle::NONE, TensorSwizzle::S128B}) {
                p.mode = m;
                p.base.swizzle = s;
                CHECK(encodeIm2colWide(p).ok());
            }
    }
    SECTION("with 128-byte pixels: 32B, 64B, 128B_ATOM_32B and mode 2 rejected") {
        for (auto s : {TensorSwizzle::S32B, TensorSwizzle::S64B, TensorSwizzle::S128B_ATOM_32B}) {
            p.base.swizzle = s;
            CHECK_FALSE(encodeIm2colWide(p).ok());
        }
        p.base.swizzle = TensorSwizzle::S128B;
        p.mode = TensorIm2colWideMode(2);
        CHECK_FALSE(encodeIm2colWide(p).ok());
    }
    SECTION("32B swizzle accepted when the pixel fits in 32 bytes (probe)") {
        p.base.swizzle = TensorSwizzle::S32B;
        p.channelsPerPixel = 16;
        CHECK(encodeIm2colWide(p).ok());
    }
    SECTION("pixelsPerColumn is range-checked in W128 too (probe)") {
        p.mode = TensorIm2colWideMode::W128;
        p.pixelsPerColumn = 1024;
        CHECK(encodeIm2colWide(p).ok());
        p.pixelsPerColumn = 1025;
        CHECK_FALSE(encodeIm2colWide(p).ok());
        p.pixelsPerColumn = 0;
        CHECK_FALSE(encodeIm2colWide(p).ok());
    }
    SECTION("rank-4 width corners limited to [-128, 127], non-empty along W (probe)") {
        p.pixelBoxLowerCornerWidth = -128;
        CHECK(encodeIm2colWide(p).ok());
        p.pixelBoxLowerCornerWidth = -129;
        CHECK_FALSE(encodeIm2colWide(p).ok());
        p.pixelBoxLowerCornerWidth = 8;
        p.pixelBoxUpperCornerWidth = -8; // 16 - 8 - 8 = 0
        CHECK_FALSE(encodeIm2colWide(p).ok());
        p.pixelBoxLowerCornerWidth = 7; // 1
        CHECK(encodeIm2colWide(p).ok());
    }
}

TEST_CASE("replaceAddress: 16-byte alignment only", "[tma][encode]") {
    auto m = encodeTiled(base());
    REQUIRE(m.ok());
    SECTION("offset 16 accepted and stored") {
        auto r = replaceAddress(*m, kAddr + 16);
        REQUIRE(r.ok());
        CHECK(r->p.globalAddress == kAddr + 16);
    }
    SECTION("offset 8 rejected") {
        CHECK_FALSE(replaceAddress(*m, kAddr + 8).ok());
    }
    SECTION("null rejected, although encode accepts it (probe)") {
        CHECK_FALSE(replaceAddress(*m, 0).ok());
    }
    SECTION("INTERLEAVE_32B map re-pointed at a 16-aligned address is accepted") {
        auto p = base();
        p.tensorRank = 3;
        p.interleave = TensorInterleave::I32B;
        p.swizzle = TensorSwizzle::S32B;
        p.globalDim = {16, 32, 8};
        p.globalStrides = {32, 1024};
        p.boxDim = {16, 8, 2};
        auto il = encodeTiled(p);
        REQUIRE(il.ok());
        CHECK(replaceAddress(*il, kAddr + 16).ok());
    }
}

TEST_CASE("encode: a rejection names the parameter, the rule and its provenance", "[tma][encode]") {
    auto p = base();
    p.boxDim[1] = 257;
    auto r = encodeTiled(p);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == DiagCode::InvalidValue);
    CHECK(r.error().message.find("boxDim[1]") != std::string::npos);
    CHECK(r.error().ruleRef.find("cuda.h") != std::string::npos);
    CHECK(r.error().provenance == Provenance::CudaDriver);
}
