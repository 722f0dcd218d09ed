#include "scene/tmem_scene.hpp"
#include "scene/tmem_dealloc.hpp"

#include "layoutscope/analysis/compare_match.hpp"
#include "layoutscope/tcgen05/tmem.hpp"

#include <algorithm>
#include <cstdio>

namespace layoutscope::views {

std::optional<TmemCellRef> TmemScene::cellAt(uint32_t x, uint32_t y) const {
    if (y >= 128 || x >= width()) return std::nullopt;
    const uint32_t k = x / (slot + kTmemPairGap), col = x % (slot + kTmemPairGap);
    if (col >= slot || k >= ctaCount) return std::nullopt;
    return TmemCellRef{firstCta + k, y, col};
}

std::optional<glm::uvec2> TmemScene::gridOf(TmemCellRef c) const {
    if (c.cta < firstCta || c.cta >= firstCta + ctaCount || c.lane >= 128 || c.column >= slot)
        return std::nullopt;
    return glm::uvec2(originOf(c.cta) + c.column, c.lane);
}

TmemScene narrowPair(const TmemScene& s, uint32_t columns) {
    TmemScene out = s;
    out.slot = std::clamp<uint32_t>(columns, 1, s.slot);
    const uint32_t w = out.width(), sw = s.width();
    const bool moves = s.moveOf.size() == s.texels.size();
    out.texels.assign(size_t(w) * 128,
                      Rgba8{kBackground.r, kBackground.g, kBackground.b, 0}); // gap: as built
    out.moveOf.assign(moves ? size_t(w) * 128 : 0, -1);
    for (uint32_t y = 0; y < 128; ++y)
        for (uint32_t k = 0; k < s.ctaCount; ++k)
            for (uint32_t c = 0; c < out.slot; ++c) {
                const size_t from = size_t(y) * sw + s.originOf(s.firstCta + k) + c;
                const size_t to = size_t(y) * w + out.originOf(out.firstCta + k) + c;
                if (from >= s.texels.size()) continue;
                out.texels[to] = s.texels[from];
                if (moves) out.moveOf[to] = s.moveOf[from];
            }
    return out;
}

std::pair<uint32_t, uint32_t> tmemCtasShown(const Document& doc, uint32_t cta) {
    if (!doc.hasTrace()) return {cta, 1};
    return tmemCtasOf(doc.trace(), cta); // the engine's, so `layoutscope-cli compare` covers these CTAs
}

static bool isAllocMove(const ByteMove& m) {
    return m.rule == RuleId::TmemAllocPolicy && m.src.space == MemSpace::None &&
           m.dst.space == MemSpace::SharedCta;
}

std::vector<TmemAllocBox> tmemAllocationsAt(const Document& doc, uint32_t step) {
    std::vector<TmemAllocBox> out = tmemAllocationsMade(doc, step);
    if (doc.hasTrace()) dropDeallocated(doc.trace(), std::min(step, doc.trace().stepCount), out);
    return out;
}

std::vector<TmemAllocBox> tmemAllocationsMade(const Document& doc, uint32_t step) {
    std::vector<TmemAllocBox> out;
    if (!doc.hasTrace()) return out;
    const Trace& t = doc.trace();
    step = std::min(step, t.stepCount);
    const size_t end = step == 0 ? 0 : t.movesOfStep(step - 1).second;
    for (size_t i = 0; i < end; ++i) {
        const ByteMove& m = t.moves[i];
        if (!isAllocMove(m)) continue;
        // nCols: the executor's summary reads "tcgen05.alloc N columns at column C".
        unsigned n = 0;
        const std::string& s = m.instr < t.instrs.size() ? t.instrs[m.instr].summary : std::string();
        if (std::sscanf(s.c_str(), "tcgen05.alloc %u", &n) != 1) n = kTmemAllocGranule;
        const uint32_t taddr = static_cast<uint32_t>(m.src.addr);
        out.push_back({m.dst.cta, decodeTmemAddress(taddr).column, n, taddr, m.instr});
    }
    return out;
}

void dropDeallocated(const Trace& t, uint32_t step, std::vector<TmemAllocBox>& allocs) {
    for (size_t i = 0; i < t.instrs.size(); ++i) {
        const TraceInstr& in = t.instrs[i];
        unsigned n = 0, col = 0;
        if (in.endStep > step ||
            std::sscanf(in.summary.c_str(), "tcgen05.dealloc %u columns at column %u", &n, &col) != 2)
            continue;
        // A `.cta_group::2` dealloc is the pair's collective one (ref tcgen05.md §2.2, PTX ISA §9.7.16.7.1:
        // one warp in each CTA of the pair), as the alloc recorded in both CTAs: it frees the columns in
        // each CTA, the first allocation of each; a `.cta_group::1` one the first allocation only.
        const bool pair = in.text.find(".cta_group::2") != std::string::npos;
        std::vector<uint32_t> freedIn; // CTAs whose allocation this dealloc freed
        for (auto a = allocs.begin(); a != allocs.end();) {
            const bool match =
                a->column == col && a->nCols == n && a->instr < i &&
                (freedIn.empty() || (pair && freedIn.size() < 2 &&
                                     std::find(freedIn.begin(), freedIn.end(), a->cta) == freedIn.end() &&
                                     (a->cta ^ freedIn.front()) == 1u));
            if (!match) {
                ++a;
                continue;
            }
            freedIn.push_back(a->cta);
            a = allocs.erase(a);
        }
    }
}

Rgba8 registerColour(uint32_t thread, uint32_t reg, uint32_t regCount) {
    return colourForCoord(static_cast<int>(thread), static_cast<int>(reg), 32,
                          static_cast<int>(std::max(1u, regCount)));
}

uint32_t registerCountOf(const Document& doc, uint32_t instr) {
    uint32_t n = 1;
    if (!doc.hasTrace() || instr >= doc.trace().instrs.size()) return n;
    const Trace& t = doc.trace();
    const TraceInstr& in = t.instrs[instr];
    if (in.endStep <= in.firstStep) return n;
    const size_t lo = t.movesOfStep(in.firstStep).first, hi = t.movesOfStep(in.endStep - 1).second;
    for (size_t i = lo; i < hi; ++i) {
        const ByteMove& m = t.moves[i];
        for (const MemRef* r : {&m.dst, &m.src})
            if (r->space == MemSpace::Register) n = std::max(n, uint32_t(r->addr & 0xFFFF) / 4 + 1);
    }
    return n;
}

/// Source row count and 16-byte chunks per row of a tcgen05.cp instruction (from its moves' coords).
struct CpFrame {
    int rows = 1, chunks = 1;
};

TmemScene tmemSceneAt(const Document& doc, uint32_t step, uint32_t cta, const SmemColourFn& smemColour) {
    TmemScene s;
    s.step = step;
    std::tie(s.firstCta, s.ctaCount) = tmemCtasShown(doc, cta);
    const uint32_t w = s.width();
    s.moveOf.assign(size_t(w) * 128, -1);
    s.texels.assign(size_t(w) * 128, Rgba8{kUntouched.r, kUntouched.g, kUntouched.b, 0});
    for (uint32_t y = 0; y < 128 && s.ctaCount == 2; ++y) // the gap between the pair
        for (uint32_t x = 512; x < 512 + kTmemPairGap; ++x)
            s.texels[size_t(y) * w + x] = Rgba8{kBackground.r, kBackground.g, kBackground.b, 0};
    if (!doc.hasTrace()) return s;
    const Trace& t = doc.trace();
    step = std::min(step, t.stepCount);
    s.step = step;
    s.allocs = tmemAllocationsAt(doc, step);
    const size_t end = step == 0 ? 0 : t.movesOfStep(step - 1).second;

    std::vector<CpFrame> cpFrames(t.instrs.size());
    std::vector<uint32_t> regCounts(t.instrs.size(), 0);
    auto cellIndex = [&](const MemRef& r, uint32_t extraCol) -> std::optional<size_t> {
        const TmemAddr a = decodeTmemAddress(static_cast<uint32_t>(r.addr));
        const auto g = s.gridOf({r.cta, a.lane, a.column + extraCol});
        if (!g) return std::nullopt;
        return size_t(g->y) * w + g->x;
    };
    for (size_t i = 0; i < t.moves.size(); ++i) { // whole instructions: colours stay put while scrubbing
        const ByteMove& m = t.moves[i];
        if (m.src.space == MemSpace::SharedCta && m.dst.space == MemSpace::TensorMemory &&
            m.instr < cpFrames.size()) {
            CpFrame& f = cpFrames[m.instr];
            f.rows = std::max(f.rows, m.coord[0] + 1);
            f.chunks = std::max(f.chunks, m.coord[1] + 1);
        }
    }
    const bool current = step > 0;
    for (size_t i = 0; i < end; ++i) {
        const ByteMove& m = t.moves[i];
        const bool now = current && m.step + 1 == step;
        if (m.dst.space != MemSpace::TensorMemory) {
            if (now && m.src.space == MemSpace::TensorMemory) // tcgen05.ld: highlight the cells read
                for (uint32_t c = 0; c < (m.length + 3) / 4; ++c)
                    if (auto k = cellIndex(m.src, c)) s.texels[*k].a |= kFlagCurrent;
            continue;
        }
        const uint32_t cells = (m.length + 3) / 4;
        for (uint32_t c = 0; c < cells; ++c) {
            const auto k = cellIndex(m.dst, c);
            if (!k) continue;
            Rgba8 col{200, 200, 200, 255};
            if (m.src.space == MemSpace::Register) {
                uint32_t& n = regCounts[m.instr];
                if (n == 0) n = registerCountOf(doc, m.instr);
                const uint32_t thread = uint32_t(m.src.addr >> 16) % 32,
                               reg = uint32_t(m.src.addr & 0xFFFF) / 4;
                col = registerColour(thread, reg, n);
            } else if (m.src.space == MemSpace::SharedCta) {
                // Source byte of this cell: 4 destination bytes per cell; decompression reads 4 or 6 bits per
                // byte.
                const uint32_t dstByte = 4 * c;
                const uint32_t srcByte = m.transform == Transform::Decompress4to8   ? dstByte / 2
                                         : m.transform == Transform::Decompress6to8 ? dstByte * 6 / 8
                                                                                    : dstByte;
                std::optional<Rgba8> sc =
                    smemColour ? smemColour(m.src.cta, uint32_t(m.src.addr) + srcByte) : std::nullopt;
                if (sc) {
                    col = *sc;
                } else {
                    const CpFrame& f = cpFrames[m.instr];
                    col = colourForCoord(m.coord[0], m.coord[1] * 4 + int(c), f.rows, f.chunks * 4);
                }
            } else if (m.src.space == MemSpace::TensorMemory) {
                if (auto from = cellIndex(m.src, c)) col = s.texels[*from];
            } else if (m.rule ==
                       RuleId::Tcgen05MmaValues) { // accumulator D: coord[0] = its row (lane offset)
                col = colourForCoord(m.coord[0], int(c), 128, int(cells));
                s.mmaShown = true;
            }
            col.a = kFlagWritten | (now ? kFlagCurrent : 0);
            s.texels[*k] = col;
            s.moveOf[*k] = static_cast<int32_t>(i);
        }
    }
    // Cells outside every live allocation: hatched (unallocated TMEM), only once something allocated.
    if (!s.allocs.empty()) {
        for (uint32_t k = 0; k < s.ctaCount; ++k) {
            const uint32_t c = s.firstCta + k;
            std::vector<bool> inAlloc(512, false);
            for (const TmemAllocBox& a : s.allocs)
                if (a.cta == c)
                    for (uint32_t col = a.column; col < std::min(512u, a.column + a.nCols); ++col)
                        inAlloc[col] = true;
            for (uint32_t col = 0; col < 512; ++col) {
                if (inAlloc[col]) continue;
                for (uint32_t lane = 0; lane < 128; ++lane)
                    s.texels[size_t(lane) * w + s.originOf(c) + col].a |= kFlagFill;
            }
        }
    }
    markObservedTmem(doc, s);
    return s;
}

void markObservedTmem(const Document& doc, TmemScene& s) {
    s.observedMarked = 0;
    for (const Document::ObservedCell& c : doc.observedTmemDiffers())
        if (const auto g = s.gridOf(TmemCellRef{c.cta, c.lane, c.column})) {
            const size_t i = size_t(g->y) * s.width() + g->x;
            if (i < s.texels.size()) s.texels[i].a |= kFlagDiffers, ++s.observedMarked;
        }
}

} // namespace layoutscope::views
