#include "ptx/lex.hpp"

#include <cstdio>

namespace layoutscope::lex {

std::string describeChar(std::string_view text, size_t pos) {
    if (pos >= text.size()) return "end of input";
    const auto c = static_cast<unsigned char>(text[pos]);
    if (c == '\n') return "end of line";
    if (c >= 0x21 && c < 0x7f) return std::string("'") + static_cast<char>(c) + "'";
    char buf[16];
    std::snprintf(buf, sizeof buf, "byte 0x%02X", c);
    return buf;
}

void Cursor::advance(size_t n) {
    for (size_t i = 0; i < n && pos < text.size(); ++i, ++pos) {
        if (text[pos] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
}

void Cursor::skipSpace() {
    while (!atEnd() && isSpace(peek())) advance();
}

SourceSpan Cursor::spanFrom(const Cursor& start) const {
    const int len = line == start.line ? column - start.column : static_cast<int>(pos - start.pos);
    return {start.line, start.column, len < 1 ? 1 : len};
}

size_t literalRunLength(const Cursor& c) {
    size_t n = 0;
    if (c.peek() == '-' || c.peek() == '+') ++n;
    while (isIdentChar(c.peek(n))) ++n;
    return n;
}

namespace {
int digitValue(char c) {
    if (isDigit(c)) return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return 99;
}
} // namespace

IntLiteral parseIntLiteral(std::string_view s) {
    IntLiteral r;
    bool negative = false;
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
        negative = s[0] == '-';
        s.remove_prefix(1);
    }
    if (!s.empty() && (s.back() == 'U' || s.back() == 'u')) s.remove_suffix(1);
    if (s.empty() || !isDigit(s[0])) return r;
    unsigned base = 10;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s.remove_prefix(2);
    } else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
        base = 2;
        s.remove_prefix(2);
    } else if (s.size() > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D')) {
        // 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX: IEEE bit patterns (PTX ISA 9.2 §4.5.1)
        const size_t digits = (s[1] == 'f' || s[1] == 'F') ? 8 : 16;
        if (s.size() != digits + 2 || negative) return r;
        base = 16;
        s.remove_prefix(2);
    } else if (s.size() > 1 && s[0] == '0') {
        base = 8;
        s.remove_prefix(1);
    }
    uint64_t v = 0;
    bool overflow = false;
    for (char c : s) {
        const int d = digitValue(c);
        if (d >= static_cast<int>(base)) return r; // status stays Malformed
        if (v > (UINT64_MAX - static_cast<uint64_t>(d)) / base) overflow = true;
        v = v * base + static_cast<uint64_t>(d);
    }
    if (overflow || (negative && v > (uint64_t{1} << 63))) {
        r.status = IntStatus::OutOfRange;
        return r;
    }
    r.status = IntStatus::Ok;
    r.value = negative ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
    return r;
}

} // namespace layoutscope::lex
