#pragma once
/// A scenario to fill in, written from one kernel of a PTX module (docs/ptx-modules.md "Scaffold"):
/// the kernel's data-movement instructions in program order, with every register operand that a
/// scenario needs a value for turned into a named declaration (`tensormap`, `smem`, `mbarrier`,
/// `desc`, `let`) whose comment names the PTX line. Values the module shows (`mov.b32 %r4, 1;`) are
/// used; the rest get defaults under which the scenario parses and runs.
#include "layoutscope/core/result.hpp"
#include "layoutscope/ptx/module.hpp"

#include <string>

namespace layoutscope {

struct ScaffoldOptions {
    std::string entry;      ///< the .entry to scaffold; "" = the module's only one
    std::string sourceName; ///< the .ptx file's name, for the header comment
};

/// The scenario text. Errors: the module has no .entry; several and none chosen (the message lists
/// them); the chosen one does not exist (listed too).
[[nodiscard]] Result<std::string> scaffoldScenario(const PtxModule& module, const ScaffoldOptions& options);

} // namespace layoutscope
