// .tile::gather4 / .tile::scatter4 and .cta_group::2 against expectations derived by hand from the
// reference text (tma.md §8, §10; PTX ISA 9.2 §5.5.3.4, §9.7.9.25.5.2). All of it is unverified on
// hardware (open questions 4, 11, 12).
#include "layoutscope/scenario/scenario.hpp"
#include "tma_test_util.hpp"

#include <fstream>
#include <iterator>

using namespace layoutscope;
using namespace tmatest;

namespace {

constexpr uint32_t kDst = 0x1000; // 1024-aligned (the 128B swizzle phase starts at line 0)
constexpr uint32_t kBar = 0x30000;

struct G4Run {
    MachineState state;
    Trace trace;
    Status status = okStatus();
};

G4Run gather(const TensorMap& map, int32_t col, std::array<int32_t, 4> rows, uint32_t cluster = 1) {
    G4Run r{MachineState(cluster, 0xA5), {}, okStatus()};
    r.state.global.addRegion(kGlobal, extentOf(map), globalByte);
    TmaGather4Load g;
    g.load.map = map;
    g.load.dstAddr = kDst;
    g.load.mbarAddr = kBar;
    g.col = col;
    g.rows = rows;
    TraceBuilder tb(r.trace);
    tb.beginInstr("gather4");
    r.status = executeTmaGather4(g, r.state, tb);
    tb.endInstr();
    return r;
}

int64_t txAt(const MachineState& s, uint32_t cta) {
    auto it = s.mbarriers.find({cta, kBar});
    return it == s.mbarriers.end() ? 0 : it->second.completedBytes;
}

} // namespace

TEST_CASE("gather4 stacks the four rows in operand order", "[tma][gather4]") {
    // f16 64 x 16 tensor (128-byte rows), box 32 x 1: each row moves 64 bytes from column 16 (byte 32).
    const TensorMap map = mapOf({TensorDataType::FLOAT16, {64, 16}, {32, 1}}, TmaArch::Sm100);
    const std::array<int32_t, 4> rows = {5, 2, 9, 0};
    const G4Run r = gather(map, 16, rows);
    REQUIRE(r.status.ok());
    const auto smem = r.state.smem[0].bytes();
    for (uint32_t i = 0; i < 4; ++i)
        for (uint32_t b = 0; b < 64; ++b) {
            INFO("row " << i << " byte " << b);
            REQUIRE(smem[kDst + 64 * i + b] == globalByte(uint64_t(rows[i]) * 128 + 32 + b));
        }
    CHECK(smem[kDst + 256] == 0xA5);
    SECTION("complete_tx = 4 * box[0] * 2 bytes (unverified, open question 4)") {
        CHECK(txAt(r.state, 0) == 256);
    }
    SECTION("moves carry the gather4 rule and the tensor coordinate of their row") {
        for (const ByteMove& m : r.trace.moves) {
            CHECK(m.rule == RuleId::TmaGather4);
            CHECK(m.coord[1] == rows[m.logicalOffset / 64]);
        }
    }
}

TEST_CASE("gather4 with SWIZZLE_128B: 128-byte rows at lines 0..3, chunks XORed by the line",
          "[tma][gather4]") {
    const TensorMap map =
        mapOf({TensorDataType::FLOAT16, {128, 8}, {64, 1}, TensorSwizzle::S128B}, TmaArch::Sm100);
    const std::array<int32_t, 4> rows = {7, 3, 3, 1}; // a row may repeat
    const G4Run r = gather(map, 64, rows);
    REQUIRE(r.status.ok());
    const auto smem = r.state.smem[0].bytes();
    // PTX 128B table, lines 0..3: chunk c of line l lands at chunk c ^ l.
    for (uint32_t i = 0; i < 4; ++i)
        for (uint32_t b = 0; b < 128; ++b) {
            const uint32_t phys = 128 * i + (((b / 16) ^ i) * 16) + b % 16;
            REQUIRE(smem[kDst + phys] == globalByte(uint64_t(rows[i]) * 256 + 128 + b));
        }
}

TEST_CASE("gather4 rows outside the tensor are zero-filled, a column past the edge is cut",
          "[tma][gather4]") {
    const TensorMap map = mapOf({TensorDataType::FLOAT16, {64, 16}, {32, 1}}, TmaArch::Sm100);
    const G4Run r = gather(map, 48, {-1, 16, 3, 1000});
    REQUIRE(r.status.ok());
    const auto smem = r.state.smem[0].bytes();
    for (uint32_t i = 0; i < 4; ++i)
        for (uint32_t b = 0; b < 64; ++b) {
            // Only row 3 is inside, and only its columns 48..63 (bytes 0..31).
            const uint8_t want = (i == 2 && b < 32) ? globalByte(3 * 128 + 96 + b) : 0;
            REQUIRE(smem[kDst + 64 * i + b] == want);
        }
    CHECK(txAt(r.state, 0) == 256); // fill counts
}

TEST_CASE("gather4 rejects what PTX rules out", "[tma][gather4]") {
    SECTION("a 3-D map") {
        const TensorMap map = mapOf({TensorDataType::FLOAT16, {64, 16, 2}, {32, 1, 1}}, TmaArch::Sm100);
        CHECK_FALSE(gather(map, 0, {0, 1, 2, 3}).status.ok());
    }
    SECTION("boxDim[1] != 1 (unverified, open question 11)") {
        const TensorMap map = mapOf({TensorDataType::FLOAT16, {64, 16}, {32, 4}}, TmaArch::Sm100);
        const Status st = gather(map, 0, {0, 1, 2, 3}).status;
        REQUIRE_FALSE(st.ok());
        CHECK(st.diagnostics().front().provenance == Provenance::Assumption);
    }
    SECTION("a misaligned column faults like a tile load") {
        const TensorMap map = mapOf({TensorDataType::FLOAT16, {64, 16}, {32, 1}}, TmaArch::Sm100);
        const Status st = gather(map, 4, {0, 1, 2, 3}).status;
        REQUIRE_FALSE(st.ok());
        CHECK(st.diagnostics().front().code == DiagCode::FaultIllegalInstruction);
    }
}

TEST_CASE("scatter4 writes the four shared rows to their tensor rows", "[tma][gather4]") {
    const TensorMap map = mapOf({TensorDataType::FLOAT16, {64, 16}, {32, 1}}, TmaArch::Sm100);
    MachineState state(1, 0);
    state.global.addRegion(kGlobal, extentOf(map), nullptr);
    for (uint32_t b = 0; b < 256; ++b) state.smem[0].bytes()[kDst + b] = uint8_t(b + 1);
    TmaScatter4Store s;
    s.store.map = map;
    s.store.srcAddr = kDst;
    s.col = 32;
    s.rows = {10, 4, 15, 0};
    Trace trace;
    TraceBuilder tb(trace);
    tb.beginInstr("scatter4");
    REQUIRE(executeTmaScatter4(s, state, tb).ok());
    tb.endInstr();
    for (uint32_t i = 0; i < 4; ++i)
        for (uint32_t b = 0; b < 64; ++b)
            REQUIRE(state.global.readByte(kGlobal + uint64_t(s.rows[i]) * 128 + 64 + b) ==
                    uint8_t(64 * i + b + 1));
    CHECK(state.global.readByte(kGlobal + 10 * 128 + 63) == 0); // column 31 untouched
    SECTION("a negative row faults as any store start coordinate") {
        s.rows[2] = -1;
        CHECK_FALSE(executeTmaScatter4(s, state, tb).ok());
    }
}

TEST_CASE(".cta_group::2 signals the pair member with the parity of mbar's CTA", "[tma][ctagroup]") {
    SECTION("tmaSignalCta table (tma.md §10)") {
        // cta_group::1: always the destination; ::2: (d & ~1) | (mbarCta & 1).
        CHECK(tmaSignalCta(1, 3, 0) == 3);
        CHECK(tmaSignalCta(2, 3, 0) == 2);
        CHECK(tmaSignalCta(2, 2, 1) == 3);
        CHECK(tmaSignalCta(2, 6, 7) == 7);
        CHECK(tmaSignalCta(2, 5, 5) == 5);
    }
    const TensorMap map = mapOf({TensorDataType::FLOAT16, {64, 16}, {32, 4}}, TmaArch::Sm100);
    auto run = [&](TmaTileLoad ld, MachineState& state) {
        state.global.addRegion(kGlobal, extentOf(map), globalByte);
        ld.map = map;
        ld.dstAddr = kDst;
        ld.mbarAddr = kBar;
        Trace trace;
        TraceBuilder tb(trace);
        tb.beginInstr("cp.async.bulk.tensor");
        Status st = executeTmaLoad(ld, state, tb);
        tb.endInstr();
        return st;
    };
    SECTION("no multicast: data to CTA 1, barrier in its peer CTA 0") {
        MachineState state(4, 0);
        TmaTileLoad ld;
        ld.dstCta = 1;
        ld.ctaGroup = 2;
        ld.mbarCta = 0;
        REQUIRE(run(ld, state).ok());
        CHECK(txAt(state, 0) == 256);
        CHECK(txAt(state, 1) == 0);
        CHECK(state.smem[1].bytes()[kDst] == globalByte(0));
    }
    SECTION("mbar outside the pair is rejected") {
        MachineState state(4, 0);
        TmaTileLoad ld;
        ld.dstCta = 1;
        ld.ctaGroup = 2;
        ld.mbarCta = 2;
        const Status st = run(ld, state);
        REQUIRE_FALSE(st.ok());
        CHECK(st.diagnostics().front().provenance == Provenance::Assumption);
    }
    SECTION(
        "multicast to all four CTAs, mbar in an odd CTA: CTAs 1 and 3 each get both halves of their pair") {
        MachineState state(4, 0);
        TmaTileLoad ld;
        ld.multicast = true;
        ld.ctaMask = 0xF;
        ld.ctaGroup = 2;
        ld.mbarCta = 1;
        REQUIRE(run(ld, state).ok());
        CHECK(txAt(state, 0) == 0);
        CHECK(txAt(state, 1) == 512);
        CHECK(txAt(state, 2) == 0);
        CHECK(txAt(state, 3) == 512);
        for (uint32_t c = 0; c < 4; ++c) CHECK(state.smem[c].bytes()[kDst + 1] == globalByte(1));
    }
    SECTION("multicast to CTAs 1 and 2, mbar in an even CTA: CTA 0 and CTA 2 get one box each") {
        MachineState state(4, 0);
        TmaTileLoad ld;
        ld.multicast = true;
        ld.ctaMask = 0x6;
        ld.ctaGroup = 2;
        ld.mbarCta = 2;
        REQUIRE(run(ld, state).ok());
        CHECK(txAt(state, 0) == 256);
        CHECK(txAt(state, 2) == 256);
        CHECK(txAt(state, 1) + txAt(state, 3) == 0);
    }
    SECTION(".cta_group::1 multicast credits every destination itself") {
        MachineState state(4, 0);
        TmaTileLoad ld;
        ld.multicast = true;
        ld.ctaMask = 0xF;
        REQUIRE(run(ld, state).ok());
        for (uint32_t c = 0; c < 4; ++c) CHECK(txAt(state, c) == 256);
    }
    SECTION("a pair cut by the cluster size is rejected") {
        MachineState state(3, 0);
        TmaTileLoad ld;
        ld.multicast = true;
        ld.ctaMask = 0x4;
        ld.ctaGroup = 2;
        ld.mbarCta = 1;
        CHECK_FALSE(run(ld, state).ok());
    }
}

TEST_CASE("scenario tma_gather4_rows.scn stacks rows 20, 3, 31, 0 (128B swizzle)",
          "[tma][gather4][scenario]") {
    std::ifstream f(std::string(LAYOUTSCOPE_ASSETS_DIR) + "/scenarios/tma_gather4_rows.scn",
                    std::ios::binary);
    REQUIRE(f);
    const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    Result<Scenario> s = parseScenario(text);
    REQUIRE(s.ok());
    REQUIRE(std::holds_alternative<TmaGather4Load>(s->instrs.at(2).op));
    Result<Run> run = runScenario(*s);
    REQUIRE(run.ok());
    const auto smem = run->final.smem[0].bytes();
    const uint32_t sA = s->findBuffer("sA")->addr; // 1024-aligned
    const int32_t rows[4] = {20, 3, 31, 0};
    // fill=index: fp16 element (x, y) holds y*256 + x; row i holds x = 64..127 of tensor row rows[i].
    for (uint32_t i = 0; i < 4; ++i)
        for (uint32_t x = 0; x < 64; ++x) {
            const uint32_t logical = 128 * i + 2 * x;
            const uint32_t phys =
                sA + 128 * i + ((((logical % 128) / 16) ^ i) * 16) + logical % 16; // SW128, line i
            const uint32_t v = uint32_t(rows[i]) * 256 + 64 + x;
            REQUIRE(smem[phys] == uint8_t(v));
            REQUIRE(smem[phys + 1] == uint8_t(v >> 8));
        }
    CHECK(run->final.mbarriers.at({0u, s->findBarrier("bar")->addr}).txCount == 0);
}

TEST_CASE("scenario .cta_group::2: CTA 1's load credits the barrier in its peer CTA 0",
          "[tma][ctagroup][scenario]") {
    const char* text = R"(target sm_100a
cluster 2
tensormap A tiled FLOAT16 dims=[256,64] box=[64,4]
smem s0 512 align=1024 cta=0
mbarrier bar0 cta=0
smem s1 512 align=1024 cta=1
mbarrier bar1 cta=1
cta 1
cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2 [s1], [A, {0, 0}], [bar0];
)";
    Result<Scenario> s = parseScenario(text);
    REQUIRE(s.ok());
    Result<Run> run = runScenario(*s);
    REQUIRE(run.ok());
    const uint32_t bar = s->findBarrier("bar0")->addr;
    CHECK(run->final.mbarriers.at({0u, bar}).completedBytes == 512);
    CHECK(run->final.mbarriers.at({1u, s->findBarrier("bar1")->addr}).completedBytes == 0);
    SECTION("without .cta_group::2 the same operands are rejected (mbar must be in dstMem's CTA)") {
        std::string t1 = text;
        t1.replace(t1.find(".cta_group::2"), 13, "");
        CHECK_FALSE(parseScenario(t1).ok());
    }
}

TEST_CASE("gather4 of padded FP4 rows: each row's groups padded to 16 bytes", "[tma][gather4][subbyte]") {
    // 16U4_ALIGN16B, 128 values (64 B) per tensor row, box 128 x 1: row i of shared memory is 128 B,
    // chunk g = the 8 packed bytes of group g of tensor row rows[i], then 8 untouched bytes.
    MapSpec spec{TensorDataType::T16U4_ALIGN16B,
                 {128, 32},
                 {128, 1},
                 TensorSwizzle::NONE,
                 TensorOobFill::NONE,
                 {},
                 {64}};
    const TensorMap map = mapOf(spec, TmaArch::Sm100);
    G4Run r{MachineState(1, 0xA5), {}, okStatus()};
    r.state.global.addRegion(kGlobal, 32 * 64, globalByte);
    TmaGather4Load g;
    g.load.map = map;
    g.load.dstAddr = kDst;
    g.load.mbarAddr = kBar;
    g.rows = {31, 0, 40, 7}; // row 40 is beyond globalDim[1] = 32: zero data bytes
    TraceBuilder tb(r.trace);
    tb.beginInstr("gather4");
    REQUIRE(executeTmaGather4(g, r.state, tb).ok());
    tb.endInstr();
    const auto smem = r.state.smem[0].bytes();
    for (uint32_t i = 0; i < 4; ++i)
        for (uint32_t b = 0; b < 128; ++b) {
            const uint8_t want = b % 16 >= 8 ? 0xA5
                                 : i == 2    ? 0
                                             : globalByte(uint64_t(g.rows[i]) * 64 + (b / 16) * 8 + b % 16);
            INFO("row " << i << " byte " << b);
            REQUIRE(smem[kDst + 128 * i + b] == want);
        }
    CHECK(txAt(r.state, 0) == 4 * 64); // packed bytes (unverified, open questions 4)
}
