// parseTensorMapText: the 128 CUtensorMap bytes from the text a kernel engineer pastes — a golden
// `tensormap_hex` string, cuda-gdb `x/16xg` / `x/32xw` (/ `x/64xh` / `x/128xb`) output with or
// without its `0xADDR <symbol+off>:` line prefixes, gdb `p/x` braces, or `xxd -p` digits.
//   0x7fffffffd9c0 <tmap>:     0x00007f9d6fe00000  0x0000000800006310     (x/16xg: u64 values)
//   0x7fffffffd9c0 <tmap>:     0x6fe00000  0x00007f9d  0x00006310  ...    (x/32xw: u32 values)
// Words with `0x` are little-endian values (word k fills bytes [k*w, (k+1)*w)); digits without `0x`
// are bytes in memory order. One token alone is always memory order (a 256-digit string).
#include "layoutscope/tma/tensor_map_decode.hpp"
#include "tma/hex_text.hpp"

#include <vector>

namespace layoutscope {
using namespace hextext;

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
