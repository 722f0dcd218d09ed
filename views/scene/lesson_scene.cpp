#include "scene/lesson_scene.hpp"

#include <algorithm>
#include <cctype>

namespace layoutscope::views {

Result<std::vector<uint32_t>> lessonPositions(const Lesson& l, const Run& run) {
    std::vector<uint32_t> out;
    out.reserve(l.steps.size());
    for (size_t i = 0; i < l.steps.size(); ++i) {
        auto p = lessonTraceStep(l, run, i);
        if (!p) return p.diagnostics();
        out.push_back(*p);
    }
    return out;
}

size_t lessonStepAt(const std::vector<uint32_t>& positions, uint32_t t, size_t current) {
    std::optional<uint32_t> best; // the latest position <= t
    for (const uint32_t p : positions)
        if (p <= t && (!best || p > *best)) best = p;
    if (!best) return 0;
    if (current < positions.size() && positions[current] == *best) return current;
    return size_t(std::find(positions.begin(), positions.end(), *best) - positions.begin());
}

std::optional<size_t> pauseStepBetween(const Lesson& l, const std::vector<uint32_t>& positions, uint32_t from,
                                       uint32_t to) {
    std::optional<size_t> first;
    for (size_t i = 0; i < positions.size() && i < l.steps.size(); ++i) {
        const bool pauses = l.steps[i].pause || l.steps[i].question.has_value();
        if (pauses && positions[i] > from && positions[i] <= to &&
            (!first || positions[i] < positions[*first]))
            first = i;
    }
    return first;
}

std::string captionForDisplay(const std::string& caption) {
    std::string out;
    out.reserve(caption.size() + 16);
    bool code = false; // inside a `code span` (fenced blocks have backquotes on their own lines)
    for (size_t i = 0; i < caption.size(); ++i) {
        const char c = caption[i];
        if (c == '`') code = !code;
        if (c == '*' && !code && i > 0 && i + 1 < caption.size()) {
            const char a = caption[i - 1], b = caption[i + 1];
            if ((std::isdigit(uint8_t(a)) || a == ')') && (std::isdigit(uint8_t(b)) || b == '(')) out += '\\';
        }
        out += c;
    }
    return out;
}

CellRanges mergeCellRuns(std::vector<glm::uvec2> cells) {
    std::sort(cells.begin(), cells.end(),
              [](glm::uvec2 a, glm::uvec2 b) { return a.y != b.y ? a.y < b.y : a.x < b.x; });
    cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
    CellRanges out;
    for (const glm::uvec2 c : cells) {
        if (!out.empty() && out.back().second.y == c.y + 1 && out.back().second.x == c.x) {
            out.back().second.x = c.x + 1;
            continue;
        }
        out.push_back({c, c + glm::uvec2(1)});
    }
    return out;
}

CellRanges smemHighlightCells(const SmemScene& s, const std::vector<LessonCells>& cells) {
    std::vector<glm::uvec2> out;
    const uint64_t lo = s.window.base, hi = uint64_t(s.window.base) + s.window.size;
    for (const LessonCells& c : cells) {
        if (c.space != MemSpace::SharedCta || c.cta != s.window.cta) continue;
        for (uint64_t a = std::max(c.addr, lo); a < std::min(c.addr + c.bytes, hi); ++a) {
            const uint32_t i = uint32_t(a - lo);
            out.push_back({i % 128, i / 128});
        }
    }
    return mergeCellRuns(std::move(out));
}

namespace {

/// Virtual address and first bit of tensor element `c` (dim 0 first) of `map`.
std::pair<uint64_t, uint32_t> elementAddress(const TensorMap& map,
                                             const std::array<int32_t, kMaxTensorRank>& c, uint32_t rank) {
    const uint64_t bit0 = uint64_t(c[0]) * map.elemBits;
    uint64_t a = map.p.globalAddress + bit0 / 8;
    for (uint32_t d = 1; d < rank; ++d) a += uint64_t(c[d]) * map.p.globalStrides[d - 1];
    return {a, uint32_t(bit0 % 8)};
}

} // namespace

CellRanges globalHighlightCells(const GlobalScene& g, const std::vector<LessonCells>& cells) {
    std::vector<std::pair<uint64_t, uint64_t>> ranges; // [lo, hi) global bytes, sorted
    for (const LessonCells& c : cells)
        if (c.space == MemSpace::Global && c.bytes > 0) ranges.push_back({c.addr, c.addr + c.bytes});
    if (ranges.empty() || !g.tile) return {};
    std::sort(ranges.begin(), ranges.end());
    const TensorMap& map = g.tile->map;
    const uint64_t elemBytes = std::max<uint64_t>(1, map.elemBits / 8);
    auto hit = [&](uint64_t lo, uint64_t hi) { // any range overlapping [lo, hi)
        auto it = std::upper_bound(ranges.begin(), ranges.end(), std::pair{lo, UINT64_MAX});
        if (it != ranges.begin() && std::prev(it)->second > lo) return true;
        return it != ranges.end() && it->first < hi;
    };
    std::vector<glm::uvec2> out;
    for (uint32_t y = 0; y < g.h; ++y)
        for (uint32_t x = 0; x < g.w; ++x) {
            if (g.isGap(x, y)) continue;
            const auto c = g.coordAt(x, y);
            if (!g.inTensor(c)) continue;
            const uint64_t a = elementAddress(map, c, g.rank()).first;
            if (hit(a, a + elemBytes)) out.push_back({x, y});
        }
    return mergeCellRuns(std::move(out));
}

CellRanges tmemHighlightCells(const TmemScene& t, const std::vector<LessonCells>& cells) {
    std::vector<glm::uvec2> out;
    for (const LessonCells& c : cells) {
        if (c.space != MemSpace::TensorMemory) continue;
        for (uint32_t lane = c.lane; lane < std::min(c.lane + c.lanes, t.height()); ++lane)
            for (uint32_t col = c.column; col < std::min<uint32_t>(c.column + c.columns, 512); ++col)
                if (const auto g = t.gridOf({c.cta, lane, col})) out.push_back(*g);
    }
    return mergeCellRuns(std::move(out));
}

CellRanges regHighlightCells(const RegScene& r, const std::vector<LessonCells>& cells) {
    std::vector<glm::uvec2> out;
    if (!r.valid) return {};
    for (const LessonCells& c : cells) {
        if (c.space != MemSpace::Register || c.cta != r.cta) continue;
        const uint32_t thread = uint32_t(c.addr >> 16);
        const auto row = std::find(r.warps.begin(), r.warps.end(), thread / 32);
        if (row == r.warps.end()) continue; // a warp this instruction does not use
        const uint32_t y = 32 * uint32_t(row - r.warps.begin()) + thread % 32;
        const uint64_t first = c.addr & 0xFFFF;
        for (uint64_t b = first; b < first + c.bytes; b += 4 - (b % 4)) // one cell per 32-bit register
            if (b / 4 < r.width()) out.push_back({uint32_t(b / 4), y});
    }
    return mergeCellRuns(std::move(out));
}

std::optional<LessonPlace> regPlaceAt(const RegScene& r, uint32_t x, uint32_t y) {
    if (!r.valid || x >= r.width() || y >= r.height()) return std::nullopt;
    LessonPlace p;
    p.space = MemSpace::Register;
    p.cta = r.cta;
    p.addr = uint64_t(r.warps[y / 32] * 32 + y % 32) << 16 | uint64_t(x) * 4;
    return p;
}

std::optional<LessonPlace> smemPlaceAt(const SmemScene& s, uint32_t x, uint32_t y) {
    if (x >= 128 || y >= s.window.rows()) return std::nullopt;
    LessonPlace p;
    p.space = MemSpace::SharedCta;
    p.cta = s.window.cta;
    p.addr = s.window.base + y * 128 + x;
    return p;
}

std::optional<LessonPlace> globalPlaceAt(const GlobalScene& g, uint32_t x, uint32_t y) {
    if (!g.tile || x >= g.w || y >= g.h || g.isGap(x, y)) return std::nullopt;
    const auto c = g.coordAt(x, y);
    if (!g.inTensor(c)) return std::nullopt;
    const auto [addr, bit] = elementAddress(g.tile->map, c, g.rank());
    LessonPlace p;
    p.space = MemSpace::Global;
    p.addr = addr;
    p.bit = bit;
    p.bits = std::min<uint32_t>(8, std::max<uint32_t>(1, g.tile->map.elemBits));
    return p;
}

std::optional<LessonPlace> tmemPlaceAt(const TmemScene& t, uint32_t x, uint32_t y) {
    const auto c = t.cellAt(x, y);
    if (!c) return std::nullopt;
    LessonPlace p;
    p.space = MemSpace::TensorMemory;
    p.cta = c->cta;
    p.addr = uint64_t(c->lane) << 16 | c->column;
    return p;
}

} // namespace layoutscope::views
