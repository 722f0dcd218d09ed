// TMA tile executor against hand-derived expectations: the PTX ISA 9.2 §5.5.7 swizzle tables (and
// CuTe's Swizzle<B,M,S>), the golden/tma README rules (OOB NaN pattern, store upper edge, faults,
// multicast, tx) and the TF32 rounding table of tma.md §3.2.
#include "reference_executor.hpp"
#include "tma_test_util.hpp"

#include <algorithm>
#include <chrono>

using namespace layoutscope;
using namespace tmatest;

namespace {

struct Run {
    MachineState state;
    Trace trace;
    Status status = okStatus();
};

Run load(const TensorMap& map, std::array<int32_t, 5> coords, uint32_t dst, uint32_t cluster = 1,
         bool multicast = false, uint16_t mask = 0) {
    Run r{MachineState(cluster, 0xA5), {}, okStatus()};
    r.state.global.addRegion(kGlobal, extentOf(map), globalByte);
    TmaTileLoad ld;
    ld.map = map;
    ld.coords = coords;
    ld.dstAddr = dst;
    ld.mbarAddr = 0x30000;
    ld.multicast = multicast;
    ld.ctaMask = mask;
    TraceBuilder tb(r.trace);
    tb.beginInstr("cp.async.bulk.tensor");
    r.status = executeTmaLoad(ld, r.state, tb);
    tb.endInstr();
    return r;
}

int64_t txOf(const Run& r, uint32_t cta) {
    auto it = r.state.mbarriers.find({cta, 0x30000u});
    return it == r.state.mbarriers.end() ? 0 : it->second.completedBytes;
}

// PTX ISA 9.2 §5.5.7 swizzle figures: 16-byte chunk c of 128-byte line r (counted from a
// 1024-aligned address) is stored at chunk kTable[r][c].
constexpr int k128B[8][8] = {{0, 1, 2, 3, 4, 5, 6, 7}, {1, 0, 3, 2, 5, 4, 7, 6}, {2, 3, 0, 1, 6, 7, 4, 5},
                             {3, 2, 1, 0, 7, 6, 5, 4}, {4, 5, 6, 7, 0, 1, 2, 3}, {5, 4, 7, 6, 1, 0, 3, 2},
                             {6, 7, 4, 5, 2, 3, 0, 1}, {7, 6, 5, 4, 3, 2, 1, 0}};
constexpr int k64B[4][8] = {
    {0, 1, 2, 3, 4, 5, 6, 7}, {1, 0, 3, 2, 5, 4, 7, 6}, {2, 3, 0, 1, 6, 7, 4, 5}, {3, 2, 1, 0, 7, 6, 5, 4}};
constexpr int k32B[2][8] = {{0, 1, 2, 3, 4, 5, 6, 7}, {1, 0, 3, 2, 5, 4, 7, 6}};

int tableChunk(TensorSwizzle s, uint32_t line, uint32_t chunk) {
    if (s == TensorSwizzle::S128B) return k128B[line % 8][chunk];
    if (s == TensorSwizzle::S64B) return k64B[line % 4][chunk];
    return k32B[line % 2][chunk];
}

} // namespace

TEST_CASE("swizzleAddress follows the PTX swizzle tables on absolute addresses", "[tma][swizzle]") {
    const auto mode = GENERATE(TensorSwizzle::S32B, TensorSwizzle::S64B, TensorSwizzle::S128B);
    const uint32_t base = GENERATE(0x800u, 0x880u, 0x900u, 0xA00u, 0xB80u);
    for (uint32_t a = base; a < base + 2048; ++a) {
        const uint32_t line = (a >> 7) & 7, chunk = (a >> 4) & 7;
        const uint32_t want = (a & ~0x7Fu) | uint32_t(tableChunk(mode, line, chunk)) << 4 | (a & 15);
        INFO("mode " << cudaName(mode) << " address " << a);
        REQUIRE(swizzleAddress(mode, a) == want);
    }
    CHECK(swizzleAddress(TensorSwizzle::NONE, 0x8F3) == 0x8F3);
}

TEST_CASE("swizzleAddress equals CuTe Swizzle<B,M,S> for every mode", "[tma][swizzle]") {
    struct Row {
        TensorSwizzle mode;
        uint32_t b, m, s;
    };
    const Row row = GENERATE(Row{TensorSwizzle::S32B, 1, 4, 3}, Row{TensorSwizzle::S64B, 2, 4, 3},
                             Row{TensorSwizzle::S128B, 3, 4, 3}, Row{TensorSwizzle::S128B_ATOM_32B, 2, 5, 2},
                             Row{TensorSwizzle::S128B_ATOM_64B, 1, 6, 1});
    for (uint32_t a = 0; a < 4096; ++a)
        REQUIRE(swizzleAddress(row.mode, a) == reference::cuteSwizzle(row.b, row.m, row.s, a));
    SECTION("128B_ATOM_32B_FLIP_8B swaps the 8-byte halves of odd lines (unverified)") {
        for (uint32_t a = 0; a < 4096; ++a)
            REQUIRE(swizzleAddress(TensorSwizzle::S128B_ATOM_32B_FLIP_8B, a) ==
                    (reference::cuteSwizzle(2, 5, 2, a) ^ (((a >> 7) & 1u) << 3)));
        CHECK(ruleInfo(RuleId::TmaSwizzle128BAtom32BFlip8B).provenance == Provenance::Assumption);
        CHECK(ruleInfo(RuleId::TmaSwizzle128BAtom32B).provenance == Provenance::Assumption);
        CHECK(ruleInfo(RuleId::TmaSwizzle128BAtom64B).provenance == Provenance::Assumption);
    }
}

TEST_CASE("a swizzled load places chunks by the table phase of the absolute destination",
          "[tma][swizzle][exec]") {
    // UINT8 128x8 box, SWIZZLE_128B; dst 128 bytes past a 1024 boundary starts at table line 1.
    const TensorMap map = mapOf({TensorDataType::UINT8, {128, 8}, {128, 8}, TensorSwizzle::S128B});
    const uint32_t dst = GENERATE(0x800u, 0x880u, 0xA00u);
    Run r = load(map, at({0, 0}), dst);
    REQUIRE(r.status.ok());
    const auto smem = r.state.smem[0].bytes();
    for (uint32_t row = 0; row < 8; ++row)
        for (uint32_t c = 0; c < 8; ++c)
            for (uint32_t i = 0; i < 16; ++i) {
                const uint32_t line = (dst >> 7) + row;
                const uint32_t phys = dst + row * 128 + uint32_t(k128B[line % 8][c]) * 16 + i;
                REQUIRE(smem[phys] == globalByte(row * 128 + c * 16 + i));
            }
}

TEST_CASE("swizzled rows are padded to the span and the tail is untouched", "[tma][swizzle][tx]") {
    // golden tile_load_0284: 32 rows of 32 B with SWIZZLE_128B occupy 4 KiB and credit 1024 bytes.
    const TensorMap map = mapOf({TensorDataType::UINT32, {8, 32}, {8, 32}, TensorSwizzle::S128B});
    Run r = load(map, at({0, 0}), 0x800);
    REQUIRE(r.status.ok());
    CHECK(txOf(r, 0) == 1024);
    const auto smem = r.state.smem[0].bytes();
    for (uint32_t line = 0; line < 32; ++line)
        for (uint32_t b = 32; b < 128; ++b) // logical tail of each 128-byte row, through the table
            REQUIRE(smem[0x800 + line * 128 + uint32_t(k128B[line % 8][b / 16]) * 16 + b % 16] == 0xA5);
    CHECK(smem[0x800 + 32 * 128] == 0xA5);
}

TEST_CASE("out-of-bounds elements are zero or 0x7FF7 per 16-bit unit, at element granularity", "[tma][oob]") {
    SECTION("FLOAT16 NaN fill past globalDim[0] = 13 inside a granule") {
        const TensorMap map = mapOf({TensorDataType::FLOAT16,
                                     {13, 4},
                                     {16, 2},
                                     TensorSwizzle::NONE,
                                     TensorOobFill::NAN_REQUEST_ZERO_FMA,
                                     {},
                                     {32}});
        Run r = load(map, at({0, 3}), 0x800);
        REQUIRE(r.status.ok());
        const auto s = r.state.smem[0].bytes().subspan(0x800, 64);
        for (uint32_t b = 0; b < 26; ++b) CHECK(s[b] == globalByte(3 * 32 + b));      // x 0..12 of row 3
        for (uint32_t b = 26; b < 64; ++b) CHECK(s[b] == (b % 2 == 0 ? 0xF7 : 0x7F)); // x 13..15, row 4 (OOB)
        CHECK(txOf(r, 0) == 64);
        // the second chunk is split where the bound falls: 10 copied bytes, then 6 fill bytes
        REQUIRE(r.trace.moves.size() >= 3);
        CHECK(r.trace.moves[1].length == 10);
        CHECK(r.trace.moves[2].length == 6);
        CHECK(r.trace.moves[2].transform == Transform::FillNaN);
        CHECK(r.trace.moves[2].coord[0] == 13);
        CHECK(r.trace.moves[1].step == r.trace.moves[2].step);
    }
    SECTION("FLOAT32 NaN fill is 0x7FF77FF7; zero fill without the option") {
        const auto fill = GENERATE(TensorOobFill::NONE, TensorOobFill::NAN_REQUEST_ZERO_FMA);
        const TensorMap map = mapOf({TensorDataType::FLOAT32, {8, 2}, {8, 2}, TensorSwizzle::NONE, fill});
        Run r = load(map, at({-4, 1}), 0x800); // x -4..3, y 1..2: row y=2 fully OOB
        REQUIRE(r.status.ok());
        const auto s = r.state.smem[0].bytes().subspan(0x800, 64);
        const uint8_t nan[4] = {0xF7, 0x7F, 0xF7, 0x7F};
        for (uint32_t b = 0; b < 64; ++b) {
            const bool oob = b < 16 || b >= 32;
            const uint8_t want = !oob                          ? globalByte(32 + b - 16)
                                 : fill == TensorOobFill::NONE ? 0
                                                               : nan[b % 4];
            CHECK(s[b] == want);
        }
    }
    SECTION("a box entirely out of bounds still delivers the whole box and tx") {
        const TensorMap map = mapOf({TensorDataType::UINT32, {64, 4}, {16, 4}});
        Run r = load(map, at({INT32_MAX - 3, 1000}), 0x800);
        REQUIRE(r.status.ok());
        CHECK(txOf(r, 0) == 256);
        const auto s = r.state.smem[0].bytes().subspan(0x800, 257);
        CHECK(std::count(s.begin(), s.end() - 1, uint8_t(0)) == 256);
        CHECK(s[256] == 0xA5);
    }
}

TEST_CASE("TFLOAT32 loads round to nearest even at bit 13 without flushing", "[tma][tf32]") {
    // tma.md §3.2 table, measured on H100.
    const std::pair<uint32_t, uint32_t> table[] = {{0x3F801000, 0x3F800000}, {0x3F803000, 0x3F804000},
                                                   {0x3F801001, 0x3F802000}, {0x3F800FFF, 0x3F800000},
                                                   {0x3F807FFF, 0x3F808000}, {0x3F80F000, 0x3F810000},
                                                   {0x80001000, 0x80000000}, {0x00001234, 0x00002000}};
    const auto type = GENERATE(TensorDataType::TFLOAT32, TensorDataType::TFLOAT32_FTZ);
    const TensorMap map = mapOf({type, {8}, {8}});
    Run r{MachineState(1, 0xA5), {}, okStatus()};
    std::vector<uint8_t> g;
    for (auto [in, out] : table)
        for (int b = 0; b < 4; ++b) g.push_back(uint8_t(in >> (8 * b)));
    r.state.global.addRegion(kGlobal, 32, [&g](uint64_t o) { return g[o]; });
    TmaTileLoad ld;
    ld.map = map;
    ld.dstAddr = 0x800;
    TraceBuilder tb(r.trace);
    tb.beginInstr("tf32");
    REQUIRE(executeTmaLoad(ld, r.state, tb).ok());
    tb.endInstr();
    for (size_t i = 0; i < 8; ++i) {
        uint32_t v = 0;
        for (int b = 0; b < 4; ++b) v |= uint32_t(r.state.smem[0].bytes()[0x800 + i * 4 + b]) << (8 * b);
        CHECK(v == table[i].second);
        CHECK(reference::referenceTf32(table[i].first) == table[i].second);
    }
    CHECK(r.trace.moves.front().transform == Transform::RoundTf32);
}

TEST_CASE("stores write past globalDim[0] up to the 16-byte granule and skip the rest", "[tma][store]") {
    struct Case {
        TensorDataType type;
        uint64_t dim0, rowBytes;
        uint32_t box0, writtenBytes;
    };
    // golden store_0060 (FLOAT32, dim 30: elements 30-31 written) and store_0061 (UINT8, dim 40: 40-47)
    const Case c = GENERATE(Case{TensorDataType::FLOAT32, 30, 128, 32, 128},
                            Case{TensorDataType::UINT8, 40, 64, 64, 48});
    const TensorMap map =
        mapOf({c.type, {c.dim0, 4}, {c.box0, 2}, TensorSwizzle::NONE, TensorOobFill::NONE, {}, {c.rowBytes}});
    MachineState st(1, 0);
    for (uint32_t i = 0; i < 1024; ++i) st.smem[0].bytes()[0x800 + i] = uint8_t(i * 3 + 1);
    st.global.addRegion(kGlobal, c.rowBytes * 4, [](uint64_t) { return uint8_t(0xA5); });
    Trace t;
    TraceBuilder tb(t);
    tb.beginInstr("store");
    TmaTileStore op{map, at({0, 3}), 0, 0x800}; // rows 3 and 4: row 4 is out of bounds
    REQUIRE(executeTmaStore(op, st, tb).ok());
    tb.endInstr();
    for (uint32_t b = 0; b < c.rowBytes * 4; ++b) {
        const uint8_t got = st.global.readByte(kGlobal + b);
        const bool written = b >= 3 * c.rowBytes && b - 3 * c.rowBytes < c.writtenBytes;
        INFO("byte " << b);
        CHECK(got == (written ? uint8_t((b - 3 * c.rowBytes) * 3 + 1) : 0xA5));
    }
    CHECK(std::any_of(t.moves.begin(), t.moves.end(),
                      [](const ByteMove& m) { return m.rule == RuleId::TmaStoreUpperEdge; }));
}

TEST_CASE("hardware faults are reported and write nothing", "[tma][fault]") {
    const TensorMap f16 = mapOf({TensorDataType::FLOAT16, {64, 8}, {16, 4}});
    const TensorMap u32 = mapOf({TensorDataType::UINT32, {64, 8}, {16, 4}});
    auto expectFault = [](const Run& r, DiagCode code) {
        REQUIRE_FALSE(r.status.ok());
        CHECK(r.status.error().code == code);
        CHECK(r.trace.moves.empty());
        CHECK(r.state.mbarriers.empty());
        const auto s = r.state.smem[0].bytes();
        CHECK(std::all_of(s.begin(), s.end(), [](uint8_t b) { return b == 0xA5; }));
    };
    SECTION("inner coordinate not 16-byte aligned") {
        expectFault(load(f16, at({3, 0}), 0x800), DiagCode::FaultIllegalInstruction);
    }
    SECTION("inner coordinate not aligned, box fully out of bounds (tile_load_0347)") {
        expectFault(load(u32, at({201, 0}), 0x800), DiagCode::FaultIllegalInstruction);
    }
    SECTION("negative aligned inner coordinate is fine for loads") {
        CHECK(load(f16, at({-8, -1}), 0x800).status.ok());
    }
    SECTION("shared address 16/32/64 past 128-byte alignment") {
        const uint32_t off = GENERATE(16u, 32u, 64u);
        expectFault(load(f16, at({0, 0}), 0x800 + off), DiagCode::FaultMisalignedAddress);
    }
    SECTION("multicast mask beyond the cluster") {
        expectFault(load(f16, at({0, 0}), 0x800, 2, true, 0x7), DiagCode::FaultLaunchFailure);
    }
    SECTION("multicast mask 0 is a silent no-op") {
        Run r = load(f16, at({0, 0}), 0x800, 2, true, 0);
        CHECK(r.status.ok());
        CHECK(r.trace.moves.empty());
        CHECK(r.trace.txEvents.empty());
    }
    SECTION("stores with a negative coordinate") {
        const std::array<int32_t, 5> c = GENERATE(at({-8, 0}), at({0, -1}), at({-64, 2}));
        MachineState st(1, 0);
        st.global.addRegion(kGlobal, extentOf(f16), [](uint64_t) { return uint8_t(0xA5); });
        Trace t;
        TraceBuilder tb(t);
        tb.beginInstr("store");
        Status s = executeTmaStore(TmaTileStore{f16, c, 0, 0x800}, st, tb);
        tb.endInstr();
        REQUIRE_FALSE(s.ok());
        CHECK(s.error().code == DiagCode::FaultIllegalInstruction);
        CHECK(std::string(diagCodeName(s.error().code)) == "cudaErrorIllegalInstruction");
        CHECK(t.moves.empty());
    }
}

TEST_CASE("multicast writes every masked CTA in one step per chunk and credits each", "[tma][multicast]") {
    const TensorMap map = mapOf({TensorDataType::FLOAT16, {64, 8}, {32, 4}, TensorSwizzle::S64B});
    Run r = load(map, at({8, 2}), 0x880, 4, true, 0b1011);
    REQUIRE(r.status.ok());
    CHECK(txOf(r, 0) == 256);
    CHECK(txOf(r, 1) == 256);
    CHECK(txOf(r, 2) == 0);
    CHECK(txOf(r, 3) == 256);
    const auto s0 = r.state.smem[0].bytes(), s2 = r.state.smem[2].bytes();
    CHECK(std::equal(s0.begin(), s0.end(), r.state.smem[1].bytes().begin()));
    CHECK(std::equal(s0.begin(), s0.end(), r.state.smem[3].bytes().begin()));
    CHECK(std::all_of(s2.begin(), s2.end(), [](uint8_t b) { return b == 0xA5; }));
    CHECK(r.trace.stepCount == 16); // 256 B = 16 chunks
    for (uint32_t step = 0; step < r.trace.stepCount; ++step) {
        auto [lo, hi] = r.trace.movesOfStep(step);
        REQUIRE(hi - lo == 3);
        CHECK(r.trace.moves[lo].dst.addr == r.trace.moves[lo + 2].dst.addr);
    }
}

TEST_CASE("a 256x256 box executes quickly (benchmark: run with [perf])", "[.][perf]") {
    const TensorMap map = mapOf({TensorDataType::FLOAT16, {512, 512}, {256, 256}});
    const auto t0 = std::chrono::steady_clock::now();
    Run r = load(map, at({128, 64}), 0x800);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    REQUIRE(r.status.ok());
    CHECK(txOf(r, 0) == 256 * 256 * 2);
    WARN("256x256 FLOAT16 box: " << ms << " ms, " << r.trace.moves.size() << " moves");
#ifdef NDEBUG
    CHECK(ms < 100.0);
#else
    CHECK(ms < 2000.0);
#endif
}
