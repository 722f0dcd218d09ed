#pragma once
/// Structural sweep options of `layoutscope-cli sweep` (issue 24 item 8): the tile one load of a tensor
/// map covers, loaded with another box shape or another number of boxes.
///   MAP.boxes=[b0,b1,...]  boxDim becomes the given box; the load of MAP becomes one load per box of the
///                          tile (the box on MAP's line when applied), dim 0 fastest, box k at
///                          destination + k * the box's shared-memory image (its rows padded to the
///                          swizzle span, tma.md §4.1), coordinates stepped by the box.
///   MAP.loads=N            the same with the tile's outermost dimension split into N boxes.
/// Structural options apply after the others (the swizzle and box they read are the combination's).
/// The mbarrier's expected bytes stay (the tile's bytes do not change). A combination that cannot be
/// built is rejected with the rule it breaks; one that builds but breaks a driver or PTX rule is rejected
/// by the scenario's own diagnostics.
#include <string>
#include <vector>

namespace layoutscope::cli {

/// True for the option names above.
[[nodiscard]] bool isStructuralOption(const std::string& option);

/// Applies `MAP.option=value` to the scenario's lines; false with `why` (the rule) when it cannot.
bool applyStructure(std::vector<std::string>& lines, const std::string& map, const std::string& option,
                    const std::string& value, std::string& why);

} // namespace layoutscope::cli
