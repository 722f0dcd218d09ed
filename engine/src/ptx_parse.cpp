// placeholder: the PTX instruction parser is being written
#include "layoutscope/instruction.hpp"
namespace layoutscope {
std::string ParsedInstr::opcodeText() const {
    std::string s;
    for (const auto& t : opcode) s += t.text;
    return s;
}
bool ParsedInstr::hasToken(std::string_view t) const {
    for (const auto& o : opcode) if (o.text == t) return true;
    return false;
}
Result<ParsedInstr> parseInstruction(std::string_view, int line, int column) {
    return Diagnostic{Severity::Error, DiagCode::Unsupported, {line, column, 0}, "PTX parser not implemented yet", "", Provenance::Assumption};
}
} // namespace layoutscope
