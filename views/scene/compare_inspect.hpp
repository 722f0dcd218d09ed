#pragma once
/// The compare window's inspector lines (compare_window.cpp): what a cell holds and its class against
/// pane 1 (compare_scene.hpp). Plain C++.
#include "scene/compare_scene.hpp"

#include <functional>
#include <string>

namespace layoutscope::views {

/// "tensor @0x... element (x=c0, y=c1[, z=c2, ...]), byte b", or where a byte not copied by TMA came from.
[[nodiscard]] std::string describeElement(const ElementKey& k);

/// The line (with its leading newline) on the class of cell `i` of pane `pane` (0 = pane 1), "" when the
/// same; `written`: the cell holds an element; `where(j)` names cell j of pane 1.
[[nodiscard]] std::string matchText(const CellMatches& m, size_t i, size_t pane, bool written,
                                    const std::function<std::string(int64_t)>& where);

} // namespace layoutscope::views
