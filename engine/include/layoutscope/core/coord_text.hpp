#pragma once
/// How every view, lesson and CLI message writes a tensor element's coordinate (issue 24 item 9): one
/// order, labelled. cuda.h's order (cuTensorMapEncodeTiled's globalDim[0] is the innermost, contiguous
/// dimension; PTX's `[A, {c0, c1}]` writes it first): dimension 0 first, each index named,
///   (x=5, y=3)            x = dimension 0 (columns of a row-major matrix), y = dimension 1 (rows);
///   (x=.., y=.., z=.., d3=.., d4=..) for ranks 3 to 5.
/// So the element in row 3, column 5 of a row-major matrix, C's A[3][5], is (x=5, y=3) everywhere.
#include <array>
#include <cstdint>
#include <span>
#include <string>

namespace layoutscope {

/// "x", "y", "z", "d3", "d4" (dimension `d`, 0 first); "d5"... beyond.
[[nodiscard]] std::string dimLabel(uint32_t d);

/// "(x=5, y=3)": the first `n` indices of `c` (dimension 0 first), at least the first two.
[[nodiscard]] std::string elementCoordText(std::span<const int64_t> c, size_t n);
[[nodiscard]] std::string elementCoordText(const std::array<int32_t, 5>& c, uint32_t rank);
[[nodiscard]] std::string elementCoordText(const std::array<int64_t, 2>& c);

} // namespace layoutscope
