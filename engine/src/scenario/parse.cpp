// Scenario text -> statements -> Scenario (docs/scenario-format.md).
//
// Comments ('#', '//') are blanked out first, so every later position is a position in the file.
// A statement is a directive (its first word is a directive keyword followed by a blank or the end
// of the line; it ends at the end of the line) or a PTX instruction (anything else; it ends at ';'
// and may span lines). target / ptx / cluster are applied before everything else, since tensor
// map encoding and shared-memory layout depend on them; all other statements apply in order.
#include "scenario/parse.hpp"
#include "layoutscope/core/diagnostic_cap.hpp"
#include "layoutscope/ptx/module.hpp"
#include "layoutscope/scenario/scenario.hpp"
#include "ptx/lex.hpp"

#include <algorithm>
#include <cstdio>

namespace layoutscope {

const ScenarioTensorMap* Scenario::findTensorMap(std::string_view name) const {
    for (const auto& t : tensorMaps)
        if (t.name == name) return &t;
    return nullptr;
}

const ScenarioBuffer* Scenario::findBuffer(std::string_view name) const {
    for (const auto& b : buffers)
        if (b.name == name) return &b;
    return nullptr;
}

const ScenarioBarrier* Scenario::findBarrier(std::string_view name) const {
    for (const auto& b : barriers)
        if (b.name == name) return &b;
    return nullptr;
}

namespace scn {

bool Context::declare(const std::string& name, NameKind kind, SourceSpan span, int64_t value) {
    if (const NameInfo* prev = lookup(name)) {
        error(DiagCode::InvalidValue, span,
              "'" + name + "' is already declared at line " + std::to_string(prev->span.line) +
                  "; tensor maps, buffers, barriers and let names share one namespace");
        return false;
    }
    names.emplace(name, NameInfo{kind, span, value});
    return true;
}

const ScenarioTensorMap* Context::overlappingTensor(uint64_t addr, uint64_t extent) const {
    // The stored ranges are pairwise disjoint, so only the last one starting before addr + extent can
    // reach past addr (the same test as a < end && addr < b, range by range).
    const uint64_t end = addr + extent;
    auto it = globalRanges.lower_bound({end, 0, 0});
    if (it == globalRanges.begin()) return nullptr;
    --it;
    const auto& [a, b, index] = *it;
    return a < end && addr < b ? &s.tensorMaps[index] : nullptr;
}

bool Context::addTensorMap(ScenarioTensorMap t) {
    const size_t index = s.tensorMaps.size();
    if (!declare(t.name, NameKind::TensorMap, t.span, static_cast<int64_t>(index))) return false;
    const uint64_t a = t.map.p.globalAddress;
    globalRanges.emplace(a, a + t.extent, index);
    s.tensorMaps.push_back(std::move(t));
    return true;
}

ScenarioTensorMap* Context::tensorMap(std::string_view name) {
    const NameInfo* n = lookup(name);
    if (!n || n->kind != NameKind::TensorMap || n->value < 0 || size_t(n->value) >= s.tensorMaps.size())
        return nullptr;
    return &s.tensorMaps[size_t(n->value)];
}

PtxTarget Context::ptxTarget() const {
    PtxTarget t;
    t.sm = s.target;
    t.ptxMajor = s.ptxMajor;
    t.ptxMinor = s.ptxMinor;
    return t;
}

std::string quoted(std::string_view text) {
    std::string out;
    for (size_t i = 0; i < text.size() && i < 60; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c < 0x7f) {
            out += static_cast<char>(c);
        } else {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02X", c);
            out += buf;
        }
    }
    if (text.size() > 60) out += "...";
    return out;
}

bool isDirectiveKeyword(std::string_view w) {
    static constexpr std::string_view kWords[] = {"target",   "ptx",    "cluster", "tensormap", "smem",
                                                  "mbarrier", "fill",   "let",     "cta",       ".target",
                                                  ".version", "warp",   "regs",    "desc",      "expect",
                                                  "observe",  "kernel", "origin",  "poke"};
    return std::find(std::begin(kWords), std::end(kWords), w) != std::end(kWords);
}

bool isHeaderDirective(std::string_view w) {
    return w == "target" || w == "ptx" || w == "cluster" || w == ".target" || w == ".version";
}

std::vector<Tok> tokenizeDirective(std::string_view text, int line, int column) {
    std::vector<Tok> toks;
    lex::Cursor c{text, 0, line, column};
    auto punct = [](char ch) { return ch == '=' || ch == '[' || ch == ']' || ch == ','; };
    for (;;) {
        c.skipSpace();
        if (c.atEnd()) break;
        const lex::Cursor start = c;
        if (punct(c.peek())) {
            c.advance();
            toks.push_back(Tok{Tok::Punct, std::string(1, text[start.pos]), c.spanFrom(start)});
            continue;
        }
        while (!c.atEnd() && !lex::isSpace(c.peek()) && !punct(c.peek())) c.advance();
        toks.push_back(
            Tok{Tok::Word, std::string(text.substr(start.pos, c.pos - start.pos)), c.spanFrom(start)});
    }
    return toks;
}

namespace {

// Blank out comments (keeping newlines), so positions in the result are positions in the file.
std::string stripComments(std::string_view text) {
    std::string out(text);
    if (out.rfind("\xEF\xBB\xBF", 0) == 0) out.replace(0, 3, "   "); // UTF-8 byte order mark
    bool inComment = false;
    for (size_t i = 0; i < out.size(); ++i) {
        if (out[i] == '\n') {
            inComment = false;
            continue;
        }
        if (!inComment && (out[i] == '#' || (out[i] == '/' && i + 1 < out.size() && out[i + 1] == '/')))
            inComment = true;
        if (inComment) out[i] = ' ';
    }
    return out;
}

struct Statement {
    bool directive = false;
    std::string_view text;
    int line = 1;
    int column = 1;
    bool terminated = true;   ///< instructions: ended by ';'
    std::string_view keyword; ///< directives: the first word
};

std::string_view leadingWord(std::string_view s) {
    size_t n = 0;
    while (n < s.size() && !lex::isSpace(s[n]) && s[n] != '=' && s[n] != '[' && s[n] != ']' && s[n] != ',' &&
           s[n] != ';')
        ++n;
    return s.substr(0, n);
}

bool startsDirective(std::string_view rest) {
    const std::string_view w = leadingWord(rest);
    return isDirectiveKeyword(w) && (w.size() == rest.size() || lex::isSpace(rest[w.size()]));
}

// A line that starts a new statement, which means the previous instruction lacks its ';'.
bool startsNewStatement(std::string_view rest) {
    if (startsDirective(rest) || (!rest.empty() && rest[0] == '@')) return true;
    size_t n = 0;
    while (n < rest.size() && lex::isIdentChar(rest[n])) ++n;
    return n > 0 && lex::isIdentStart(rest[0]) && n < rest.size() && rest[n] == '.';
}

// Calls `each` with every statement in order. Nothing is stored (issue 25 item 4: 16 MiB of `;` held
// 16 M statements at once), so a pass costs time linear in the text and constant memory.
template <class Each>
void forEachStatement(std::string_view clean, Each&& each) {
    lex::Cursor c{clean, 0, 1, 1};
    for (;;) {
        c.skipSpace();
        if (c.atEnd()) break;
        const lex::Cursor start = c;
        const std::string_view rest = clean.substr(c.pos);
        if (startsDirective(rest)) {
            for (;;) { // to the end of the line; a `\` ending it (blanks after it allowed) continues it
                size_t lastNonBlank = std::string_view::npos;
                while (!c.atEnd() && c.peek() != '\n') {
                    if (!lex::isSpace(c.peek())) lastNonBlank = c.pos;
                    c.advance();
                }
                if (c.atEnd() || lastNonBlank == std::string_view::npos || clean[lastNonBlank] != '\\') break;
                c.advance(); // the newline
            }
            each(Statement{true, clean.substr(start.pos, c.pos - start.pos), start.line, start.column, true,
                           leadingWord(rest)});
            continue;
        }
        bool terminated = false;
        while (!c.atEnd()) {
            if (c.peek() == ';') {
                c.advance();
                terminated = true;
                break;
            }
            if (c.peek() == '\n') {
                size_t next = c.pos + 1;
                while (next < clean.size() && lex::isSpace(clean[next])) ++next;
                if (next >= clean.size() || startsNewStatement(clean.substr(next))) break;
            }
            c.advance();
        }
        std::string_view text = clean.substr(start.pos, c.pos - start.pos);
        while (!text.empty() && lex::isSpace(text.back())) text.remove_suffix(1);
        each(Statement{false, text, start.line, start.column, terminated, {}});
    }
}

} // namespace
} // namespace scn

Result<Scenario> parseScenario(std::string_view text) {
    using namespace scn;
    if (text.size() > kMaxScenarioBytes)
        return Diagnostic{Severity::Error,     DiagCode::InvalidValue,
                          SourceSpan{1, 1, 1}, scenarioTooLargeMessage(text.size()),
                          kSizeLimitRef,       Provenance::ToolFormat};
    if (looksLikePtxModule(
            text)) // a whole .ptx (File > Open of nvcc output): one clear error, not one per line
        return Diagnostic{Severity::Error,
                          DiagCode::Unsupported,
                          SourceSpan{1, 1, 1},
                          "this is a whole PTX module (`.version` ... `.entry`), not a scenario: "
                          "`layoutscope-cli check FILE` validates its TMA/tcgen05/mbarrier instructions and "
                          "`layoutscope-cli scaffold FILE` writes a scenario from one of its kernels",
                          "docs/ptx-modules.md",
                          Provenance::ToolFormat};
    Context ctx;
    ctx.smemCursor.fill(ctx.s.smemBase);
    const std::string clean = stripComments(text);
    // Header directives first: target, ptx, cluster. The instructions counted on the way: their vector is
    // reserved once (a ScenarioInstr is ~1.4 KB; 30,000 of them regrown were ~10% of parsing, issue 25 item
    // 11).
    size_t statements = 0;
    forEachStatement(clean, [&](const Statement& st) {
        statements += st.directive ? 0 : 1;
        if (st.directive && isHeaderDirective(st.keyword))
            applyDirective(ctx, tokenizeDirective(st.text, st.line, st.column));
    });
    ctx.s.instrs.reserve(std::min<size_t>(statements, 65536)); // not 8 M for 16 MiB of `a;` (item 4)
    if (ctx.diags.empty()) {
        if (Status tv = validateTargetVersion(ctx.ptxTarget()); !tv) {
            const SourceSpan at = ctx.seen["ptx"].valid()      ? ctx.seen["ptx"]
                                  : ctx.seen["target"].valid() ? ctx.seen["target"]
                                                               : SourceSpan{1, 1, 1};
            for (Diagnostic d : tv.diagnostics()) {
                if (!d.span.valid()) d.span = at;
                ctx.diags.push_back(std::move(d));
            }
        }
    }
    ctx.targetInvalid = !ctx.diags.empty();
    // Bounded diagnostics (issue 25 item 4): the first few of each rule are kept, the rest counted as
    // they arrive, so a million broken statements cost a counter, not a million messages.
    DiagnosticCap cap;
    cap.filter(ctx.diags);
    forEachStatement(clean, [&](const Statement& st) {
        const size_t before = ctx.diags.size();
        const size_t instrsBefore = ctx.s.instrs.size();
        if (st.directive) {
            if (st.keyword == "kernel")
                kernelDirective(ctx, st.text, st.line, st.column);
            else if (st.keyword == "origin")
                originDirective(ctx, st.text, st.line, st.column);
            else if (!isHeaderDirective(st.keyword))
                applyDirective(ctx, tokenizeDirective(st.text, st.line, st.column));
        } else {
            if (ctx.s.kernel && !st.text.empty())
                ctx.error(DiagCode::InvalidValue, SourceSpan{st.line, st.column, 1},
                          "a kernel scenario holds no instructions of its own: its instructions are what the "
                          "kernel of the `kernel` directive at line " +
                              std::to_string(ctx.s.kernel->span.line) + " does when it runs");
            applyInstruction(ctx, st.text, st.line, st.column, st.terminated);
        }
        if (ctx.s.instrs.size() > instrsBefore && ctx.pendingOrigin) {
            ctx.s.instrs.back().origin = *ctx.pendingOrigin;
            ctx.pendingOrigin.reset();
        }
        if (ctx.diags.size() != before) cap.filter(ctx.diags, before);
    });
    if (ctx.diags.empty() && ctx.s.instrs.empty() && !ctx.s.kernel)
        ctx.error(DiagCode::InvalidValue, SourceSpan{1, 1, 1},
                  "the scenario has no instruction to run: add a PTX instruction such as "
                  "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [A, "
                  "{0, 0}], [bar];");
    if (!ctx.diags.empty()) {
        std::stable_sort(ctx.diags.begin(), ctx.diags.end(), [](const Diagnostic& a, const Diagnostic& b) {
            return a.span.line != b.span.line ? a.span.line < b.span.line : a.span.column < b.span.column;
        });
        cap.appendNotes(ctx.diags);
        return std::move(ctx.diags);
    }
    return std::move(ctx.s);
}

} // namespace layoutscope
