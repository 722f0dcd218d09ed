// The global tensor's view around its scene (global_scene.hpp): a tile's default slice, dimension names and
// CuTe shape, the copy shown at a step, GlobalScene's cell <-> coordinate lookups, and the links between a
// global cell and the shared-memory bytes of its element. Building the scene is global_scene.cpp.
#include "scene/global_scene.hpp"

#include "scene/smem_scene.hpp"

#include <algorithm>
#include <climits>

namespace layoutscope::views {

namespace {

using Coord = std::array<int32_t, kMaxTensorRank>;

} // namespace

GlobalSlice defaultSlice(const InstrTile& tile) {
    GlobalSlice s;
    s.fixed = tile.coords;
    if (tile.kind == TileKind::Im2col && !tile.pixels.empty()) {
        s.fixed = tile.pixels.front().coord;
        for (const Im2colPixelRead& p : tile.pixels) {
            bool in = true;
            for (uint32_t d = 1; d < tile.map.p.tensorRank && d < kMaxTensorRank; ++d)
                in &= p.coord[d] >= 0 && uint64_t(p.coord[d]) < tile.map.p.globalDim[d];
            if (in) {
                s.fixed = p.coord;
                break;
            }
        }
    }
    for (uint32_t d = tile.map.p.tensorRank; d < kMaxTensorRank; ++d) s.fixed[d] = 0;
    return s;
}

std::string dimName(const InstrTile& tile, int d) {
    const uint32_t rank = tile.map.p.tensorRank;
    if (tile.kind == TileKind::Im2col && rank >= 3 && d >= 0 && uint32_t(d) < rank) {
        static const char* const kNames[3][5] = {
            {"C", "W", "N"}, {"C", "W", "H", "N"}, {"C", "W", "H", "D", "N"}};
        return kNames[rank - 3][d];
    }
    return "dim " + std::to_string(d);
}

std::string cuteShape(const TensorMap& map) {
    const uint32_t rank = std::clamp<uint32_t>(map.p.tensorRank, 1, kMaxTensorRank);
    const uint64_t bits = std::max<uint32_t>(1, map.elemBits);
    std::string shape = "(", stride = "(";
    for (uint32_t d = 0; d < rank; ++d) {
        const uint64_t s = d == 0 ? 1 : map.p.globalStrides[d - 1] * 8 / bits; // bytes -> elements
        shape += (d ? "," : "") + std::to_string(map.p.globalDim[d]);
        stride += (d ? "," : "") + std::to_string(s);
    }
    return shape + "):" + stride + ")";
}

uint32_t tileInstrAt(const Document& doc, uint32_t step) {
    // The last TMA copy that has started by `step` (its first step < step), else the first one.
    std::optional<uint32_t> best;
    if (doc.hasTrace()) {
        const Trace& t = doc.trace();
        for (uint32_t i = 0; i < t.instrs.size(); ++i)
            if (doc.tileOf(i) && t.instrs[i].firstStep < step && t.instrs[i].endStep > t.instrs[i].firstStep)
                best = i;
    }
    if (best) return *best;
    if (const InstrTile* first = doc.firstTile()) return static_cast<uint32_t>(first - doc.tiles().data());
    return 0;
}

uint32_t GlobalScene::rank() const {
    return tile ? std::clamp<uint32_t>(tile->map.p.tensorRank, 1, kMaxTensorRank) : 2;
}

std::array<int32_t, kMaxTensorRank> GlobalScene::coordAt(uint32_t x, uint32_t y) const {
    auto at = [](const GlobalAxis& a, uint32_t i) {
        int64_t v = a.first() + int64_t(i); // past the end: as if dense
        if (const auto c = a.coordOf(i))
            v = *c;
        else if (const auto gap = a.gapAt(i))
            v = (*gap)[0];
        return static_cast<int32_t>(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX));
    };
    Coord c = slice.fixed;
    c[size_t(slice.dimX)] = at(axes[0], x);
    c[size_t(slice.dimY)] = at(axes[1], y);
    return c;
}

bool GlobalScene::isGap(uint32_t x, uint32_t y) const {
    return !axes[0].coordOf(x) || !axes[1].coordOf(y);
}

std::optional<std::array<uint32_t, 2>>
GlobalScene::cellOf(const std::array<int32_t, kMaxTensorRank>& c) const {
    for (int d = 0; d < kMaxTensorRank; ++d)
        if (d != slice.dimX && d != slice.dimY && c[size_t(d)] != slice.fixed[size_t(d)]) return std::nullopt;
    const auto x = axes[0].cellOf(c[size_t(slice.dimX)]), y = axes[1].cellOf(c[size_t(slice.dimY)]);
    if (!x || !y || *x >= w || *y >= h) return std::nullopt;
    return std::array<uint32_t, 2>{*x, *y};
}

bool GlobalScene::inTensor(const std::array<int32_t, kMaxTensorRank>& c) const {
    if (!tile) return false;
    for (uint32_t d = 0; d < kMaxTensorRank; ++d) {
        const uint64_t dim = d < rank() ? tile->map.p.globalDim[d] : 1;
        if (c[d] < 0 || uint64_t(c[d]) >= dim) return false;
    }
    return true;
}

std::optional<SmemSpan> smemOfGlobalCell(const Document& doc, const GlobalScene& g, uint32_t x, uint32_t y,
                                         uint32_t cta) {
    if (!g.tile || !doc.hasTrace() || x >= g.w || y >= g.h || g.isGap(x, y)) return std::nullopt;
    const Trace& tr = doc.trace();
    const Coord c = g.coordAt(x, y);
    const uint32_t eb = doc.elemBytesOf(g.instr);
    if (g.instr >= tr.instrs.size()) return std::nullopt;
    const TraceInstr& in = tr.instrs[g.instr];
    if (in.endStep <= in.firstStep) return std::nullopt;
    const uint32_t last = std::min(g.step, in.endStep);
    if (last <= in.firstStep) return std::nullopt;
    const size_t lo = tr.movesOfStep(in.firstStep).first, hi = tr.movesOfStep(last - 1).second;
    std::optional<SmemSpan> found; // the latest move of the element into / out of `cta`
    for (size_t i = lo; i < hi; ++i) {
        const ByteMove& m = tr.moves[i];
        if (m.instr != g.instr) continue;
        const MemRef& r = g.tile->load ? m.dst : m.src;
        if (r.space != MemSpace::SharedCta || r.cta != cta) continue;
        const int64_t n = std::max<uint32_t>(1, m.length / eb);
        bool same = c[0] >= m.coord[0] && c[0] < int64_t(m.coord[0]) + n;
        for (size_t d = 1; d < kMaxTensorRank && same; ++d) same = c[d] == m.coord[d];
        if (same) found = SmemSpan{uint32_t(r.addr) + uint32_t(c[0] - m.coord[0]) * eb, eb};
    }
    return found;
}

std::optional<std::array<uint32_t, 2>> globalCellOfMoveByte(const Document& doc, const GlobalScene& g,
                                                            size_t moveIndex, uint32_t byteInMove) {
    if (!g.tile || !doc.hasTrace() || moveIndex >= doc.trace().moves.size()) return std::nullopt;
    const ByteMove& m = doc.trace().moves[moveIndex];
    if (m.instr != g.instr) return std::nullopt;
    return g.cellOf(coordOfByte(m, byteInMove, doc.elemBytesOf(m.instr)));
}

} // namespace layoutscope::views
