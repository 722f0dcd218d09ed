#pragma once
/// Internal to the executor's decoder: per-function name scopes and operand parsing (decode_operand.cpp),
/// used by decode.cpp.
#include "exec/program.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace layoutscope::exec {

/// Names visible while decoding one function: its registers, symbols and labels.
struct DecodeScope {
    Program* prog = nullptr;
    int fnIndex = 0;
    std::map<std::string, uint32_t> regs;
    std::map<std::string, int> symbols; ///< function-local symbols (latest declaration wins)
    const std::map<std::string, int>* globals = nullptr;
    const std::map<std::string, int>* labels = nullptr;
    const std::map<std::string, int>* functions = nullptr;
    std::set<std::string> predRegs; ///< names declared `.reg .pred` (cp.async's ignore-src operand)
    /// `.reg` declarations: name -> (bits of its type, 1 for .pred; its `<N>` count, 0 for a single name)
    std::map<std::string, std::pair<int, int>> regDecls;
    uint32_t reg(const std::string& name);
    [[nodiscard]] int symbol(const std::string& name) const; ///< -1 if unknown
};

/// Parse one operand (comments blanked, trimmed). Labels resolve to a pc (OK::Label, imm), functions to
/// OK::Label with the function index in imm. An error returns the reason.
[[nodiscard]] std::optional<std::string> parseOperand(std::string_view text, DecodeScope& s, Opnd& out);
/// Split an operand list on top-level commas (outside [] {} ()).
[[nodiscard]] std::vector<std::string> splitOperands(std::string_view text);
[[nodiscard]] std::string trim(std::string_view s);
/// decode_modifiers.cpp: the opcode of a plain instruction (its first '.'-part), and its modifiers (the
/// other parts) into `op`; the reason when a modifier is not understood.
[[nodiscard]] std::optional<Opc> opcodeOf(std::string_view name);
[[nodiscard]] std::optional<std::string> decodeModifiers(Op& op, const std::vector<std::string>& mods);
/// A tcgen05.* instruction (`text` without its guard) into `op` (tcgen05_decode.cpp): the reason when the
/// form is not modelled or malformed.
[[nodiscard]] std::optional<std::string> decodeTcgen05(std::string_view text, DecodeScope& s, Op& op);

/// decode_mma.cpp: cp.async, wgmma, mma.sync, ldmatrix, stmatrix, movmatrix (opcode split on '.').
[[nodiscard]] bool isMatrixOpcode(const std::vector<std::string>& parts);
[[nodiscard]] std::optional<std::string> decodeMatrix(const std::vector<std::string>& parts,
                                                      const std::string& rest, DecodeScope& s, Op& op);

} // namespace layoutscope::exec
