#pragma once
/// Validity of a parsed PTX instruction for a target and PTX ISA version, decided as CUDA 13 ptxas
/// decides it (see ../shared/golden/ptxas/README.md for where ptxas and the PTX text disagree).
/// Rules live in one declarative table per instruction; every rejection names its rule, the
/// offending token's span, the targets where the form is valid, and a likely fix.
#include "layoutscope/instruction.hpp"
#include "layoutscope/result.hpp"

#include <string>
#include <vector>

namespace layoutscope {

struct PtxTarget {
    std::string sm = "sm_90a"; ///< sm_90a, sm_100a, sm_100f, sm_103a, sm_110a, sm_120a, ...
    int ptxMajor = 8;          ///< PTX ISA version, e.g. 8.7
    int ptxMinor = 7;
};

/// Validate one instruction. Ok, or every diagnostic found (errors first).
[[nodiscard]] Status validateInstruction(const ParsedInstr& instr, const PtxTarget& target);

/// Validate a kernel's instructions together (adds kernel-level rules, e.g. one .cta_group).
[[nodiscard]] Status validateKernel(const std::vector<ParsedInstr>& instrs, const PtxTarget& target);

} // namespace layoutscope
