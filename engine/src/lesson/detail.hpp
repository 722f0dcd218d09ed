#pragma once
// Helpers shared by the lesson reader, the selector resolver and the answer checker (docs/lessons.md).
#include "layoutscope/lesson/lesson.hpp"

#include <cctype>
#include <optional>
#include <string>
#include <string_view>

namespace layoutscope::lesson_detail {

/// An error naming lesson rule `rule` (docs/lessons.md "Rules"), e.g. "lesson.at".
[[nodiscard]] inline Diagnostic diag(const char* rule, SourceSpan span, std::string message,
                                     DiagCode code = DiagCode::Syntax) {
    Diagnostic d;
    d.code = code;
    d.span = span;
    d.message = std::move(message);
    d.ruleRef = std::string(rule) + " (docs/lessons.md)";
    d.provenance = Provenance::ToolFormat; // a rule of the .lesson format, not of the hardware
    return d;
}

[[nodiscard]] inline std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

[[nodiscard]] inline std::string lower(std::string_view s) {
    std::string r(s);
    for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return r;
}

/// A small cursor over one line: words, integers (decimal, 0x hex, optional '-'), punctuation.
class Cursor {
  public:
    Cursor(std::string_view s, SourceSpan at) : m_s(s), m_at(at) {}
    void skipBlanks() {
        while (m_i < m_s.size() && (m_s[m_i] == ' ' || m_s[m_i] == '\t')) ++m_i;
    }
    [[nodiscard]] bool done() {
        skipBlanks();
        return m_i >= m_s.size();
    }
    [[nodiscard]] SourceSpan span(int length = 1) const {
        return SourceSpan{m_at.line, m_at.column + static_cast<int>(m_i), length};
    }
    [[nodiscard]] char peek() {
        skipBlanks();
        return m_i < m_s.size() ? m_s[m_i] : '\0';
    }
    bool eat(std::string_view tok) {
        skipBlanks();
        if (m_s.substr(m_i, tok.size()) != tok) return false;
        m_i += tok.size();
        return true;
    }
    /// [A-Za-z_$][A-Za-z0-9_$]* (also '-' inside, for metric-like words), or "".
    std::string word() {
        skipBlanks();
        size_t j = m_i;
        auto first = [](char c) {
            return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$';
        };
        auto next = [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
        };
        if (j >= m_s.size() || !first(m_s[j])) return {};
        while (j < m_s.size() && next(m_s[j])) ++j;
        std::string w(m_s.substr(m_i, j - m_i));
        m_i = j;
        return w;
    }
    /// Integer with optional sign; nullopt (nothing consumed) if none. Values beyond +-2^62 are refused.
    std::optional<int64_t> integer() {
        skipBlanks();
        size_t j = m_i;
        bool neg = false;
        if (j < m_s.size() && m_s[j] == '-') {
            neg = true;
            ++j;
        }
        int base = 10;
        if (j + 1 < m_s.size() && m_s[j] == '0' && (m_s[j + 1] == 'x' || m_s[j + 1] == 'X')) {
            base = 16;
            j += 2;
        }
        const size_t digits = j;
        int64_t v = 0;
        while (j < m_s.size()) {
            const char c = m_s[j];
            int d = -1;
            if (c >= '0' && c <= '9')
                d = c - '0';
            else if (base == 16 && c >= 'a' && c <= 'f')
                d = c - 'a' + 10;
            else if (base == 16 && c >= 'A' && c <= 'F')
                d = c - 'A' + 10;
            if (d < 0) break;
            if (v > (int64_t(1) << 58)) return std::nullopt; // too large for any address we model
            v = v * base + d;
            ++j;
        }
        if (j == digits) return std::nullopt;
        m_i = j;
        return neg ? -v : v;
    }
    [[nodiscard]] std::string_view rest() {
        skipBlanks();
        return m_s.substr(m_i);
    }
    [[nodiscard]] size_t pos() const { return m_i; }

  private:
    std::string_view m_s;
    SourceSpan m_at;
    size_t m_i = 0;
};

} // namespace layoutscope::lesson_detail
