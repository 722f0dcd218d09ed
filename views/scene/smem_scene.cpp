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
    // Moves of one instruction, length and rule (a run's) whose coord[0] spans [lo0, max0] and coord[1]
    // [lo1, max1]: each covers n elements from its coord[0] along dimension 0, one row of dimension 1.
    auto cover = [&](const ByteMove& m, int64_t lo0, int64_t max0, int64_t lo1, int64_t max1) {
        if (m.instr >= frames.size()) return;
        BoxFrame& f = frames[m.instr];
        const int64_t n = std::max<int64_t>(1, m.length / doc.elemBytesOf(m.instr));
        const std::array<int64_t, 2> lo{lo0, lo1}, hi{max0 + n, max1 + 1}; // no overflow
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
    };
    // By runs (issue 25 item 11: 5.1 M moves took ~0.1 s one by one): a run's coordinates are its first
    // move's plus i_l * stride_l over a grid of counts n_l (move_table.hpp), so over the whole grid their
    // least and greatest values are at its corners. Moves past the last whole row of the open level are read
    // one by one.
    constexpr size_t kCoord0 = 6,
                     kCoord1 = 7; // Strides order: step, src cta/addr, dst cta/addr, logical, coord
    for (const MoveTable::RunSpan& r : t.moves.runSpans(0, t.moves.size())) {
        uint64_t perRow = 1; // moves of the levels below the open one
        for (uint32_t l = 0; l + 1 < r.levels; ++l) perRow *= r.n[l];
        const uint64_t rows = r.k0 == 0 ? (r.k1 - r.k0) / perRow : 0;
        if (rows > 0) {
            std::array<int64_t, 2> lo{r.first.coord[0], r.first.coord[1]}, hi = lo;
            for (uint32_t l = 0; l < r.levels; ++l) {
                const int64_t last = int64_t(l + 1 < r.levels ? r.n[l] : rows) - 1; // i_l's greatest value
                for (size_t d = 0; d < 2; ++d) {
                    const int64_t delta = last * r.s[l][d == 0 ? kCoord0 : kCoord1];
                    lo[d] += std::min<int64_t>(0, delta);
                    hi[d] += std::max<int64_t>(0, delta);
                }
            }
            cover(r.first, lo[0], hi[0], lo[1], hi[1]);
        }
        const uint64_t rest = r.index + r.k0 + rows * perRow, end = r.index + r.k1;
        if (rest < end)
            for (MoveTable::Cursor c(t.moves, rest); c.index() < end; c.next())
                cover(c.move(), c.move().coord[0], c.move().coord[0], c.move().coord[1], c.move().coord[1]);
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
