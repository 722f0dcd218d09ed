#pragma once
/// Internal to conform cute: evaluating CuTe layouts as CuTe prints them ("Sw<3,4,3> o _0 o
/// (shape):(stride)",
/// "((_4,_8),(_64,_2)):((_64,_256),(_1,_2048))"), so golden/cute data can be checked against CuTe's own
/// layouts.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace layoutscope::conform {

/// A CuTe int-tuple: a leaf value or a list of children.
struct CuteTuple {
    int64_t value = 0;
    std::vector<CuteTuple> children;
};

/// A layout shape:stride (the swizzle and offset prefix "Sw<..> o _0 o" stripped by parseCuteLayout).
struct CuteLayout {
    CuteTuple shape, stride;
    /// Offset of the colexicographic 1-D coordinate x over all leaves.
    [[nodiscard]] int64_t operator()(int64_t x) const;
    /// Offset of coordinate x in top-level mode `mode`.
    [[nodiscard]] int64_t mode(size_t mode, int64_t x) const;
    /// Number of elements of top-level mode `mode` (product of its leaves).
    [[nodiscard]] int64_t modeSize(size_t mode) const;
    /// Flattened (shape, stride) leaves: all, and per top-level mode (filled by parseCuteLayout).
    std::vector<std::pair<int64_t, int64_t>> flat;
    std::vector<std::vector<std::pair<int64_t, int64_t>>> modes;
};

/// Parses "[...o] (shape):(stride)"; throws std::runtime_error on malformed text.
[[nodiscard]] CuteLayout parseCuteLayout(std::string text);
/// Offset of the colexicographic coordinate x in (shape, stride).
[[nodiscard]] int64_t cuteOffset(const CuteTuple& shape, const CuteTuple& stride, int64_t x);

} // namespace layoutscope::conform
