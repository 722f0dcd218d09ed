#pragma once
/// Whole PTX modules as nvcc writes them and ptxas reads them (docs/ptx-modules.md): the module
/// header (.version/.target/.address_size), .entry/.func with their parameters, declarations
/// (.reg/.shared/.global/.const/.local, ranges `%r<10>`, arrays, alignment, vector types), labels,
/// guards, `{ ... }` scopes (inline asm), debug directives. Every instruction is tolerated; those
/// the PTX validator models (cp.async.bulk.tensor, tcgen05 data movement, mbarrier) are parsed,
/// and checkPtxModule validates them for the module's .target and .version with the declared
/// register types.
///
/// [SECTION] index
///   Module    PtxModule, PtxFunction, PtxModuleInstr: what readPtxModule returns
///   Reading   readPtxModule, looksLikePtxModule, kMaxPtxModuleBytes
///   Checking  checkPtxModule
#include "layoutscope/core/result.hpp"
#include "layoutscope/ptx/instruction.hpp"
#include "layoutscope/ptx/validate.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace layoutscope {

// [SECTION] Module -----------------------------------------------------------------------------

/// Where a register's value came from, as far as the `mov`/`cvta` instructions before it show:
/// `mov.u32 %r8, tile;` gives {"%r8", "tile"}, `mov.b32 %r4, 1;` gives {"%r4", "", 1}.
struct PtxRegOrigin {
    std::string reg;
    std::string symbol; ///< a variable or parameter name, "" when an immediate was moved
    int64_t value = 0;  ///< the immediate (when symbol is empty)
    int line = 0;       ///< the line of the mov that set it
};

/// One instruction the validator models, as written in the module, with the names visible there.
struct PtxModuleInstr {
    ParsedInstr instr;     ///< spans point into the module text (line/column of the file)
    size_t envIndex = 0;   ///< PtxFunction::envs entry: the declarations in scope at this line
    bool modelled = false; ///< false: a tcgen05/cp.async.bulk/mbarrier form the validator has no table for
    std::vector<PtxRegOrigin> origins; ///< for the registers among its operands whose origin is known
};

/// A `.param` of an .entry/.func: `.param .align 128 .b8 name[128]` is {"name", ".b8", 128, 128}.
struct PtxParam {
    std::string name;
    std::string type;   ///< ".u64", ".b8", ... ("" if none was written)
    uint64_t bytes = 0; ///< array length times element size, else the element size
    uint64_t align = 0; ///< `.align N`, 0 if not written
    SourceSpan span;
};

/// A state-space variable declared in a module or function: `.shared .align 1024 .b8 tile[16384]`.
struct PtxVariable {
    std::string space; ///< ".shared", ".global", ".const", ".local"
    std::string name;
    std::string type;
    uint64_t bytes = 0; ///< 0 for `[]` (extern shared) or an unknown type
    uint64_t align = 0;
    SourceSpan span;
};

/// A data-movement instruction the validator has no rule table for: `check` names each by family and
/// line instead of passing over it (docs/ptx-modules.md).
struct PtxUnmodelled {
    std::string family; ///< its PTX ISA name: "wgmma.mma_async", "cp.async", "ld.shared", ...
    std::string opcode; ///< the opcode as written, qualifiers included
    SourceSpan span;    ///< the opcode
};

/// One statement of a function body in text order (for the executor, engine/src/exec): a label, a
/// declaration or an instruction, with its text (comments blanked, without the ';') and, when the
/// module has line info (`.loc`), the CUDA source position of the last `.loc` before it.
struct PtxStatement {
    enum class Kind { Label, Declaration, Instruction };
    Kind kind = Kind::Instruction;
    std::string text; ///< label name; declaration or instruction text (guard included)
    int line = 0, column = 0;
    int locFile = 0, locLine = 0; ///< `.loc FILE LINE ...` in force (0: none)
    int scopeDepth = 0;           ///< 0 = the function body, 1 = a `{ ... }` inside it, ...
    int scopeId = 0;              ///< its `{ }` block, numbered in opening order (0 = the body)
};

struct PtxFunction {
    std::string name;
    bool isEntry = false; ///< .entry (a kernel) or .func
    SourceSpan span;      ///< the function's name
    std::vector<PtxParam> params;
    std::vector<PtxVariable> variables;    ///< declared in the body (every scope)
    std::vector<PtxModuleInstr> instrs;    ///< data-movement instructions in program (text) order
    std::vector<int> scopeParents;         ///< block id -> the block that encloses it (-1 for the body)
    std::vector<PtxEnvironment> envs;      ///< declaration sets referred to by PtxModuleInstr::envIndex
    size_t otherInstructions = 0;          ///< instructions tolerated without validation
    std::vector<PtxUnmodelled> unmodelled; ///< those of them that move data (a subset, in text order)
    std::vector<PtxParam> returns;         ///< a .func's return parameters `(.param .b32 r) f(...)`
    std::vector<PtxStatement> body;        ///< every body statement in text order (the executor's input)
};

struct PtxModule {
    PtxTarget target;       ///< from .target and .version
    SourceSpan versionSpan; ///< the `.version` directive (invalid if absent)
    SourceSpan targetSpan;  ///< the `.target` directive (invalid if absent)
    int addressSize = 64;
    SourceSpan addressSizeSpan;       ///< the `.address_size` value (invalid if absent)
    std::vector<PtxVariable> globals; ///< module-scope variables
    std::vector<PtxFunction> functions;
    std::vector<std::pair<int, std::string>> files; ///< `.file N "name"` directives (line info)
    /// Problems that do not stop reading: a modelled instruction that does not parse. checkPtxModule
    /// reports them with the validation diagnostics.
    std::vector<Diagnostic> diagnostics;
    [[nodiscard]] const PtxFunction* findFunction(std::string_view name) const;
    [[nodiscard]] std::vector<const PtxFunction*> entries() const;
};

// [SECTION] Reading ----------------------------------------------------------------------------

/// Largest module accepted (64 MiB): CUTLASS kernels compiled for several tile shapes reach a few MiB.
inline constexpr uint64_t kMaxPtxModuleBytes = uint64_t(64) << 20;

/// Read a PTX module. Errors (every one with line and column, DiagCode::Syntax unless noted): text
/// larger than kMaxPtxModuleBytes, a NUL or other control byte (binary input), a missing or malformed
/// .version/.target, unbalanced `{`/`}` or `(`/`)`, a statement cut off by the end of the text, a
/// declaration that does not parse. Nesting deeper than 256 scopes is refused.
[[nodiscard]] Result<PtxModule> readPtxModule(std::string_view text);

/// Read a .ptx file: at most kMaxPtxModuleBytes + 1 bytes are read, so devices and pipes end with the
/// size-limit diagnostic. Errors (DiagCode::Io): cannot open or read, larger than the limit.
[[nodiscard]] Result<std::string> readPtxModuleFile(const std::string& path);

/// True when `text` reads as a PTX module rather than a scenario: its first directive (after
/// comments and blank lines) is `.version` and it has an `.entry` or `.func` (a scenario may start
/// with `.version`, its alias of `ptx`, but defines no function).
[[nodiscard]] bool looksLikePtxModule(std::string_view text);

// [SECTION] Checking ---------------------------------------------------------------------------

/// Validate a module: the .target/.version pair (at the .version line), every modelled instruction
/// with the declarations in scope at its line (PtxEnvironment without conventional registers or
/// open symbols), the kernel-wide .cta_group rule per function, plus readPtxModule's non-fatal
/// diagnostics. Sorted by line. Empty: the module checks clean.
[[nodiscard]] std::vector<Diagnostic> checkPtxModule(const PtxModule& module);

} // namespace layoutscope
