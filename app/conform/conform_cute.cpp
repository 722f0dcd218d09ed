// conform cute: golden/cute/*.json (CuTe-derived tcgen05 maps, UMMA descriptors, swizzles) against the
// engine's rules. Files are recognised by their content (README of golden/cute), never by name, and atoms
// are understood only through the PTX form they name.
#include "conform/conform.hpp"
#include "conform/cute_layout.hpp"
#include "layoutscope/core/file_read.hpp"
#include "layoutscope/tcgen05/smem_descriptor.hpp"
#include "layoutscope/tcgen05/tcgen05.hpp"
#include "layoutscope/tcgen05/tmem.hpp"
#include "layoutscope/tcgen05/umma.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace layoutscope::conform {
namespace {

using Json = nlohmann::json;
using Outcomes = std::vector<CaseOutcome>;

std::string str(const Json& j) {
    return j.dump();
}

/// Collects every difference of one check unit: the first kListed are kept verbatim, the rest counted.
struct Check {
    static constexpr size_t kListed = 8;
    std::string id;
    std::vector<std::string> listed;
    size_t found = 0;
    bool eq(const std::string& what, const Json& expected, const Json& got) {
        if (expected != got) fail(what + ": expected " + str(expected) + ", got " + str(got));
        return expected == got;
    }
    void fail(std::string msg) {
        if (found++ < kListed) listed.push_back(std::move(msg));
    }
    [[nodiscard]] CaseOutcome done() const {
        CaseOutcome o{id, found == 0, listed.empty() ? std::string() : listed.front()};
        if (listed.size() > 1) o.moreDifferences.assign(listed.begin() + 1, listed.end());
        o.unlistedDifferences = found - listed.size();
        return o;
    }
};

Json segmentsJson(const std::vector<RegSegment>& segs) {
    Json a = Json::array();
    for (const RegSegment& s : segs) a.push_back({s.regBitLo, s.nbits, s.laneOff, s.colOff, s.tmemBitLo});
    return a;
}

/// `SM100_TMEM_{LOAD,STORE}_<dp>dp<bits>b<num>x[_16b]` names a PTX shape: 32dp32b -> 32x32b, 16dp32b ->
/// 16x32bx2 (CuTe passes imm = N, 2N packed), 16dp<bits>b -> 16x<bits>b.
Result<LdStForm> formFromAtomName(const std::string& name) {
    static const std::regex re(R"(TMEM_(LOAD|STORE)\w*?_(16|32)dp(\d+)b(\d+)x(_16b)?)");
    std::smatch m;
    if (!std::regex_search(name, m, re))
        return Diagnostic{Severity::Error, DiagCode::Syntax, {}, "atom name names no PTX shape: " + name};
    const std::string dp = m[2], bits = m[3], num = m[4];
    const bool store = m[1] == "STORE", pack = m[5].matched;
    const std::string shape = dp == "32"     ? dp + "x" + bits + "b"
                              : bits == "32" ? "16x32bx2"
                                             : "16x" + bits + "b";
    std::string ptx = std::string("tcgen05.") + (store ? "st" : "ld") + ".sync.aligned." + shape + ".x" +
                      num + (pack ? (store ? ".unpack::16b" : ".pack::16b") : "") + ".b32";
    Result<LdStForm> f = parseLdSt(ptx);
    if (f && f->shape == LdStShape::k16x32bx2) f->immHalfSplitoff = int64_t{std::stoi(num)} * (pack ? 2 : 1);
    return f;
}

// --- tmem_ld_st.json -----------------------------------------------------------------------------------

CaseOutcome checkLdStAtom(const Json& atom, const std::map<std::string, const Json*>& byName) {
    Check c{"tmem_ld_st " + atom.value("name", "?")};
    Result<LdStForm> f = parseLdSt(atom.at("ptx_emitted").get<std::string>());
    if (!f) {
        c.fail("cannot parse ptx_emitted: " + f.error().message);
        return c.done();
    }
    c.eq("store", atom.value("cute_op_kind", "").rfind("tcgen05.st", 0) == 0, f->store);
    c.eq(".shape", atom.at("ptx_shape"), ldStShapeName(f->shape));
    c.eq(".num", atom.at("ptx_num"), f->num);
    const Json& packKey = f->store ? atom.at("unpack_16b") : atom.at("pack_16b");
    if (!packKey.is_null()) c.eq(f->store ? "unpack_16b" : "pack_16b", packKey, f->pack16b);
    if (!atom.at("imm_half_splitoff").is_null())
        c.eq("immHalfSplitoff", atom.at("imm_half_splitoff"), f->immHalfSplitoff);
    c.eq("regs_per_thread", atom.at("regs_per_thread"), regsPerThread(*f));
    c.eq("tmem_lanes_touched_per_warp", atom.at("tmem_lanes_touched_per_warp"), lanesTouched(*f));
    c.eq("tmem_cols_touched", atom.at("tmem_cols_touched"), ldStFootprint(*f).cols);
    const Json* map = atom.contains("map") ? &atom.at("map") : nullptr;
    std::string noMap = "it has no map";
    if (!map && atom.contains("map_same_as")) {
        const std::string twin = atom.at("map_same_as").get<std::string>();
        auto it = byName.find(twin);
        if (it != byName.end() && it->second->contains("map"))
            map = &it->second->at("map");
        else
            noMap = "its map_same_as twin " + twin + " is not in this file (or has no map)";
    }
    // Without a map and without cute_layouts (checkLdStAgainstLayouts) the register map is never compared.
    if (!map && !atom.contains("cute_layouts"))
        c.fail("nothing could be compared for the register map: " + noMap + " and it has no cute_layouts");
    if (map) {
        c.eq("threads in map", map->size(), size_t{32});
        for (uint32_t t = 0; t < 32 && t < map->size(); ++t) {
            const Json& regs = (*map)[t];
            c.eq("thread " + std::to_string(t) + " register count", regs.size(), size_t{regsPerThread(*f)});
            for (uint32_t j = 0; j < regs.size(); ++j)
                c.eq("thread " + std::to_string(t) + " r" + std::to_string(j) +
                         " segments [regbit,n,lane,col,bit]",
                     regs[j], segmentsJson(ldStSegments(*f, t, j)));
        }
    }
    return c.done();
}

/// Register bit v of thread t is TMEM bit ValID(R(t, v)), R = DstLayout (load) or SrcLayout (store), bit
/// address a: lane a>>21, column (a>>5)&0xFFFF, bit a&31 (golden/cute README §1). Independent of `map`, so it
/// also checks stores whose load twin is not in the file.
CaseOutcome checkLdStAgainstLayouts(const Json& atom, const LdStForm& f) {
    Check c{"tmem_ld_st " + atom.value("name", "?") + " vs CuTe ValID o " +
            (f.store ? "SrcLayout" : "DstLayout")};
    const Json& cl = atom.at("cute_layouts");
    const CuteLayout valId = parseCuteLayout(cl.at("ValID").get<std::string>());
    const CuteLayout reg = parseCuteLayout(cl.at(f.store ? "SrcLayout" : "DstLayout").get<std::string>());
    c.eq("register bits per thread", reg.modeSize(1), int64_t{32} * regsPerThread(f));
    for (uint32_t t = 0; t < 32; ++t)
        for (uint32_t v = 0; v < 32 * regsPerThread(f); ++v) {
            const int64_t a = valId(reg.mode(0, t) + reg.mode(1, v));
            const TmemBit b = ldStBit(f, t, v / 32, v % 32);
            if (b.laneOff != (a >> 21) || b.colOff != ((a >> 5) & 0xFFFF) || b.bit != (a & 31))
                c.eq("thread " + std::to_string(t) + " r" + std::to_string(v / 32) + " bit " +
                         std::to_string(v % 32) + " -> [lane, column, bit]",
                     Json{a >> 21, (a >> 5) & 0xFFFF, a & 31}, Json{b.laneOff, b.colOff, b.bit});
        }
    return c.done();
}

// --- tmem_ld_st_tiled_examples.json --------------------------------------------------------------------

CaseOutcome checkTiledExample(const Json& ex) {
    Check c{"tmem tiled " + ex.value("atom", "?")};
    Result<LdStForm> f = formFromAtomName(ex.at("atom").get<std::string>());
    if (!f) {
        c.fail(f.error().message);
        return c.done();
    }
    for (const Json& th : ex.at("threads")) {
        const uint32_t tid = th.at("tid").get<uint32_t>();
        for (size_t n = 0; n < th.at("copies").size(); ++n) {
            const Json& cp = th.at("copies")[n];
            const uint32_t lane = cp.at("taddr_lane").get<uint32_t>(),
                           col = cp.at("taddr_col").get<uint32_t>();
            const std::string where = "tid " + std::to_string(tid) + " copy " + std::to_string(n);
            if (Status s = checkLdStAccess(*f, tid / 32, tmemAddress(lane, col)); !s)
                c.fail(where + ": engine rejects the access: " + s.error().message);
            const Json& regs = cp.at("reg_mn");
            for (uint32_t j = 0; j < regs.size(); ++j) {
                const RegSegment s = ldStSegments(*f, tid % 32, j).front();
                c.eq(where + " r" + std::to_string(j) + " (m,n)", regs[j],
                     Json{lane + s.laneOff, col + s.colOff});
            }
        }
    }
    return c.done();
}

// --- utccp.json ----------------------------------------------------------------------------------------

CaseOutcome checkUtccpAtom(const Json& atom) {
    Check c{"utccp " + atom.value("name", "?")};
    Result<CpForm> f = parseCp(atom.at("ptx_emitted").get<std::string>());
    if (!f) {
        c.fail("cannot parse ptx_emitted: " + f.error().message);
        return c.done();
    }
    c.eq(".shape", atom.at("ptx_shape"), cpShapeName(f->shape));
    c.eq("cta_group", atom.at("cta_group"), f->ctaGroup);
    c.eq("src_rows", atom.at("src_rows"), cpSourceRows(f->shape));
    c.eq("src_row_bits", atom.at("src_row_bits"), 8 * cpRowBytes(f->shape));
    c.eq("tmem_cols_per_row", atom.at("tmem_cols_per_row"), cpRowBytes(f->shape) / 4);
    const Json& rows = atom.at("src_row_to_dst_lanes");
    c.eq("row count", rows.size(), size_t{cpSourceRows(f->shape)});
    for (auto it = rows.begin(); it != rows.end(); ++it) {
        const uint32_t r = static_cast<uint32_t>(std::stoul(it.key()));
        c.eq("row " + it.key() + " -> lanes", it.value(), Json(cpRowLanes(*f, r)));
    }
    return c.done();
}

// --- umma_smem_desc.json -------------------------------------------------------------------------------

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

// --- dispatch ------------------------------------------------------------------------------------------

Outcomes checkFile(const Json& doc, const std::string& file) {
    Outcomes out;
    auto guard = [&](const std::string& id, auto&& fn) {
        try {
            fn();
        } catch (const std::exception& e) {
            out.push_back({id, false, std::string("malformed record: ") + e.what()});
        }
    };
    if (doc.contains("atoms")) {
        std::map<std::string, const Json*> byName;
        for (const Json& a : doc.at("atoms")) byName[a.value("name", "")] = &a;
        for (const Json& a : doc.at("atoms")) {
            const std::string id = file + " " + a.value("name", "?");
            if (a.contains("src_row_to_dst_lanes"))
                guard(id, [&] { out.push_back(checkUtccpAtom(a)); });
            else
                guard(id, [&] {
                    out.push_back(checkLdStAtom(a, byName));
                    Result<LdStForm> f = parseLdSt(a.at("ptx_emitted").get<std::string>());
                    if (f && a.contains("cute_layouts")) out.push_back(checkLdStAgainstLayouts(a, *f));
                });
        }
    } else if (doc.contains("swizzles")) {
        for (const Json& s : doc.at("swizzles")) guard(file, [&] { out.push_back(checkSwizzle(s)); });
    } else if (doc.contains("examples")) {
        for (const Json& e : doc.at("examples")) {
            const std::string id = file + " " + e.value("label", e.value("atom", "?"));
            if (e.contains("threads"))
                guard(id, [&] { out.push_back(checkTiledExample(e)); });
            else if (e.contains("descriptors"))
                guard(id, [&] {
                    auto o = checkDescExample(e);
                    out.insert(out.end(), o.begin(), o.end());
                });
            else if (e.contains("smem_byte_to_tmem"))
                guard(id, [&] {
                    auto o = checkBlockScaled(e);
                    out.insert(out.end(), o.begin(), o.end());
                });
            else
                out.push_back({id, false, "example of an unknown kind"});
        }
    } else {
        out.push_back({file, false, "not a golden/cute file (no atoms, examples or swizzles)"});
    }
    return out;
}

} // namespace

Result<std::vector<CaseOutcome>> conformCute(const std::string& path) {
    namespace fs = std::filesystem;
    std::vector<fs::path> files;
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        for (const auto& e : fs::directory_iterator(path, ec))
            if (e.path().extension() == ".json") files.push_back(e.path());
        std::sort(files.begin(), files.end());
    } else {
        files.push_back(path);
    }
    if (files.empty())
        return Diagnostic{Severity::Error, DiagCode::Io, {}, path + ": no .json files", "golden/cute README"};
    Outcomes all;
    for (const fs::path& p : files) {
        auto text = readInputFile(p.string(), kMaxGoldenFileBytes, p.string());
        if (!text) return text.diagnostics();
        Json doc = Json::parse(*text, nullptr, /*allow_exceptions=*/false);
        if (doc.is_discarded()) {
            all.push_back({p.filename().string(), false, "not valid JSON"});
            continue;
        }
        Outcomes o = checkFile(doc, p.filename().string());
        all.insert(all.end(), o.begin(), o.end());
    }
    return all;
}

} // namespace layoutscope::conform
