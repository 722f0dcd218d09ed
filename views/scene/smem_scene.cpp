#include "scene/smem_scene.hpp"

#include <algorithm>
#include <climits>
#include <cmath>

namespace layoutscope::views {

std::array<int32_t, 5> coordOfByte(const ByteMove& m, uint32_t byteInMove, uint32_t elemBytes) {
    // Dimension 0 is contiguous inside a move (elementStrides[0] is ignored without interleave).
    std::array<int32_t, 5> c = m.coord;
    // int64 then saturated: a move at INT32_MAX must not overflow (UBSan).
    c[0] = static_cast<int32_t>(
        std::min<int64_t>(INT32_MAX, int64_t(c[0]) + byteInMove / std::max<uint32_t>(1, elemBytes)));
    return c;
}

std::vector<BoxFrame> boxFrames(const Document& doc) {
    const Trace& t = doc.trace();
    std::vector<BoxFrame> frames(t.instrs.size());
    std::vector<bool> seen(t.instrs.size(), false);
    for (const ByteMove& m : t.moves) {
        if (m.instr >= frames.size()) continue;
        BoxFrame& f = frames[m.instr];
        const int64_t n = std::max<int64_t>(1, m.length / doc.elemBytesOf(m.instr));
        const std::array<int64_t, 2> lo{m.coord[0], m.coord[1]}, hi{lo[0] + n, lo[1] + 1}; // no overflow
        if (!seen[m.instr]) {
            f.lo = lo;
            f.hi = hi;
            seen[m.instr] = true;
        }
        f.gathered |= m.rule == RuleId::TmaGather4;
        for (size_t d = 0; d < 2; ++d) {
            f.lo[d] = std::min(f.lo[d], lo[d]);
            f.hi[d] = std::max(f.hi[d], hi[d]);
        }
    }
    return frames;
}

std::optional<uint32_t> SmemScene::indexOf(uint32_t addr) const {
    if (addr < window.base || addr >= window.base + window.size) return std::nullopt;
    return addr - window.base;
}

static Rgba8 coordColour(const BoxFrame& f, const std::array<int32_t, 5>& c) {
    return f.colourAt(c[0], c[1]);
}

Rgba8 fadeTowardsWhite(Rgba8 c, uint32_t age, uint32_t fadeSteps) {
    if (age == 0 || age >= fadeSteps) return c;
    const float w = 0.45f * (1.0f - float(age) / float(fadeSteps));
    auto mix = [w](uint8_t v) {
        return static_cast<uint8_t>(std::lround(float(v) + (255.0f - float(v)) * w));
    };
    return Rgba8{mix(c.r), mix(c.g), mix(c.b), c.a};
}

SmemScene smemSceneAt(const Document& doc, uint32_t step, const std::vector<BoxFrame>& frames, uint32_t cta,
                      uint32_t fadeSteps) {
    SmemScene s;
    s.window = doc.smemWindow(cta);
    s.step = step;
    s.moveOf.assign(s.window.size, -1);
    s.texels.assign(s.window.size, Rgba8{kUntouched.r, kUntouched.g, kUntouched.b, 0});
    if (!doc.hasTrace()) return s;
    const Trace& t = doc.trace();
    step = std::min(step, t.stepCount);
    const size_t end = step == 0 ? 0 : t.movesOfStep(step - 1).second;
    const uint64_t wlo = s.window.base, whi = uint64_t(s.window.base) + s.window.size;
    for (size_t i = 0; i < end; ++i) {
        const ByteMove& m = t.moves[i];
        // A byte's colour is its producer's (the move that wrote it); reads do not recolour it.
        const MemRef* r = &m.dst;
        if (r->space != MemSpace::SharedCta || r->cta != s.window.cta) continue;
        const uint64_t a0 = std::max<uint64_t>(r->addr, wlo),
                       a1 = std::min<uint64_t>(r->addr + m.length, whi);
        for (uint64_t a = a0; a < a1; ++a) s.moveOf[a - wlo] = static_cast<int32_t>(i);
    }
    for (uint32_t k = 0; k < s.window.size; ++k) {
        const int32_t mi = s.moveOf[k];
        if (mi < 0) continue;
        const ByteMove& m = t.moves[mi];
        const MemRef& r = (m.dst.space == MemSpace::SharedCta && m.dst.cta == s.window.cta) ? m.dst : m.src;
        const uint32_t byteInMove = s.window.base + k - static_cast<uint32_t>(r.addr);
        const auto c = coordOfByte(m, byteInMove, doc.elemBytesOf(m.instr));
        Rgba8 col = m.instr < frames.size() ? coordColour(frames[m.instr], c) : Rgba8{200, 200, 200, 255};
        uint8_t flags = kFlagWritten;
        if (m.transform == Transform::FillZero || m.transform == Transform::FillNaN) flags |= kFlagFill;
        if (m.step + 1 == step) flags |= kFlagCurrent;
        col.a = flags;
        s.texels[k] = fadeTowardsWhite(col, step - 1 - m.step, fadeSteps);
    }
    markReads(t, step, s.window, s.texels);
    markObserved(doc.observedDiffers(cta), s);
    return s;
}

void markObserved(const std::vector<uint32_t>& addrs, SmemScene& s) {
    s.observedMarked = 0;
    for (uint32_t a : addrs)
        if (a >= s.window.base && a - s.window.base < s.texels.size()) {
            s.texels[a - s.window.base].a |= kFlagDiffers;
            ++s.observedMarked;
        }
}

void markReads(const Trace& t, uint32_t step, const SmemWindow& w, std::vector<Rgba8>& texels) {
    if (step == 0 || step > t.stepCount) return;
    const auto [lo, hi] = t.movesOfStep(step - 1);
    const uint64_t wlo = w.base, whi = uint64_t(w.base) + w.size;
    for (size_t i = lo; i < hi; ++i) {
        const ByteMove m = t.moves[i];
        if (m.src.space != MemSpace::SharedCta || m.src.cta != w.cta) continue;
        const uint64_t a0 = std::max<uint64_t>(m.src.addr, wlo),
                       a1 = std::min<uint64_t>(m.src.addr + m.length, whi);
        for (uint64_t a = a0; a < a1; ++a) texels[a - wlo].a |= kFlagRead;
    }
}

} // namespace layoutscope::views
