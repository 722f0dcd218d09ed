// TMA im2col-family copies against the reference text and the H100 records.
// Hand tables below are derived from tma.md §9 (pseudo-code and "measured facts"), golden/tma README
// rule 6 and hazards, and docs/interleave.md §4. Global memory holds UINT32 value k+1 at element k, so
// every expected word names its source element (0 = fill). Tests tagged [unverified] pin the working
// assumptions of open questions 4 and 5 (they would change if hardware says otherwise). The replays of
// the golden records and of the H100 probes are in tma_im2col_replay_test.cpp.
#include <catch2/catch.hpp>

#include "layoutscope/scenario/scenario.hpp"
#include "layoutscope/tma/tma.hpp"
#include "tma/im2col.hpp"

#include <fstream>
#include <vector>

using namespace layoutscope;

namespace {

constexpr uint64_t kG = 0x20000000;
constexpr uint32_t kDst = 0x1000;   // 1024-aligned destination
constexpr uint32_t kMbar = 0x30000; // outside every box below
constexpr uint8_t kSentinel = 0xA5;

struct Im2colSpec {
    TensorDataType type = TensorDataType::UINT32;
    std::vector<uint64_t> dims; // dense tensor: strides from dims (rows multiple of 16 B)
    std::vector<int32_t> lower, upper;
    uint32_t cpp = 0, ppc = 0;
    std::vector<uint32_t> es; // empty: all 1
    TensorSwizzle swizzle = TensorSwizzle::NONE;
    TensorInterleave il = TensorInterleave::NONE;
};

TensorMapTiledParams baseOf(const Im2colSpec& s) {
    TensorMapTiledParams p;
    p.dataType = s.type;
    p.tensorRank = uint32_t(s.dims.size());
    p.globalAddress = kG;
    p.swizzle = s.swizzle;
    p.interleave = s.il;
    const uint64_t eb = elementBits(s.type) / 8;
    uint64_t stride = s.il == TensorInterleave::NONE ? s.dims[0] * eb : s.dims[0] * 16; // interleave: slices
    for (size_t i = 0; i < s.dims.size(); ++i) {
        p.globalDim[i] = s.dims[i];
        p.elementStrides[i] = s.es.empty() ? 1 : s.es[i];
        if (i + 1 < s.dims.size()) {
            p.globalStrides[i] = stride;
            stride *= s.dims[i + 1];
        }
    }
    return p;
}

TensorMap im2colMap(const Im2colSpec& s) {
    TensorMapIm2colParams p;
    p.base = baseOf(s);
    for (size_t i = 0; i < s.lower.size(); ++i) p.pixelBoxLowerCorner[i] = s.lower[i];
    for (size_t i = 0; i < s.upper.size(); ++i) p.pixelBoxUpperCorner[i] = s.upper[i];
    p.channelsPerPixel = s.cpp;
    p.pixelsPerColumn = s.ppc;
    auto r = encodeIm2col(p, TmaArch::Sm90);
    if (!r.ok()) FAIL("encode rejected the test map: " << r.error().message);
    return r.value();
}

TensorMap wideMap(const Im2colSpec& s, TensorIm2colWideMode mode) {
    TensorMapIm2colWideParams p;
    p.base = baseOf(s);
    p.pixelBoxLowerCornerWidth = s.lower.at(0);
    p.pixelBoxUpperCornerWidth = s.upper.at(0);
    p.channelsPerPixel = s.cpp;
    p.pixelsPerColumn = s.ppc;
    p.mode = mode;
    auto r = encodeIm2colWide(p, TmaArch::Sm100);
    if (!r.ok()) FAIL("encode rejected the test map: " << r.error().message);
    return r.value();
}

std::array<int32_t, 5> at(std::initializer_list<int32_t> c) {
    std::array<int32_t, 5> a{};
    size_t i = 0;
    for (int32_t v : c) a[i++] = v;
    return a;
}

// UINT32 value k+1 at element k (golden index_pattern_v1 for 4-byte types).
void fillWords(MachineState& st, const TensorMap& m, uint64_t bytes) {
    (void)m;
    st.global.addRegion(kG, bytes,
                        [](uint64_t off) { return uint8_t(((off / 4 + 1) >> (8 * (off % 4))) & 0xFF); });
}

uint32_t wordAt(const MachineState& st, uint32_t cta, uint32_t addr) {
    const auto b = st.smem[cta].bytes();
    return uint32_t(b[addr]) | uint32_t(b[addr + 1]) << 8 | uint32_t(b[addr + 2]) << 16 |
           uint32_t(b[addr + 3]) << 24;
}

struct LoadRun {
    MachineState st{1, kSentinel};
    Status status = okStatus();
};

LoadRun load(const TensorMap& m, std::array<int32_t, 5> c, std::array<uint16_t, 3> off = {},
             TmaIm2colMode mode = TmaIm2colMode::Im2col, uint32_t dst = kDst, TmaArch arch = TmaArch::Sm90) {
    LoadRun r;
    fillWords(r.st, m, 1 << 16);
    TmaIm2colLoad op;
    op.load.map = m;
    op.load.coords = c;
    op.load.dstAddr = dst;
    op.load.mbarAddr = kMbar;
    op.load.arch = arch;
    op.mode = mode;
    op.offsets = off;
    Trace t;
    TraceBuilder tb(t);
    tb.beginInstr("im2col");
    r.status = executeTmaIm2colLoad(op, r.st, tb);
    tb.endInstr();
    return r;
}

int64_t txOf(const MachineState& st, uint32_t cta = 0) {
    auto it = st.mbarriers.find({cta, kMbar});
    return it == st.mbarriers.end() ? 0 : it->second.completedBytes;
}

// Source element index + 1 of every pixel's first channel word (rows of `pitch` bytes), 0 for fill.
std::vector<uint32_t> firstWords(const MachineState& st, uint32_t rows, uint32_t pitch) {
    std::vector<uint32_t> v;
    for (uint32_t r = 0; r < rows; ++r) v.push_back(wordAt(st, 0, kDst + r * pitch));
    return v;
}

// NHWC with C = 4, W = 3, H = 2, N = 2 (UINT32): element (c, w, h, n) = c + 4*(w + 3*(h + 2*n)).
constexpr uint32_t px(uint32_t w, uint32_t h, uint32_t n) {
    return 4 * (w + 3 * (h + 2 * n)) + 1;
}

} // namespace

TEST_CASE("im2col walk: W then H, wrap to the lower corner, carry into the next image",
          "[tma][im2col][walk]") {
    // 3x3 filter, padding 1: lower -1, upper -1 -> W walks [-1, 1], H walks [-1, 0]; 6 positions per image.
    const TensorMap m = im2colMap({TensorDataType::UINT32, {4, 3, 2, 2}, {-1, -1}, {-1, -1}, 4, 8});
    SECTION("offsets (1, 1): the filter centre, all in bounds, image 1 after image 0") {
        LoadRun r = load(m, at({0, -1, -1, 0}), {1, 1});
        REQUIRE(r.status);
        // walk (w,h,n): (-1,-1,0) (0,-1,0) (1,-1,0) (-1,0,0) (0,0,0) (1,0,0) (-1,-1,1) (0,-1,1); read +1,+1
        CHECK(firstWords(r.st, 8, 16) == std::vector<uint32_t>{px(0, 0, 0), px(1, 0, 0), px(2, 0, 0),
                                                               px(0, 1, 0), px(1, 1, 0), px(2, 1, 0),
                                                               px(0, 0, 1), px(1, 0, 1)});
        CHECK(wordAt(r.st, 0, kDst + 4 * 16 + 12) == px(1, 1, 0) + 3); // channel 3 of pixel 4
        CHECK(txOf(r.st) == 8 * 4 * 4);                                // ppc * cpp * 4 B
        CHECK(r.st.smem[0].bytes()[kDst + 128] == kSentinel);          // nothing past 8 rows of 16 B
    }
    SECTION("offsets (0, 0): the filter's top-left tap reads the halo, which is zero fill") {
        LoadRun r = load(m, at({0, -1, -1, 0}), {0, 0});
        REQUIRE(r.status);
        CHECK(firstWords(r.st, 8, 16) == std::vector<uint32_t>{0, 0, 0, 0, px(0, 0, 0), px(1, 0, 0), 0, 0});
        CHECK(txOf(r.st) == 128); // fill bytes count
    }
    SECTION("a start in mid-walk continues from there; past the last image everything is fill") {
        LoadRun r = load(m, at({0, 0, 0, 1}), {1, 1});
        REQUIRE(r.status);
        // (0,0,1) (1,0,1) (-1,-1,2) ...: n = 2 does not exist
        CHECK(firstWords(r.st, 4, 16) == std::vector<uint32_t>{px(1, 1, 1), px(2, 1, 1), 0, 0});
    }
}

TEST_CASE("im2col traversal strides: wrap to exactly the lower corner, N steps by its own stride",
          "[tma][im2col][walk]") {
    SECTION("W stride 2, lower -1: w = 0, 2, -1, 1, 3, -1 (tma.md §9 measured sequence)") {
        // rank 3 {C=4, W=5, N=3}, upper -1 -> W walks [-1, 3]; offset 1 reads w+1
        const TensorMap m = im2colMap({TensorDataType::UINT32, {4, 5, 3}, {-1}, {-1}, 4, 6, {1, 2, 1}});
        LoadRun r = load(m, at({0, 0, 0}), {1});
        REQUIRE(r.status);
        auto e = [](uint32_t w, uint32_t n) { return 4 * (w + 5 * n) + 1; };
        CHECK(firstWords(r.st, 6, 16) ==
              std::vector<uint32_t>{e(1, 0), e(3, 0), e(0, 1), e(2, 1), e(4, 1), e(0, 2)});
    }
    SECTION("N stride 2: the carry skips an image") {
        const TensorMap m = im2colMap({TensorDataType::UINT32, {4, 2, 4}, {0}, {0}, 4, 4, {1, 1, 2}});
        LoadRun r = load(m, at({0, 0, 1}));
        REQUIRE(r.status);
        auto e = [](uint32_t w, uint32_t n) { return 4 * (w + 2 * n) + 1; };
        CHECK(firstWords(r.st, 4, 16) == std::vector<uint32_t>{e(0, 1), e(1, 1), e(0, 3), e(1, 3)});
    }
    SECTION("rank 5: W, then H, then D carry") {
        // {C=4, W=2, H=2, D=2, N=1}, zero corners: 8 positions per image
        const TensorMap m = im2colMap({TensorDataType::UINT32, {4, 2, 2, 2, 1}, {0, 0, 0}, {0, 0, 0}, 4, 5});
        LoadRun r = load(m, at({0, 1, 1, 0, 0}), {0, 0, 1});
        REQUIRE(r.status);
        // walk (1,1,0) (0,0,1) (1,0,1) (0,1,1) (1,1,1); D offset 1 -> d+1, so d=1 reads d=2 (OOB)
        auto e = [](uint32_t w, uint32_t h, uint32_t d) { return 4 * (w + 2 * (h + 2 * d)) + 1; };
        CHECK(firstWords(r.st, 5, 16) == std::vector<uint32_t>{e(1, 1, 1), 0, 0, 0, 0});
    }
}

TEST_CASE("im2col pixel rows: channel window, row pitch and swizzle", "[tma][im2col][layout]") {
    SECTION("a 16-byte-aligned channel window past C is filled per element") {
        const TensorMap m = im2colMap({TensorDataType::UINT32, {8, 4, 1}, {0}, {0}, 8, 2});
        LoadRun r = load(m, at({4, 0, 0}));
        REQUIRE(r.status);
        for (uint32_t c = 0; c < 8; ++c) CHECK(wordAt(r.st, 0, kDst + 4 * c) == (c < 4 ? 4 + c + 1 : 0));
        CHECK(wordAt(r.st, 0, kDst + 32) == 8 + 4 + 1); // pixel w = 1, channel 4
    }
    SECTION("negative 16-byte-aligned channel start (golden im2col_load_0018)") {
        const TensorMap m = im2colMap({TensorDataType::UINT32, {8, 4, 1}, {0}, {0}, 8, 1});
        LoadRun r = load(m, at({-4, 0, 0}));
        REQUIRE(r.status);
        CHECK(wordAt(r.st, 0, kDst + 12) == 0);
        CHECK(wordAt(r.st, 0, kDst + 16) == 1);
    }
    SECTION("rows narrower than the swizzle span start at span multiples; the gap is untouched") {
        // FLOAT16 cpp 16 = 32 B rows, SWIZZLE_64B: pitch 64. Row 1 lands at 64..95 (line 0, no XOR).
        Im2colSpec s{TensorDataType::FLOAT16, {16, 4, 1}, {0}, {0}, 16, 4};
        s.swizzle = TensorSwizzle::S64B;
        const TensorMap m = im2colMap(s);
        CHECK(detail::im2colRowPitch(m) == 64);
        LoadRun r = load(m, at({0, 0, 0}));
        REQUIRE(r.status);
        const auto b = r.st.smem[0].bytes();
        CHECK(b[kDst + 32] == kSentinel);
        CHECK(b[kDst + 64] != kSentinel);
        // Row 2 (logical 128..159, pixel w = 2 at global byte 64) is in line 1: 64B swizzle XORs bit 4, so
        // its two 16-byte halves swap (physical 144 <- logical 128, 128 <- 144); the gap 160..191 stays.
        CHECK(b[kDst + 144] == 17); // global word 16 (byte 64) holds 17
        CHECK(b[kDst + 128] == 21); // global word 20 (byte 80) holds 21
        CHECK(b[kDst + 160] == kSentinel);
        CHECK(b[kDst + 191] == kSentinel);
        CHECK(txOf(r.st) == 4 * 32);
    }
}

TEST_CASE("im2col faults and restrictions", "[tma][im2col][fault]") {
    const TensorMap m = im2colMap({TensorDataType::UINT32, {8, 10, 6, 2}, {-1, -1}, {-1, -1}, 8, 32});
    auto code = [](const LoadRun& r) { return r.status ? DiagCode::Syntax : r.status.error().code; };
    SECTION("channel start not 16-byte aligned (im2col_load_0065)") {
        CHECK(code(load(m, at({1, -1, -1, 0}))) == DiagCode::FaultIllegalInstruction);
    }
    SECTION("start pixel outside the bounding box in W or H (im2col_load_0060..0064)") {
        CHECK(code(load(m, at({0, 9, -1, 0}))) == DiagCode::FaultIllegalInstruction);  // W > W-1+upper = 8
        CHECK(code(load(m, at({0, -2, -1, 0}))) == DiagCode::FaultIllegalInstruction); // W < lower
        CHECK(code(load(m, at({0, 0, 5, 0}))) == DiagCode::FaultIllegalInstruction);   // H > 4
        CHECK(load(m, at({0, 8, 4, 0})).status);                                       // the last box pixel
    }
    SECTION("N past the tensor is no fault, only fill (im2col_load_0063)") {
        LoadRun r = load(m, at({0, 0, 0, 5}));
        REQUIRE(r.status);
        CHECK(wordAt(r.st, 0, kDst) == 0);
        CHECK(txOf(r.st) == 32 * 8 * 4);
    }
    SECTION("shared address below 128-byte alignment") {
        CHECK(code(load(m, at({0, 0, 0, 0}), {}, TmaIm2colMode::Im2col, kDst + 64)) ==
              DiagCode::FaultMisalignedAddress);
    }
    SECTION("offsets beyond the PTX range run: .4d keeps 8 bits (H100 probes L5, L6)") {
        const LoadRun r = load(m, at({0, 0, 0, 0}), {257, 1});
        REQUIRE(r.status);
        CHECK(wordAt(r.st, 0, kDst) == 8 * (1 + 10 * 1) + 1); // reads (w, h) = (1, 1) of {C=8, W=10}
    }
    SECTION("offsets beyond the PTX range, .5d: W overflows into H (H100 probes L7, L8)") {
        CHECK(detail::im2colEffectiveOffsets(5, {33, 0, 0}) == std::array<uint16_t, 3>{1, 1, 0});
        CHECK(detail::im2colEffectiveOffsets(5, {32, 1, 0}) ==
              std::array<uint16_t, 3>{0, 2, 0}); // added, not ORed (M1)
        CHECK(detail::im2colEffectiveOffsets(5, {1, 0, 33}) ==
              std::array<uint16_t, 3>{1, 0, 1}); // 15 bits (M3)
        CHECK(detail::im2colEffectiveOffsets(5, {3, 2, 1}) == std::array<uint16_t, 3>{3, 2, 1});
        CHECK(detail::im2colEffectiveOffsets(3, {40000, 0, 0}) == std::array<uint16_t, 3>{40000, 0, 0});
    }
    SECTION(".im2col::w on sm_90 and a tiled-mode map are rejected") {
        CHECK(code(load(m, at({0, 0, 0, 0}), {}, TmaIm2colMode::W)) == DiagCode::InvalidValue);
    }
}

TEST_CASE("im2col multicast: every CTA in the mask gets the image and its own credit",
          "[tma][im2col][multicast]") {
    const TensorMap m = im2colMap({TensorDataType::UINT32, {4, 3, 2, 2}, {-1, -1}, {-1, -1}, 4, 8});
    MachineState st(4, kSentinel);
    fillWords(st, m, 1 << 16);
    TmaIm2colLoad op;
    op.load.map = m;
    op.load.coords = at({0, -1, -1, 0});
    op.load.dstAddr = kDst;
    op.load.mbarAddr = kMbar;
    op.load.multicast = true;
    op.load.ctaMask = 0b1010;
    op.offsets = {1, 1};
    Trace t;
    TraceBuilder tb(t);
    tb.beginInstr("im2col multicast");
    REQUIRE(executeTmaIm2colLoad(op, st, tb));
    for (uint32_t c : {1u, 3u}) {
        CHECK(wordAt(st, c, kDst + 16 * 6) == px(0, 0, 1));
        CHECK(txOf(st, c) == 128);
    }
    CHECK(st.smem[0].bytes()[kDst] == kSentinel);
    CHECK(txOf(st, 0) == 0);
}

TEST_CASE("interleaved im2col: the walk shifts down one dimension, one slice per position",
          "[tma][im2col][interleave]") {
    // docs/interleave.md §4: rank 3, INTERLEAVE_16B, {4 slices, W = 3, N = 2}; corner 0 acts on dimension 0
    // (range [0, 3]), W = coords[1] stays fixed; slice x0 at byte 16*x0, W stride 64 B, N stride 192 B.
    Im2colSpec s{TensorDataType::UINT16, {4, 3, 2}, {0}, {0}, 8, 6};
    s.il = TensorInterleave::I16B;
    const TensorMap m = im2colMap(s);
    const auto plan = detail::im2colInterleavedBoxPlan(m, at({2, 1, 0}), {1, 0, 0});
    // walk x0: 2, 3, (wrap, n+1) 0, 1, 2, 3; read x0+1: 3, 4(OOB), 1, 2, 3, 4(OOB)
    const std::vector<std::pair<bool, uint64_t>> want{{true, 3 * 16 + 64},   {false, 0},
                                                      {true, 16 + 64 + 192}, {true, 32 + 64 + 192},
                                                      {true, 48 + 64 + 192}, {false, 0}};
    REQUIRE(plan.pieces.size() == want.size());
    for (size_t i = 0; i < want.size(); ++i) {
        INFO("slice " << i);
        CHECK(plan.pieces[i].smemOffset == 16 * i);
        CHECK(plan.pieces[i].inBounds == want[i].first);
        if (want[i].first) CHECK(plan.pieces[i].globalAddr - kG == want[i].second);
    }
    CHECK(plan.txBytes == 6 * 16); // pixelsPerColumn * G; channelsPerPixel has no effect
}

TEST_CASE("im2col::w / ::w::128 follow the working assumption of tma.md §9.1",
          "[tma][im2col][wide][unverified]") {
    // unverified (open questions 4, 5): halo pixels continue the W walk; ::w puts them after the main
    // pixels, ::w::128 after every 32 pixels. FLOAT16 is not needed: UINT32 rows of 8 channels (32 B).
    Im2colSpec s{TensorDataType::UINT32, {8, 200, 1, 1}, {0}, {0}, 8, 4};
    s.swizzle = TensorSwizzle::S128B;
    auto wordsAt = [](const detail::BoxPlan& p, uint32_t pitch, size_t rows) {
        std::vector<int32_t> w; // W coordinate of each row's first piece
        for (const auto& pc : p.pieces)
            if (pc.smemOffset % pitch == 0 && w.size() < rows) w.push_back(pc.coord[1]);
        return w;
    };
    SECTION("::w: pixelsPerColumn main pixels, then wHalo halo pixels, wOffset shifts the walk") {
        const TensorMap m = wideMap(s, TensorIm2colWideMode::W);
        const auto plan = detail::im2colWideBoxPlan(m, at({0, 10, 0, 0}), TmaIm2colMode::W, 2, 3);
        CHECK(wordsAt(plan, 128, 6) == std::vector<int32_t>{13, 14, 15, 16, 17, 18});
        CHECK(plan.txBytes == 6 * 32);
    }
    SECTION("::w::128: 128 pixels, wHalo after every 32, pixelsPerColumn ignored") {
        const TensorMap m = wideMap(s, TensorIm2colWideMode::W128);
        const auto plan = detail::im2colWideBoxPlan(m, at({0, 0, 0, 0}), TmaIm2colMode::W128, 1, 0);
        const auto w = wordsAt(plan, 128, 132);
        REQUIRE(w.size() == 132);
        CHECK(w[31] == 31);
        CHECK(w[32] == 32); // halo of group 0
        CHECK(w[33] == 32); // group 1 starts at pixel 32
        CHECK(w[131] == 128);
        CHECK(plan.txBytes == 132 * 32);
    }
    SECTION("the start may lie left of the box, not right of it; ::w needs sm_100 and a swizzle") {
        const TensorMap m = wideMap(s, TensorIm2colWideMode::W);
        CHECK(load(m, at({0, -5, 0, 0}), {}, TmaIm2colMode::W, kDst, TmaArch::Sm100).status);
        CHECK_FALSE(load(m, at({0, 200, 0, 0}), {}, TmaIm2colMode::W, kDst, TmaArch::Sm100).status);
        CHECK_FALSE(load(m, at({0, 0, 0, 0}), {}, TmaIm2colMode::W, kDst, TmaArch::Sm90).status);
        CHECK_FALSE(
            load(m, at({0, 0, 0, 0}), {}, TmaIm2colMode::W128, kDst, TmaArch::Sm100).status); // map is W
    }
}

TEST_CASE(".im2col_no_offs stores write the walk back", "[tma][im2col][store]") {
    // Hand table from the rule (docs/im2col.md §4, measured by probes S1-S13). {C=4, W=3, N=2}, zero corners:
    // W walks [0, 2].
    const TensorMap m = im2colMap({TensorDataType::UINT32, {4, 3, 2}, {0}, {0}, 4, 4});
    MachineState st(1, 0);
    st.global.addRegion(kG, 256, [](uint64_t) { return uint8_t(0xEE); });
    auto smem = st.smem[0].bytes();
    for (uint32_t i = 0; i < 64; ++i) smem[kDst + i] = uint8_t(i);
    TmaIm2colStore op;
    op.store.map = m;
    op.store.coords = at({0, 2, 0});
    op.store.srcAddr = kDst;
    Trace t;
    TraceBuilder tb(t);
    tb.beginInstr("im2col_no_offs");
    REQUIRE(executeTmaIm2colStore(op, st, tb));
    // rows 0..3 -> pixels (w, n) = (2,0) (0,1) (1,1) (2,1) at byte 16*(w + 3n)
    for (auto [row, pix] : std::vector<std::pair<uint32_t, uint32_t>>{{0, 2}, {1, 3}, {2, 4}, {3, 5}})
        CHECK(st.global.readByte(kG + 16 * pix) == 16 * row);
    CHECK(st.global.readByte(kG) == 0xEE); // pixel (0,0) untouched

    SECTION("a bounding box reaching outside the tensor faults (probes S2, S10)") {
        const TensorMap halo = im2colMap({TensorDataType::UINT32, {4, 3, 2}, {-1}, {0}, 4, 4});
        op.store.map = halo;
        op.store.coords = at({0, 0, 0});
        const Status s = executeTmaIm2colStore(op, st, tb);
        REQUIRE_FALSE(s);
        CHECK(s.error().code == DiagCode::FaultIllegalInstruction);
    }
}

TEST_CASE("scenario tma_im2col_conv.scn: three filter taps, halo fill and the wrap to image 1",
          "[tma][im2col][scenario]") {
    std::ifstream f(std::string(LAYOUTSCOPE_ASSETS_DIR) + "/scenarios/tma_im2col_conv.scn", std::ios::binary);
    REQUIRE(f);
    const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    Result<Scenario> s = parseScenario(text);
    REQUIRE(s.ok());
    REQUIRE(std::holds_alternative<TmaIm2colLoad>(s->instrs.at(2).op));
    Result<Run> run = runScenario(*s);
    REQUIRE(run.ok());
    const auto smem = run->final.smem[0].bytes();
    // fill=index: fp16 element c + 8*pixel holds its index; row r of a buffer starts at 16*r.
    auto rowStart = [&](const char* buf, uint32_t row) {
        const uint32_t a = s->findBuffer(buf)->addr + 16 * row + 2; // channel 1 (channel 0 of pixel 0 is 0)
        return int(smem[a] | smem[a + 1] << 8) - 1;                 // = 8 * pixel, or -1 for zero fill
    };
    // filter bases (w, h) per row: (-1..2, -1), (-1..2, 0), (-1..2, 1) of image 0, then (-1..2, -1) of image
    // 1
    const int tl[16] = {-1, -1, -1, -1, -1, 0, 8, 16, -1, 32, 40, 48, -1, -1, -1, -1};
    const int br[16] = {40, 48, 56, -1, 72, 80, 88, -1, -1, -1, -1, -1, 136, 144, 152, -1};
    for (uint32_t r = 0; r < 16; ++r) {
        INFO("row " << r);
        CHECK(rowStart("sTL", r) == tl[r]);
        CHECK(rowStart("sC", r) == int(8 * r)); // pixels 0..11 of image 0, then 12..15 = row 0 of image 1
        CHECK(rowStart("sBR", r) == br[r]);
    }
    CHECK(run->final.mbarriers.at({0u, s->findBarrier("bar")->addr}).txCount == 0);
}

TEST_CASE("scenario im2col tensormap and instruction errors", "[tma][im2col][scenario]") {
    const std::string head =
        "tensormap X im2col FLOAT16 dims=[8,4,3,2] lower=[-1,-1] upper=[-1,-1] channels=8 pixels=16\n"
        "smem s 256 align=1024\nmbarrier bar\n";
    SECTION("corner count must match the rank") {
        CHECK_FALSE(
            parseScenario(
                "tensormap X im2col FLOAT16 dims=[8,4,3,2] lower=[-1] upper=[-1] channels=8 pixels=16\n")
                .ok());
    }
    SECTION("a rejected encode (pixelsPerColumn > 1024) is reported") {
        CHECK_FALSE(parseScenario("tensormap X im2col FLOAT16 dims=[8,4,3,2] lower=[-1,-1] upper=[-1,-1] "
                                  "channels=8 pixels=2048\n")
                        .ok());
    }
    SECTION("the column must fit the buffer") {
        CHECK_FALSE(
            parseScenario(
                "tensormap X im2col FLOAT16 dims=[8,4,3,2] lower=[-1,-1] upper=[-1,-1] channels=8 pixels=32\n"
                "smem s 256 align=1024\nmbarrier bar\n"
                "cp.async.bulk.tensor.4d.shared::cta.global.im2col.mbarrier::complete_tx::bytes [s], [X, {0, "
                "0, 0, 0}], [bar], {0, 0};\n")
                .ok());
    }
    SECTION("a start outside the box parses and faults at run time") {
        auto sc = parseScenario(head + "cp.async.bulk.tensor.4d.shared::cta.global.im2col.mbarrier::complete_"
                                       "tx::bytes [s], [X, {0, 3, 0, 0}], [bar], {0, 0};\n");
        REQUIRE(sc.ok());
        auto run = runScenario(*sc);
        REQUIRE_FALSE(run.ok());
        CHECK(run.diagnostics().front().code == DiagCode::FaultIllegalInstruction);
    }
    SECTION("multicast: the ctaMask operand follows the im2colInfo vector") {
        auto sc = parseScenario(
            "cluster 2\n"
            "tensormap X im2col FLOAT16 dims=[8,4,3,2] lower=[-1,-1] upper=[-1,-1] channels=8 pixels=16\n"
            "smem s 256 align=1024 cta=0\nsmem t 256 align=1024 cta=1\nmbarrier bar\n"
            "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes.multicast::"
            "cluster "
            "[s], [X, {0, -1, -1, 0}], [bar], {1, 1}, 3;\n");
        REQUIRE(sc.ok());
        const auto* ld = std::get_if<TmaIm2colLoad>(&sc->instrs.at(0).op);
        REQUIRE(ld);
        CHECK(ld->load.ctaMask == 3);
        CHECK(ld->offsets == std::array<uint16_t, 3>{1, 1, 0});
        auto run = runScenario(*sc);
        REQUIRE(run.ok());
        CHECK(run->final.mbarriers.at({1u, sc->findBarrier("bar")->addr}).completedBytes == 256);
    }
    SECTION(".im2col_no_offs stores lower and run") {
        auto sc = parseScenario(
            "tensormap X im2col FLOAT16 dims=[8,4,3,2] lower=[0,0] upper=[0,0] channels=8 pixels=4\n"
            "smem s 256 align=1024\n"
            "cp.async.bulk.tensor.4d.global.shared::cta.im2col_no_offs.bulk_group [X, {0, 0, 0, 0}], [s];\n");
        REQUIRE(sc.ok());
        REQUIRE(std::holds_alternative<TmaIm2colStore>(sc->instrs.at(0).op));
        CHECK(runScenario(*sc).ok());
    }
}
