// The im2col executor replayed against hardware records: every public golden im2col load
// (../shared/golden/tma) and every H100 probe of docs/im2col.md §4 (scripts/probes/im2col).
#include <catch2/catch.hpp>

#include "conform/golden_reader.hpp"
#include "conform/tma_records.hpp"
#include "layoutscope/tma/tma.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

using namespace layoutscope;

namespace {

constexpr uint32_t kMbar = 0x30000; // outside every dumped region
constexpr uint8_t kSentinel = 0xA5;

int64_t txOf(const MachineState& st, uint32_t cta = 0) {
    auto it = st.mbarriers.find({cta, kMbar});
    return it == st.mbarriers.end() ? 0 : it->second.completedBytes;
}

} // namespace

// ---- every im2col golden record, through the executor (../shared/golden/tma, public subset) ----

TEST_CASE("im2col golden loads are reproduced byte for byte", "[tma][im2col][golden]") {
    size_t n = 0;
    for (const char* file : {"tma_im2col.jsonl.gz", "tma_multicast.jsonl.gz"}) {
        auto lines = conform::readJsonLines(std::string(LAYOUTSCOPE_GOLDEN_DIR) + "/tma/" + file);
        REQUIRE(lines);
        for (const auto& l : *lines) {
            const auto rec = conform::Json::parse(l);
            if (rec.at("tensor_map").value("fn", "") != "cuTensorMapEncodeIm2col") continue;
            if (rec.value("encode_result", "") != "CUDA_SUCCESS") continue;
            INFO(rec.at("case_id").get<std::string>());
            ++n;
            auto enc = conform::encodeFromJson(rec.at("tensor_map"),
                                               conform::parseHexAddress(rec.at("global_address")));
            REQUIRE(enc.ok());
            const uint32_t eb = rec.at("elem_bytes").get<uint32_t>();
            const uint32_t base = rec.value("smem_base_addr", 0x800u);
            MachineState st(rec.value("cluster_size", 1u), kSentinel);
            st.global.addRegion(enc->p.globalAddress, rec.at("global_alloc_bytes").get<uint64_t>(),
                                [eb](uint64_t off) { return conform::indexPatternByte(off, eb); });
            Trace t;
            TraceBuilder tb(t);
            tb.beginInstr("golden");
            Status s = okStatus();
            for (const auto& is : rec.at("issues")) {
                TmaIm2colLoad op;
                op.load.map = *enc;
                for (size_t i = 0; i < is.at("coords").size(); ++i)
                    op.load.coords[i] = is.at("coords")[i].get<int32_t>();
                for (size_t i = 0; i < is.at("im2col_offsets").size(); ++i)
                    op.offsets[i] = is.at("im2col_offsets")[i].get<uint16_t>();
                op.load.issuingCta = op.load.dstCta = is.at("cta").get<uint32_t>();
                op.load.dstAddr = base + is.at("dst_offset").get<uint32_t>();
                op.load.mbarAddr = kMbar;
                op.load.multicast = is.value("multicast", false);
                if (is.at("cta_mask").is_number()) op.load.ctaMask = is.at("cta_mask").get<uint16_t>();
                s = executeTmaIm2colLoad(op, st, tb);
                if (!s) break;
            }
            const auto& err = rec.at("exec_error");
            if (!err.is_null()) {
                REQUIRE_FALSE(s);
                CHECK(std::string(diagCodeName(s.error().code)) == err.get<std::string>());
                continue;
            }
            REQUIRE(s);
            for (const auto& c : rec.at("ctas")) {
                const uint32_t cta = c.at("cta").get<uint32_t>();
                const std::string want = c.at("smem_hex").get<std::string>();
                const auto b = st.smem[cta].bytes();
                CHECK(conform::toHex(b.data() + base, want.size() / 2) == want);
                CHECK(txOf(st, cta) == c.at("measured_tx_bytes").get<int64_t>());
            }
        }
    }
    CHECK(n >= 23); // the 22 public im2col records that encode, and multicast_load_0016
}

// ---- the H100 probes of docs/im2col.md §4 (scripts/probes/im2col: cases_run1.txt, results/run1.jsonl) ----

TEST_CASE("im2col probe records (H100) are reproduced: faults, smem, tx, no_offs stores",
          "[tma][im2col][probe]") {
    const std::string dir = std::string(LAYOUTSCOPE_ASSETS_DIR) + "/../scripts/probes/im2col/";
    std::map<std::string, std::vector<int64_t>> cases; // id -> columns after id and kind
    std::map<std::string, std::string> kinds;
    std::vector<std::string> results;
    for (const char* run : {"1", "2"}) {
        std::ifstream cf(dir + "cases_run" + run + ".txt"), rf(dir + "results/run" + run + ".jsonl");
        REQUIRE(cf);
        REQUIRE(rf);
        for (std::string line; std::getline(rf, line);) results.push_back(line);
        for (std::string line; std::getline(cf, line);) {
            std::istringstream is(line);
            std::string id, kind;
            if (!(is >> id >> kind)) continue;
            std::vector<int64_t> v;
            for (int64_t x; is >> x;) v.push_back(x);
            REQUIRE(v.size() == 5 + 5 + 4 + 5 + 5 + 5 + 2 + 9);
            cases[id] = v;
            kinds[id] = kind;
        }
    }
    constexpr uint64_t kAddr = 0x7f0000000000, kSlack = 65536;
    size_t n = 0;
    for (const std::string& line : results) {
        const auto rec = conform::Json::parse(line);
        const std::string id = rec.at("id").get<std::string>();
        INFO(id);
        REQUIRE(cases.count(id));
        const auto& v = cases[id];
        const bool store = kinds[id] == "i2cstore";
        size_t k = 0;
        TensorMapIm2colParams ip;
        TensorMapTiledParams& p = ip.base;
        p.dataType = TensorDataType(v[k++]);
        p.tensorRank = uint32_t(v[k++]);
        p.interleave = TensorInterleave(v[k++]);
        p.swizzle = TensorSwizzle(v[k++]);
        p.oobFill = TensorOobFill(v[k++]);
        p.globalAddress = kAddr;
        for (int i = 0; i < 5; ++i) p.globalDim[i] = uint64_t(v[k++]);
        for (int i = 0; i < 4; ++i) p.globalStrides[i] = uint64_t(v[k++]);
        ip.channelsPerPixel = uint32_t(v[k++]);
        ip.pixelsPerColumn = uint32_t(v[k++]);
        k += 3;
        for (int i = 0; i < 5; ++i) p.elementStrides[i] = uint32_t(v[k++]);
        std::array<int32_t, 5> c{};
        for (int i = 0; i < 5; ++i) c[i] = int32_t(v[k++]);
        const uint32_t dstOff = uint32_t(v[k++]), region = uint32_t(v[k++]);
        for (int i = 0; i < 3; ++i) ip.pixelBoxLowerCorner[i] = int32_t(v[k++]);
        for (int i = 0; i < 3; ++i) ip.pixelBoxUpperCorner[i] = int32_t(v[k++]);
        std::array<uint16_t, 3> off{};
        for (int i = 0; i < 3; ++i) off[i] = uint16_t(v[k++]);
        auto enc = encodeIm2col(ip, TmaArch::Sm90);
        REQUIRE(enc.ok() == (rec.at("encode").get<int>() == 0));
        if (!enc.ok()) continue;
        ++n;
        const uint32_t base = rec.value("smem_base", 0x400u);
        const std::string wantErr =
            rec.contains("exec_error") ? rec.at("exec_error").get<std::string>() : "no error";
        MachineState st(1, kSentinel);
        Trace t;
        TraceBuilder tb(t);
        tb.beginInstr(id);
        Status s = okStatus();
        if (!store) {
            // probe_word_v1: word w of the allocation (from kAddr, slack below) holds w+1
            st.global.addRegion(kAddr - kSlack, 1 << 22, [](uint64_t o) {
                const uint32_t w = uint32_t(int64_t(o / 4) - int64_t(kSlack / 4) + 1);
                return uint8_t(w >> (8 * (o % 4)));
            });
            TmaIm2colLoad op;
            op.load.map = *enc;
            op.load.coords = c;
            op.load.dstAddr = base + dstOff;
            op.load.mbarAddr = kMbar;
            op.load.clusterDst = true;
            op.offsets = off;
            s = executeTmaIm2colLoad(op, st, tb);
        } else {
            st.global.addRegion(kAddr - kSlack, 1 << 20, [](uint64_t) { return kSentinel; });
            auto sm = st.smem[0].bytes();
            for (uint32_t j = 0; j < region / 4; ++j)
                for (uint32_t b = 0; b < 4; ++b)
                    sm[base + 4 * j + b] = uint8_t((0x40000000u + j + 1) >> (8 * b));
            TmaIm2colStore op;
            op.store.map = *enc;
            op.store.coords = c;
            op.store.srcAddr = base + dstOff;
            s = executeTmaIm2colStore(op, st, tb);
        }
        CHECK((s ? std::string("no error") : std::string(diagCodeName(s.error().code))) == wantErr);
        if (!s || wantErr != "no error") continue;
        if (!store) {
            const std::string want = rec.at("smem_hex").get<std::string>();
            const auto b = st.smem[0].bytes();
            CHECK(conform::toHex(b.data() + base, want.size() / 2) == want);
            for (uint32_t i = uint32_t(want.size() / 2); i < region; ++i) REQUIRE(b[base + i] == kSentinel);
            CHECK(txOf(st) == rec.at("tx").get<int64_t>());
        } else {
            std::vector<uint8_t> g(1 << 20);
            st.global.read(kAddr - kSlack, g);
            size_t lo = g.size(), hi = 0;
            for (size_t i = 0; i < g.size(); ++i)
                if (g[i] != kSentinel) lo = std::min(lo, i), hi = i + 1;
            REQUIRE(lo < hi);
            CHECK(int64_t(lo) - int64_t(kSlack) == rec.at("global_from").get<int64_t>());
            CHECK(conform::toHex(g.data() + lo, hi - lo) == rec.at("global_hex").get<std::string>());
        }
    }
    CHECK(n == 42);
}
