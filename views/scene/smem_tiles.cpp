// Tile boxes in shared memory, swizzle atoms (smem_tiles.hpp).
#include "scene/smem_tiles.hpp"

#include "scene/swizzle_scene.hpp"

#include "layoutscope/tma/tma.hpp"

#include <algorithm>
#include <bit>

namespace layoutscope::views {

bool SmemTile::inCta(uint32_t cta) const {
    return std::find(ctas.begin(), ctas.end(), cta) != ctas.end();
}

std::vector<SmemTile> smemTiles(const Document& doc) {
    std::vector<SmemTile> out;
    if (!doc.hasTrace()) return out;
    const Trace& t = doc.trace();
    for (uint32_t i = 0; i < t.instrs.size(); ++i) {
        const InstrTile* it = doc.tileOf(i);
        if (!it || !it->valid || it->map.mode != TensorMap::Mode::Tiled) continue;
        const TensorMapTiledParams& p = it->map.p;
        if (p.interleave != TensorInterleave::NONE || isSubByteType(p.dataType)) continue;
        const TraceInstr& in = t.instrs[i];
        SmemTile s;
        s.instr = i;
        s.firstStep = in.firstStep;
        bool gather = false;
        // The instruction's own moves (TraceInstr::firstMove..endMove), run by run: a run's instr, rule and
        // spaces are constant, and a run whose shared side keeps one CTA names it once (a multicast run
        // steps the CTA: walked move by move).
        const size_t field = it->load ? 3 : 1; // dst.cta / src.cta
        for (const MoveTable::RunSpan& rs :
             t.moves.runSpans(in.firstMove, std::min<uint64_t>(in.endMove, t.moves.size()))) {
            if (rs.first.instr != i) continue;
            gather |= rs.first.rule == RuleId::TmaGather4; // rows stacked from 4 coordinates: no single box
            if ((it->load ? rs.first.dst : rs.first.src).space != MemSpace::SharedCta) continue;
            t.moves.forSpanByField(rs, field, [&](const ByteMove& m, uint64_t) {
                const MemRef& r = it->load ? m.dst : m.src;
                if (!s.inCta(r.cta)) s.ctas.push_back(r.cta);
            });
        }
        if (gather || s.ctas.empty()) continue;
        std::sort(s.ctas.begin(), s.ctas.end());
        const TileGeometry g = tileGeometry(it->map);
        s.tile.swizzle = p.swizzle;
        s.tile.base = it->smemAddr;
        s.tile.rows = g.rows;
        s.tile.cols = g.count[0];
        s.tile.elemBytes = std::max(1u, g.elemBytes);
        s.tile.pitch = g.rowPitch;
        out.push_back(std::move(s));
    }
    return out;
}

const SmemTile* tileCovering(const std::vector<SmemTile>& tiles, uint32_t cta, uint32_t addr, uint32_t step) {
    const SmemTile* before = nullptr;
    const SmemTile* any = nullptr;
    for (const SmemTile& s : tiles) {
        if (!s.covers(cta, addr)) continue;
        if (!any) any = &s;
        if (s.firstStep < step) before = &s;
    }
    return before ? before : any;
}

std::optional<std::pair<uint32_t, uint32_t>> logicalOf(const TileInSmem& t, uint32_t addr) {
    const uint32_t logical = swizzleAddress(t.swizzle, addr); // an involution: see the header
    if (logical < t.base) return std::nullopt;
    const uint32_t off = logical - t.base;
    const uint32_t row = off / t.pitch, inRow = off % t.pitch;
    if (row >= t.rows || inRow >= t.cols * t.elemBytes) return std::nullopt;
    return std::pair{row, inRow / t.elemBytes};
}

std::vector<SwizzleAtom> swizzleAtoms(const std::vector<SmemTile>& tiles, const SmemWindow& window) {
    std::vector<SwizzleAtom> out;
    const uint32_t wLo = window.base, wHi = window.base + window.size;
    for (const SmemTile& s : tiles) {
        if (s.tile.swizzle == TensorSwizzle::NONE || !s.inCta(window.cta)) continue;
        const uint32_t period = swizzleInfo(s.tile.swizzle).periodBytes;
        if (period == 0) continue;
        const uint32_t lo = std::max(s.tile.base, wLo), hi = std::min(s.tile.base + s.bytes(), wHi);
        const bool seen = std::any_of(out.begin(), out.end(), [&](const SwizzleAtom& a) {
            return a.lo < s.tile.base + s.bytes() && s.tile.base < a.hi;
        });
        if (seen || lo >= hi) continue;
        const uint32_t first = s.tile.base / period;
        for (uint32_t k = lo / period; k * period < hi; ++k)
            out.push_back({std::max(k * period, lo), std::min((k + 1) * period, hi), s.instr, k - first});
    }
    return out;
}

std::string swizzleAtomCaption(TensorSwizzle mode, uint32_t elemBytes) {
    const SwizzleInfo info = swizzleInfo(mode);
    std::string s = info.name.empty() ? cudaName(mode) : "SWIZZLE_" + info.name;
    if (info.cuteBytes) {
        s += " = " + cuteName(*info.cuteBytes) + " on bytes";
        if (const auto e = cuteForElements(*info.cuteBytes, elemBytes))
            s += " = " + cuteName(*e) + " on " + std::to_string(elemBytes) + "-B elements";
    } else {
        s += " (no single Swizzle<B,M,S>)";
    }
    s += ", atom " + std::to_string(info.periodBytes) + " B (" + std::to_string(info.periodBytes / 128) +
         " rows x 128 B)";
    return s;
}

std::string tileLayoutText(const TileInSmem& t) {
    const uint32_t eb = std::max(1u, t.elemBytes);
    return "(" + std::to_string(t.rows) + "," + std::to_string(t.cols) + "):(" +
           std::to_string(t.pitch / eb) + ",1)";
}

} // namespace layoutscope::views
