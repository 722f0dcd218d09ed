// conform cute, Tensor Memory files (conform_cute.hpp): tmem_ld_st.json (tcgen05.ld/st register maps, also
// against CuTe's ValID/DstLayout/SrcLayout), tmem_ld_st_tiled_examples.json and utccp.json (tcgen05.cp
// row-to-lane maps) against the engine's rules.
#include "conform/conform_cute.hpp"
#include "conform/cute_layout.hpp"
#include "layoutscope/tcgen05/tcgen05.hpp"
#include "layoutscope/tcgen05/tmem.hpp"

#include <regex>

namespace layoutscope::conform::cute {
namespace {

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

} // namespace

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

} // namespace layoutscope::conform::cute
