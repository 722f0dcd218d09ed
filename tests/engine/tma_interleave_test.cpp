// Interleaved tile boxes (INTERLEAVE_16B / 32B) against what an H100 did.
// Expectations are hand-derived from the golden records (../shared/golden/tma: tile_load_0225,
// 0234, 0237, 0351, store_0053 and the README's tx table) and from the probe records in
// scripts/probes/results/run1.jsonl (case ids B*, C*, D*, E* below); see docs/interleave.md.
#include <catch2/catch.hpp>

#include "conform/golden_reader.hpp"
#include "conform/tma_records.hpp"
#include "tma/box.hpp"

#include <vector>

using namespace layoutscope;
using layoutscope::detail::BoxPlan;
using layoutscope::detail::interleavedBoxPlan;

namespace {

constexpr uint64_t kBase = 0x100000;

struct MapSpec {
    TensorDataType type;
    TensorInterleave il;
    std::vector<uint64_t> gd, gs;
    std::vector<uint32_t> box, es;
};

TensorMap makeMap(const MapSpec& s) {
    TensorMap m;
    m.p.dataType = s.type;
    m.p.tensorRank = static_cast<uint32_t>(s.gd.size());
    m.p.globalAddress = kBase;
    m.p.interleave = s.il;
    for (size_t i = 0; i < s.gd.size(); ++i) {
        m.p.globalDim[i] = s.gd[i];
        m.p.boxDim[i] = s.box[i];
        m.p.elementStrides[i] = s.es.empty() ? 1 : s.es[i];
    }
    for (size_t i = 0; i < s.gs.size(); ++i) m.p.globalStrides[i] = s.gs[i];
    m.elemBits = elementBits(s.type);
    return m;
}

std::array<int32_t, 5> at(std::initializer_list<int32_t> c) {
    std::array<int32_t, 5> a{};
    size_t i = 0;
    for (int32_t v : c) a[i++] = v;
    return a;
}

// The piece that starts at logical smem byte `off` (pieces are 16 bytes, in traversal order).
const detail::BoxPiece& pieceAt(const BoxPlan& plan, uint32_t off) {
    REQUIRE(off % 16 == 0);
    REQUIRE(off / 16 < plan.pieces.size());
    const auto& p = plan.pieces[off / 16];
    REQUIRE(p.smemOffset == off);
    return p;
}

} // namespace

TEST_CASE("interleaved complete_tx counts G-byte slices, with dimension rank-2 not traversed",
          "[tma][interleave][tx]") {
    // golden/tma README, "Interleaved layouts": measured_tx_bytes of each case.
    struct Row {
        const char* id;
        TensorDataType t;
        TensorInterleave il;
        std::vector<uint32_t> box, es;
        uint64_t tx;
    };
    const auto I16 = TensorInterleave::I16B;
    const auto I32 = TensorInterleave::I32B;
    auto row = GENERATE_COPY(values<Row>({
        {"tile_load_0225", TensorDataType::UINT16, I16, {8, 8, 4}, {1, 1, 1}, 512},
        {"tile_load_0227", TensorDataType::UINT16, I16, {8, 4, 4, 2}, {1, 1, 1, 1}, 1024},
        {"tile_load_0228", TensorDataType::UINT16, I16, {8, 4, 2, 2, 2}, {1, 1, 1, 1, 1}, 2048},
        {"tile_load_0229", TensorDataType::UINT32, I16, {4, 8, 4}, {1, 1, 1}, 256},
        {"tile_load_0231", TensorDataType::UINT16, I16, {8, 8, 4}, {1, 2, 1}, 512},
        {"tile_load_0234", TensorDataType::UINT16, I32, {16, 8, 4}, {1, 1, 1}, 2048},
        {"tile_load_0236", TensorDataType::UINT8, I32, {32, 8, 4}, {1, 1, 1}, 4096},
        {"tile_load_0237", TensorDataType::UINT32, I32, {8, 4, 4, 2}, {1, 1, 1, 1}, 2048},
        // probes (run1): elementStrides[0] honoured, box[rank-2] ignored
        {"probe E1_es0_2", TensorDataType::UINT16, I16, {8, 8, 4}, {2, 1, 1}, 256},
        {"probe E6_es0_3", TensorDataType::UINT16, I16, {8, 8, 4}, {3, 1, 1}, 192},
        {"probe B3b_r5", TensorDataType::UINT16, I16, {8, 2, 3, 4, 3}, {1, 1, 1, 1, 1}, 2304},
    }));
    INFO(row.id);
    const size_t rank = row.box.size();
    MapSpec s{row.t, row.il, std::vector<uint64_t>(rank, 64), {}, row.box, row.es};
    for (size_t i = 1; i < rank; ++i) s.gs.push_back(4096u << i);
    const BoxPlan plan = interleavedBoxPlan(makeMap(s), at({0, 0, 0, 0, 0}), false);
    CHECK(plan.txBytes == row.tx);
    CHECK(plan.pieces.size() * 16 == row.tx); // every slice lands in smem, densely
}

TEST_CASE("interleaved dimension 0 counts slices at x0*G bytes", "[tma][interleave][layout]") {
    SECTION("tile_load_0237: 32B, UINT32, rank 4 — dims 0,1,3 traversed, dim 2 fixed at its coordinate") {
        // smem_hex decoded with src_index: offset 256 holds element 688 = (x1=2, x2=1, x3=1);
        // offset 1024 holds element 1256 = (x1=1, x2=1, x3=2).
        MapSpec s{TensorDataType::UINT32, TensorInterleave::I32B, {8, 12, 6, 3},
                  {32, 384, 2304},        {8, 4, 4, 2},           {}};
        const BoxPlan plan = interleavedBoxPlan(makeMap(s), at({0, 1, 1, 1}), false);
        CHECK(pieceAt(plan, 0).globalAddr == kBase + 680 * 4);
        CHECK(pieceAt(plan, 16).globalAddr == kBase + 680 * 4 + 16); // second half of slice 0
        CHECK(pieceAt(plan, 256).globalAddr == kBase + 688 * 4);
        CHECK(pieceAt(plan, 1024).globalAddr == kBase + 1256 * 4);
        CHECK(pieceAt(plan, 256).coord == std::array<int32_t, 5>{0, 2, 1, 1, 0});
    }
    SECTION("tile_load_0234: 32B, UINT16, rank 3 — 16 slices per plane, boxDim[1]=8 ignored") {
        MapSpec s{TensorDataType::UINT16, TensorInterleave::I32B, {16, 24, 10}, {32, 768}, {16, 8, 4}, {}};
        const BoxPlan plan = interleavedBoxPlan(makeMap(s), at({0, 3, 2}), false);
        CHECK(pieceAt(plan, 0).globalAddr == kBase + 816 * 2);
        CHECK(pieceAt(plan, 480).globalAddr == kBase + 1056 * 2); // slice 15 = element row x1=18
        CHECK(pieceAt(plan, 512).globalAddr == kBase + 1200 * 2); // next plane x2=3
    }
    SECTION("tile_load_0351: INTERLEAVE_16B with x = 1 starts one slice (16 B) later; slice 8 is OOB") {
        MapSpec s{TensorDataType::UINT16, TensorInterleave::I16B, {8, 24, 10}, {16, 384}, {8, 8, 4}, {}};
        const BoxPlan plan = interleavedBoxPlan(makeMap(s), at({1, 2, 1}), false);
        CHECK(pieceAt(plan, 0).globalAddr == kBase + 216 * 2);
        CHECK(pieceAt(plan, 96).inBounds);
        CHECK_FALSE(pieceAt(plan, 112).inBounds); // golden: zeros at smem 112..127
        CHECK(pieceAt(plan, 128).globalAddr == kBase + 408 * 2);
        CHECK(plan.txBytes == 512);
    }
    SECTION("probe C1: padded rows (globalStrides[0]=48) do not move slices; slices stay 16 B apart") {
        MapSpec s{TensorDataType::UINT16, TensorInterleave::I16B, {16, 20, 6}, {48, 960}, {8, 4, 3}, {}};
        const BoxPlan plan = interleavedBoxPlan(makeMap(s), at({0, 2, 1}), false);
        for (uint32_t j = 0; j < 8; ++j) CHECK(pieceAt(plan, j * 16).globalAddr == kBase + 1056 + j * 16);
        CHECK(pieceAt(plan, 128).globalAddr == kBase + 2016);
        CHECK(plan.txBytes == 384);
    }
    SECTION("probe E1: elementStrides[0]=2 takes every other slice") {
        MapSpec s{
            TensorDataType::UINT16, TensorInterleave::I16B, {8, 24, 10}, {16, 384}, {8, 8, 4}, {2, 1, 1}};
        const BoxPlan plan = interleavedBoxPlan(makeMap(s), at({0, 3, 2}), false);
        CHECK(pieceAt(plan, 16).globalAddr == kBase + 848);
        CHECK(pieceAt(plan, 64).globalAddr == kBase + 1200);
    }
    SECTION("probe B3b: rank 5 — dimension 3 (rank-2) fixed, dimension 4 traversed") {
        MapSpec s{TensorDataType::UINT16, TensorInterleave::I16B, {8, 16, 6, 5, 4},
                  {16, 256, 1536, 7680},  {8, 2, 3, 4, 3},        {}};
        const BoxPlan plan = interleavedBoxPlan(makeMap(s), at({0, 1, 1, 1, 1}), false);
        CHECK(pieceAt(plan, 128).globalAddr == kBase + 9504);  // x1 = 2
        CHECK(pieceAt(plan, 256).globalAddr == kBase + 9744);  // x2 = 2
        CHECK(pieceAt(plan, 768).globalAddr == kBase + 17168); // x4 = 2
    }
}

TEST_CASE("interleaved bounds: whole slices, every dimension including the fixed one",
          "[tma][interleave][oob]") {
    MapSpec s{TensorDataType::UINT16, TensorInterleave::I16B, {8, 24, 10}, {16, 384}, {8, 8, 4}, {}};
    const TensorMap map = makeMap(s);
    auto inBoundsAt = [&](std::array<int32_t, 5> c) {
        std::vector<bool> v;
        for (const auto& p : interleavedBoxPlan(map, c, false).pieces) v.push_back(p.inBounds);
        return v;
    };
    SECTION("probe D1/D3: fixed dimension 1 out of range fills the whole box") {
        for (bool b : inBoundsAt(at({0, 24, 2}))) CHECK_FALSE(b);
        for (bool b : inBoundsAt(at({0, -1, 2}))) CHECK_FALSE(b);
    }
    SECTION("probe D2 / README tile_load_0226: fixed dim 1 near its end still reads 8 slices on") {
        const BoxPlan plan = interleavedBoxPlan(map, at({0, 20, 2}), false);
        for (const auto& p : plan.pieces) CHECK(p.inBounds);
        CHECK(pieceAt(plan, 112).globalAddr == kBase + 1088 + 112);
    }
    SECTION("probe D4: dimension 2 crossing its end fills planes 10 and 11") {
        auto v = inBoundsAt(at({0, 3, 8}));
        REQUIRE(v.size() == 32);
        for (size_t i = 0; i < 32; ++i) CHECK(v[i] == (i < 16));
    }
    SECTION("probe D5: negative slice coordinate fills slices -2 and -1 only") {
        auto v = inBoundsAt(at({-2, 3, 2}));
        for (size_t i = 0; i < 8; ++i) CHECK(v[i] == (i >= 2));
    }
    SECTION("probe C4: globalDim[0]=16 slices, c0=12: slices 12..15 in, 16..19 out") {
        MapSpec s2{TensorDataType::UINT16, TensorInterleave::I16B, {16, 20, 6}, {48, 960}, {8, 4, 3}, {}};
        const BoxPlan plan = interleavedBoxPlan(makeMap(s2), at({12, 2, 1}), false);
        for (size_t i = 0; i < 8; ++i) CHECK(plan.pieces[i].inBounds == (i < 4));
        CHECK(plan.pieces[0].globalAddr == kBase + 1248);
        CHECK(plan.txBytes == 384); // fill counts
    }
}

TEST_CASE("interleaved stores use the load plan (store_0053, probes G1-G11)", "[tma][interleave][store]") {
    MapSpec s{TensorDataType::UINT16, TensorInterleave::I16B, {8, 24, 10}, {16, 384}, {8, 8, 4}, {}};
    const TensorMap map = makeMap(s);
    const BoxPlan store = interleavedBoxPlan(map, at({0, 3, 2}), true);
    // store_0053: smem bytes 0..127 went to global bytes 816..943, 128..255 to 1200..1327
    CHECK(pieceAt(store, 0).globalAddr == kBase + 816);
    CHECK(pieceAt(store, 128).globalAddr == kBase + 1200);
    const BoxPlan load = interleavedBoxPlan(map, at({1, 3, 2}), false);
    const BoxPlan store1 = interleavedBoxPlan(map, at({1, 3, 2}), true);
    REQUIRE(load.pieces.size() == store1.pieces.size());
    for (size_t i = 0; i < load.pieces.size(); ++i) {
        CHECK(load.pieces[i].globalAddr == store1.pieces[i].globalAddr);
        CHECK(load.pieces[i].inBounds == store1.pieces[i].inBounds); // G7: slice 8 not written
    }
}

TEST_CASE("interleaved 32B slices split into 16-byte pieces; ranks 3 and 5", "[tma][interleave][layout]") {
    SECTION("probe K1: 32B, UINT64 boxDim[0]=2 -> 2 slices of 32 B at x0 = 1, 2") {
        MapSpec s{TensorDataType::UINT64, TensorInterleave::I32B, {4, 24, 10}, {32, 768}, {2, 8, 4}, {}};
        const BoxPlan plan = interleavedBoxPlan(makeMap(s), at({1, 3, 2}), false);
        CHECK(plan.txBytes == 256);
        REQUIRE(plan.pieces.size() == 16);
        CHECK(plan.pieces[0].globalAddr == kBase + 1664);
        CHECK(plan.pieces[1].globalAddr == kBase + 1680);
        CHECK(plan.pieces[2].globalAddr == kBase + 1696);
        CHECK(plan.pieces[4].globalAddr == kBase + 2432); // next plane: +768
        for (const auto& p : plan.pieces) CHECK(p.length == 16);
    }
    SECTION("probe T12: rank 5, 32B — tx 6144 = 32 B x 16 x 2 x 3 x 2 (boxDim[3] dropped)") {
        MapSpec s{TensorDataType::UINT16, TensorInterleave::I32B, {16, 6, 5, 4, 3},
                  {32, 192, 960, 3840},   {16, 2, 3, 2, 2},       {}};
        const BoxPlan plan = interleavedBoxPlan(makeMap(s), at({0, 1, 1, 1, 1}), false);
        CHECK(plan.txBytes == 6144);
        CHECK(pieceAt(plan, 0).globalAddr == kBase + 5024);
        CHECK(pieceAt(plan, 512).globalAddr == kBase + 5056);  // x1 = 2
        CHECK(pieceAt(plan, 3072).globalAddr == kBase + 8864); // x4 = 2
    }
    SECTION("probe T13: elementStrides[0]=2 from c0=-1 -> slices -1 (fill), 1, 3, 5") {
        MapSpec s{
            TensorDataType::UINT16, TensorInterleave::I16B, {8, 24, 10}, {16, 384}, {8, 8, 4}, {2, 1, 1}};
        const BoxPlan plan = interleavedBoxPlan(makeMap(s), at({-1, 3, 2}), false);
        CHECK_FALSE(plan.pieces[0].inBounds);
        CHECK(plan.pieces[1].globalAddr == kBase + 832);
        CHECK(plan.pieces[3].globalAddr == kBase + 896);
        CHECK(plan.txBytes == 256);
    }
}

// ---- every interleaved golden record, byte for byte (../shared/golden/tma, public subset) ----

namespace {

uint32_t swizzled(uint32_t a, TensorSwizzle sw) { // golden README semantics 3 (absolute address)
    const uint32_t span = swizzleSpan(sw);
    return span == 0 ? a : a ^ (((a >> 7) & (span / 16 - 1)) << 4);
}

std::vector<conform::Json> interleavedRecords(const char* file) {
    std::vector<conform::Json> out;
    auto lines = conform::readJsonLines(std::string(LAYOUTSCOPE_GOLDEN_DIR) + "/tma/" + file);
    REQUIRE(lines);
    for (const auto& l : *lines) {
        auto rec = conform::Json::parse(l);
        if (rec.at("tensor_map").value("interleaveValue", 0u) == 0) continue;
        if (rec.value("encode_result", "") != "CUDA_SUCCESS" || !rec.at("exec_error").is_null()) continue;
        out.push_back(std::move(rec));
    }
    return out;
}

TensorMap mapFromRecord(const conform::Json& rec) {
    TensorMap m;
    m.p = conform::tiledParamsFromJson(rec.at("tensor_map"),
                                       conform::parseHexAddress(rec.at("global_address")));
    m.elemBits = elementBits(m.p.dataType);
    return m;
}

std::array<int32_t, 5> coordsOf(const conform::Json& a) {
    std::array<int32_t, 5> c{};
    for (size_t i = 0; i < a.size() && i < 5; ++i) c[i] = a[i].get<int32_t>();
    return c;
}

} // namespace

TEST_CASE("interleaved golden loads and stores are reproduced byte for byte", "[tma][interleave][golden]") {
    SECTION("tile loads (tile_load_0225, 0234, 0237, 0351): smem image and measured tx") {
        const auto recs = interleavedRecords("tma_tile_load.jsonl.gz");
        CHECK(recs.size() >= 4);
        for (const auto& rec : recs) {
            INFO(rec.at("case_id").get<std::string>());
            const TensorMap map = mapFromRecord(rec);
            const uint32_t e = rec.at("elem_bytes").get<uint32_t>();
            const uint32_t base = rec.at("smem_base_addr").get<uint32_t>();
            const bool nan = map.p.oobFill == TensorOobFill::NAN_REQUEST_ZERO_FMA;
            std::vector<uint8_t> smem(rec.at("region_len").get<size_t>(), 0xA5);
            uint64_t tx = 0;
            for (const auto& iss : rec.at("issues")) {
                const BoxPlan plan = interleavedBoxPlan(map, coordsOf(iss.at("coords")), false);
                tx += plan.txBytes;
                const uint32_t dst = iss.at("dst_offset").get<uint32_t>();
                for (const auto& p : plan.pieces)
                    for (uint32_t b = 0; b < p.length; ++b) {
                        const uint32_t at = swizzled(base + dst + p.smemOffset + b, map.p.swizzle) - base;
                        REQUIRE(at < smem.size());
                        smem[at] = p.inBounds
                                       ? conform::indexPatternByte(p.globalAddr - map.p.globalAddress + b, e)
                                       : (nan ? uint8_t(b % 2 ? 0x7f : 0xf7) : uint8_t(0));
                    }
            }
            const auto& cta = rec.at("ctas")[0];
            CHECK(tx == cta.at("measured_tx_bytes").get<uint64_t>());
            CHECK(conform::toHex(smem.data(), smem.size()) == cta.at("smem_hex").get<std::string>());
        }
    }
    SECTION("stores (store_0053): global image") {
        const auto recs = interleavedRecords("tma_store.jsonl.gz");
        CHECK(!recs.empty());
        for (const auto& rec : recs) {
            INFO(rec.at("case_id").get<std::string>());
            const TensorMap map = mapFromRecord(rec);
            const uint32_t e = rec.at("elem_bytes").get<uint32_t>();
            const uint32_t base = rec.at("smem_base_addr").get<uint32_t>();
            const uint32_t src = rec.at("src_offset").get<uint32_t>();
            const std::string want = rec.at("global_hex").get<std::string>();
            std::vector<uint8_t> global(want.size() / 2, 0xA5);
            const BoxPlan plan = interleavedBoxPlan(map, coordsOf(rec.at("coords")), true);
            for (const auto& p : plan.pieces) {
                if (!p.inBounds) continue;
                for (uint32_t b = 0; b < p.length; ++b) {
                    const uint64_t g = p.globalAddr - map.p.globalAddress + b;
                    REQUIRE(g < global.size());
                    const uint32_t s = swizzled(base + src + p.smemOffset + b, map.p.swizzle) - base;
                    global[g] = conform::indexPatternByte(s, e);
                }
            }
            CHECK(conform::toHex(global.data(), global.size()) == want);
        }
    }
}
