// CUtensorMap decode: each text form (hex string, xxd digits, cuda-gdb x/16xg and x/32xw with and
// without address prefixes, p/x braces), the raw blob, and bad input of each kind. Truth is the H100's
// encode_0000 (golden/tma/tensormap_encode: FLOAT16 64x32, strides [128], box 64x8, SWIZZLE_128B at
// 0x7f9d6fe00000), with its words written out by hand as gdb prints them (little-endian).
#include "layoutscope/scenario/scenario.hpp"
#include "layoutscope/tma/tensor_map_decode.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope;

namespace {

const std::string kHex = "0000e06f9d7f0000106300000800000000000000000000000000000000000000"  // [0,32)
                         "3f0000001f0000000000000000000000000000000000003f0700000000000000"  // [32,64)
                         "0004000000000000000400000000000000000000000000000000000000000000"  // [64,96)
                         "0000000000000000000000000000000000000000000000000000000000000000"; // [96,128)

const char* kX16xg = "0x7fffffffd9c0 <map>:\t0x00007f9d6fe00000\t0x0000000800006310\n"
                     "0x7fffffffd9d0 <map+16>:\t0x0000000000000000\t0x0000000000000000\n"
                     "0x7fffffffd9e0 <map+32>:\t0x0000001f0000003f\t0x0000000000000000\n"
                     "0x7fffffffd9f0 <map+48>:\t0x3f00000000000000\t0x0000000000000007\n"
                     "0x7fffffffda00 <map+64>:\t0x0000000000000400\t0x0000000000000400\n"
                     "0x7fffffffda10 <map+80>:\t0x0000000000000000\t0x0000000000000000\n"
                     "0x7fffffffda20 <map+96>:\t0x0000000000000000\t0x0000000000000000\n"
                     "0x7fffffffda30 <map+112>:\t0x0000000000000000\t0x0000000000000000\n";

const char* kX32xw = "0x7fffd9c0:\t0x6fe00000\t0x00007f9d\t0x00006310\t0x00000008\n"
                     "0x7fffd9d0:\t0x00000000\t0x00000000\t0x00000000\t0x00000000\n"
                     "0x7fffd9e0:\t0x0000003f\t0x0000001f\t0x00000000\t0x00000000\n"
                     "0x7fffd9f0:\t0x00000000\t0x3f000000\t0x00000007\t0x00000000\n"
                     "0x7fffda00:\t0x00000400\t0x00000000\t0x00000400\t0x00000000\n"
                     "0x7fffda10:\t0x00000000\t0x00000000\t0x00000000\t0x00000000\n"
                     "0x7fffda20:\t0x00000000\t0x00000000\t0x00000000\t0x00000000\n"
                     "0x7fffda30:\t0x00000000\t0x00000000\t0x00000000\t0x00000000\n";

TensorMapImage goldenImage() {
    TensorMapImage b{};
    for (size_t i = 0; i < 128; ++i) b[i] = uint8_t(std::stoul(kHex.substr(2 * i, 2), nullptr, 16));
    return b;
}

/// The x/16xg text without its `ADDR <sym>:` prefixes.
std::string stripAddresses(const std::string& text) {
    std::string out;
    size_t pos = 0;
    while (pos < text.size()) {
        const size_t colon = text.find(':', pos), nl = text.find('\n', pos);
        out += text.substr(colon + 1, nl - colon);
        pos = nl + 1;
    }
    return out;
}

std::string firstError(std::string_view text) {
    auto r = parseTensorMapText(text);
    REQUIRE_FALSE(r.ok());
    return formatDiagnostic(r.error());
}

std::string decodeError(const TensorMapImage& b) {
    auto r = decodeTensorMap(b);
    REQUIRE_FALSE(r.ok());
    return r.error().message;
}

} // namespace

TEST_CASE("tensormap text: every input form gives encode_0000's bytes", "[tma][decode]") {
    const TensorMapImage want = goldenImage();
    auto same = [&](std::string_view text) {
        auto r = parseTensorMapText(text);
        INFO(text);
        REQUIRE(r.ok());
        CHECK(*r == want);
    };
    SECTION("one hex string, as golden tensormap_hex") {
        same(kHex);
    }
    SECTION("with 0x, upper case, trailing newline") {
        std::string up = "0X" + kHex + "\n";
        for (char& c : up) c = char(std::toupper(static_cast<unsigned char>(c)));
        same(up);
    }
    SECTION("xxd -p lines and space-separated bytes") {
        same(kHex.substr(0, 60) + "\n" + kHex.substr(60, 60) + "\n" + kHex.substr(120) + "\n");
        std::string spaced;
        for (size_t i = 0; i < kHex.size(); i += 2) spaced += kHex.substr(i, 2) + " ";
        same(spaced);
    }
    SECTION("cuda-gdb x/16xg with address prefixes and <symbol+off> labels") {
        same(kX16xg);
    }
    SECTION("x/16xg without addresses, as one argument per word") {
        same(stripAddresses(kX16xg));
    }
    SECTION("x/32xw with bare address prefixes") {
        same(kX32xw);
    }
    SECTION("x/32xw without addresses") {
        same(stripAddresses(kX32xw));
    }
    SECTION("cuda-gdb (@generic) addresses and a C++ symbol with :: and <>") {
        std::string t = kX16xg;
        for (size_t p = 0; (p = t.find("0x7fffffff", p)) != std::string::npos; p += 20)
            t.insert(p, "(@generic)");
        for (size_t p = 0; (p = t.find("<map", p)) != std::string::npos; p += 20)
            t.replace(p, 4, "<ns::g<int>::map");
        same(t);
    }
    SECTION("gdb p/x of the CUtensorMap struct: {opaque = {...}} with unpadded words") {
        same("$1 = {opaque = {0x7f9d6fe00000, 0x800006310, 0x0, 0x0, 0x1f0000003f, 0x0, 0x3f00000000000000, "
             "0x7, "
             "0x400, 0x400, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0}}");
    }
    SECTION("x/128xb: bytes") {
        std::string t;
        for (size_t i = 0; i < kHex.size(); i += 2)
            t += "0x" + kHex.substr(i, 2) + (i % 16 == 14 ? "\n" : "\t");
        same(t);
    }
    SECTION("a raw 128-byte blob") {
        std::string raw(want.begin(), want.end());
        auto r = tensorMapFromBinary(raw);
        REQUIRE(r.ok());
        CHECK(*r == want);
    }
}

TEST_CASE("tensormap text: bad input is named with its position", "[tma][decode]") {
    SECTION("truncated hex string") {
        CHECK_THAT(firstError(kHex.substr(0, 254)),
                   Catch::Contains("254 hex digits = 127 bytes") &&
                       Catch::Contains("128 bytes = 256 hex digits (truncated?)"));
    }
    SECTION("an odd number of digits") {
        CHECK_THAT(firstError(kHex + "0"), Catch::Contains("257 hex digits (an odd number)"));
    }
    SECTION("x/16xg with the last line missing: 14 words") {
        std::string t = kX16xg;
        t.erase(t.rfind("0x7fffffffda30"));
        CHECK_THAT(firstError(t),
                   Catch::Contains("14 0x-prefixed words") && Catch::Contains("16 u64 (x/16xg)"));
    }
    SECTION("33 words") {
        CHECK_THAT(firstError(std::string(kX32xw) + " 0x0"), Catch::Contains("33 0x-prefixed words"));
    }
    SECTION("garbage token, at its line and column") {
        std::string t = kX16xg;
        t.replace(t.find("0x0000000800006310"), 18, "0x00000008zz006310");
        CHECK_THAT(firstError(t), Catch::StartsWith("1:42: error: '0x00000008zz006310' is not a hex number"));
        CHECK_THAT(firstError("hello world"), Catch::Contains("'hello' is not a hex number"));
    }
    SECTION("a u64 value among 32 words") {
        std::string t = kX32xw;
        t.replace(t.find("0x00007f9d"), 10, "0x100007f9d");
        CHECK_THAT(firstError(t), Catch::Contains("word 1 '0x100007f9d' is wider than 32 bits"));
    }
    SECTION("0x words mixed with plain digits") {
        CHECK_THAT(firstError("0x00 " + std::string(254, '0')),
                   Catch::Contains("has no 0x prefix while other words"));
    }
    SECTION("an address prefix that is not an address, an unclosed label") {
        CHECK_THAT(firstError("rip: 0x0"), Catch::Contains("'rip:' looks like a gdb address prefix"));
        CHECK_THAT(firstError("0x7ffd <map+16: 0x0"), Catch::Contains("label is not closed"));
    }
    SECTION("empty input") {
        CHECK_THAT(firstError(" \n"), Catch::Contains("no hex digits found"));
    }
    SECTION("a raw blob of the wrong length") {
        auto r = tensorMapFromBinary(std::string(127, '\0'));
        REQUIRE_FALSE(r.ok());
        CHECK_THAT(r.error().message, Catch::Contains("128 bytes, this blob has 127 (truncated?)"));
        CHECK_FALSE(tensorMapFromBinary(std::string(256, '\0')).ok());
    }
}

TEST_CASE("tensormap decode: encode_0000 gives its parameters, directive and JSON", "[tma][decode]") {
    auto d = decodeTensorMap(goldenImage());
    REQUIRE(d.ok());
    const TensorMapTiledParams& p = d->map.p;
    CHECK(d->map.mode == TensorMap::Mode::Tiled);
    CHECK(p.dataType == TensorDataType::FLOAT16);
    CHECK(p.tensorRank == 2);
    CHECK(p.globalAddress == 0x7f9d6fe00000);
    CHECK(p.globalDim[0] == 64);
    CHECK(p.globalDim[1] == 32);
    CHECK(p.globalStrides[0] == 128);
    CHECK(p.boxDim[0] == 64);
    CHECK(p.boxDim[1] == 8);
    CHECK(p.swizzle == TensorSwizzle::S128B);
    CHECK(d->sm90);
    const std::string directive = tensorMapDirective(*d, "A");
    CHECK(directive == "tensormap A tiled FLOAT16 dims=[64,32] strides=[128] box=[64,8] swizzle=128B "
                       "address=0x7f9d6fe00000\n");
    CHECK(tensorMapJson(*d) ==
          "{\"fn\":\"cuTensorMapEncodeTiled\",\"tensorDataType\":\"CU_TENSOR_MAP_DATA_TYPE_FLOAT16\","
          "\"tensorDataTypeValue\":6,\"tensorRank\":2,\"globalDim\":[64,32],\"globalStrides\":[128],"
          "\"boxDim\":[64,8],"
          "\"elementStrides\":[1,1],\"interleave\":\"CU_TENSOR_MAP_INTERLEAVE_NONE\",\"interleaveValue\":0,"
          "\"swizzle\":\"CU_TENSOR_MAP_SWIZZLE_128B\",\"swizzleValue\":3,\"l2Promotion\":\"CU_TENSOR_MAP_L2_"
          "PROMOTION_NONE\","
          "\"l2PromotionValue\":0,\"oobFill\":\"CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE\",\"oobFillValue\":0,"
          "\"global_address\":\"0x7f9d6fe00000\"}");
    SECTION("the directive, run as a scenario, encodes the same 128 bytes") {
        auto sc = parseScenario(directive + "mbarrier bar\nmbarrier.init.shared::cta.b64 [bar], 1;\n");
        REQUIRE(sc.ok());
        REQUIRE(sc->tensorMaps.size() == 1);
        CHECK(tensorMapBytes(sc->tensorMaps[0].map) == goldenImage());
    }
}

TEST_CASE("tensormap decode: bytes no encode writes are named by field and bits", "[tma][decode]") {
    TensorMapImage b = goldenImage();
    SECTION("a reserved byte past 76") {
        b[100] = 1;
        CHECK_THAT(decodeError(b),
                   Catch::Contains("byte 100 = 0x1, but bytes [76,128) are zero in every encode"));
    }
    SECTION("reserved bits of the mode word") {
        b[8] |= 0x2;
        CHECK_THAT(decodeError(b), Catch::Contains("bytes [8,12) bits [1,4) = 0x1, but no encode sets them"));
        b = goldenImage();
        b[10] |= 0x08; // word bit 19
        CHECK_THAT(decodeError(b), Catch::Contains("bytes [8,12) bits [19,32) = 0x1"));
    }
    SECTION("tensorRank 8") {
        b[8] |= 0x70;
        CHECK_THAT(decodeError(b), Catch::Contains("tensorRank 8 is more than 5"));
    }
    SECTION("element type 11 (.tf32), and the TF32 bit on FLOAT16") {
        b[8] =
            uint8_t((b[8] & 0x7f) | 0x80); // bits [7,11) = 11: bit 7 and bits 8, 9 of 0x...6310 -> 0x...6590
        b[9] = uint8_t((b[9] & ~0x07) | 0x05);
        CHECK_THAT(decodeError(b),
                   Catch::Contains("bits [7,11) hold element type 11, which no encode writes"));
        b = goldenImage();
        b[10] |= 0x01; // bit 16
        CHECK_THAT(decodeError(b), Catch::Contains("bit 16 (TF32) is set with element type 6"));
    }
    SECTION("interleave 3") {
        b[9] |= 0x18;
        CHECK_THAT(decodeError(b), Catch::Contains("bits [11,13) hold interleave 3"));
    }
    SECTION("a swizzle mode the alignment word contradicts") {
        b[73] = 0x01; // alignment 256 with mode 3 (128B)
        CHECK_THAT(decodeError(b),
                   Catch::Contains("swizzle mode 3 but bytes [72,76) hold shared-memory alignment 256"));
    }
    SECTION("an unused dimension, stride and box entry of a rank-2 map") {
        b[40] = 7;
        CHECK_THAT(decodeError(b),
                   Catch::Contains("bytes [40,44) hold globalDim[2] - 1 = 7, but the map has rank 2"));
        b = goldenImage();
        b[16] = 8;
        CHECK_THAT(decodeError(b),
                   Catch::Contains("globalStrides[1] = 0x80, but a rank-2 map has 1 strides"));
        b = goldenImage();
        b[57] = 3;
        CHECK_THAT(decodeError(b), Catch::Contains("byte 57 holds boxDim[2] - 1 = 3"));
    }
    SECTION("a derived field that disagrees: the box size") {
        b[64] = 0x01;
        CHECK_THAT(decodeError(b), Catch::Contains("byte 64 (the box size in bytes) = 0x1") &&
                                       Catch::Contains("encode it as 0x0"));
    }
    SECTION("an unaligned globalAddress") {
        b[0] = 0x08;
        CHECK_THAT(decodeError(b),
                   Catch::Contains("globalAddress 0x7f9d6fe00008, which is 8 bytes past a 16-byte"));
    }
    SECTION("parameters the encoder rejects: a 128-byte inner box with SWIZZLE_32B") {
        b[9] = uint8_t((b[9] & ~0x60) | 0x20); // swizzle mode 1
        b[73] = 0x01;                          // alignment 256
        const auto r = decodeTensorMap(b);
        REQUIRE_FALSE(r.ok());
        CHECK_THAT(r.error().message,
                   Catch::StartsWith("the bytes decode to parameters that cuTensorMapEncodeTiled rejects"));
    }
}

namespace {
TensorMapImage imageFromHex(const std::string& hex) {
    TensorMapImage b{};
    for (size_t i = 0; i < 128; ++i) b[i] = uint8_t(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
    return b;
}
const std::string kInstr = "mbarrier bar\nmbarrier.init.shared::cta.b64 [bar], 1;\n";
} // namespace

TEST_CASE("tensormap decode: im2col maps and what their bytes cannot tell", "[tma][decode]") {
    SECTION("encode_0510 (Im2colWide, mode W, rank 4) decodes as im2col with zero H corners and says so") {
        const auto d =
            decodeTensorMap(imageFromHex("0000e06f9d7f0000310300000800000080000000000800000000000000000000"
                                         "3f0000000f0000000f00000001000000000000000000003fff00ff001f000000"
                                         "0010000000000000100000000000000000000000000000000000000000000000"
                                         "0000000000000000000000000000000000000000000000000000000000000000"));
        REQUIRE(d.ok());
        CHECK(d->im2colWideEquivalent);
        CHECK(
            tensorMapDirective(*d) ==
            "# cuTensorMapEncodeIm2colWide with the W corners and mode W or W128 writes the same bytes\n"
            "tensormap T im2col FLOAT16 dims=[64,16,16,2] strides=[128,2048,32768] lower=[-1,0] upper=[-1,0] "
            "channels=64 pixels=32 address=0x7f9d6fe00000\n");
    }
    // encode_0369: rank-5 im2col, three 5-bit corners of -1 per half (0x7fff), pixelsPerColumn 32.
    const std::string rank5 = "0000e06f9d7f0000416300000800000080000000000800000020000000000000"
                              "3f0000000f0000000f00000003000000010000000000003fff7fff7f1f000000"
                              "0010000000000000000400000000000000000000000000000000000000000000"
                              "0000000000000000000000000000000000000000000000000000000000000000";
    SECTION("rank-5 corners decode to -1 each") {
        const auto d = decodeTensorMap(imageFromHex(rank5));
        REQUIRE(d.ok());
        CHECK(d->map.pixelBoxLowerCorner == std::array<int32_t, 3>{-1, -1, -1});
        CHECK(d->map.pixelBoxUpperCorner == std::array<int32_t, 3>{-1, -1, -1});
        CHECK_FALSE(d->im2colWideEquivalent);
    }
    SECTION("the spare bit 15 of rank-5 corners") {
        TensorMapImage b = imageFromHex(rank5);
        b[57] = 0xff;
        CHECK_THAT(decodeError(b), Catch::Contains("bytes [56,60) bit 15 = 0x1, but no encode sets them"));
    }
    SECTION("pixelsPerColumn 1025") {
        TensorMapImage b = imageFromHex(rank5);
        b[60] = 0x00;
        b[61] = 0x04;
        CHECK_THAT(decodeError(b), Catch::Contains("pixelsPerColumn 1025 is more than 1024"));
    }
    SECTION("the im2col bit on a rank-2 map") {
        TensorMapImage b = goldenImage();
        b[8] |= 1;
        CHECK_THAT(decodeError(b),
                   Catch::Contains("bit 0 marks an im2col map, but bits [4,7) give tensorRank 2"));
    }
}

TEST_CASE("tensormap decode: sm_100-only maps come back with their target", "[tma][decode]") {
    TensorMapTiledParams p;
    p.globalAddress = 0x7f0000000000;
    p.tensorRank = 2;
    p.globalDim = {256, 4};
    p.globalStrides = {256};
    SECTION("FLOAT16 with SWIZZLE_128B_ATOM_32B") {
        p.boxDim = {64, 4};
        p.swizzle = TensorSwizzle::S128B_ATOM_32B;
    }
    SECTION("16U6_ALIGN16B (padded sub-byte) with SWIZZLE_128B") {
        p.dataType = TensorDataType::T16U6_ALIGN16B;
        p.boxDim = {128, 4};
        p.swizzle = TensorSwizzle::S128B;
    }
    REQUIRE_FALSE(encodeTiled(p, TmaArch::Sm90).ok());
    const auto m = encodeTiled(p, TmaArch::Sm100);
    REQUIRE(m.ok());
    const TensorMapImage b = tensorMapBytes(*m);
    const auto d = decodeTensorMap(b);
    REQUIRE(d.ok());
    CHECK_FALSE(d->sm90);
    CHECK(d->map.p.dataType == p.dataType);
    CHECK(d->map.p.swizzle == p.swizzle);
    CHECK(d->map.p.boxDim == p.boxDim);
    const std::string directive = tensorMapDirective(*d);
    CHECK_THAT(directive, Catch::Contains("\ntarget sm_100a\ntensormap T tiled "));
    auto sc = parseScenario(directive + kInstr);
    REQUIRE(sc.ok());
    CHECK(tensorMapBytes(sc->tensorMaps.at(0).map) == b);
}
