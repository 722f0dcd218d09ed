// parseTensorMapText: the 128 CUtensorMap bytes from the text a kernel engineer pastes — a golden
// `tensormap_hex` string, cuda-gdb `x/16xg` / `x/32xw` (/ `x/64xh` / `x/128xb`) output with or
// without its `0xADDR <symbol+off>:` line prefixes, gdb `p/x` braces, or `xxd -p` digits.
//   0x7fffffffd9c0 <tmap>:     0x00007f9d6fe00000  0x0000000800006310     (x/16xg: u64 values)
//   0x7fffffffd9c0 <tmap>:     0x6fe00000  0x00007f9d  0x00006310  ...    (x/32xw: u32 values)
// Words with `0x` are little-endian values (word k fills bytes [k*w, (k+1)*w)); digits without `0x`
// are bytes in memory order. One token alone is always memory order (a 256-digit string).
#include "layoutscope/tma/tensor_map_decode.hpp"

#include <vector>

namespace layoutscope {
namespace {

using S = std::string;

struct Token {
    std::string_view text;
    int line = 1;
    int column = 1;
};

bool isHex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
uint8_t hexValue(char c) {
    if (c <= '9') return uint8_t(c - '0');
    return uint8_t((c | 0x20) - 'a' + 10);
}
bool allHex(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!isHex(c)) return false;
    return true;
}
bool hasPrefix(std::string_view s) {
    return s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}
bool isName(std::string_view s) {
    if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
    for (char c : s)
        if (!((c | 0x20) >= 'a' && (c | 0x20) <= 'z') && !(c >= '0' && c <= '9') && c != '_' && c != '$')
            return false;
    return true;
}

Diagnostic syntax(const Token& t, S message) {
    Diagnostic d;
    d.code = DiagCode::Syntax;
    d.span = SourceSpan{t.line, t.column, int(t.text.size())};
    d.message = std::move(message);
    d.ruleRef = "docs/tensormap-decode.md (input forms)";
    d.provenance = Provenance::Assumption;
    return d;
}
Diagnostic wholeInput(S message) {
    return syntax(Token{{}, 0, 0}, std::move(message)); // no span: about the whole input
}

/// `0x7ffd...` or `(@generic)0x7ffd...`: an address, as the part before ':' of a gdb line.
bool isAddress(std::string_view s) {
    if (!s.empty() && s[0] == '(') {
        const size_t close = s.find(')');
        if (close == std::string_view::npos) return false;
        s.remove_prefix(close + 1);
    }
    if (hasPrefix(s)) s.remove_prefix(2);
    return allHex(s);
}

/// Split into value tokens, dropping gdb's `ADDR <sym+off>:` prefixes and `name =` of `p/x` output.
Result<std::vector<Token>> tokenize(std::string_view text) {
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

} // namespace

Result<TensorMapImage> parseTensorMapText(std::string_view text) {
    auto toks = tokenize(text);
    if (!toks) return toks.diagnostics();
    std::vector<Token>& ts = *toks;
    if (ts.empty())
        return wholeInput("no hex digits found; give the 128 bytes as hex (256 digits, or cuda-gdb x/16xg)");
    size_t prefixed = 0;
    for (const Token& t : ts) {
        const std::string_view digits = hasPrefix(t.text) ? t.text.substr(2) : t.text;
        if (!allHex(digits))
            return syntax(t, "'" + S(t.text) +
                                 "' is not a hex number (expected hex digits, 0x-prefixed words, or a " +
                                 "gdb 'ADDRESS <symbol>:' prefix)");
        prefixed += hasPrefix(t.text);
    }
    TensorMapImage b{};
    if (ts.size() == 1 || prefixed == 0) { // bytes in memory order
        S digits;
        for (const Token& t : ts) digits += hasPrefix(t.text) ? t.text.substr(2) : t.text;
        if (digits.size() != 256)
            return wholeInput(std::to_string(digits.size()) + " hex digits" +
                              (digits.size() % 2 ? " (an odd number)"
                                                 : " = " + std::to_string(digits.size() / 2) + " bytes") +
                              "; a CUtensorMap is 128 bytes = 256 hex digits" +
                              (digits.size() < 256 ? " (truncated?)" : ""));
        for (size_t k = 0; k < 128; ++k)
            b[k] = uint8_t(hexValue(digits[2 * k]) << 4 | hexValue(digits[2 * k + 1]));
        return b;
    }
    if (prefixed != ts.size()) {
        for (const Token& t : ts)
            if (!hasPrefix(t.text))
                return syntax(t, "'" + S(t.text) +
                                     "' has no 0x prefix while other words have one; give all words as " +
                                     "0x-prefixed values (x/16xg) or all as plain memory-order hex");
    }
    const size_t count = ts.size();
    if (count != 16 && count != 32 && count != 64 && count != 128)
        return wholeInput(std::to_string(count) +
                          " 0x-prefixed words; a CUtensorMap is 16 u64 (x/16xg), 32 u32 "
                          "(x/32xw), 64 u16 (x/64xh) or 128 u8 (x/128xb) words" +
                          S(count < 128 ? " (truncated, or a line missing?)" : ""));
    const size_t width = 128 / count; // bytes per word
    for (size_t k = 0; k < count; ++k) {
        std::string_view d = ts[k].text.substr(2);
        while (d.size() > 1 && d[0] == '0') d.remove_prefix(1);
        if (d.size() > 2 * width)
            return syntax(ts[k], "word " + std::to_string(k) + " '" + S(ts[k].text) + "' is wider than " +
                                     std::to_string(8 * width) + " bits, the word size that " +
                                     std::to_string(count) + " words give");
        uint64_t v = 0;
        for (char c : d) v = v << 4 | hexValue(c);
        for (size_t byte = 0; byte < width; ++byte) b[k * width + byte] = uint8_t(v >> (8 * byte));
    }
    return b;
}

} // namespace layoutscope
