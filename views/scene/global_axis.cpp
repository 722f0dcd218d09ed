#include "scene/global_axis.hpp"

#include <algorithm>
#include <climits>

namespace layoutscope::views {

namespace {
constexpr int64_t kCoordMin = INT32_MIN, kCoordEnd = int64_t(INT32_MAX) + 1; // tensor coordinates: int32

int64_t clampCoord(int64_t c) {
    return std::clamp(c, kCoordMin, kCoordEnd);
}

/// Saturating a + b for the margins (inputs are int32-range coordinates and small margins).
int64_t addSat(int64_t a, int64_t b) {
    if (b > 0 && a > INT64_MAX - b) return INT64_MAX;
    if (b < 0 && a < INT64_MIN - b) return INT64_MIN;
    return a + b;
}
} // namespace

GlobalAxis GlobalAxis::over(std::vector<Interval> iv, int64_t margin) {
    margin = std::max<int64_t>(0, margin);
    for (Interval& i : iv) i = {clampCoord(addSat(i[0], -margin)), clampCoord(addSat(i[1], margin))};
    std::erase_if(iv, [](const Interval& i) { return i[0] >= i[1]; });
    GlobalAxis a;
    if (iv.empty()) return a;
    std::sort(iv.begin(), iv.end());
    int64_t hi = iv.front()[1];
    for (const Interval& i : iv) hi = std::max(hi, i[1]);
    if (hi - iv.front()[0] <= kMaxCells) {
        a.segments = {{iv.front()[0], hi, 0}};
        a.cells = uint32_t(hi - iv.front()[0]);
        return a;
    }
    std::vector<Interval> merged;
    for (const Interval& i : iv) {
        if (!merged.empty() && i[0] <= merged.back()[1] + kMergeGap)
            merged.back()[1] = std::max(merged.back()[1], i[1]);
        else
            merged.push_back(i);
    }
    uint32_t cell = 0;
    for (const Interval& i : merged) {
        if (cell > 0) ++cell; // the gap cell before this segment
        if (cell >= kMaxCells) {
            a.truncated = true;
            break;
        }
        const int64_t n = std::min<int64_t>(i[1] - i[0], kMaxCells - cell);
        a.segments.push_back({i[0], i[0] + n, cell});
        cell += uint32_t(n);
        if (n < i[1] - i[0]) {
            a.truncated = true;
            ++cell; // a gap cell for what is cut off
            break;
        }
    }
    a.cells = cell;
    return a;
}

std::optional<uint32_t> GlobalAxis::cellOf(int64_t c) const {
    auto it = std::upper_bound(segments.begin(), segments.end(), c,
                               [](int64_t v, const Segment& s) { return v < s.lo; });
    if (it == segments.begin()) return std::nullopt;
    --it;
    if (c >= it->hi) return std::nullopt;
    return it->cell + uint32_t(c - it->lo);
}

std::optional<int64_t> GlobalAxis::coordOf(uint32_t cell) const {
    auto it = std::upper_bound(segments.begin(), segments.end(), cell,
                               [](uint32_t v, const Segment& s) { return v < s.cell; });
    if (it == segments.begin()) return std::nullopt;
    --it;
    const int64_t c = it->lo + int64_t(cell - it->cell);
    if (c >= it->hi) return std::nullopt;
    return c;
}

std::optional<GlobalAxis::Interval> GlobalAxis::gapAt(uint32_t cell) const {
    if (cell >= cells || coordOf(cell)) return std::nullopt;
    auto it = std::upper_bound(segments.begin(), segments.end(), cell,
                               [](uint32_t v, const Segment& s) { return v < s.cell; });
    const int64_t lo = it == segments.begin() ? kCoordMin : std::prev(it)->hi;
    const int64_t hi = it == segments.end() ? INT64_MAX : it->lo;
    return Interval{lo, hi};
}

float GlobalAxis::position(int64_t c) const {
    if (segments.empty()) return 0.0f;
    const Segment& f = segments.front();
    if (c < f.lo) return std::max(-1.0f, float(f.cell) - float(f.lo - c));
    for (size_t k = 0; k < segments.size(); ++k) {
        const Segment& s = segments[k];
        const float end = float(s.cell) + float(s.hi - s.lo);
        if (c <= s.hi) return float(s.cell) + float(c - s.lo);
        if (k + 1 < segments.size() && c < segments[k + 1].lo) return end + 0.5f; // elided
        if (k + 1 == segments.size()) {
            if (truncated) return std::min(float(cells), end + 0.5f);
            return std::min(float(cells) + 1.0f, end + float(c - s.hi));
        }
    }
    return float(cells);
}

} // namespace layoutscope::views
