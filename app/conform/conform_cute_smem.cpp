// conform cute, shared-memory files (conform_cute.hpp): umma_smem_desc.json (UMMA descriptors and their
// element addresses, also against CuTe's smem_layout), swizzle.json (CuTe Swizzle<B,M,S> functors) and
// blockscaled_sf_utccp.json (scale-factor copies to Tensor Memory and the MMA's reads of them).
#include "conform/conform_cute.hpp"
#include "conform/cute_layout.hpp"
#include "layoutscope/tcgen05/smem_descriptor.hpp"
#include "layoutscope/tcgen05/tcgen05.hpp"
#include "layoutscope/tcgen05/tmem.hpp"
#include "layoutscope/tcgen05/umma.hpp"

#include <algorithm>
#include <array>
#include <regex>
#include <set>

namespace layoutscope::conform::cute {
namespace {

/// "Sw<B,M,S> ..." or "Swizzle<B,M,S>" -> the functor.
bool parseSwizzle(const std::string& s, CuteSwizzle& out) {
    static const std::regex re(R"(Sw(?:izzle)?<(\d+),(\d+),(\d+)>)");
    std::smatch m;
    if (!std::regex_search(s, m, re)) return false;
    out = {static_cast<uint32_t>(std::stoul(m[1])), static_cast<uint32_t>(std::stoul(m[2])),
           static_cast<uint32_t>(std::stoul(m[3]))};
    return true;
}

void checkDescriptorFields(Check& c, const Json& d, const std::string& hexKey) {
    const uint64_t v = std::stoull(d.at(hexKey).get<std::string>(), nullptr, 16);
    const SmemDescriptor s = decodeSmemDescriptor(v);
    auto opt = [&](const char* key, const Json& got) {
        if (d.contains(key)) c.eq(key, d.at(key), got);
    };
    opt("start_address_field", s.startAddress >> 4);
    opt("lbo_field", s.lbo >> 4);
    opt("sbo_field", s.sbo >> 4);
    opt("version_bits46_47", s.version & 3);
    opt("base_offset", s.baseOffset);
    opt("lbo_mode", s.lboMode);
    opt("layout_type", s.layoutType);
    opt("start_byte_offset", s.startAddress);
    opt("start_byte", s.startAddress);
    opt("lbo_bytes", s.lbo);
    opt("sbo_bytes", s.sbo);
    if (encodeSmemDescriptor(s) != v)
        c.fail("encode(decode(" + d.at(hexKey).get<std::string>() + ")) differs");
    if (Status st = validateSmemDescriptor(s); !st)
        c.fail("engine rejects the descriptor: " + st.error().message);
}

/// Every (mn, k) of every k-block: swizzle(bytes(smem_layout(mn, k, kb))) == elementAddress(desc[kb], mn, k).
CaseOutcome checkDescAgainstLayout(const Json& ex, const std::string& label, MatrixMajor major,
                                   uint32_t bits) {
    Check c{label + " every element vs CuTe smem_layout"};
    const std::string text = ex.at("smem_layout").get<std::string>();
    CuteSwizzle sw;
    if (!parseSwizzle(text, sw)) sw = {0, 4, 3};
    const CuteLayout l = parseCuteLayout(text);
    const CuteTuple &mk = l.shape.children.at(0), &mkStride = l.stride.children.at(0);
    const uint32_t mmaM = ex.at("mma_block")[0], mmaK = ex.at("mma_block")[1];
    for (const Json& d : ex.at("descriptors")) {
        const uint32_t kb = d.at("k_block");
        const SmemDescriptor s =
            decodeSmemDescriptor(std::stoull(d.at("desc_hex").get<std::string>(), nullptr, 16));
        for (uint32_t mn = 0; mn < mmaM; ++mn)
            for (uint32_t k = 0; k < mmaK; ++k) {
                const int64_t e = cuteOffset(mk.children.at(0), mkStride.children.at(0), mn) +
                                  cuteOffset(mk.children.at(1), mkStride.children.at(1), k) + l.mode(2, kb);
                const uint32_t cute = sw.apply(static_cast<uint32_t>(e * bits / 8));
                const uint32_t mine = elementAddress(s, major, bits, mn, k);
                if (cute != mine)
                    c.eq("k_block " + std::to_string(kb) + " (mn " + std::to_string(mn) + ", k " +
                             std::to_string(k) + ") byte address",
                         cute, mine);
            }
    }
    return c.done();
}

} // namespace

Outcomes checkDescExample(const Json& ex) {
    Outcomes out;
    const std::string label = "umma_smem_desc " + ex.value("label", "?");
    const MatrixMajor major = ex.at("major").get<std::string>() == "K" ? MatrixMajor::K : MatrixMajor::MN;
    const uint32_t bits = ex.at("sizeof_bits").get<uint32_t>();
    const Json& descs = ex.at("descriptors");
    for (const Json& d : descs) {
        Check c{label + " k_block " + std::to_string(d.value("k_block", 0))};
        checkDescriptorFields(c, d, "desc_hex");
        CuteSwizzle atomSw, mine = swizzleOfLayoutType(d.value("layout_type", 0u));
        if (parseSwizzle(ex.value("swizzle_atom", ""), atomSw))
            c.eq("swizzle of layout type", Json{atomSw.b, atomSw.m, atomSw.s}, Json{mine.b, mine.m, mine.s});
        out.push_back(c.done());
    }
    if (ex.contains("sample_kblock0_byte_offsets") && !descs.empty()) {
        Check c{label + " k_block 0 element addresses"};
        const SmemDescriptor s =
            decodeSmemDescriptor(std::stoull(descs[0].at("desc_hex").get<std::string>(), nullptr, 16));
        const Json& rows = ex.at("sample_kblock0_byte_offsets").at("values");
        for (uint32_t mn = 0; mn < rows.size(); ++mn)
            for (uint32_t k = 0; k < rows[mn].size(); ++k)
                c.eq("(mn " + std::to_string(mn) + ", k " + std::to_string(k) + ") byte address", rows[mn][k],
                     elementAddress(s, major, bits, mn, k));
        out.push_back(c.done());
    }
    if (ex.contains("smem_layout") && ex.contains("mma_block"))
        out.push_back(checkDescAgainstLayout(ex, label, major, bits));
    return out;
}

// --- swizzle.json ---------------------------------------------------------------------------------------

CaseOutcome checkSwizzle(const Json& e) {
    Check c{"swizzle " + e.value("swizzle", "?")};
    CuteSwizzle sw;
    if (!parseSwizzle(e.value("swizzle", ""), sw)) {
        c.fail("cannot parse the swizzle name");
        return c.done();
    }
    c.eq("yyy_mask", e.at("yyy_mask"), sw.yyyMask());
    c.eq("zzz_mask", e.at("zzz_mask"), sw.zzzMask());
    c.eq("shift", e.at("shift"), sw.s);
    if (e.contains("swizzle_code")) c.eq("swizzle_code", e.at("swizzle_code"), sw.yyyMask() | sw.zzzMask());
    const Json& t = e.at("byte_offset_0_2047");
    for (uint32_t x = 0; x < t.size(); ++x) c.eq("Swizzle(" + std::to_string(x) + ")", t[x], sw.apply(x));
    const uint32_t cell = 1u << std::max(sw.m, 4u), perRow = 128 / cell;
    const Json& perm = e.at("chunk_permutation_rows_0_15");
    for (uint32_t r = 0; r < perm.size(); ++r) {
        Json row = Json::array();
        for (uint32_t q = 0; q < perRow; ++q) row.push_back((sw.apply(128 * r + q * cell) % 128) / cell);
        c.eq("row " + std::to_string(r) + " cell permutation", perm[r], row);
    }
    const int tma = cuteSwizzleToTensorMapSwizzle(sw);
    if (e.contains("CUtensorMapSwizzle_value") && !e.at("CUtensorMapSwizzle_value").is_null())
        c.eq("CUtensorMapSwizzle value", e.at("CUtensorMapSwizzle_value"), tma);
    if (e.contains("tma_SmemSwizzleBits") && tma >= 0)
        c.eq("tma_SmemSwizzleBits", e.at("tma_SmemSwizzleBits"), sw.m == 4 ? sw.b : 3u);
    if (e.contains("tma_SmemSwizzleBase") && tma >= 0)
        c.eq("tma_SmemSwizzleBase", e.at("tma_SmemSwizzleBase"),
             sw.m == 4   ? 0u
             : sw.m == 5 ? 1u
                         : 3u); // 16B, 32B, 64B
    return c.done();
}

// --- blockscaled_sf_utccp.json ---------------------------------------------------------------------------

Outcomes checkBlockScaled(const Json& ex) {
    Outcomes out;
    const std::string label =
        "blockscaled " + ex.value("label", "?").substr(0, ex.value("label", "?").find(' '));
    const std::string op = ex.value("utccp_op", "");
    const size_t lp = op.find("(tcgen05.cp");
    Result<CpForm> f = parseCp(lp == std::string::npos ? op : op.substr(lp + 1, op.find(')', lp) - lp - 1));
    if (!f) {
        out.push_back({label, false, "cannot parse utccp_op: " + f.error().message});
        return out;
    }
    std::map<uint32_t, std::set<std::array<uint32_t, 3>>> got; // smem byte -> {lane, column, byte}
    for (const Json& cp : ex.at("copies")) {
        Check c{label + " copy " + std::to_string(cp.value("copy", 0))};
        std::string hexKey;
        for (auto it = cp.begin(); it != cp.end(); ++it)
            if (it.key().rfind("smem_desc_hex", 0) == 0) hexKey = it.key();
        checkDescriptorFields(c, cp, hexKey);
        const uint32_t taddr =
            static_cast<uint32_t>(std::stoul(cp.at("taddr").get<std::string>(), nullptr, 16));
        c.eq("taddr_lane", cp.at("taddr_lane"), decodeTmemAddress(taddr).lane & 0x3FFF);
        c.eq("taddr_col", cp.at("taddr_col"), decodeTmemAddress(taddr).column);
        if (cp.contains("taddr_subword_bits31_30"))
            c.eq("taddr bits 31:30", cp.at("taddr_subword_bits31_30"), taddr >> 30);
        out.push_back(c.done());
        const SmemDescriptor d =
            decodeSmemDescriptor(std::stoull(cp.at(hexKey).get<std::string>(), nullptr, 16));
        const TmemAddr t0 = decodeTmemAddress(taddr & 0x3FFFFFFF);
        for (uint32_t r = 0; r < cpSourceRows(f->shape); ++r)
            for (uint32_t b = 0; b < cpRowBytes(f->shape); ++b)
                for (uint32_t lane : cpRowLanes(*f, r))
                    got[cpSourceAddress(d, r, b)].insert({t0.lane + lane, t0.column + b / 4, b % 4});
    }
    Check m{label + " smem byte -> TMEM replicas (descriptor walk + " + cpShapeName(f->shape) + ")"};
    const Json& want = ex.at("smem_byte_to_tmem");
    m.eq("smem bytes covered", want.size(), got.size());
    for (const Json& e : want) {
        std::set<std::array<uint32_t, 3>> w;
        for (const Json& x : e[1])
            w.insert({x[0].get<uint32_t>(), x[1].get<uint32_t>(), x[2].get<uint32_t>()});
        const uint32_t byte = e[0].get<uint32_t>();
        m.eq("smem byte " + std::to_string(byte) + " -> [lane, column, byte]", Json(w), Json(got[byte]));
    }
    out.push_back(m.done());
    for (const Json& k : ex.value("mma_kblock_sf_taddr", Json::array())) {
        Check c{label + " mma k_block " + std::to_string(k.value("mma_k_block", 0)) + " SF taddr"};
        const uint32_t taddr =
            static_cast<uint32_t>(std::stoul(k.at("taddr").get<std::string>(), nullptr, 16));
        c.eq("col", k.at("col"), decodeTmemAddress(taddr).column);
        if (k.contains("sf_id(bits31_30)")) c.eq("sf_id (bits 31:30)", k.at("sf_id(bits31_30)"), taddr >> 30);
        // The MMA side (ummaScaleCell): SF j of row m in this k block is the tile's SF s = kblock * perRow +
        // j, at smem byte 16*(m%32) + 4*(m/32) + s%4 + 512*(s/4) (deduce_smem_layoutSFA); the cell the model
        // reads must be one of the replicas that byte was copied to.
        const uint32_t vs = ex.value("SFVecSize", 32u), mmaK = ex.value("TiledMma_K", 32u);
        UmmaOp op;
        op.kind = vs == 16 || mmaK == 64 ? UmmaKind::Mxf4nvf4 : UmmaKind::Mxf8f6f4;
        op.a = op.b = mmaK == 64 ? UmmaType::E2m1 : UmmaType::E4m3;
        op.scaleVecSize = vs;
        op.sfaTaddr = taddr & 0x3FFFFFFFu;
        op.sfaId = taddr >> 30;
        const uint32_t perRow = ummaScalesPerRow(op), kb = k.value("mma_k_block", 0u);
        const TmemAddr base = decodeTmemAddress(op.sfaTaddr);
        uint32_t bad = 0;
        for (uint32_t row = 0; row < op.m; ++row)
            for (uint32_t j = 0; j < perRow; ++j) {
                const UmmaDCell cell = ummaScaleCell(op, UmmaOperand::A, row, j);
                const uint32_t s = kb * perRow + j;
                const uint32_t byte = 16 * (row % 32) + 4 * (row / 32) + s % 4 + 512 * (s / 4);
                if (!got[byte].count({base.lane + cell.lane, base.column + cell.column, cell.byte})) ++bad;
            }
        c.eq("SF cells read by the MMA outside the copied replicas", 0, bad);
        out.push_back(c.done());
    }
    return out;
}

} // namespace layoutscope::conform::cute
