#include "document_file.hpp"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

namespace layoutscope::views {

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";
constexpr std::string_view kReplacement = "\xEF\xBF\xBD"; // U+FFFD

/// Length of the well-formed UTF-8 sequence at `i` (Unicode Table 3-7), or 0 when ill-formed.
size_t utf8SeqLen(std::string_view s, size_t i) {
    const auto at = [&](size_t k) { return i + k < s.size() ? uint8_t(s[i + k]) : uint8_t(0); };
    const uint8_t b = at(0);
    const auto cont = [&](size_t k, uint8_t lo = 0x80, uint8_t hi = 0xBF) {
        return i + k < s.size() && at(k) >= lo && at(k) <= hi;
    };
    if (b < 0x80) return 1;
    if (b >= 0xC2 && b <= 0xDF) return cont(1) ? 2 : 0;
    if (b == 0xE0) return cont(1, 0xA0) && cont(2) ? 3 : 0;
    if ((b >= 0xE1 && b <= 0xEC) || b == 0xEE || b == 0xEF) return cont(1) && cont(2) ? 3 : 0;
    if (b == 0xED) return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0; // no surrogates
    if (b == 0xF0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
    if (b >= 0xF1 && b <= 0xF3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
    if (b == 0xF4) return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0; // <= U+10FFFF
    return 0;
}

/// `bytes` as text: each ill-formed byte becomes U+FFFD; their offsets (plus `base`) go to `bad`.
std::string toText(std::string_view bytes, size_t base, std::vector<size_t>* bad) {
    std::string out;
    out.reserve(bytes.size());
    for (size_t i = 0; i < bytes.size();) {
        if (const size_t n = utf8SeqLen(bytes, i)) {
            out.append(bytes.substr(i, n));
            i += n;
        } else {
            out.append(kReplacement);
            if (bad) bad->push_back(base + i);
            ++i;
        }
    }
    return out;
}

std::vector<std::string_view> splitLines(std::string_view text) {
    std::vector<std::string_view> out;
    size_t from = 0;
    for (size_t nl; (nl = text.find('\n', from)) != std::string_view::npos; from = nl + 1)
        out.push_back(text.substr(from, nl - from));
    out.push_back(text.substr(from));
    return out;
}

/// For each new line, the index of the original line it keeps (or -1): a longest common subsequence
/// of equal texts, after taking the common head and tail. Large middles (> 4M cells) match greedily.
std::vector<int> matchLines(const std::vector<FileLine>& orig, const std::vector<std::string_view>& now) {
    std::vector<int> match(now.size(), -1);
    size_t head = 0;
    while (head < orig.size() && head < now.size() && orig[head].text == now[head]) {
        match[head] = int(head);
        ++head;
    }
    size_t tail = 0;
    while (tail < orig.size() - head && tail < now.size() - head &&
           orig[orig.size() - 1 - tail].text == now[now.size() - 1 - tail]) {
        match[now.size() - 1 - tail] = int(orig.size() - 1 - tail);
        ++tail;
    }
    const size_t n = orig.size() - head - tail, m = now.size() - head - tail;
    if (n == 0 || m == 0) return match;
    if (n * m <= (size_t(4) << 20)) {
        // lcs[i][j]: LCS length of orig[head+i..] and now[head+j..].
        std::vector<uint32_t> lcs((n + 1) * (m + 1), 0);
        const auto L = [&](size_t i, size_t j) -> uint32_t& { return lcs[i * (m + 1) + j]; };
        for (size_t i = n; i-- > 0;)
            for (size_t j = m; j-- > 0;)
                L(i, j) = orig[head + i].text == now[head + j] ? L(i + 1, j + 1) + 1
                                                               : std::max(L(i + 1, j), L(i, j + 1));
        for (size_t i = 0, j = 0; i < n && j < m;) {
            if (orig[head + i].text == now[head + j]) {
                match[head + j] = int(head + i);
                ++i, ++j;
            } else if (L(i + 1, j) >= L(i, j + 1)) {
                ++i;
            } else {
                ++j;
            }
        }
        return match;
    }
    std::unordered_map<std::string_view, std::vector<size_t>> where; // text -> original lines, ascending
    for (size_t i = head; i < head + n; ++i) where[orig[i].text].push_back(i);
    size_t next = head;
    for (size_t j = head; j < head + m; ++j) {
        auto it = where.find(now[j]);
        if (it == where.end()) continue;
        const auto p = std::lower_bound(it->second.begin(), it->second.end(), next);
        if (p == it->second.end()) continue;
        match[j] = int(*p);
        next = *p + 1;
    }
    return match;
}

} // namespace

std::string_view FileFormat::newLineEnding() const {
    size_t lf = 0, crlf = 0;
    for (const FileLine& l : lines) {
        lf += l.ending == "\n" ? 1 : 0;
        crlf += l.ending == "\r\n" ? 1 : 0;
    }
    return crlf > lf ? "\r\n" : "\n";
}

std::vector<size_t> invalidUtf8Offsets(std::string_view bytes) {
    std::vector<size_t> bad;
    (void)toText(bytes, 0, &bad);
    return bad;
}

DecodedFile decodeFile(std::string_view bytes) {
    DecodedFile d;
    FileFormat& f = d.format;
    size_t base = 0;
    if (bytes.starts_with(kBom)) {
        f.bom = true;
        base = kBom.size();
    }
    const std::string_view body = bytes.substr(base);
    bool lf = false, crlf = false;
    size_t from = 0;
    for (;;) {
        const size_t nl = body.find('\n', from);
        FileLine line;
        line.offset = base + from;
        std::string_view raw =
            body.substr(from, nl == std::string_view::npos ? std::string_view::npos : nl - from);
        if (nl != std::string_view::npos) {
            if (raw.ends_with('\r')) {
                raw.remove_suffix(1);
                line.ending = "\r\n";
                crlf = true;
            } else {
                line.ending = "\n";
                lf = true;
            }
        }
        line.bytes = std::string(raw);
        const size_t before = f.badBytes.size();
        line.text = toText(raw, line.offset, &f.badBytes);
        line.invalid = f.badBytes.size() != before;
        if (!f.lines.empty()) d.text += '\n';
        d.text += line.text;
        f.lines.push_back(std::move(line));
        if (nl == std::string_view::npos) break;
        from = nl + 1;
    }
    f.ending = lf && crlf ? LineEnding::Mixed
               : crlf     ? LineEnding::Crlf
               : lf       ? LineEnding::Lf
                          : LineEnding::None;
    return d;
}

EncodeResult encodeFile(std::string_view text, const FileFormat& format, bool replaceInvalid) {
    EncodeResult r;
    const std::vector<std::string_view> now = splitLines(text);
    const std::vector<int> match = matchLines(format.lines, now);
    std::vector<bool> kept(format.lines.size(), false);
    for (const int m : match)
        if (m >= 0) kept[size_t(m)] = true;

    // A line with bytes that are not UTF-8 that is not kept, while the text still has a U+FFFD on a
    // line that is not kept either: that line was edited and its bytes would be lost.
    if (!replaceInvalid && !format.badBytes.empty()) {
        bool editedReplacement = false;
        for (size_t j = 0; j < now.size(); ++j)
            editedReplacement |= match[j] < 0 && now[j].find(kReplacement) != std::string_view::npos;
        for (size_t i = 0; editedReplacement && i < format.lines.size(); ++i) {
            const FileLine& l = format.lines[i];
            if (kept[i] || !l.invalid) continue;
            const size_t off = *std::find_if(format.badBytes.begin(), format.badBytes.end(),
                                             [&](size_t o) { return o >= l.offset; });
            EncodeError e;
            e.byteOffset = off;
            e.line = int(i) + 1;
            e.byte = uint8_t(l.bytes[off - l.offset]);
            char msg[256];
            std::snprintf(msg, sizeof msg,
                          "line %d held byte 0x%02X at offset %zu that is not UTF-8; the line was edited, "
                          "so saving would write U+FFFD in its place",
                          e.line, unsigned(e.byte), e.byteOffset);
            e.message = msg;
            r.error = std::move(e);
            return r;
        }
    }

    const std::string_view usual = format.newLineEnding();
    if (format.bom) r.bytes.append(kBom);
    for (size_t j = 0; j < now.size(); ++j) {
        const bool last = j + 1 == now.size();
        if (match[j] >= 0) {
            const FileLine& l = format.lines[size_t(match[j])];
            r.bytes += l.bytes;
            if (!last) r.bytes += l.ending.empty() ? usual : std::string_view(l.ending);
        } else {
            r.bytes += now[j];
            if (!last) r.bytes += usual;
        }
    }
    return r;
}

const char* lineEndingName(LineEnding e) {
    switch (e) {
    case LineEnding::Lf:
        return "LF";
    case LineEnding::Crlf:
        return "CRLF";
    case LineEnding::Mixed:
        return "mixed";
    case LineEnding::None:
        break;
    }
    return "none";
}

} // namespace layoutscope::views
