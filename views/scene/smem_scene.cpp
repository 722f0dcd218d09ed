#include "scene/smem_scene.hpp"

#include <algorithm>
#include <climits>
#include <cmath>

namespace layoutscope::views {

std::array<int32_t, 5> coordOfByte(const ByteMove& m, uint32_t byteInMove, uint32_t elemBytes) {
    // Dimension 0 is contiguous inside a move (elementStrides[0] is ignored without interleave).
    std::array<int32_t, 5> c = m.coord;
    c[0] += static_cast<int32_t>(byteInMove / std::max<uint32_t>(1, elemBytes));
    return c;
}

std::vector<BoxFrame> boxFrames(const Document& doc) {
    const Trace& t = doc.trace();
    std::vector<BoxFrame> frames(t.instrs.size());
    std::vector<bool> seen(t.instrs.size(), false);
    for (const ByteMove& m : t.moves) {
        if (m.instr >= frames.size()) continue;
        BoxFrame& f = frames[m.instr];
        const int32_t n = static_cast<int32_t>(m.length / doc.elemBytesOf(m.instr));
        if (!seen[m.instr]) {
            f.lo = {m.coord[0], m.coord[1]};
            f.hi = {m.coord[0] + std::max(n, 1), m.coord[1] + 1};
            seen[m.instr] = true;
        }
        f.lo[0] = std::min(f.lo[0], m.coord[0]);
        f.lo[1] = std::min(f.lo[1], m.coord[1]);
        f.hi[0] = std::max(f.hi[0], m.coord[0] + std::max(n, 1));
        f.hi[1] = std::max(f.hi[1], m.coord[1] + 1);
    }
    return frames;
}

std::optional<uint32_t> SmemScene::indexOf(uint32_t addr) const {
    if (addr < window.base || addr >= window.base + window.size) return std::nullopt;
    return addr - window.base;
}

static Rgba8 coordColour(const BoxFrame& f, const std::array<int32_t, 5>& c) {
    return colourForCoord(c[1] - f.lo[1], c[0] - f.lo[0], f.rows(), f.cols());
}

uint32_t tileInstrAt(const Document& doc, uint32_t step) {
    // The last tile copy that has started by `step` (its first step < step), else the first one.
    std::optional<uint32_t> best;
    if (doc.hasTrace()) {
        const Trace& t = doc.trace();
        for (uint32_t i = 0; i < t.instrs.size(); ++i)
            if (doc.tileOf(i) && t.instrs[i].firstStep < step && t.instrs[i].endStep > t.instrs[i].firstStep) best = i;
    }
    if (best) return *best;
    if (const InstrTile* first = doc.firstTile()) return static_cast<uint32_t>(first - doc.tiles().data());
    return 0;
}

Rgba8 fadeTowardsWhite(Rgba8 c, uint32_t age, uint32_t fadeSteps) {
    if (age == 0 || age >= fadeSteps) return c;
    const float w = 0.45f * (1.0f - float(age) / float(fadeSteps));
    auto mix = [w](uint8_t v) { return static_cast<uint8_t>(std::lround(float(v) + (255.0f - float(v)) * w)); };
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
        // A move writes its destination; a store's source bytes stay, but we mark them as read too.
        for (const MemRef* r : {&m.dst, &m.src}) {
            if (r->space != MemSpace::SharedCta || r->cta != s.window.cta) continue;
            const uint64_t a0 = std::max<uint64_t>(r->addr, wlo), a1 = std::min<uint64_t>(r->addr + m.length, whi);
            for (uint64_t a = a0; a < a1; ++a) s.moveOf[a - wlo] = static_cast<int32_t>(i);
        }
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
    return s;
}

bool GlobalScene::inTensor(int32_t c0, int32_t c1) const {
    if (!tile) return false;
    const auto& d = tile->map.p.globalDim;
    return c0 >= 0 && c1 >= 0 && static_cast<uint64_t>(c0) < d[0] &&
           (tile->map.p.tensorRank < 2 || static_cast<uint64_t>(c1) < d[1]);
}

GlobalScene globalSceneAt(const Document& doc, uint32_t instr, uint32_t step, const std::vector<BoxFrame>& frames,
                          int32_t margin, uint32_t fadeSteps) {
    GlobalScene g;
    g.instr = instr;
    g.step = step;
    g.tile = doc.hasTrace() ? doc.tileOf(instr) : nullptr;
    if (!g.tile) return g;
    const TensorMapTiledParams& p = g.tile->map.p;
    const int32_t e1 = static_cast<int32_t>(std::max<uint32_t>(1, p.elementStrides[1]));
    const int32_t box1 = p.tensorRank >= 2 ? static_cast<int32_t>(p.boxDim[1]) : 1;
    g.boxLo = {g.tile->coords[0], p.tensorRank >= 2 ? g.tile->coords[1] : 0};
    g.boxHi = {g.boxLo[0] + static_cast<int32_t>(p.boxDim[0]), g.boxLo[1] + box1};
    if (instr < frames.size()) { // the moves' frame covers the span actually traversed
        g.boxHi[1] = std::max(g.boxHi[1], frames[instr].hi[1]);
    }
    g.lo = {g.boxLo[0] - margin, g.boxLo[1] - margin};
    g.w = static_cast<uint32_t>(g.boxHi[0] - g.boxLo[0] + 2 * margin);
    g.h = static_cast<uint32_t>(g.boxHi[1] - g.boxLo[1] + 2 * margin);
    g.moveOf.assign(size_t(g.w) * g.h, -1);
    g.texels.resize(size_t(g.w) * g.h);
    const Trace& t = doc.trace();
    step = std::min(step, t.stepCount);
    const size_t end = step == 0 ? 0 : t.movesOfStep(step - 1).second;
    const uint32_t eb = doc.elemBytesOf(instr);
    for (size_t i = 0; i < end; ++i) {
        const ByteMove& m = t.moves[i];
        if (m.instr != instr) continue;
        bool sameSlice = true; // dims >= 2: show the slice at the box's first coordinate
        for (uint32_t d = 2; d < p.tensorRank && d < 5; ++d) sameSlice &= m.coord[d] == g.tile->coords[d];
        if (!sameSlice) continue;
        const int32_t y = m.coord[1] - g.lo[1];
        if (y < 0 || y >= static_cast<int32_t>(g.h)) continue;
        const int32_t n = static_cast<int32_t>(std::max<uint32_t>(1, m.length / eb));
        for (int32_t k = 0; k < n; ++k) {
            const int32_t x = m.coord[0] + k - g.lo[0];
            if (x >= 0 && x < static_cast<int32_t>(g.w)) g.moveOf[size_t(y) * g.w + x] = static_cast<int32_t>(i);
        }
    }
    const BoxFrame frame = instr < frames.size() ? frames[instr] : BoxFrame{g.boxLo, g.boxHi};
    for (uint32_t y = 0; y < g.h; ++y) {
        for (uint32_t x = 0; x < g.w; ++x) {
            const int32_t c0 = g.lo[0] + int32_t(x), c1 = g.lo[1] + int32_t(y);
            const bool inSpan = c0 >= g.boxLo[0] && c0 < g.boxHi[0] && c1 >= g.boxLo[1] && c1 < g.boxHi[1];
            const bool onStride = ((c1 - g.boxLo[1]) % e1) == 0;
            const bool inBox = inSpan && onStride;
            const bool oob = !g.inTensor(c0, c1);
            const int32_t mi = g.moveOf[size_t(y) * g.w + x];
            Rgba8 col = oob ? kOutOfBounds : kOutsideBox;
            uint8_t flags = 0;
            if (inBox) {
                flags |= kFlagInBox;
                col = colourForCoord(c1 - frame.lo[1], c0 - frame.lo[0], frame.rows(), frame.cols());
                if (mi < 0) { // not read yet: a dim version of its colour
                    col.r = static_cast<uint8_t>(col.r * 0.3f + 20);
                    col.g = static_cast<uint8_t>(col.g * 0.3f + 20);
                    col.b = static_cast<uint8_t>(col.b * 0.3f + 20);
                }
            } else if (inSpan) {
                flags |= kFlagSkipped;
                col = Rgba8{74, 74, 80, 255};
            }
            if (oob) flags |= kFlagFill;
            uint32_t age = 0;
            if (mi >= 0) {
                flags |= kFlagWritten;
                if (t.moves[mi].step + 1 == step) flags |= kFlagCurrent;
                age = step - 1 - t.moves[mi].step;
            }
            col.a = flags;
            g.texels[size_t(y) * g.w + x] = fadeTowardsWhite(col, age, fadeSteps);
        }
    }
    return g;
}

} // namespace layoutscope::views
