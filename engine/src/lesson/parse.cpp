// The `.lesson` reader: title, header keys, the scenario (path or fenced block), steps with their keys and
// Markdown captions (docs/lessons.md). Every diagnostic has line:col and names its rule `lesson.*`.
#include "lesson/syntax.hpp"

#include <algorithm>
#include <array>
#include <span>
#include <vector>

namespace layoutscope {
using namespace lesson_detail;

namespace {

struct Line {
    std::string_view text;
    int number = 0;
};

std::vector<Line> splitLines(std::string_view text) {
    std::vector<Line> out;
    int n = 1;
    size_t start = 0;
    while (start <= text.size()) {
        const size_t nl = text.find('\n', start);
        std::string_view one =
            text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
        if (!one.empty() && one.back() == '\r') one.remove_suffix(1);
        out.push_back({one, n++});
        if (nl == std::string_view::npos) break;
        start = nl + 1;
    }
    return out;
}

// `key:` at the start of a line: lowercase letters only, then ':' and a blank or the end.
std::optional<std::string_view> keyOf(std::string_view line) {
    size_t i = 0;
    while (i < line.size() && line[i] >= 'a' && line[i] <= 'z') ++i;
    if (i == 0 || i >= line.size() || line[i] != ':') return std::nullopt;
    if (i + 1 < line.size() && line[i + 1] != ' ' && line[i + 1] != '\t') return std::nullopt;
    return line.substr(0, i);
}

// Edit distance (insert, delete, substitute), for telling a mistyped key from caption text.
size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

// A lowercase `word:` that is not a key is caption text, unless it is one or two edits from a key
// (`hightlight:`, `qestion:`): then it is almost surely a typo, and an error.
bool looksLikeKey(std::string_view word, std::span<const std::string_view> keys) {
    for (std::string_view k : keys)
        if (word == k || editDistance(word, k) <= (k.size() <= 2 ? 0u : k.size() <= 3 ? 1u : 2u)) return true;
    return false;
}
constexpr std::array<std::string_view, 3> kHeaderKeys = {"topic", "ref", "scenario"};
constexpr std::array<std::string_view, 6> kStepKeys = {"at",       "highlight", "pause",
                                                       "question", "answer",    "ref"};

std::string nearest(std::string_view word, std::span<const std::string_view> keys) {
    std::string_view best;
    for (std::string_view k : keys)
        if (best.empty() || editDistance(word, k) < editDistance(word, best)) best = k;
    return std::string(best);
}

bool isFence(std::string_view line) {
    return trim(line).substr(0, 3) == "```";
}

// Shared-memory / reference-pack citation check of a `ref:` value: FILE.md, optionally "§SECTION".
bool validRef(std::string_view v) {
    const size_t md = v.find(".md");
    if (md == std::string_view::npos || md == 0) return false;
    for (size_t i = 0; i < md; ++i) {
        const char c = v[i];
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') return false;
    }
    return true;
}

std::string joinCaption(const std::vector<std::string_view>& lines) {
    size_t a = 0, b = lines.size();
    while (a < b && trim(lines[a]).empty()) ++a;
    while (b > a && trim(lines[b - 1]).empty()) --b;
    std::string out;
    for (size_t i = a; i < b; ++i) {
        if (i > a) out += '\n';
        out += std::string(lines[i]);
    }
    return out;
}

class Reader {
  public:
    explicit Reader(std::string_view text) : m_lines(splitLines(text)) {}
    Result<Lesson> read();

  private:
    void error(Diagnostic d) { m_diags.push_back(std::move(d)); }
    SourceSpan at(const Line& l, size_t col, int len = 1) const {
        return SourceSpan{l.number, static_cast<int>(col) + 1, len};
    }
    void headerKey(std::string_view key, std::string_view value, size_t& i, size_t valueCol);
    void stepKey(LessonStep& s, std::string_view key, std::string_view value, const Line& l, size_t valueCol);

    std::vector<Line> m_lines;
    std::vector<Diagnostic> m_diags;
    Lesson m_l;
    bool m_haveScenario = false;
    bool m_questionSeen = false; ///< the current step has a `question:` line (valid or not)
};

void Reader::headerKey(std::string_view key, std::string_view value, size_t& i, size_t valueCol) {
    const Line& l = m_lines[i];
    if (key == "topic") {
        m_l.topic = std::string(value);
    } else if (key == "ref") {
        if (!validRef(value))
            error(diag("lesson.ref", at(l, valueCol),
                       "ref: names a reference-pack file and section, e.g. "
                       "'tma.md §4.2'"));
        m_l.refs.emplace_back(value);
    } else if (key == "scenario") {
        if (m_haveScenario) {
            error(diag("lesson.scenario", at(l, 0, 8), "the lesson already has a scenario"));
            return;
        }
        m_haveScenario = true;
        if (!value.empty()) {
            m_l.scenarioPath = std::string(value);
            return;
        }
        // An embedded scenario: the next line opens a ``` fence, the scenario ends at the closing one.
        if (i + 1 >= m_lines.size() || !isFence(m_lines[i + 1].text)) {
            error(diag("lesson.scenario", at(l, 0, 9),
                       "'scenario:' needs a path, or a ```scn block on the next line"));
            return;
        }
        const size_t open = i + 1;
        size_t j = open + 1;
        while (j < m_lines.size() && !isFence(m_lines[j].text)) ++j;
        if (j >= m_lines.size()) {
            error(diag("lesson.fence", at(m_lines[open], 0, 3), "this ``` block is never closed"));
            i = m_lines.size();
            return;
        }
        m_l.scenarioLine = m_lines[open + 1 < j ? open + 1 : open].number;
        for (size_t k = open + 1; k < j; ++k) {
            m_l.scenarioText += std::string(m_lines[k].text);
            m_l.scenarioText += '\n';
        }
        i = j;
    } else {
        error(diag("lesson.key", at(l, 0, static_cast<int>(key.size())),
                   "unknown header key '" + std::string(key) + ":': did you mean '" +
                       nearest(key, kHeaderKeys) + ":'? (header keys: topic, ref, scenario)"));
    }
}

void Reader::stepKey(LessonStep& s, std::string_view key, std::string_view value, const Line& l,
                     size_t valueCol) {
    const SourceSpan v = at(l, valueCol, static_cast<int>(value.size()));
    if (key == "at") {
        if (s.at.kind != LessonAt::Kind::Inherit)
            return error(diag("lesson.at", at(l, 0, 2), "a step has one 'at:'"));
        Cursor c(value, v);
        const std::string w = c.word();
        LessonAt a;
        a.span = v;
        if (w == "start" || w == "end") {
            a.kind = w == "start" ? LessonAt::Kind::Start : LessonAt::Kind::End;
        } else if (w == "instr" || w == "line" || w == "step") {
            a.kind = w == "instr"  ? LessonAt::Kind::Instr
                     : w == "line" ? LessonAt::Kind::Line
                                   : LessonAt::Kind::Step;
            const auto n = c.integer();
            if (!n || *n < (a.kind == LessonAt::Kind::Step ? 0 : 1) || *n > 100000000)
                return error(diag("lesson.at", c.span(), "expected a number (instr and line count from 1)"));
            a.n = static_cast<uint32_t>(*n);
        } else {
            return error(diag("lesson.at", v, "at: is 'start', 'end', 'instr N', 'line N' or 'step N'"));
        }
        if (!c.done())
            return error(diag("lesson.at", c.span(), "unexpected '" + std::string(c.rest()) + "'"));
        s.at = a;
    } else if (key == "highlight") {
        auto sel = parseLessonSelector(value, v);
        if (!sel) return error(sel.error());
        s.highlights.push_back(std::move(*sel));
    } else if (key == "pause") {
        const std::string b = lower(value);
        if (b != "yes" && b != "no") return error(diag("lesson.pause", v, "pause: is 'yes' or 'no'"));
        s.pause = b == "yes";
    } else if (key == "question") {
        m_questionSeen = true;
        if (s.question) return error(diag("lesson.question", at(l, 0, 8), "a step asks one question"));
        auto q = parseQuestion(value, v);
        if (!q) return error(q.error());
        s.question = std::move(*q);
    } else if (key == "answer") {
        if (m_questionSeen && !s.question) return; // the question's own error is reported
        if (!s.question)
            return error(diag("lesson.answer", at(l, 0, 6), "'answer:' follows the step's 'question:'"));
        if (s.question->answer)
            return error(diag("lesson.answer", at(l, 0, 6), "the question has an answer"));
        auto a = parseLessonAnswer(value);
        if (!a) {
            Diagnostic d = a.error();
            d.span = v;
            return error(std::move(d));
        }
        s.question->answer = std::string(value);
        s.question->answerSpan = v;
    } else if (key == "ref") {
        if (!validRef(value))
            return error(
                diag("lesson.ref", v, "ref: names a reference-pack file and section, e.g. 'tma.md §4.2'"));
        s.refs.emplace_back(value);
    } else {
        error(diag("lesson.key", at(l, 0, static_cast<int>(key.size())),
                   "unknown step key '" + std::string(key) + ":': did you mean '" + nearest(key, kStepKeys) +
                       ":'? (step keys: at, highlight, pause, question, answer, ref)"));
    }
}

Result<Lesson> Reader::read() {
    size_t i = 0;
    // Header: up to the first "## ".
    std::vector<std::string_view> intro;
    for (; i < m_lines.size(); ++i) {
        const Line& l = m_lines[i];
        const std::string_view t = l.text;
        if (t.substr(0, 3) == "## ") break;
        if (t.substr(0, 2) == "# ") {
            if (!m_l.title.empty()) error(diag("lesson.title", at(l, 0, 1), "a lesson has one '# Title'"));
            m_l.title = std::string(trim(t.substr(2)));
            continue;
        }
        if (auto key = keyOf(t); key && looksLikeKey(*key, kHeaderKeys)) {
            const std::string_view rest = t.substr(key->size() + 1);
            const std::string_view value = trim(rest);
            const size_t lead = rest.find_first_not_of(" \t");
            const size_t col = key->size() + 1 + (lead == std::string_view::npos ? rest.size() : lead);
            headerKey(*key, value, i, col);
            continue;
        }
        intro.push_back(t);
    }
    m_l.intro = joinCaption(intro);
    if (m_l.title.empty()) error(diag("lesson.title", {1, 1, 1}, "a lesson starts with a '# Title' line"));
    if (!m_haveScenario)
        error(diag("lesson.scenario", {1, 1, 1},
                   "a lesson needs 'scenario: PATH' or an embedded ```scn block"));
    // Steps.
    while (i < m_lines.size()) {
        const Line& head = m_lines[i];
        LessonStep s;
        s.title = std::string(trim(head.text.substr(3)));
        s.span = at(head, 0, static_cast<int>(head.text.size()));
        if (s.title.empty()) error(diag("lesson.step", s.span, "a step heading '## ' needs a title"));
        std::vector<std::string_view> caption;
        bool fence = false;
        m_questionSeen = false;
        for (++i; i < m_lines.size(); ++i) {
            const Line& l = m_lines[i];
            const std::string_view t = l.text;
            if (!fence && t.substr(0, 3) == "## ") break;
            if (!fence && t.substr(0, 2) == "# ")
                error(diag("lesson.title", at(l, 0, 1), "'# ' is the lesson title; a step heading is '## '"));
            if (isFence(t)) fence = !fence;
            auto key = fence ? std::nullopt : keyOf(t);
            if (key && !looksLikeKey(*key, kStepKeys)) key.reset();
            if (!key) {
                caption.push_back(t);
                continue;
            }
            const std::string_view rest = t.substr(key->size() + 1);
            const size_t lead = rest.find_first_not_of(" \t");
            const size_t col = key->size() + 1 + (lead == std::string_view::npos ? rest.size() : lead);
            stepKey(s, *key, trim(rest), l, col);
        }
        s.caption = joinCaption(caption);
        if (s.caption.empty() && !s.question)
            error(diag("lesson.caption", s.span,
                       "step '" + s.title + "' has neither a caption nor a question"));
        if (s.question && s.question->kind == LessonQuestion::Kind::Fact &&
            (!s.question->answer || s.refs.empty()))
            error(diag(
                "lesson.fact", s.question->span,
                "a 'fact' question needs 'answer:' and a 'ref:' to the reference pack (the engine cannot "
                "compute it)"));
        if (s.question) s.pause = true;
        m_l.steps.push_back(std::move(s));
    }
    if (m_l.steps.empty() && m_diags.empty())
        error(diag("lesson.steps", {int(m_lines.size()), 1, 1}, "a lesson needs at least one '## Step'"));
    if (!m_diags.empty()) return m_diags;
    if (!m_l.scenarioText.empty() || (m_haveScenario && m_l.scenarioPath.empty())) {
        auto sc = parseScenario(m_l.scenarioText);
        if (!sc) {
            std::vector<Diagnostic> ds = sc.diagnostics();
            for (Diagnostic& d : ds)
                if (d.span.valid()) d.span.line += m_l.scenarioLine - 1;
            return ds;
        }
        m_l.scenario = std::move(*sc);
        if (Status st = checkLessonNames(m_l); !st) return st.diagnostics();
    }
    return std::move(m_l);
}

} // namespace

Result<Lesson> parseLesson(std::string_view text) {
    if (text.size() > kMaxLessonBytes)
        return diag("lesson.size", {1, 1, 1},
                    "the lesson is " + std::to_string(text.size()) +
                        " bytes; at most 1 MiB (kMaxLessonBytes)",
                    DiagCode::InvalidValue);
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    auto at = [&](size_t i) {
        const std::string_view before = text.substr(0, i);
        const int line = 1 + static_cast<int>(std::count(before.begin(), before.end(), '\n'));
        const size_t nl = before.rfind('\n');
        return SourceSpan{line, static_cast<int>(nl == std::string_view::npos ? i + 1 : i - nl), 1};
    };
    for (size_t i = 0; i < text.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if ((c < 0x20 && c != '\n' && c != '\r' && c != '\t') || c == 0x7F)
            return diag("lesson.text", at(i),
                        "control byte " + std::to_string(c) + ": a lesson is UTF-8 text");
        if (c < 0x80) continue;
        // UTF-8 (RFC 3629): a lead byte C2..F4, then 1-3 continuation bytes 80..BF; no overlong form, no
        // surrogate (ED A0..BF), nothing above U+10FFFF (F4 90..).
        const size_t n = c >= 0xC2 && c <= 0xDF   ? 1
                         : c >= 0xE0 && c <= 0xEF ? 2
                         : c >= 0xF0 && c <= 0xF4 ? 3
                                                  : 0;
        bool ok = n > 0;
        for (size_t k = 1; ok && k <= n; ++k)
            ok = i + k < text.size() && (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
        if (ok && n >= 2) {
            const unsigned char c1 = static_cast<unsigned char>(text[i + 1]);
            ok = !(c == 0xE0 && c1 < 0xA0) && !(c == 0xED && c1 >= 0xA0) && !(c == 0xF0 && c1 < 0x90) &&
                 !(c == 0xF4 && c1 >= 0x90);
        }
        if (!ok)
            return diag("lesson.text", at(i),
                        "byte " + std::to_string(c) + " is not valid UTF-8 here: a lesson is UTF-8 text");
        i += n;
    }
    Reader r(text);
    return r.read();
}

} // namespace layoutscope
