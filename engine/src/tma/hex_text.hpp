#pragma once
// Hex text as cuda-gdb, gdb p/x and xxd print memory: the tokenizer shared by the CUtensorMap reader
// (tensor_map_text.cpp) and the observed-dump reader (analysis/observed_read.cpp).
//   0x7fffffffd9c0 <tmap>:     0x00007f9d6fe00000  0x0000000800006310     (x/16xg: u64 values)
//   0x7fffffffd9c0 <tmap>:     0x6fe00000  0x00007f9d  0x00006310  ...    (x/32xw: u32 values)
#include "layoutscope/core/result.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace layoutscope::hextext {

using S = std::string;

struct Token {
    std::string_view text;
    int line = 1;
    int column = 1;
};

inline bool isHex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
inline uint8_t hexValue(char c) {
    if (c <= '9') return uint8_t(c - '0');
    return uint8_t((c | 0x20) - 'a' + 10);
}
inline bool allHex(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!isHex(c)) return false;
    return true;
}
inline bool hasPrefix(std::string_view s) {
    return s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}
inline bool isName(std::string_view s) {
    if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
    for (char c : s)
        if (!((c | 0x20) >= 'a' && (c | 0x20) <= 'z') && !(c >= '0' && c <= '9') && c != '_' && c != '$')
            return false;
    return true;
}

inline Diagnostic syntax(const Token& t, S message) {
    Diagnostic d;
    d.code = DiagCode::Syntax;
    d.span = SourceSpan{t.line, t.column, int(t.text.size())};
    d.message = std::move(message);
    d.ruleRef = "docs/tensormap-decode.md (input forms)";
    d.provenance = Provenance::Assumption;
    return d;
}
inline Diagnostic wholeInput(S message) {
    return syntax(Token{{}, 0, 0}, std::move(message)); // no span: about the whole input
}

/// `0x7ffd...` or `(@generic)0x7ffd...`: an address, as the part before ':' of a gdb line.
inline bool isAddress(std::string_view s) {
    if (!s.empty() && s[0] == '(') {
        const size_t close = s.find(')');
        if (close == std::string_view::npos) return false;
        s.remove_prefix(close + 1);
    }
    if (hasPrefix(s)) s.remove_prefix(2);
    return allHex(s);
}

/// Split into value tokens, dropping gdb's `ADDR <sym+off>:` prefixes and `name =` of `p/x` output.
inline Result<std::vector<Token>> tokenize(std::string_view text) {
    std::vector<Token> raw;
    int line = 1, col = 1;
    size_t i = 0;
    auto advance = [&](size_t k) {
        for (size_t e = i + k; i < e; ++i) {
            if (text[i] == '\n')
                ++line, col = 1;
            else
                ++col;
        }
    };
    while (i < text.size()) {
        const char c = text[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || c == '{' || c == '}') {
            advance(1);
            continue;
        }
        const Token start{text.substr(i, 1), line, col};
        if (c == '<') { // <symbol+off> label (nested for templates); must be followed by ':'
            int depth = 0;
            size_t j = i;
            for (; j < text.size(); ++j) {
                if (text[j] == '<')
                    ++depth;
                else if (text[j] == '>' && --depth == 0)
                    break;
                else if (text[j] == '\n')
                    break;
            }
            if (j >= text.size() || text[j] != '>')
                return syntax(start, "'<' of a gdb <symbol+offset> label is not closed");
            if (raw.empty() || !isAddress(raw.back().text))
                return syntax(
                    start,
                    "a gdb <symbol+offset> label must follow an address, as in '0x7ffd0000 <map+16>:'");
            advance(j + 1 - i);
            if (i >= text.size() || text[i] != ':')
                return syntax(start, "a gdb <symbol+offset> label must end its address prefix with ':'");
            raw.pop_back(); // the address it labels
            advance(1);
            continue;
        }
        size_t j = i;
        while (j < text.size() && std::string_view(" \t\r\n,{}<").find(text[j]) == std::string_view::npos)
            ++j;
        Token t{text.substr(i, j - i), line, col};
        advance(j - i);
        if (t.text.size() > 1 && t.text.back() == ':') { // `0x7ffd...:` line prefix
            if (!isAddress(t.text.substr(0, t.text.size() - 1)))
                return syntax(t,
                              "'" + S(t.text) + "' looks like a gdb address prefix but is not a hex address");
            continue;
        }
        raw.push_back(t);
    }
    std::vector<Token> out;
    for (size_t k = 0; k < raw.size(); ++k) {
        if (k + 1 < raw.size() && raw[k + 1].text == "=" &&
            isName(raw[k].text)) { // `opaque = {...}`, `$1 = ...`
            ++k;
            continue;
        }
        out.push_back(raw[k]);
    }
    return out;
}

} // namespace layoutscope::hextext
