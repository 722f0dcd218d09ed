#pragma once
/// Validity of a parsed PTX instruction for a target and PTX ISA version, decided as CUDA 13 ptxas
/// decides it (see ../shared/golden/ptxas/README.md for where ptxas and the PTX text disagree).
/// Rules live in one declarative table per instruction; every rejection names its rule, the
/// offending token's span, the targets where the form is valid, and a likely fix.
#include "layoutscope/core/result.hpp"
#include "layoutscope/ptx/instruction.hpp"

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

// [SECTION] Operand environment and target tables (appended by the PTX validator work)
namespace layoutscope {

/// What a declared name denotes when it is used as an operand.
enum class PtxValueKind { B16Reg, B32Reg, B64Reg, PredReg, SharedVar, ParamVar, GlobalVar, B128Reg };

/// One declaration: `count > 0` declares a register range (`.reg .b32 %r<300>` is {"%r", 300,
/// B32Reg}: %r0 … %r299); `count == 0` declares one name (`.shared .b64 mbar` is {"mbar", 0, SharedVar}).
struct PtxDeclaration {
    std::string name;
    int count = 0;
    PtxValueKind kind = PtxValueKind::B32Reg;
};

/// The names an instruction may use. Defaults suit single instructions typed by a user or taken
/// from a scenario: undeclared %rd/%r/%rs/%h/%p names get nvcc's width convention (64/32/16/16/pred)
/// and undeclared plain names (scenario symbols: tensor maps, buffers, barriers) fit any address slot.
struct PtxEnvironment {
    std::vector<PtxDeclaration> decls;
    bool conventionalRegisters = true;
    bool openSymbols = true;
};

/// The kernel wrapper of golden/ptxas/README.md: %p<4>, %h<8> (.b16), %r<300>, %tmp<2> (.b32),
/// %rd<8> (.b64), .shared smem and mbar, .param tmap; nothing else is declared.
[[nodiscard]] PtxEnvironment ptxasWrapperEnvironment();

[[nodiscard]] Status validateInstruction(const ParsedInstr& instr, const PtxTarget& target,
                                         const PtxEnvironment& env);
[[nodiscard]] Status validateKernel(const std::vector<ParsedInstr>& instrs, const PtxTarget& target,
                                    const PtxEnvironment& env);

/// Legality of the `.target`/`.version` pair itself (CUDA 13.0 ptxas: highest .version 9.0; lowest
/// per target: sm_90a 8.0, sm_100a 8.6, sm_120a 8.7, sm_100f/sm_103a 8.8, sm_110a 9.0).
[[nodiscard]] Status validateTargetVersion(const PtxTarget& target);

/// True when `instr`'s name is one this validator has a rule table for (cp.async.bulk.tensor, the
/// tcgen05 data-movement forms, mbarrier init/arrive.expect_tx/try_wait/test_wait); the PTX module
/// reader validates those and tolerates every other instruction.
[[nodiscard]] bool validatorModels(const ParsedInstr& instr);

/// Targets this validator knows, in table order ("sm_90a", "sm_100a", ...).
[[nodiscard]] std::vector<std::string> knownPtxTargets();

} // namespace layoutscope
