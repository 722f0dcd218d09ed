#pragma once
/// Parsed PTX instructions: syntax only, with source spans for every token. Validation against a
/// target and PTX version is a separate stage (ptx_validate.hpp).
#include "layoutscope/core/result.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace layoutscope {

/// One dot-separated piece of the opcode: "cp", ".async", ".bulk", ".tensor", ".2d", ".shared::cta".
struct OpcodeToken {
    std::string text; ///< with its leading dot except for the first token
    SourceSpan span;
};

enum class OperandKind {
    Register,  ///< %r1, %rd2
    Immediate, ///< 0, -8, 0x10
    Symbol,    ///< a name: a scenario symbol (tensor map, buffer, barrier) or a PTX variable
    Vector,    ///< {a, b, c}
    Address,   ///< [x] or [x+imm] or [tensorMap, {c0, c1}]
};

struct Operand {
    OperandKind kind = OperandKind::Symbol;
    std::string text;              ///< name / register / literal as written
    int64_t imm = 0;               ///< value for Immediate (and the +offset of an Address)
    std::vector<Operand> elements; ///< Vector elements, or Address contents (base [, vector])
    SourceSpan span;
};

struct ParsedInstr {
    std::string predicate;           ///< "@p" / "@!p" guard, empty if none
    std::vector<OpcodeToken> opcode; ///< opcode[0] is the base mnemonic ("cp", "tcgen05", "mbarrier")
    std::vector<Operand> operands;
    SourceSpan span;                                       ///< the whole instruction
    [[nodiscard]] std::string opcodeText() const;          ///< tokens joined: "cp.async.bulk.tensor.2d..."
    [[nodiscard]] bool hasToken(std::string_view t) const; ///< t with leading dot, e.g. ".multicast::cluster"
};

/// Parse one instruction (an optional trailing ';' is accepted). `line` and `column` give the
/// position of text[0] in its file so that spans point into the file.
[[nodiscard]] Result<ParsedInstr> parseInstruction(std::string_view text, int line = 1, int column = 1);

} // namespace layoutscope
