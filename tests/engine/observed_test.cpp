// Observed dumps (observed.hpp): the readers against hand-written files and byte strings, and the
// comparison against tiles built from the swizzle definition (tma.md §6: 16-B chunk j of 128-B row r sits
// at chunk position j ^ (r % 8) under SWIZZLE_128B), not from the engine.
#include "layoutscope/analysis/infer.hpp"
#include "layoutscope/analysis/observed.hpp"

#include "npy_bytes.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace layoutscope;

namespace {

const std::string kTile = std::string(LAYOUTSCOPE_TEST_DATA_DIR) + "/observed/";

std::string npy(const std::string& descr, const std::string& shape, const std::string& fortran,
                size_t dataBytes) {
    return test::npyBytes(descr, shape, fortran, dataBytes);
}

} // namespace

TEST_CASE("observed dumps: the formats a kernel engineer has", "[observed]") {
    SECTION("cuda-gdb x/16xw with its prompt and <symbol+off> prefixes: little-endian words") {
        auto b = readObservedFile(kTile + "tile16x4_x16xw.txt");
        REQUIRE(b);
        REQUIRE(b->bytes.size() == 64);
        for (size_t i = 0; i < 64; ++i) CHECK(b->bytes[i] == i);
        CHECK(b->format == "hex (4-byte little-endian words)");
    }
    SECTION("x/8xg words, x/xb bytes and xxd -p digits give the same bytes") {
        auto g = parseObservedBytes("0x1000: 0x0706050403020100 0x0f0e0d0c0b0a0908\n");
        auto x = parseObservedBytes("0x1000 <buf>: 0x00 0x01 0x02 0x03 0x04 0x05 0x06 0x07\n");
        auto p = parseObservedBytes("0001020304050607\n08090a0b0c0d0e0f\n");
        REQUIRE(g);
        REQUIRE(x);
        REQUIRE(p);
        CHECK(g->bytes.size() == 16);
        CHECK(x->bytes.size() == 8);
        CHECK(p->bytes.size() == 16);
        for (size_t i = 0; i < 8; ++i) CHECK((g->bytes[i] == i && x->bytes[i] == i && p->bytes[i] == i));
    }
    SECTION(".npy: the data after the header, in C order") {
        auto b = readObservedFile(kTile + "tile16x4.npy");
        REQUIRE(b);
        CHECK(b->bytes.size() == 64);
        CHECK(b->bytes[63] == 63);
        CHECK(b->format == "npy |u1 (4, 16)");
        auto f2 = parseObservedBytes(npy("<f2", "(2, 3)", "False", 12));
        REQUIRE(f2);
        CHECK(f2->bytes.size() == 12);
    }
    SECTION("binary that is not text is raw bytes") {
        auto b = parseObservedBytes(std::string("\x00\x01\xff\x10", 4));
        REQUIRE(b);
        CHECK(b->format == "raw");
        CHECK(b->bytes.size() == 4);
    }
}

TEST_CASE("observed dumps: malformed files name the rule they break", "[observed]") {
    auto fails = [](const std::string& data, const std::string& words) {
        auto b = parseObservedBytes(data);
        REQUIRE_FALSE(b);
        INFO(b.error().message);
        CHECK(b.error().message.find(words) != std::string::npos);
    };
    SECTION(".npy") {
        fails(npy("<f2", "(4, 4)", "True", 32), "Fortran order");
        fails(npy(">f2", "(4, 4)", "False", 32), "big-endian");
        fails(npy("<f2", "(4, 4)", "False", 31), "truncated");
        fails(std::string("\x93NUMPY\x01\x00\xff\x00{", 11), "header says 255 bytes");
        fails(std::string("\x93NUMPY", 6), "shorter than its 10-byte preamble");
        fails(npy("|u1", "(344444444444444444444444444444444444444, 16)", "False", 16),
              "is too large"); // fuzz find
        fails(npy("|u1", "(65536, 65536)", "False", 16), "is too large");
        fails(std::string("\x93NUMPY\x02\x00\x10\x00", 10),
              "ends inside its header length field"); // fuzz find
    }
    SECTION("hex text") {
        fails("0x00 0x01 02 03", "some words have a 0x prefix");
        fails("00010", "odd number");
        fails("0x1000: 0x00000000000000000000", "wider than 64 bits");
        fails("0x1000 <sym: 0x00", "not closed");
    }
    SECTION("files") {
        auto missing = readObservedFile(kTile + "no_such_dump.bin");
        REQUIRE_FALSE(missing);
        CHECK(missing.error().code == DiagCode::Io);
    }
}

TEST_CASE("observed vs predicted: a tile loaded without the swizzle the scenario says", "[observed]") {
    // 64x64 fp16, index fill: element (x, y) holds y*64 + x. The box is 64 x 8: eight 128-B rows.
    const std::string text = "target sm_90a\n"
                             "tensormap A tiled FLOAT16 dims=[64,64] box=[64,8] swizzle=128B\n"
                             "smem sA 1024 align=1024\nmbarrier bar\n"
                             "mbarrier.init.shared::cta.b64 [bar], 1;\n"
                             "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 1024;\n"
                             "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes "
                             "[sA], [A, {0, 0}], [bar];\n";
    auto sc = parseScenario(text);
    REQUIRE(sc);
    auto run = runScenario(*sc);
    REQUIRE(run);
    auto tile = [](bool swizzled) {
        ObservedBytes o;
        o.bytes.resize(1024);
        for (uint32_t y = 0; y < 8; ++y)
            for (uint32_t x = 0; x < 64; ++x) {
                const uint32_t chunk = x / 8, pos = swizzled ? chunk ^ (y % 8) : chunk;
                const uint32_t at = y * 128 + pos * 16 + (x % 8) * 2, v = y * 64 + x;
                o.bytes[at] = static_cast<uint8_t>(v), o.bytes[at + 1] = static_cast<uint8_t>(v >> 8);
            }
        return o;
    };
    Observation obs;
    obs.space = Observation::Space::Smem;
    obs.name = "sA";
    SECTION("the SWIZZLE_128B tile matches") {
        auto rep = compareObserved(*sc, *run, obs, tile(true));
        REQUIRE(rep);
        CHECK(rep->compared == 1024);
        CHECK(rep->differing == 0);
    }
    SECTION("an unswizzled tile differs from row 1 on, and the hint names both elements") {
        auto rep = compareObserved(*sc, *run, obs, tile(false));
        REQUIRE(rep);
        REQUIRE_FALSE(rep->first.empty());
        // Row 0 is the same either way (XOR with 0). Row 1, position 0: unswizzled holds (0, 1) = 64 = 0x40;
        // SWIZZLE_128B puts chunk 0 ^ 1 = 1 there: elements (8..15, 1), the first 72 = 0x48.
        const ByteDiff& d = rep->first.front();
        CHECK(d.offset == 128);
        CHECK(d.observed == 0x40);
        CHECK(d.predicted == 0x48);
        CHECK(d.hint == "holds element (x=0, y=1) of A; the engine predicts (x=8, y=1)");
    }
    SECTION("a short dump is compared as far as it goes, with a note") {
        ObservedBytes half = tile(true);
        half.bytes.resize(512);
        auto rep = compareObserved(*sc, *run, obs, half);
        REQUIRE(rep);
        CHECK(rep->compared == 512);
        CHECK(rep->differing == 0);
        REQUIRE(rep->notes.size() == 1);
        CHECK(rep->notes[0].severity == Severity::Warning);
    }
    SECTION("an unknown buffer is an error") {
        obs.name = "sB";
        CHECK_FALSE(compareObserved(*sc, *run, obs, tile(true)));
    }
}

TEST_CASE("infer: the tile load that reproduces a dumped tile", "[observed][infer]") {
    auto sc = parseScenario(*readScenarioFile(kTile + "f16_sw128_expected.scn"));
    REQUIRE(sc);
    const ScenarioTensorMap& a = sc->tensorMaps.at(0);
    const uint32_t addr = sc->findBuffer("sA")->addr; // 1024: the first 1024-aligned address
    auto infer = [&](const std::string& file) {
        auto b = readObservedFile(kTile + file);
        REQUIRE(b);
        auto r = inferTileLoad(a, b->bytes, addr, TmaArch::Sm90);
        REQUIRE(r);
        return *r;
    };
    SECTION("an unswizzled tile: SWIZZLE_NONE, the tensor's own type first") {
        const InferResult r = infer("f16_64x8_noswizzle_y0.bin");
        REQUIRE_FALSE(r.exact.empty());
        const InferCandidate& c = r.exact.front();
        CHECK(c.map.p.dataType == TensorDataType::FLOAT16);
        CHECK(c.map.p.swizzle == TensorSwizzle::NONE);
        CHECK(c.map.p.boxDim[0] == 64);
        CHECK(c.map.p.boxDim[1] == 8);
        CHECK(c.coords[0] == 0);
        CHECK(c.coords[1] == 0);
        // The same bytes as UINT8 x 128, UINT32 x 32 and UINT64 x 16 boxes: all four are exact.
        CHECK(r.exact.size() == 4);
    }
    SECTION("the right swizzle at the wrong row") {
        const InferCandidate c = infer("f16_64x8_sw128_y8.bin").exact.at(0);
        CHECK(c.map.p.swizzle == TensorSwizzle::S128B);
        CHECK(c.coords[1] == 8);
        CHECK(c.smemAddr % 1024 == 0);
    }
    SECTION("a buffer at another 128-B phase: found by the phase search") {
        const InferResult r = infer("f16_64x8_sw128_at256.bin");
        REQUIRE_FALSE(r.exact.empty());
        CHECK(r.exact.front().map.p.swizzle == TensorSwizzle::S128B);
        CHECK(r.exact.front().smemAddr % 1024 == 256);
    }
    SECTION("three corrupted bytes: none exact, the closest names them") {
        auto b = readObservedFile(kTile + "f16_64x8_noswizzle_y0.bin");
        REQUIRE(b);
        b->bytes[130] ^= 0xFF, b->bytes[500] ^= 0x01, b->bytes[1001] ^= 0x80; // none is the first element
        auto r = inferTileLoad(a, b->bytes, addr, TmaArch::Sm90);
        REQUIRE(r);
        CHECK(r->exact.empty());
        CHECK(r->closest.differing == 3);
        CHECK(r->closest.map.p.swizzle == TensorSwizzle::NONE);
    }
    SECTION("noise: no origin it names can even be loaded, and the error says why") {
        std::vector<uint8_t> noise(1024);
        for (size_t i = 0; i < noise.size(); ++i) noise[i] = static_cast<uint8_t>(i * 37 + 11);
        auto r = inferTileLoad(a, noise, addr, TmaArch::Sm90);
        REQUIRE_FALSE(r);
        CHECK(r.error().message.find("no candidate load of A could run") != std::string::npos);
    }
    SECTION("a tensor without the index fill cannot name its elements") {
        ScenarioTensorMap z = a;
        z.fill = ScenarioFill::Random;
        auto r = inferTileLoad(z, std::vector<uint8_t>(1024), addr, TmaArch::Sm90);
        REQUIRE_FALSE(r);
        CHECK(r.error().message.find("pattern=index") != std::string::npos);
    }
}
