#pragma once
/// Text scanning shared by the PTX instruction parser and the scenario parser: a cursor that keeps
/// 1-based line/column positions, character classes and integer literals. Internal to the engine.
#include "layoutscope/core/result.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace layoutscope::lex {

[[nodiscard]] inline bool isAlpha(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
[[nodiscard]] inline bool isDigit(char c) {
    return c >= '0' && c <= '9';
}
/// PTX identifiers: [a-zA-Z_$][a-zA-Z0-9_$]* (PTX ISA 9.2 §4.4). '%' is handled by the caller.
[[nodiscard]] inline bool isIdentStart(char c) {
    return isAlpha(c) || c == '_' || c == '$';
}
[[nodiscard]] inline bool isIdentChar(char c) {
    return isIdentStart(c) || isDigit(c);
}
[[nodiscard]] inline bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

/// "'x'" for a printable character, "byte 0xNN" otherwise, "end of input" for '\0' at the end.
[[nodiscard]] std::string describeChar(std::string_view text, size_t pos);

/// A position in a text, with the line/column of text[pos] in its file.
struct Cursor {
    std::string_view text;
    size_t pos = 0;
    int line = 1;
    int column = 1;

    [[nodiscard]] bool atEnd() const { return pos >= text.size(); }
    [[nodiscard]] char peek(size_t k = 0) const { return pos + k < text.size() ? text[pos + k] : '\0'; }
    void advance(size_t n = 1);
    void skipSpace();
    /// A span from `start` (an earlier cursor copy) to here, on start's line.
    [[nodiscard]] SourceSpan spanFrom(const Cursor& start) const;
    /// A span of `len` characters at the cursor (at least 1, so an editor can underline it).
    [[nodiscard]] SourceSpan here(int len = 1) const { return {line, column, len < 1 ? 1 : len}; }
};

enum class IntStatus { Ok, Malformed, OutOfRange };

struct IntLiteral {
    IntStatus status = IntStatus::Malformed;
    int64_t value = 0; ///< two's complement bit pattern for values above INT64_MAX
};

/// Parse a whole integer literal: [+-] (decimal | 0x hex | 0b binary | 0 octal) [U]; PTX ISA 9.2 §4.5.1.
/// Magnitudes up to 2^64-1 are accepted (stored as their 64-bit pattern); negatives down to -2^63.
[[nodiscard]] IntLiteral parseIntLiteral(std::string_view s);

/// Length of the literal-like run at the cursor: sign, then alphanumerics (so "0x1g" is one bad token).
[[nodiscard]] size_t literalRunLength(const Cursor& c);

} // namespace layoutscope::lex
