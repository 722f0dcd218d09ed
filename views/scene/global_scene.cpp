// The global tensor's scene at a step (global_scene.hpp: globalSceneAt): the copy's footprint (box rows,
// gather4 rows, im2col pixels) laid out on the chosen slice, each cell coloured and flagged. Slices, names
// and cell lookups are global_scene_query.cpp.
#include "scene/global_scene.hpp"

#include "scene/smem_scene.hpp"

#include <algorithm>
#include <climits>

namespace layoutscope::views {

namespace {

using Coord = std::array<int32_t, kMaxTensorRank>;
using Coord64 = std::array<int64_t, kMaxTensorRank>; ///< no overflow for a box at INT32_MAX
using Span = std::array<int64_t, 2>;                 ///< [lo, hi)

Coord64 widen(const Coord& c) {
    return {c[0], c[1], c[2], c[3], c[4]};
}

/// A run of elements along dim 0 that the copy reads (load) or writes (store).
struct Run {
    Coord64 start{};
    int64_t len = 1;
    int32_t index = 0; ///< box row (linearised, dim 1 fastest) / gather4 row / im2col pixel row
    bool halo = false;
};

int64_t strideOf(const TensorMapTiledParams& p, uint32_t d) {
    return d == 0 ? 1 : std::max<int64_t>(1, p.elementStrides[d]); // E[0] = 1 (tma.md §3)
}

/// Every run of the copy's footprint (tma.md §3 box, §8 gather4 rows, §9 im2col pixels walked).
std::vector<Run> footprint(const InstrTile& t) {
    const TensorMapTiledParams& p = t.map.p;
    const uint32_t rank = std::min<uint32_t>(p.tensorRank, kMaxTensorRank);
    std::vector<Run> runs;
    if (t.kind == TileKind::Gather4) {
        for (int32_t i = 0; i < 4; ++i)
            runs.push_back({Coord64{t.coords[0], t.rows[size_t(i)], 0, 0, 0}, p.boxDim[0], i, false});
    } else if (t.kind == TileKind::Im2col) {
        for (size_t k = 0; k < t.pixels.size(); ++k)
            runs.push_back({widen(t.pixels[k].coord), t.map.channelsPerPixel, int32_t(k), t.pixels[k].halo});
    } else {
        // n[d] = ceil(box[d] / E[d]) elements along d >= 1; x[d] = c[d] + k[d] * E[d].
        std::array<int64_t, kMaxTensorRank> n{1, 1, 1, 1, 1};
        for (uint32_t d = 1; d < rank; ++d) n[d] = (p.boxDim[d] + strideOf(p, d) - 1) / strideOf(p, d);
        Coord64 k{};
        for (int32_t row = 0;; ++row) {
            Run r{widen(t.coords), p.boxDim[0], row, false};
            for (uint32_t d = 1; d < rank; ++d) r.start[d] += k[d] * strideOf(p, d);
            runs.push_back(r);
            uint32_t d = 1;
            while (d < rank && ++k[d] == n[d]) k[d++] = 0;
            if (d >= rank) break;
        }
    }
    return runs;
}

/// .im2col offsets as the copy applies them (docs/im2col.md §1: .4d keeps 8 bits, .5d packs 5+5+5 bits).
std::array<int32_t, 3> effectiveOffsets(const InstrTile& t) {
    const auto& o = t.offsets;
    const uint32_t rank = t.map.p.tensorRank;
    if (rank == 3) return {o[0], 0, 0};
    if (rank == 4) return {o[0] & 0xFF, o[1] & 0xFF, 0};
    const int32_t packed = (int32_t(o[0]) + (int32_t(o[1]) << 5) + (int32_t(o[2]) << 10)) & 0x7FFF;
    return {packed & 31, packed >> 5 & 31, packed >> 10 & 31};
}

/// The window of an im2col load per dim, [lo, hi): channels; bounding box of filter bases shifted by
/// the offsets (W, H, D; tma.md §9: hi = dim - 1 + upper); N over the pixels walked. Empty when not im2col.
std::optional<std::array<Span, kMaxTensorRank>> im2colWindow(const InstrTile& t) {
    const TensorMap& m = t.map;
    if (t.kind != TileKind::Im2col || m.p.interleave != TensorInterleave::NONE || t.pixels.empty())
        return std::nullopt;
    const uint32_t rank = std::min<uint32_t>(m.p.tensorRank, kMaxTensorRank);
    std::array<Span, kMaxTensorRank> win{};
    for (auto& r : win) r = {0, 1};
    win[0] = {t.coords[0], int64_t(t.coords[0]) + m.channelsPerPixel};
    const bool wide = m.mode == TensorMap::Mode::Im2colWide;
    const auto off = effectiveOffsets(t);
    for (uint32_t s = 1; s + 1 < rank; ++s) {
        const int64_t hiIncl = int64_t(m.p.globalDim[s]) - 1 + m.pixelBoxUpperCorner[s - 1];
        if (wide && s > 1) { // ::w: only W is walked; H, D stay at the coordinate
            win[s] = {t.pixels.front().coord[s], int64_t(t.pixels.front().coord[s]) + 1};
        } else if (wide) {
            win[s] = {int64_t(m.pixelBoxLowerCorner[0]) + t.wOffset, hiIncl + t.wOffset + 1};
        } else {
            win[s] = {int64_t(m.pixelBoxLowerCorner[s - 1]) + off[s - 1], hiIncl + off[s - 1] + 1};
        }
    }
    int64_t n0 = INT64_MAX, n1 = INT64_MIN;
    for (const Im2colPixelRead& px : t.pixels) {
        n0 = std::min<int64_t>(n0, px.coord[rank - 1]);
        n1 = std::max<int64_t>(n1, int64_t(px.coord[rank - 1]) + 1);
    }
    win[rank - 1] = {n0, n1};
    return win;
}

bool runOnSlice(const Run& r, const GlobalSlice& s) {
    for (int d = 0; d < kMaxTensorRank; ++d) {
        if (d == s.dimX || d == s.dimY) continue;
        const int64_t f = s.fixed[size_t(d)];
        if (d == 0 ? (f < r.start[0] || f >= r.start[0] + r.len) : f != r.start[size_t(d)]) return false;
    }
    return true;
}

/// A run projected on the slice axes: [x0, x1) x [y0, y1).
GlobalOutline project(const Run& r, const GlobalSlice& s, GlobalOutline::Kind kind) {
    auto span = [&](int d) {
        const int64_t a = r.start[size_t(d)];
        return Span{a, a + (d == 0 ? r.len : 1)};
    };
    const auto x = span(s.dimX), y = span(s.dimY);
    return GlobalOutline{kind, x[0], y[0], x[1], y[1], r.index, false};
}

} // namespace

GlobalScene globalSceneAt(const Document& doc, uint32_t instr, uint32_t step,
                          const std::vector<BoxFrame>& frames, int32_t margin, uint32_t fadeSteps) {
    const InstrTile* tile = doc.hasTrace() ? doc.tileOf(instr) : nullptr;
    return globalSceneAt(doc, instr, step, frames, tile ? defaultSlice(*tile) : GlobalSlice{}, margin,
                         fadeSteps);
}

namespace {

/// Calls fn(cell index) for every shown cell of outline `o` (slice coordinates).
template <class Fn>
void forEachCell(const GlobalScene& g, const GlobalOutline& o, Fn&& fn) {
    g.axes[1].forEach(o.y0, o.y1, [&](uint32_t cy, int64_t) {
        g.axes[0].forEach(o.x0, o.x1, [&](uint32_t cx, int64_t) { fn(size_t(cy) * g.w + cx); });
    });
}

/// Colour and flags of the cell at tensor coordinate `c`.
Rgba8 cellTexel(const GlobalScene& g, const Trace& tr, const BoxFrame& frame, const Coord& c, int32_t row,
                int32_t mi, const std::array<Span, kMaxTensorRank>& box, uint32_t step, uint32_t fadeSteps) {
    bool inSpan = g.tile->kind == TileKind::Tile;
    for (size_t d = 0; d < kMaxTensorRank && inSpan; ++d) inSpan = c[d] >= box[d][0] && c[d] < box[d][1];
    const bool oob = !g.inTensor(c);
    Rgba8 col = oob ? kOutOfBounds : kOutsideBox;
    uint8_t flags = 0;
    if (row >= 0) {
        flags |= kFlagInBox;
        col = frame.colourAt(c[0], c[1]);
        if (mi < 0) { // not read yet: a dim version of its colour
            col.r = static_cast<uint8_t>(col.r * 0.3f + 20);
            col.g = static_cast<uint8_t>(col.g * 0.3f + 20);
            col.b = static_cast<uint8_t>(col.b * 0.3f + 20);
        }
    } else if (inSpan) { // inside the box span but off the elementStrides grid
        flags |= kFlagSkipped;
        col = Rgba8{74, 74, 80, 255};
    }
    if (oob) flags |= kFlagFill;
    uint32_t age = 0;
    if (mi >= 0) {
        const uint32_t ms = tr.moves[size_t(mi)].step;
        flags |= kFlagWritten;
        if (ms + 1 == step) flags |= kFlagCurrent;
        age = step - 1 - ms;
    }
    col.a = flags;
    return fadeTowardsWhite(col, age, fadeSteps);
}

} // namespace

GlobalScene globalSceneAt(const Document& doc, uint32_t instr, uint32_t step,
                          const std::vector<BoxFrame>& frames, const GlobalSlice& slice, int32_t margin,
                          uint32_t fadeSteps) {
    GlobalScene g;
    g.instr = instr;
    g.step = step;
    g.tile = doc.hasTrace() ? doc.tileOf(instr) : nullptr;
    if (!g.tile) return g;
    const InstrTile& t = *g.tile;
    const TensorMapTiledParams& p = t.map.p;
    const uint32_t rank = g.rank();
    g.slice = slice;
    if (g.slice.dimX < 0 || g.slice.dimX >= kMaxTensorRank) g.slice.dimX = 0;
    if (g.slice.dimY < 0 || g.slice.dimY >= kMaxTensorRank || g.slice.dimY == g.slice.dimX)
        g.slice.dimY = g.slice.dimX == 1 ? 0 : 1;
    for (uint32_t d = rank; d < kMaxTensorRank; ++d) g.slice.fixed[d] = 0;
    const GlobalSlice& s = g.slice;
    if (t.kind == TileKind::Im2col) margin = std::min(margin, 2);

    // Footprint span per dim (all slices), so the frame stays put while the fixed coordinates change.
    const std::vector<Run> runs = footprint(t);
    std::array<Span, kMaxTensorRank> span;
    for (auto& r : span) r = {INT64_MAX, INT64_MIN};
    auto cover = [&](size_t d, int64_t a, int64_t b) {
        span[d] = {std::min(span[d][0], a), std::max(span[d][1], b)};
    };
    for (const Run& r : runs)
        for (size_t d = 0; d < kMaxTensorRank; ++d) cover(d, r.start[d], r.start[d] + (d == 0 ? r.len : 1));
    std::array<Span, kMaxTensorRank> box{}; // tile: [c, c + boxDim) per dim
    for (size_t d = 0; d < kMaxTensorRank; ++d)
        box[d] = {t.coords[d], int64_t(t.coords[d]) + (d < rank ? std::max<int64_t>(1, p.boxDim[d]) : 1)};
    if (t.kind == TileKind::Tile)
        for (size_t d = 0; d < kMaxTensorRank; ++d) cover(d, box[d][0], box[d][1]);
    const auto win = im2colWindow(t);
    if (win)
        for (size_t d = 0; d < kMaxTensorRank; ++d) cover(d, (*win)[d][0], (*win)[d][1]);
    for (size_t d = 0; d < kMaxTensorRank; ++d)
        if (span[d][0] > span[d][1]) span[d] = {t.coords[d], int64_t(t.coords[d]) + 1};
    const size_t X = size_t(s.dimX), Y = size_t(s.dimY);
    g.boxLo = {span[X][0], span[Y][0]};
    g.boxHi = {span[X][1], span[Y][1]};
    // Cells: around what the copy touches (every slice), the box and the window; a window too big to
    // show gives only its edges. Huge extents become sparse axes (global_axis.hpp), never dense.
    for (size_t a = 0; a < 2; ++a) {
        const size_t d = a == 0 ? X : Y;
        std::vector<GlobalAxis::Interval> iv;
        for (const Run& r : runs) iv.push_back({r.start[d], r.start[d] + (d == 0 ? r.len : 1)});
        if (t.kind == TileKind::Tile) iv.push_back(box[d]);
        if (win && (*win)[d][1] - (*win)[d][0] <= GlobalAxis::kMaxCells)
            iv.push_back((*win)[d]);
        else if (win)
            iv.insert(iv.end(), {{(*win)[d][0], (*win)[d][0] + 1}, {(*win)[d][1] - 1, (*win)[d][1]}});
        if (iv.empty()) iv.push_back(span[d]);
        g.axes[a] = GlobalAxis::over(std::move(iv), margin);
    }
    g.w = g.axes[0].cells;
    g.h = g.axes[1].cells;
    const size_t cells = size_t(g.w) * g.h;
    g.moveOf.assign(cells, -1);
    g.texels.resize(cells);

    // Outlines and the footprint cells of this slice.
    std::vector<int32_t> rowOf(cells, -1);
    bool boxOnSlice = t.kind == TileKind::Tile;
    for (size_t d = 0; d < kMaxTensorRank; ++d)
        if (d != X && d != Y) boxOnSlice &= s.fixed[d] >= box[d][0] && s.fixed[d] < box[d][1];
    if (boxOnSlice)
        g.outlines.push_back(
            {GlobalOutline::Kind::Box, box[X][0], box[Y][0], box[X][1], box[Y][1], -1, false});
    if (win) {
        bool on = true;
        for (size_t d = 0; d < kMaxTensorRank; ++d)
            if (d != X && d != Y) on &= s.fixed[d] >= (*win)[d][0] && s.fixed[d] < (*win)[d][1];
        if (on)
            g.outlines.push_back(
                {GlobalOutline::Kind::Window, (*win)[X][0], (*win)[Y][0], (*win)[X][1], (*win)[Y][1]});
    }
    for (const Run& r : runs) {
        if (!runOnSlice(r, s)) continue;
        GlobalOutline o = project(r, s, GlobalOutline::Kind::Box);
        if (t.kind != TileKind::Tile) {
            o.kind = t.kind == TileKind::Gather4
                         ? GlobalOutline::Kind::Row
                         : (r.halo ? GlobalOutline::Kind::Halo : GlobalOutline::Kind::Pixel);
            Coord px{};
            for (size_t d = 1; d < kMaxTensorRank; ++d) px[d] = static_cast<int32_t>(r.start[d]);
            o.oob = t.kind == TileKind::Im2col && !g.inTensor(px);
            g.outlines.push_back(o);
            if (t.kind == TileKind::Im2col) ++g.pixelsInSlice;
        }
        forEachCell(g, o, [&](size_t k) {
            if (rowOf[k] < 0) rowOf[k] = r.index;
        });
    }

    // What the moves before `step` read (loads) or wrote (stores) in this slice.
    const Trace& tr = doc.trace();
    step = std::min(step, tr.stepCount);
    const size_t end = step == 0 ? 0 : tr.movesOfStep(step - 1).second;
    const uint32_t eb = doc.elemBytesOf(instr);
    const TraceInstr* in = instr < tr.instrs.size() ? &tr.instrs[instr] : nullptr;
    const size_t begin = in && in->endStep > in->firstStep ? tr.movesOfStep(in->firstStep).first : 0;
    for (size_t i = begin; i < end; ++i) {
        const ByteMove& m = tr.moves[i];
        if (m.instr != instr) continue;
        const Run r{widen(m.coord), std::max<int64_t>(1, m.length / eb), 0, false};
        if (!runOnSlice(r, s)) continue;
        forEachCell(g, project(r, s, GlobalOutline::Kind::Box),
                    [&](size_t k) { g.moveOf[k] = static_cast<int32_t>(i); });
    }

    const BoxFrame frame =
        instr < frames.size() ? frames[instr] : BoxFrame{{span[0][0], span[1][0]}, {span[0][1], span[1][1]}};
    g.colourRows = std::max(1, frame.rows());
    g.colourCols = std::max(1, frame.cols());
    g.colourGathered = frame.gathered;
    g.colourRowLo = frame.lo[1];
    std::vector<std::optional<int64_t>> xs(g.w), ys(g.h); // coordinate per column / row, nullopt: gap
    for (uint32_t x = 0; x < g.w; ++x) xs[x] = g.axes[0].coordOf(x);
    for (uint32_t y = 0; y < g.h; ++y) ys[y] = g.axes[1].coordOf(y);
    for (uint32_t y = 0; y < g.h; ++y) {
        for (uint32_t x = 0; x < g.w; ++x) {
            const size_t k = size_t(y) * g.w + x;
            if (!xs[x] || !ys[y]) {
                g.texels[k] = Rgba8{kElided.r, kElided.g, kElided.b, 0};
                continue;
            }
            Coord c = s.fixed;
            c[X] = static_cast<int32_t>(*xs[x]);
            c[Y] = static_cast<int32_t>(*ys[y]);
            g.texels[k] = cellTexel(g, tr, frame, c, rowOf[k], g.moveOf[k], box, step, fadeSteps);
        }
    }
    g.rowOf = std::move(rowOf);
    for (const Document::ObservedElement& e : doc.observedGlobalDiffers()) // `observe global` dumps
        if (e.tensorAddress == g.tile->map.p.globalAddress)
            if (const auto cell = g.cellOf(e.coords)) {
                g.texels[size_t((*cell)[1]) * g.w + (*cell)[0]].a |= kFlagDiffers;
                ++g.observedMarked;
            }
    return g;
}

} // namespace layoutscope::views
