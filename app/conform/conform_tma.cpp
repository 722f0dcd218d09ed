// golden/tma tile loads, multicast loads and stores: rebuild each record's machine exactly as the
// README ("Load records", "Store records", "tx measurement") describes, run the engine's executor
// and compare encode result, execution error, every dumped shared/global byte and the tx count.
#include "conform/tma_records.hpp"
#include "layoutscope/tma/tma.hpp"

#include <cstdio>
#include <string>

namespace layoutscope::conform {
namespace {

constexpr uint8_t kSentinel = 0xA5; // README: smem (loads) / global (stores) initial byte
// README "Provenance": the 1024-aligned base used for every copy. Fault records omit the field.
constexpr uint32_t kDefaultSmemBase = 0x800;

std::string hex2(uint8_t b) {
    char s[4];
    std::snprintf(s, sizeof s, "%02x", b);
    return s;
}
std::string hexAddr(uint64_t v) {
    char s[24];
    std::snprintf(s, sizeof s, "0x%llx", static_cast<unsigned long long>(v));
    return s;
}

// Encode as the record did; nullopt-like: returns false with the outcome filled when done.
struct Encoded {
    std::optional<TensorMap> map;
    std::optional<CaseOutcome> done;
};

Encoded encodeFor(const Json& rec, const std::string& id) {
    const uint64_t ga = parseHexAddress(rec.at("global_address").get<std::string>());
    Result<TensorMap> enc = encodeFromJson(rec.at("tensor_map"), ga, 0, TmaArch::Sm90);
    const std::string expected = rec.value("encode_result", "CUDA_SUCCESS");
    Encoded e;
    if (expected != "CUDA_SUCCESS") {
        e.done = enc.ok() ? CaseOutcome{id, false, "encode: expected " + expected + ", the encoder accepted"}
                          : CaseOutcome{id, true, ""};
        return e;
    }
    if (!enc.ok()) {
        e.done = CaseOutcome{id, false, "encode: expected CUDA_SUCCESS, rejected: " + enc.error().message};
        return e;
    }
    e.map = std::move(enc).value();
    return e;
}

std::string errorName(const std::optional<Diagnostic>& d) {
    return d ? diagCodeName(d->code) : "no error";
}

// Compare the recorded execution error with ours; returns a message when they differ.
std::string compareError(const Json& rec, const std::optional<Diagnostic>& got) {
    const Json& ex = rec.value("exec_error", Json());
    const std::string want = ex.is_string() ? ex.get<std::string>() : "no error";
    const std::string have = errorName(got);
    if (want == have) return {};
    return "exec_error: expected " + want + ", got " + have + (got ? " (" + got->message + ")" : "");
}

std::array<int32_t, 5> coordsOf(const Json& a) {
    std::array<int32_t, 5> c{};
    for (size_t i = 0; i < a.size() && i < c.size(); ++i) c[i] = a[i].get<int32_t>();
    return c;
}

// Where a physical shared byte sits in the box of a copy at dstAddr (swizzles are involutions).
std::string boxPosition(const TensorMap& map, uint32_t dstAddr, uint32_t physAddr) {
    const uint32_t logical = swizzleAddress(map.p.swizzle, physAddr);
    if (logical < dstAddr) return "before the box";
    const TileGeometry g = tileGeometry(map);
    if (g.rowPitch == 0) return "?";
    const uint32_t off = logical - dstAddr;
    const uint32_t row = off / g.rowPitch, byte = off % g.rowPitch;
    if (row >= g.rows) return "after the box";
    return "row " + std::to_string(row) + ", byte " + std::to_string(byte) +
           (byte >= g.innerBytes ? " (row padding)" : "") + ", logical offset " + std::to_string(off);
}

// im2col issues (appended by im2col): the mode from the opcode, im2col_offsets as {offW, offH, offD}
// (.im2col) or {wHalo, wOffset} (.im2col::w / ::w::128).
TmaIm2colLoad im2colLoadOf(const TmaTileLoad& ld, const Json& is) {
    TmaIm2colLoad op;
    op.load = ld;
    op.load.clusterDst = is.value("instruction", "").find(".shared::cluster") != std::string::npos;
    const std::string instr = is.value("instruction", "");
    op.mode = instr.find(".im2col::w::128") != std::string::npos ? TmaIm2colMode::W128
              : instr.find(".im2col::w") != std::string::npos    ? TmaIm2colMode::W
                                                                 : TmaIm2colMode::Im2col;
    const Json& offs = is.value("im2col_offsets", Json::array());
    std::array<uint16_t, 3> v{};
    for (size_t i = 0; i < offs.size() && i < v.size(); ++i) v[i] = offs[i].get<uint16_t>();
    if (op.mode == TmaIm2colMode::Im2col)
        op.offsets = v;
    else
        op.wHalo = v[0], op.wOffset = v[1];
    return op;
}

} // namespace

CaseOutcome checkTileLoadRecord(const Json& rec) {
    const std::string id = rec.value("case_id", "?");
    Encoded enc = encodeFor(rec, id);
    if (enc.done) return *enc.done;
    const TensorMap& map = *enc.map;

    const uint32_t clusterSize = rec.value("cluster_size", 1u);
    const uint32_t eb = rec.at("elem_bytes").get<uint32_t>();
    const uint32_t base = rec.value("smem_base_addr", kDefaultSmemBase);
    const uint32_t regionLen = rec.value("region_len", 0u);
    // The mbarrier: any 8-aligned address outside the dumped region (the record does not give it).
    const uint32_t mbarAddr = kSmemBytesPerCta - 64;
    if (base + regionLen > mbarAddr)
        return {id, false, "dumped region overlaps the model's mbarrier address"};

    MachineState state(clusterSize, kSentinel);
    state.global.addRegion(map.p.globalAddress, rec.at("global_alloc_bytes").get<uint64_t>(),
                           [eb](uint64_t off) { return indexPatternByte(off, eb); });

    std::optional<Diagnostic> fault;
    uint32_t firstDst = base;
    Trace trace;
    TraceBuilder tb(trace);
    for (const Json& is : rec.at("issues")) {
        TmaTileLoad ld;
        ld.map = map;
        ld.coords = coordsOf(is.at("coords"));
        ld.issuingCta = is.at("cta").get<uint32_t>();
        ld.dstCta = ld.issuingCta;
        ld.dstAddr = base + is.at("dst_offset").get<uint32_t>();
        ld.mbarAddr = mbarAddr;
        ld.multicast = is.value("multicast", false);
        if (is.contains("cta_mask") && is.at("cta_mask").is_number())
            ld.ctaMask = is.at("cta_mask").get<uint16_t>();
        if (&is == &rec.at("issues").front()) firstDst = ld.dstAddr;
        tb.beginInstr(is.value("instruction", "cp.async.bulk.tensor"));
        Status st = map.mode == TensorMap::Mode::Tiled
                        ? executeTmaLoad(ld, state, tb)
                        : executeTmaIm2colLoad(im2colLoadOf(ld, is), state, tb);
        tb.endInstr();
        if (!st) {
            fault = st.error(); // the error kills the context: later issues never run
            break;
        }
    }
    if (std::string m = compareError(rec, fault); !m.empty()) return {id, false, m};
    if (fault || !rec.contains("ctas")) return {id, true, ""};

    for (const Json& c : rec.at("ctas")) {
        const uint32_t cta = c.at("cta").get<uint32_t>();
        if (cta >= clusterSize)
            return {id, false, "record names CTA " + std::to_string(cta) + " outside the cluster"};
        const std::vector<uint8_t> want = fromHex(c.at("smem_hex").get<std::string>());
        const auto have = state.smem[cta].bytes();
        for (size_t i = 0; i < want.size(); ++i) {
            const uint8_t got = base + i < have.size() ? have[base + i] : 0;
            if (got != want[i])
                return {id, false,
                        "cta " + std::to_string(cta) + " smem byte " + hexAddr(i) + ": expected " +
                            hex2(want[i]) + ", got " + hex2(got) + " (" +
                            boxPosition(map, firstDst, uint32_t(base + i)) + ")"};
        }
        const Json& tx = c.value("measured_tx_bytes", Json());
        if (tx.is_number()) {
            auto it = state.mbarriers.find({cta, mbarAddr});
            const int64_t credited = it == state.mbarriers.end() ? 0 : it->second.completedBytes;
            if (credited != tx.get<int64_t>())
                return {id, false,
                        "cta " + std::to_string(cta) + " tx bytes: expected " +
                            std::to_string(tx.get<int64_t>()) + ", got " + std::to_string(credited)};
        }
    }
    return {id, true, ""};
}

CaseOutcome checkStoreRecord(const Json& rec) {
    const std::string id = rec.value("case_id", "?");
    Encoded enc = encodeFor(rec, id);
    if (enc.done) return *enc.done;
    const TensorMap& map = *enc.map;

    const uint32_t eb = rec.at("elem_bytes").get<uint32_t>();
    const uint32_t base = rec.value("smem_base_addr", kDefaultSmemBase);
    const uint32_t regionLen = rec.value("region_len", 0u);
    const uint64_t allocBytes = rec.at("global_alloc_bytes").get<uint64_t>();

    MachineState state(1, 0);
    auto smem = state.smem[0].bytes();
    if (base + regionLen > smem.size()) return {id, false, "region exceeds shared memory"};
    for (uint32_t o = 0; o < regionLen; ++o) smem[base + o] = indexPatternByte(o, eb); // j counted from base
    state.global.addRegion(map.p.globalAddress, allocBytes, [](uint64_t) { return kSentinel; });

    TmaTileStore st;
    st.map = map;
    st.coords = coordsOf(rec.at("coords"));
    st.srcCta = 0;
    st.srcAddr = base + rec.at("src_offset").get<uint32_t>();
    Trace trace;
    TraceBuilder tb(trace);
    tb.beginInstr(rec.value("instruction", "cp.async.bulk.tensor"));
    Status s = executeTmaStore(st, state, tb);
    tb.endInstr();
    std::optional<Diagnostic> fault;
    if (!s) fault = s.error();
    if (std::string m = compareError(rec, fault); !m.empty()) return {id, false, m};
    if (fault || !rec.contains("global_hex")) return {id, true, ""};

    const std::vector<uint8_t> want = fromHex(rec.at("global_hex").get<std::string>());
    std::vector<uint8_t> have(want.size());
    state.global.read(map.p.globalAddress, have);
    const uint64_t rowBytes = map.p.tensorRank > 1 ? map.p.globalStrides[0] : 0;
    for (size_t i = 0; i < want.size(); ++i) {
        if (have[i] == want[i]) continue;
        std::string where = rowBytes ? "row " + std::to_string(i / rowBytes) + ", element " +
                                           std::to_string((i % rowBytes) / eb)
                                     : "element " + std::to_string(i / eb);
        return {id, false,
                "global byte " + hexAddr(i) + ": expected " + hex2(want[i]) + ", got " + hex2(have[i]) +
                    " (" + where + ")"};
    }
    return {id, true, ""};
}

} // namespace layoutscope::conform
