#pragma once
/// One axis of the global-tensor view: which slice coordinates its cells show. Pure C++.
///
/// A span of at most kMaxCells coordinates is shown densely (one segment). A longer one (a gather4
/// of rows 0 and 99,999,999; an im2col window over a huge W) shows only the coordinates near what
/// the copy touches, each elided run of coordinates as one gap cell between segments, and never
/// more than kMaxCells + 1 cells: the view's memory never grows with the coordinate range.
///
///   coords  [lo0, hi0)   gap   [lo1, hi1)   ...
///   cells   0 .. n0-1    n0    n0+1 ...
///
/// Coordinates are int64 so that a box at INT32_MAX does not overflow; segments are clipped to the
/// int32 range that tensor coordinates have.
#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace layoutscope::views {

struct GlobalAxis {
    using Interval = std::array<int64_t, 2>; ///< coordinates [lo, hi)
    struct Segment {
        int64_t lo = 0, hi = 0; ///< coordinates [lo, hi)
        uint32_t cell = 0;      ///< cell of coordinate lo
        friend bool operator==(const Segment&, const Segment&) = default;
    };
    static constexpr uint32_t kMaxCells = 1024;
    /// Two intervals at most this many coordinates apart are shown as one (no gap cell).
    static constexpr int64_t kMergeGap = 2;

    std::vector<Segment> segments; ///< ascending; a gap cell between two consecutive ones
    uint32_t cells = 0;            ///< segment cells + gap cells
    bool truncated = false;        ///< over kMaxCells: coordinates after the last segment not shown

    /// The axis over `intervals` (any order, may overlap), each widened by `margin` on both sides.
    [[nodiscard]] static GlobalAxis over(std::vector<Interval> intervals, int64_t margin);

    [[nodiscard]] bool dense() const { return segments.size() <= 1 && !truncated; }
    [[nodiscard]] int64_t first() const { return segments.empty() ? 0 : segments.front().lo; }
    [[nodiscard]] int64_t end() const {
        return segments.empty() ? 0 : segments.back().hi;
    } ///< last shown + 1
    /// Cell showing coordinate `c`, nullopt when it is elided or outside the axis.
    [[nodiscard]] std::optional<uint32_t> cellOf(int64_t c) const;
    /// Coordinate shown by `cell`, nullopt for a gap cell (or past the end).
    [[nodiscard]] std::optional<int64_t> coordOf(uint32_t cell) const;
    /// The coordinates [lo, hi) a gap cell stands for (hi = INT64_MAX after a truncated end).
    [[nodiscard]] std::optional<Interval> gapAt(uint32_t cell) const;
    /// Continuous position of coordinate edge `c` in cells (outline edges): cell + (c - lo) inside a
    /// segment, the middle of the gap cell inside a gap, clamped to [-1, cells + 1] outside.
    [[nodiscard]] float position(int64_t c) const;
    /// Calls fn(cell, coordinate) for every shown coordinate in [lo, hi), ascending.
    template <class Fn>
    void forEach(int64_t lo, int64_t hi, Fn&& fn) const {
        for (const Segment& s : segments) {
            if (s.hi <= lo) continue;
            if (s.lo >= hi) break;
            for (int64_t c = std::max(lo, s.lo), e = std::min(hi, s.hi); c < e; ++c)
                fn(s.cell + uint32_t(c - s.lo), c);
        }
    }
};

} // namespace layoutscope::views
