#include "scene/tma_fans.hpp"

#include <algorithm>
#include <set>

namespace layoutscope::views {

/// Distinct destination CTAs of a global -> shared instruction (empty unless >= 2).
static std::vector<uint32_t> multicastCtas(const Trace& t, uint32_t instr) {
    const TraceInstr& in = t.instrs[instr];
    if (in.endStep <= in.firstStep) return {};
    // The instruction's own moves, run by run (tmaFanAt asks for every instruction at every step: 1.5 M
    // moves one by one stalled the editor's re-check by ~60 ms). A run's instr and spaces are constant; a
    // run that keeps its destination CTA names it once, a multicast run is walked.
    const size_t lo = in.firstMove, hi = std::min<size_t>(in.endMove, t.moves.size());
    std::set<uint32_t> ctas;
    for (const MoveTable::RunSpan& rs : t.moves.runSpans(lo, hi)) {
        if (rs.first.instr != instr || rs.first.dst.space != MemSpace::SharedCta) continue;
        if (rs.first.src.space != MemSpace::Global && rs.first.src.space != MemSpace::Fill) return {};
        t.moves.forSpanByField(rs, 3,
                               [&](const ByteMove& m, uint64_t) { ctas.insert(m.dst.cta); }); // dst.cta
    }
    if (ctas.size() < 2) return {};
    return {ctas.begin(), ctas.end()};
}

TmaFan tmaFanAt(const Document& doc, uint32_t step, const std::vector<BoxFrame>& frames) {
    TmaFan f;
    if (!doc.hasTrace()) return f;
    const Trace& t = doc.trace();
    std::optional<uint32_t> first, best;
    for (uint32_t i = 0; i < t.instrs.size(); ++i) {
        if (multicastCtas(t, i).empty()) continue;
        if (!first) first = i;
        if (t.instrs[i].firstStep < step) best = i;
    }
    const auto instr = best ? best : first;
    if (!instr || *instr >= frames.size()) return f;
    f.valid = true;
    f.instr = *instr;
    f.ctas = multicastCtas(t, *instr);
    const BoxFrame& fr = frames[*instr];
    // At most kMaxRows strips: a box whose rows lie far apart (gather4 of rows 0 and 99,999,999) is
    // scaled, frame row r at strip row r * rows / frame rows, never one texel row per coordinate.
    const int64_t frameRows = std::max<int64_t>(1, fr.hi[1] - fr.lo[1]);
    f.rows = static_cast<uint32_t>(std::min<int64_t>(frameRows, TmaFan::kMaxRows));
    f.smemAddr.assign(f.ctas.size(), UINT32_MAX);
    const uint32_t w = f.width();
    f.texels.assign(size_t(w) * f.rows, Rgba8{kBackground.r, kBackground.g, kBackground.b, 0});
    for (uint32_t r = 0; r < f.rows; ++r) {
        for (uint32_t x = 0; x < 8; ++x) {
            Rgba8 c = colourForCoord(int(r), int(int64_t(x) * std::max(1, fr.cols() - 1) / 7), int(f.rows),
                                     fr.cols());
            c.a = kFlagWritten;
            f.texels[size_t(r) * w + x] = c;
        }
        for (size_t k = 0; k < f.ctas.size(); ++k)
            for (uint32_t x = 0; x < 8; ++x)
                f.texels[size_t(r) * w + TmaFan::ctaX(k) + x] =
                    Rgba8{kUntouched.r, kUntouched.g, kUntouched.b, 0};
    }
    const TraceInstr& in = t.instrs[*instr];
    const size_t lo = in.firstMove, hi = std::min<size_t>(in.endMove, t.moves.size());
    for (MoveTable::Cursor c(t.moves, lo); c.index() < hi; c.next()) { // each move from the one before
        const ByteMove& m = c.move();
        if (m.instr != *instr || m.dst.space != MemSpace::SharedCta) continue;
        const size_t k =
            size_t(std::lower_bound(f.ctas.begin(), f.ctas.end(), uint32_t(m.dst.cta)) - f.ctas.begin());
        f.smemAddr[k] = std::min(f.smemAddr[k], uint32_t(m.dst.addr));
        const int64_t fy = int64_t(m.coord[1]) - fr.lo[1];
        if (fy < 0 || fy >= frameRows || m.step >= step) continue;
        const auto r = static_cast<uint32_t>(fy * f.rows / frameRows);
        for (uint32_t x = 0; x < 8; ++x) {
            Rgba8 c = f.texels[size_t(r) * w + x];
            c.a = uint8_t(
                kFlagWritten | (m.step + 1 == step ? kFlagCurrent : 0) |
                (m.transform == Transform::FillZero || m.transform == Transform::FillNaN ? kFlagFill : 0));
            f.texels[size_t(r) * w + TmaFan::ctaX(k) + x] = c;
        }
    }
    // One curve per (block of rows, CTA): at most 8 blocks.
    const uint32_t block = std::max(1u, (f.rows + 7) / 8);
    for (size_t k = 0; k < f.ctas.size(); ++k)
        for (uint32_t r = 0; r < f.rows; r += block)
            f.edges.push_back(
                {r, std::min(f.rows, r + block), f.ctas[k], r, std::min(f.rows, r + block), TmaFan::ctaX(k)});
    return f;
}

} // namespace layoutscope::views
