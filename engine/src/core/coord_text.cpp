// Element coordinates as text, dimension 0 first and labelled (coord_text.hpp).
#include "layoutscope/core/coord_text.hpp"

#include <algorithm>
#include <vector>

namespace layoutscope {

std::string dimLabel(uint32_t d) {
    static constexpr const char* kNames[] = {"x", "y", "z"};
    return d < 3 ? std::string(kNames[d]) : "d" + std::to_string(d);
}

std::string elementCoordText(std::span<const int64_t> c, size_t n) {
    n = std::min(std::max<size_t>(n, 2), c.size());
    std::string s = "(";
    for (size_t d = 0; d < n; ++d) s += (d ? ", " : "") + dimLabel(uint32_t(d)) + "=" + std::to_string(c[d]);
    return s + ")";
}

std::string elementCoordText(const std::array<int32_t, 5>& c, uint32_t rank) {
    const std::array<int64_t, 5> w{c[0], c[1], c[2], c[3], c[4]};
    return elementCoordText(w, rank);
}

std::string elementCoordText(const std::array<int64_t, 2>& c) {
    return elementCoordText(c, 2);
}

} // namespace layoutscope
