#include "scene/smem_scene_cache.hpp"

#include <algorithm>

namespace layoutscope::views {

void SmemSceneCache::reset(const Document& doc, const std::vector<BoxFrame>& frames, uint32_t cta) {
    m_doc = &doc;
    m_frames = &frames;
    m_framesData = frames.data();
    m_cta = cta;
    m_window = doc.smemWindow(cta);
    m_state.moveOf.assign(m_window.size, -1);
    m_state.texels.assign(m_window.size, Rgba8{kUntouched.r, kUntouched.g, kUntouched.b, 0});
    m_step = 0;
    m_spacing = std::max<uint32_t>(256, (doc.hasTrace() ? doc.trace().stepCount : 0) / 32 + 1);
    m_checkpoints.clear();
    m_checkpoints.emplace(0, m_state);
}

Rgba8 SmemSceneCache::colourOf(size_t i, uint32_t k) const {
    // Same as smemSceneAt: the colour of the source coordinate of byte k of the window.
    const ByteMove& m = m_doc->trace().moves[i];
    const MemRef& r = (m.dst.space == MemSpace::SharedCta && m.dst.cta == m_window.cta) ? m.dst : m.src;
    const uint32_t byteInMove = m_window.base + k - static_cast<uint32_t>(r.addr);
    const auto c = coordOfByte(m, byteInMove, m_doc->elemBytesOf(m.instr));
    Rgba8 col{200, 200, 200, 255};
    if (m.instr < m_frames->size()) {
        const BoxFrame& f = (*m_frames)[m.instr];
        col = f.colourAt(c[0], c[1]);
    }
    col.a = kFlagWritten;
    if (m.transform == Transform::FillZero || m.transform == Transform::FillNaN) col.a |= kFlagFill;
    return col;
}

void SmemSceneCache::applyMoves(size_t lo, size_t hi) {
    const Trace& t = m_doc->trace();
    const uint64_t wlo = m_window.base, whi = uint64_t(m_window.base) + m_window.size;
    uint64_t touchedLo = whi, touchedHi = wlo;
    for (MoveTable::Cursor c(t.moves, lo); c.index() < hi; c.next()) { // each move from the one before
        const size_t i = c.index();
        const ByteMove& m = c.move();
        const MemRef* r = &m.dst; // writes colour a byte; reads are outlined (markReads), not recoloured
        if (r->space != MemSpace::SharedCta || r->cta != m_window.cta) continue;
        const uint64_t a0 = std::max<uint64_t>(r->addr, wlo),
                       a1 = std::min<uint64_t>(r->addr + m.length, whi);
        for (uint64_t a = a0; a < a1; ++a) m_state.moveOf[a - wlo] = static_cast<int32_t>(i);
        touchedLo = std::min(touchedLo, a0);
        touchedHi = std::max(touchedHi, a1);
    }
    // Colour each byte once, from its last move (not once per move: a loop of loads rewrites the
    // same buffer thousands of times).
    for (uint64_t a = touchedLo; a < touchedHi; ++a) {
        const int32_t mi = m_state.moveOf[a - wlo];
        if (mi >= 0 && size_t(mi) >= lo && size_t(mi) < hi)
            m_state.texels[a - wlo] = colourOf(size_t(mi), uint32_t(a - wlo));
    }
}

const SmemScene& SmemSceneCache::sceneAt(const Document& doc, uint32_t step,
                                         const std::vector<BoxFrame>& frames, uint32_t cta,
                                         uint32_t fadeSteps) {
    if (&doc != m_doc || &frames != m_frames || frames.data() != m_framesData || cta != m_cta)
        reset(doc, frames, cta);
    m_out.window = m_window;
    if (!doc.hasTrace()) {
        m_out.step = step;
        m_out.moveOf = m_state.moveOf;
        m_out.texels = m_state.texels;
        return m_out;
    }
    const Trace& t = doc.trace();
    const uint32_t target = std::min(step, t.stepCount);
    auto it = std::prev(m_checkpoints.upper_bound(target));
    if (target < m_step ||
        (it->first > m_step)) { // backwards, or a checkpoint is nearer than the current state
        m_state = it->second;
        m_step = it->first;
    }
    while (m_step < target) {
        const uint32_t next = std::min(target, (m_step / m_spacing + 1) * m_spacing);
        applyMoves(t.movesOfStep(m_step).first, t.movesOfStep(next - 1).second);
        m_step = next;
        if (m_step % m_spacing == 0 && !m_checkpoints.count(m_step)) m_checkpoints.emplace(m_step, m_state);
    }
    m_out.step = step; // as smemSceneAt: the requested step (ages are relative to it)
    m_out.moveOf = m_state.moveOf;
    m_out.texels = m_state.texels;
    // Transient: the step just played (kFlagCurrent) and the fading trail before it.
    if (target > 0) {
        const uint32_t first =
            fadeSteps > 1 && target > fadeSteps ? target - fadeSteps : (fadeSteps > 1 ? 0 : target - 1);
        const size_t lo = t.movesOfStep(first).first, hi = t.movesOfStep(target - 1).second;
        const uint64_t wlo = m_window.base, whi = uint64_t(m_window.base) + m_window.size;
        for (MoveTable::Cursor c(t.moves, lo); c.index() < hi; c.next()) { // each move from the one before
            const size_t i = c.index();
            const ByteMove& m = c.move();
            for (const MemRef* r : {&m.dst, &m.src}) {
                if (r->space != MemSpace::SharedCta || r->cta != m_window.cta) continue;
                const uint64_t a0 = std::max<uint64_t>(r->addr, wlo),
                               a1 = std::min<uint64_t>(r->addr + m.length, whi);
                for (uint64_t a = a0; a < a1; ++a) {
                    if (m_out.moveOf[a - wlo] != static_cast<int32_t>(i)) continue;
                    Rgba8& px = m_out.texels[a - wlo];
                    if (m.step + 1 == target)
                        px.a |= kFlagCurrent;
                    else
                        px = fadeTowardsWhite(px, target - 1 - m.step, fadeSteps);
                }
            }
        }
    }
    markReads(t, target, m_window, m_out.texels);
    markObserved(doc.observedDiffers(m_window.cta), m_out);
    return m_out;
}

} // namespace layoutscope::views
