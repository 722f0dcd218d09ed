#pragma once
// Following bytes through a trace, and the global places of tensor elements (resolve.cpp).
#include "lesson/detail.hpp"

#include <array>
#include <vector>

namespace layoutscope {

/// Elements a global selector covers at most, and a landed selector (each out-of-bounds element of a landed
/// selector scans the trace's moves once).
inline constexpr size_t kMaxSelectorElements = size_t(1) << 16;
inline constexpr size_t kMaxLandedElements = size_t(1) << 14;

/// One copy found by followPlaces: the place reached, at which trace step, by which instruction and rule.
struct Hop {
    LessonPlace place;
    uint32_t step = 0;
    uint32_t instr = 0;
    RuleId rule = RuleId::None;
};
struct Followed {
    std::vector<LessonPlace> all;  ///< the start places, then every place reached, in trace order
    std::vector<Hop> steps;        ///< every place reached (not the start)
    std::vector<LessonPlace> last; ///< the places reached at the last step that reached any
    std::vector<RuleId> rules;     ///< rules of the moves on the way, first use first
};
/// Every place the bytes at `start` are copied to by moves of steps < stepLimit (copies of copies too).
/// Decompressing tcgen05.cp moves map bits (tcgen05.md §5.3); packing stores are not followed.
[[nodiscard]] Followed followPlaces(const Run& run, const std::vector<LessonPlace>& start,
                                    uint32_t stepLimit);

/// Where element x (dimension 0 first) of a selector's tensor starts: its global byte when in bounds, else
/// the shared bytes that fill moves of steps < stepLimit wrote for it.
struct ElementStart {
    std::optional<LessonPlace> global;
    std::vector<LessonPlace> places; ///< {global} when in bounds
    std::vector<LessonPlace> filled; ///< out of bounds: fill destinations
    RuleId fillRule = RuleId::None;
    uint32_t elementBits = 8;
};
[[nodiscard]] Result<ElementStart> elementStart(const Lesson& l, const Run& run, const LessonSelector& s,
                                                const std::array<int64_t, 5>& x, uint32_t stepLimit);
/// The elements of a Global / Landed selector, dimension 0 fastest, at most `cap`.
[[nodiscard]] std::vector<std::array<int64_t, 5>> selectorElements(const LessonSelector& s, size_t cap);

} // namespace layoutscope
