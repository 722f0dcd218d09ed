#include "scene/tmem_scene_cache.hpp"
#include "scene/tmem_dealloc.hpp"

#include "layoutscope/tcgen05/tmem.hpp"

#include <algorithm>
#include <cstdio>

namespace layoutscope::views {

TmemSceneCache::TmemSceneCache(const Document& doc, uint32_t cta) : m_doc(doc) {
    std::tie(m_shape.firstCta, m_shape.ctaCount) = tmemCtasShown(doc, cta);
    const size_t n = size_t(m_shape.width()) * 128;
    m_state.texels.assign(n, Rgba8{kUntouched.r, kUntouched.g, kUntouched.b, 0});
    m_state.moveOf.assign(n, -1);
    for (uint32_t y = 0; y < 128 && m_shape.ctaCount == 2; ++y)
        for (uint32_t x = 512; x < 512 + kTmemPairGap; ++x)
            m_state.texels[size_t(y) * m_shape.width() + x] =
                Rgba8{kBackground.r, kBackground.g, kBackground.b, 0};
    if (!doc.hasTrace()) return;
    const Trace& t = doc.trace();
    m_regCounts.assign(t.instrs.size(), 1);
    m_cpFrames.assign(t.instrs.size(), {1, 1});
    for (size_t i = 0; i < t.moves.size(); ++i) {
        const ByteMove& m = t.moves[i];
        if (m.instr >= t.instrs.size()) continue;
        for (const MemRef* r : {&m.dst, &m.src})
            if (r->space == MemSpace::Register)
                m_regCounts[m.instr] = std::max(m_regCounts[m.instr], uint32_t(r->addr & 0xFFFF) / 4 + 1);
        if (m.src.space == MemSpace::SharedCta && m.dst.space == MemSpace::TensorMemory) {
            auto& f = m_cpFrames[m.instr];
            f = {std::max(f.first, m.coord[0] + 1), std::max(f.second, m.coord[1] + 1)};
        }
        if (m.rule == RuleId::TmemAllocPolicy && m.src.space == MemSpace::None &&
            m.dst.space == MemSpace::SharedCta)
            m_allocMoves.push_back(i);
    }
    m_checkpoints.emplace(0, m_state);
}

void TmemSceneCache::applyMove(size_t i, const SmemColourFn& smemColour) {
    const ByteMove& m = m_doc.trace().moves[i];
    if (m.dst.space != MemSpace::TensorMemory) return;
    const uint32_t w = m_shape.width();
    auto cellIndex = [&](const MemRef& r, uint32_t extra) -> std::optional<size_t> {
        const TmemAddr a = decodeTmemAddress(uint32_t(r.addr));
        const auto g = m_shape.gridOf({r.cta, a.lane, a.column + extra});
        if (!g) return std::nullopt;
        return size_t(g->y) * w + g->x;
    };
    for (uint32_t c = 0; c < (m.length + 3) / 4; ++c) {
        const auto k = cellIndex(m.dst, c);
        if (!k) continue;
        Rgba8 col{200, 200, 200, 255};
        if (m.src.space == MemSpace::Register) {
            col = registerColour(uint32_t(m.src.addr >> 16) % 32, uint32_t(m.src.addr & 0xFFFF) / 4,
                                 m_regCounts[m.instr]);
        } else if (m.src.space == MemSpace::SharedCta) {
            const uint32_t dstByte = 4 * c;
            const uint32_t srcByte = m.transform == Transform::Decompress4to8   ? dstByte / 2
                                     : m.transform == Transform::Decompress6to8 ? dstByte * 6 / 8
                                                                                : dstByte;
            std::optional<Rgba8> sc =
                smemColour ? smemColour(m.src.cta, uint32_t(m.src.addr) + srcByte) : std::nullopt;
            const auto [rows, chunks] = m_cpFrames[m.instr];
            col = sc ? *sc : colourForCoord(m.coord[0], m.coord[1] * 4 + int(c), rows, chunks * 4);
        } else if (m.src.space == MemSpace::TensorMemory) {
            if (auto from = cellIndex(m.src, c)) col = m_state.texels[*from];
        } else if (m.rule == RuleId::Tcgen05MmaValues) { // accumulator D: coord[0] = its row (lane offset)
            col = colourForCoord(m.coord[0], int(c), 128, int((m.length + 3) / 4));
            m_state.mma = true;
        }
        col.a = kFlagWritten;
        m_state.texels[*k] = col;
        m_state.moveOf[*k] = static_cast<int32_t>(i);
    }
}

void TmemSceneCache::advanceTo(uint32_t step, const SmemColourFn& smemColour) {
    const Trace& t = m_doc.trace();
    while (m_step < step) {
        // Up to the next checkpoint boundary (or `step`), then record the checkpoint.
        const uint32_t next = std::min(step, (m_step / kCheckpointSteps + 1) * kCheckpointSteps);
        const size_t lo = t.movesOfStep(m_step).first, hi = t.movesOfStep(next - 1).second;
        for (size_t i = lo; i < hi; ++i) applyMove(i, smemColour);
        m_step = next;
        if (m_step % kCheckpointSteps == 0 && !m_checkpoints.count(m_step))
            m_checkpoints.emplace(m_step, m_state);
    }
}

const TmemScene& TmemSceneCache::seek(uint32_t step, const SmemColourFn& smemColour) {
    m_out.firstCta = m_shape.firstCta;
    m_out.ctaCount = m_shape.ctaCount;
    if (!m_doc.hasTrace()) {
        m_out.texels = m_state.texels;
        m_out.moveOf = m_state.moveOf;
        return m_out;
    }
    const Trace& t = m_doc.trace();
    step = std::min(step, t.stepCount);
    if (step < m_step) { // back to the last checkpoint at or before `step`
        auto it = std::prev(m_checkpoints.upper_bound(step));
        m_state = it->second;
        m_step = it->first;
    } else if (step - m_step > kCheckpointSteps) { // a long jump forwards: start from the nearest checkpoint
        auto it = std::prev(m_checkpoints.upper_bound(step));
        if (it->first > m_step) {
            m_state = it->second;
            m_step = it->first;
        }
    }
    advanceTo(step, smemColour);
    m_out.step = step;
    m_out.texels = m_state.texels;
    m_out.moveOf = m_state.moveOf;
    m_out.mmaShown = m_state.mma;
    m_out.allocs.clear();
    for (size_t i : m_allocMoves) {
        const ByteMove& m = t.moves[i];
        if (m.step >= step) break;
        unsigned n = 0;
        if (std::sscanf(t.instrs[m.instr].summary.c_str(), "tcgen05.alloc %u", &n) != 1)
            n = kTmemAllocGranule;
        const uint32_t taddr = uint32_t(m.src.addr);
        m_out.allocs.push_back({m.dst.cta, decodeTmemAddress(taddr).column, n, taddr, m.instr});
    }
    dropDeallocated(t, step, m_out.allocs); // no frame after tcgen05.dealloc
    // Transient flags: moved (written or read) by the step just played; outside every allocation.
    const uint32_t w = m_shape.width();
    if (step > 0) {
        const auto [lo, hi] = t.movesOfStep(step - 1);
        for (size_t i = lo; i < hi; ++i) {
            const ByteMove& m = t.moves[i];
            const MemRef* r = m.dst.space == MemSpace::TensorMemory   ? &m.dst
                              : m.src.space == MemSpace::TensorMemory ? &m.src
                                                                      : nullptr;
            if (!r) continue;
            const TmemAddr a = decodeTmemAddress(uint32_t(r->addr));
            for (uint32_t c = 0; c < (m.length + 3) / 4; ++c)
                if (auto g = m_out.gridOf({r->cta, a.lane, a.column + c}))
                    m_out.texels[size_t(g->y) * w + g->x].a |= kFlagCurrent;
        }
    }
    if (!m_out.allocs.empty()) {
        for (uint32_t k = 0; k < m_shape.ctaCount; ++k) {
            const uint32_t c = m_shape.firstCta + k;
            std::vector<bool> inAlloc(512, false);
            for (const TmemAllocBox& a : m_out.allocs)
                if (a.cta == c)
                    for (uint32_t col = a.column; col < std::min(512u, a.column + a.nCols); ++col)
                        inAlloc[col] = true;
            for (uint32_t col = 0; col < 512; ++col)
                if (!inAlloc[col])
                    for (uint32_t lane = 0; lane < 128; ++lane)
                        m_out.texels[size_t(lane) * w + m_out.originOf(c) + col].a |= kFlagFill;
        }
    }
    markObservedTmem(m_doc, m_out);
    return m_out;
}

} // namespace layoutscope::views
