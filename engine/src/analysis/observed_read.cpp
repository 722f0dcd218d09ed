// Dump files for `observe` / `layoutscope-cli diff` (observed.hpp): NumPy .npy (format 1.0-3.0,
// https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html), cuda-gdb / xxd hex text, raw
// bytes.
#include "layoutscope/analysis/observed.hpp"
#include "layoutscope/core/file_read.hpp"
#include "tma/hex_text.hpp"

#include <cctype>

namespace layoutscope {
namespace {

constexpr const char* kNpyRef = "NumPy .npy format 1.0-3.0 (numpy.lib.format)";
constexpr const char* kHexRef = "docs/observed.md (dump formats)";

Diagnostic bad(DiagCode code, std::string message, const char* rule) {
    return Diagnostic{Severity::Error, code, {}, std::move(message), rule, Provenance::Assumption};
}

/// The value of `'key': value` in the .npy header dict (a Python literal), or "" if absent.
std::string dictValue(std::string_view h, std::string_view key) {
    const std::string k = "'" + std::string(key) + "'";
    size_t p = h.find(k);
    if (p == std::string_view::npos) return "";
    p = h.find(':', p + k.size());
    if (p == std::string_view::npos) return "";
    ++p;
    while (p < h.size() && h[p] == ' ') ++p;
    size_t e = p;
    if (p < h.size() && h[p] == '(')
        e = h.find(')', p) + 1;
    else if (p < h.size() && h[p] == '\'')
        e = h.find('\'', p + 1) + 1;
    else
        while (e < h.size() && h[e] != ',' && h[e] != '}') ++e;
    if (e == 0 || e > h.size()) return "";
    return std::string(h.substr(p, e - p));
}

Result<ObservedBytes> parseNpy(std::string_view d) {
    if (d.size() < 10)
        return bad(DiagCode::InvalidValue, ".npy file shorter than its 10-byte preamble", kNpyRef);
    const uint8_t major = static_cast<uint8_t>(d[6]);
    if (major < 1 || major > 3)
        return bad(DiagCode::InvalidValue,
                   ".npy format version " + std::to_string(major) + " (1, 2 or 3 expected)", kNpyRef);
    const size_t lenBytes = major == 1 ? 2 : 4;
    if (d.size() < 8 + lenBytes)
        return bad(DiagCode::InvalidValue, ".npy file ends inside its header length field", kNpyRef);
    uint64_t hlen = 0;
    for (size_t i = 0; i < lenBytes; ++i) hlen |= uint64_t(static_cast<uint8_t>(d[8 + i])) << (8 * i);
    const size_t start = 8 + lenBytes;
    if (d.size() < start + hlen)
        return bad(DiagCode::InvalidValue,
                   ".npy header says " + std::to_string(hlen) + " bytes, the file ends first", kNpyRef);
    const std::string_view h = d.substr(start, hlen);
    const std::string descr = dictValue(h, "descr"), fortran = dictValue(h, "fortran_order"),
                      shape = dictValue(h, "shape");
    if (descr.size() < 4 || descr.front() != '\'' || shape.empty() || fortran.empty())
        return bad(DiagCode::InvalidValue, ".npy header without 'descr', 'fortran_order' and 'shape'",
                   kNpyRef);
    if (fortran != "False")
        return bad(
            DiagCode::InvalidValue,
            ".npy array in Fortran order: save it in C order (np.ascontiguousarray) so that bytes are in "
            "memory order",
            kNpyRef);
    const std::string dt = descr.substr(1, descr.size() - 2); // e.g. <f2, |u1, >i4
    if (dt.empty() || (dt[0] != '<' && dt[0] != '|' && dt[0] != '='))
        return bad(DiagCode::InvalidValue,
                   ".npy dtype '" + dt + "' is big-endian or structured; GPU memory is little-endian",
                   kNpyRef);
    uint64_t item = 0;
    for (size_t i = 2; i < dt.size() && std::isdigit(static_cast<unsigned char>(dt[i])); ++i)
        item = item * 10 + (dt[i] - '0');
    if (item == 0 || item > 16)
        return bad(DiagCode::InvalidValue, ".npy dtype '" + dt + "' has no item size", kNpyRef);
    // The shape is a Python tuple of non-negative integers: "(16, 64)", "(4096,)", "()". Dimensions are
    // multiplied as they are read, each bounded, so no overflow (a shape is untrusted text); a sign, a
    // quote or any other character is refused rather than skipped.
    auto badShape = [&](const std::string& why) {
        return bad(DiagCode::InvalidValue,
                   ".npy shape " + shape.substr(0, 64) + " is not a tuple of non-negative integers: " + why,
                   kNpyRef);
    };
    if (shape.size() < 2 || shape.front() != '(' || shape.back() != ')') return badShape("no ( ... )");
    uint64_t count = 1, dims = 0;
    for (size_t i = 1; i + 1 < shape.size();) {
        while (i + 1 < shape.size() && shape[i] == ' ') ++i;
        if (i + 1 >= shape.size()) break;
        if (!std::isdigit(static_cast<unsigned char>(shape[i])))
            return badShape("'" + std::string(1, shape[i]) + "' where a dimension belongs");
        uint64_t dim = 0;
        while (i + 1 < shape.size() && std::isdigit(static_cast<unsigned char>(shape[i]))) {
            dim = dim * 10 + uint64_t(shape[i++] - '0');
            if (dim > kMaxObservedBytes)
                return bad(DiagCode::InvalidValue, ".npy shape " + shape.substr(0, 64) + " is too large",
                           kNpyRef);
        }
        count *= dim, ++dims;
        if (count > kMaxObservedBytes)
            return bad(DiagCode::InvalidValue, ".npy shape " + shape.substr(0, 64) + " is too large",
                       kNpyRef);
        while (i + 1 < shape.size() && shape[i] == ' ') ++i;
        if (i + 1 < shape.size() && shape[i] != ',')
            return badShape("'" + std::string(1, shape[i]) + "' after a dimension");
        ++i; // the ','
    }
    if (dims == 1 && shape.find(',') == std::string::npos) return badShape("a 1-tuple needs its ',' as (N,)");
    const uint64_t bytes = count * item;
    const std::string_view data = d.substr(start + hlen);
    if (data.size() < bytes)
        return bad(DiagCode::InvalidValue,
                   ".npy data is " + std::to_string(data.size()) + " bytes; shape " + shape + " of " + dt +
                       " needs " + std::to_string(bytes) + " (truncated?)",
                   kNpyRef);
    ObservedBytes out;
    out.bytes.assign(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(bytes));
    out.format = "npy " + dt + " " + shape;
    return out;
}

bool looksLikeHexText(std::string_view d) {
    for (unsigned char c : d)
        if (!(std::isprint(c) || c == '\n' || c == '\r' || c == '\t')) return false;
    for (unsigned char c : d)
        if (std::isxdigit(c)) return true;
    return false;
}

/// The text with debugger prompt lines (`(cuda-gdb) x/16xw ...`, `(gdb) ...`) blanked, positions kept.
std::string withoutPrompts(std::string_view d) {
    std::string s(d);
    size_t line = 0;
    while (line < s.size()) {
        size_t end = s.find('\n', line);
        if (end == std::string::npos) end = s.size();
        size_t p = line;
        while (p < end && (s[p] == ' ' || s[p] == '\t')) ++p;
        const std::string_view rest(s.data() + p, end - p);
        if (rest.rfind("(cuda-gdb)", 0) == 0 || rest.rfind("(gdb)", 0) == 0)
            for (size_t k = line; k < end; ++k) s[k] = ' ';
        line = end + 1;
    }
    return s;
}

Result<ObservedBytes> parseHex(std::string_view text) {
    using namespace hextext;
    const std::string d = withoutPrompts(text);
    auto toks = tokenize(d);
    if (!toks) {
        std::vector<Diagnostic> ds = toks.diagnostics();
        for (Diagnostic& x : ds) x.ruleRef = kHexRef;
        return ds;
    }
    size_t prefixed = 0, maxDigits = 0;
    for (const Token& t : *toks) {
        const std::string_view digits = hasPrefix(t.text) ? t.text.substr(2) : t.text;
        if (!allHex(digits)) {
            Diagnostic x = syntax(t, "'" + std::string(t.text) +
                                         "' is not a hex number (a dump is hex bytes, "
                                         "0x-prefixed words, or cuda-gdb x/ output)");
            x.ruleRef = kHexRef;
            return x;
        }
        prefixed += hasPrefix(t.text);
        if (hasPrefix(t.text)) maxDigits = std::max(maxDigits, digits.size());
    }
    ObservedBytes out;
    if (prefixed == 0) { // memory order
        std::string digits;
        for (const Token& t : *toks) digits += t.text;
        if (digits.size() % 2)
            return bad(DiagCode::Syntax,
                       std::to_string(digits.size()) + " hex digits: an odd number, not whole bytes",
                       kHexRef);
        for (size_t k = 0; k + 1 < digits.size(); k += 2)
            out.bytes.push_back(uint8_t(hexValue(digits[k]) << 4 | hexValue(digits[k + 1])));
        out.format = "hex (bytes in memory order)";
        return out;
    }
    if (prefixed != toks->size())
        return bad(DiagCode::Syntax, "some words have a 0x prefix and some do not; give one form", kHexRef);
    // cuda-gdb pads x/ words to their width: 2, 4, 8 or 16 digits. Words of another count are hand-written;
    // they are taken as words of the widest one's size only when none has the width of a narrower size
    // (an 8-digit word beside 16-digit ones is a 4-byte word: ambiguous, so refused).
    size_t width = 1;
    while (width * 2 < maxDigits) width *= 2;
    if (width > 8) return bad(DiagCode::Syntax, "a word wider than 64 bits", kHexRef);
    for (const Token& t : *toks) {
        const size_t n = t.text.size() - 2;
        if (n != maxDigits && n >= 2 && (n & (n - 1)) == 0 && n < 2 * width) {
            Diagnostic x =
                syntax(t, "'" + std::string(t.text) + "' has " + std::to_string(n) +
                              " hex digits beside words of " + std::to_string(maxDigits) +
                              ": mixed word sizes (x/xw and x/xg output together?); give one size");
            x.ruleRef = kHexRef;
            return x;
        }
    }
    for (const Token& t : *toks) {
        std::string_view digits = t.text.substr(2);
        uint64_t v = 0;
        for (char c : digits) v = v << 4 | hexValue(c);
        for (size_t b = 0; b < width; ++b) out.bytes.push_back(uint8_t(v >> (8 * b)));
    }
    out.format = "hex (" + std::to_string(width) + "-byte little-endian words)";
    return out;
}

} // namespace

Result<ObservedBytes> parseObservedBytes(std::string_view data) {
    if (data.size() > kMaxObservedBytes)
        return bad(DiagCode::InvalidValue,
                   "dump larger than " + std::to_string(kMaxObservedBytes >> 20) + " MiB", kHexRef);
    if (data.empty()) return bad(DiagCode::InvalidValue, "the dump is empty", kHexRef);
    const bool npy = data.substr(0, 6) == "\x93NUMPY";
    if (npy || looksLikeHexText(data)) {
        auto parsed = npy ? parseNpy(data) : parseHex(data);
        if (parsed && parsed->bytes.empty()) // compares nothing, so it cannot "match"
            return bad(DiagCode::InvalidValue,
                       "the dump holds no bytes (" + parsed->format +
                           "): nothing to compare (a cuda-gdb x/ command without its output?)",
                       kHexRef);
        return parsed;
    }
    ObservedBytes out;
    out.bytes.assign(data.begin(), data.end());
    out.format = "raw";
    return out;
}

Result<ObservedBytes> readObservedFile(const std::string& path) {
    std::string data;
    switch (const FileReadStatus s = readRegularFile(path, kMaxObservedBytes, data)) {
    case FileReadStatus::NotRegular:
        return bad(DiagCode::Io, path + ": " + fileReadMessage(s, "the dump", kMaxObservedBytes),
                   kFileInputRule);
    case FileReadStatus::CannotOpen:
        return bad(DiagCode::Io, path + ": cannot open the dump for reading", "");
    case FileReadStatus::TooLarge:
        return bad(DiagCode::Io,
                   path + ": larger than the " + std::to_string(kMaxObservedBytes >> 20) + " MiB dump limit",
                   kHexRef);
    case FileReadStatus::ReadError:
        return bad(DiagCode::Io, path + ": read error (is it a directory?)", "");
    case FileReadStatus::Ok:
        break;
    }
    return parseObservedBytes(data);
}

} // namespace layoutscope
