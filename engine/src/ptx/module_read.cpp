// The PTX module reader: statements of a whole .ptx file as ptxas reads them (PTX ISA 9.2 §4, §11).
//
//   module     := .version X.Y  .target sm_XX{, opt}  [.address_size 32|64]  { item }
//   item       := linkage* ( .entry | .func ) header ( ';' | '{' body '}' )
//               | linkage* declaration ';'  |  .file / .loc / .section / .pragma ... (skipped)
//   body       := { '{' body '}' | label ':' | declaration ';' | [@[!]p] instruction ';' | directive }
//
// Line directives (.version, .target, .address_size, .file, .loc, the .maxntid family) end at the
// end of their line; everything else ends at ';'. Scopes `{ ... }` (inline asm blocks nvcc emits)
// hide their declarations at their '}'. Instructions whose opcode starts cp / tcgen05 / mbarrier are
// parsed; the PTX validator's forms are kept with the declarations in scope for checkPtxModule.
#include "ptx/module_reader.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

namespace layoutscope {

using ptxmod::kModuleRef;

const PtxFunction* PtxModule::findFunction(std::string_view name) const {
    for (const auto& f : functions)
        if (f.name == name) return &f;
    return nullptr;
}

std::vector<const PtxFunction*> PtxModule::entries() const {
    std::vector<const PtxFunction*> v;
    for (const auto& f : functions)
        if (f.isEntry) v.push_back(&f);
    return v;
}

namespace ptxmod {

bool isLineDirective(std::string_view d) {
    static const char* kLine[] = {".version",
                                  ".target",
                                  ".address_size",
                                  ".file",
                                  ".loc",
                                  ".maxntid",
                                  ".reqntid",
                                  ".minnctapersm",
                                  ".maxnctapersm",
                                  ".maxnreg",
                                  ".explicitcluster",
                                  ".reqnctapercluster",
                                  ".maxclusterrank",
                                  ".noreturn",
                                  ".blocksareclusters",
                                  ".abi_preserve",
                                  ".abi_preserve_control"};
    return std::any_of(std::begin(kLine), std::end(kLine), [&](const char* k) { return d == k; });
}
namespace {
bool isDeclSpace(std::string_view d) {
    return d == ".reg" || d == ".shared" || d == ".global" || d == ".const" || d == ".local" ||
           d == ".param" || d == ".tex" || d == ".sreg";
}
bool isLinkage(std::string_view d) {
    return d == ".visible" || d == ".extern" || d == ".weak" || d == ".common";
}
} // namespace

bool Reader::fail(SourceSpan at, std::string msg) {
    if (!error)
        error = Diagnostic{Severity::Error, DiagCode::Syntax, at,
                           std::move(msg),  kModuleRef,       Provenance::PtxText};
    return false;
}

std::string Reader::where(SourceSpan s) {
    return "line " + std::to_string(s.line) + ", column " + std::to_string(s.column);
}

// Blanks and comments. An unterminated /* is an error at its start.
bool Reader::skipBlank() {
    for (;;) {
        c.skipSpace();
        if (c.peek() == '/' && c.peek(1) == '/') {
            while (!c.atEnd() && c.peek() != '\n') c.advance();
        } else if (c.peek() == '/' && c.peek(1) == '*') {
            const Cursor start = c;
            c.advance(2);
            while (!c.atEnd() && !(c.peek() == '*' && c.peek(1) == '/')) c.advance();
            if (c.atEnd())
                return fail(start.here(2), "comment '/*' is never closed (the file ends inside it)");
            c.advance(2);
        } else {
            return true;
        }
    }
}

std::string Reader::word() {
    const size_t start = c.pos;
    while (lex::isIdentChar(c.peek())) c.advance();
    return std::string(c.text.substr(start, c.pos - start));
}

// Up to the end of the line (a line directive), comments skipped.
std::string_view Reader::restOfLine() {
    const size_t start = c.pos;
    while (!c.atEnd() && c.peek() != '\n') {
        if (c.peek() == '/' && (c.peek(1) == '/' || c.peek(1) == '*')) break;
        c.advance();
    }
    return c.text.substr(start, c.pos - start);
}

// A statement from `start` to its ';' (consumed). Quotes and comments are skipped; a '}' before the
// ';' or the end of the file means the ';' is missing. Returns the text without the ';'.
std::optional<std::string_view> Reader::toSemicolon(const Cursor& start, const char* what) {
    int depth = 0;
    while (!c.atEnd()) {
        const char ch = c.peek();
        if (ch == ';' && depth == 0) {
            const auto s = c.text.substr(start.pos, c.pos - start.pos);
            c.advance();
            return s;
        }
        if (ch == '"') {
            const Cursor q = c;
            c.advance();
            while (!c.atEnd() && c.peek() != '"' && c.peek() != '\n') c.advance();
            if (c.peek() != '"')
                return fail(q.here(), "string starting here is not closed on its line"), std::nullopt;
        } else if (ch == '/' && (c.peek(1) == '/' || c.peek(1) == '*')) {
            if (!skipBlank()) return std::nullopt;
            continue;
        } else if (ch == '{') {
            ++depth;
        } else if (ch == '}') {
            if (depth == 0)
                return fail(c.here(), std::string("missing ';' at the end of the ") + what +
                                          " that starts at " + where(start.here()) + " (found '}' first)"),
                       std::nullopt;
            --depth;
        }
        c.advance();
    }
    fail(start.here(), std::string("the ") + what +
                           " starting here is cut off by the end of the file "
                           "(missing ';'" +
                           (depth ? " and '}'" : "") + ")");
    return std::nullopt;
}

bool Reader::versionDirective(const Cursor& start) {
    c.skipSpace();
    const Cursor at = c;
    const std::string_view v = restOfLine();
    int major = -1, minor = -1;
    char extra = 0;
    const std::string s(v.substr(0, v.find_last_not_of(" \t\r") + 1));
    if (std::sscanf(s.c_str(), "%d.%d%c", &major, &minor, &extra) != 2 || major < 0 || minor < 0 ||
        minor > 99)
        return fail(at.here(static_cast<int>(s.size())),
                    "`.version` takes MAJOR.MINOR (for example `.version 9.0`), found `" + s + "`");
    mod.target.ptxMajor = major;
    mod.target.ptxMinor = minor;
    mod.versionSpan = c.spanFrom(start);
    return true;
}

bool Reader::targetDirective(const Cursor& start) {
    c.skipSpace();
    const Cursor at = c;
    const std::string_view v = restOfLine();
    std::string first(v.substr(0, v.find(',')));
    first.erase(first.find_last_not_of(" \t\r") + 1);
    if (first.rfind("sm_", 0) != 0 && first.rfind("compute_", 0) != 0)
        return fail(at.here(std::max<int>(1, static_cast<int>(first.size()))),
                    "`.target` takes an architecture first (for example `.target sm_100a`), found `" + first +
                        "`");
    mod.target.sm = first.rfind("compute_", 0) == 0 ? "sm_" + first.substr(8) : first;
    mod.targetSpan = c.spanFrom(start);
    sawTarget = true;
    return true;
}

bool Reader::directive() {
    const Cursor start = c;
    std::string name;
    for (;;) {       // linkage prefixes: .visible .entry, .extern .shared, .weak .func
        c.advance(); // '.'
        name = "." + word();
        if (name == ".") return fail(start.here(), "expected a directive name after '.'");
        if (!isLinkage(name)) break;
        if (!skipBlank()) return false;
        if (c.peek() != '.') return fail(c.here(), "expected a directive after `" + name + "`");
    }
    const bool first = mod.functions.empty() && !mod.versionSpan.valid();
    if (first && name != ".version")
        return fail(start.here(static_cast<int>(name.size())),
                    "a PTX module starts with `.version` (found `" + name + "` first)");
    if (name == ".version") {
        if (mod.versionSpan.valid()) return fail(start.here(8), "`.version` may appear only once");
        return versionDirective(start);
    }
    if (!sawTarget && name != ".target")
        return fail(start.here(static_cast<int>(name.size())),
                    "`.target` must follow `.version` (found `" + name + "` first)");
    if (name == ".target") {
        if (sawTarget) return fail(start.here(7), "`.target` may appear only once");
        return targetDirective(start);
    }
    if (name == ".address_size") {
        c.skipSpace();
        const Cursor at = c;
        const std::string v(restOfLine());
        const std::string t = v.substr(0, v.find_last_not_of(" \t\r") + 1);
        if (t != "32" && t != "64") return fail(at.here(), "`.address_size` is 32 or 64, found `" + t + "`");
        mod.addressSize = t == "32" ? 32 : 64;
        mod.addressSizeSpan = at.here(static_cast<int>(t.size()));
        return true;
    }
    if (name == ".entry" || name == ".func") return function(name == ".entry");
    if (isLineDirective(name)) {
        const Cursor at = c;
        const std::string rest(restOfLine());
        if (name == ".loc" && fn) { // .loc FILE LINE COLUMN [, inlined_at ...]
            int f = 0, l = 0;
            if (std::sscanf(rest.c_str(), "%d %d", &f, &l) == 2) locFile = f, locLine = l;
        } else if (name == ".file") { // .file N "name" [, timestamp, size]: the string must close on its line
            bool open = false;
            for (size_t i = 0; i < rest.size(); ++i) {
                if (open && rest[i] == '\\')
                    ++i;
                else if (rest[i] == '"')
                    open = !open;
            }
            if (open) return fail(at.here(), "`.file` string is not closed on its line (a '\"' is missing)");
            int n = 0;
            const auto q = rest.find('"'), q2 = rest.find('"', q == std::string::npos ? q : q + 1);
            if (std::sscanf(rest.c_str(), "%d", &n) == 1 && q2 != std::string::npos)
                mod.files.emplace_back(n, rest.substr(q + 1, q2 - q - 1));
        }
        return true;
    }
    if (name == ".section") return section(start);
    if (isDeclSpace(name)) {
        Cursor declStart = start;
        while (declStart.pos < c.text.size() && c.text.substr(declStart.pos, name.size()) != name)
            declStart.advance(); // parse from the state space (after the linkage)
        c = declStart;
        return declaration(declStart, fn ? &fn->variables : &mod.globals);
    }
    return toSemicolon(start, "directive").has_value(); // .pragma, .alias, .callprototype, ...
}

// `.section .debug_xxx { ... }` (nvcc -G): skipped with its braces.
bool Reader::section(const Cursor& start) {
    // `.section NAME` then its '{', on the same line or a later one (ptxas takes both).
    c.skipSpace();
    while (!c.atEnd() && !lex::isSpace(c.peek()) && c.peek() != '{') c.advance();
    if (!skipBlank()) return false;
    if (c.peek() != '{') return fail(c.here(), "expected '{' after `.section`");
    int depth = 0;
    while (!c.atEnd()) {
        if (c.peek() == '{') ++depth;
        if (c.peek() == '}' && --depth == 0) {
            c.advance();
            return true;
        }
        c.advance();
    }
    return fail(start.here(8), "`.section` block is never closed (the file ends first)");
}

bool Reader::statement() {
    const Cursor start = c;
    const char ch = c.peek();
    if (ch == '{') {
        if (!fn)
            return fail(c.here(), "'{' outside a function body (a scope opens only inside .entry/.func)");
        return openScope();
    }
    if (ch == '}') {
        if (marks.empty()) return fail(c.here(), "'}' without a matching '{'");
        closeScope();
        return true;
    }
    if (ch == '.') return directive();
    if (!mod.versionSpan.valid())
        return fail(c.here(), "a PTX module starts with `.version` (found " +
                                  lex::describeChar(c.text, c.pos) + " first)");
    if (lex::isIdentStart(ch)) { // a label?
        Cursor l = c;
        while (lex::isIdentChar(l.peek())) l.advance();
        if (l.peek() == ':' && l.peek(1) != ':') {
            if (!fn) return fail(start.here(), "a label outside a function body");
            record(PtxStatement::Kind::Label, c.text.substr(c.pos, l.pos - c.pos), c);
            c = l;
            c.advance();
            return true;
        }
    }
    if (ch == '@' || lex::isIdentStart(ch)) return instruction(start);
    return fail(c.here(),
                "unexpected " + lex::describeChar(c.text, c.pos) +
                    " at the start of a statement (expected a directive, label, instruction, '{' or '}')");
}

bool Reader::module() {
    for (;;) {
        if (!skipBlank()) return false;
        if (c.atEnd()) break;
        if (!statement()) return false;
    }
    if (!marks.empty())
        return fail(opens.back(), "'{' opened here is never closed (the file ends inside " +
                                      std::string(marks.size() > 1 ? "a scope of " : "the body of ") + "`" +
                                      (fn ? fn->name : std::string("?")) + "`)");
    if (!mod.versionSpan.valid())
        return fail(c.here(), "the module has no `.version` directive (empty input)");
    if (!sawTarget) return fail(c.here(), "the module has no `.target` directive");
    return true;
}
} // namespace ptxmod

namespace {
using lex::Cursor;
using ptxmod::Reader;

// The first byte that cannot be in PTX text (NUL and other control characters).
std::optional<Diagnostic> binaryByte(std::string_view text) {
    Cursor c{text, 0, 1, 1};
    for (size_t i = 0; i < text.size(); ++i) {
        const auto b = static_cast<unsigned char>(text[i]);
        if ((b < 0x20 && b != '\t' && b != '\n' && b != '\r' && b != '\f' && b != '\v') || b == 0x7f) {
            c.advance(i - c.pos);
            return Diagnostic{
                Severity::Error,
                DiagCode::Syntax,
                c.here(),
                "byte " + lex::describeChar(text, i).substr(5) + " at line " + std::to_string(c.line) +
                    ", column " + std::to_string(c.column) +
                    " is not text: a PTX module is ASCII text (is this a binary file, a cubin?)",
                kModuleRef,
                Provenance::PtxText};
        }
    }
    return std::nullopt;
}

} // namespace

Result<PtxModule> readPtxModule(std::string_view text) {
    if (text.size() > kMaxPtxModuleBytes)
        return Diagnostic{Severity::Error,
                          DiagCode::InvalidValue,
                          SourceSpan{1, 1, 1},
                          "the module is " + std::to_string(text.size()) + " bytes; the limit is " +
                              std::to_string(kMaxPtxModuleBytes) + " (64 MiB)",
                          "docs/ptx-modules.md (limits)",
                          Provenance::Assumption};
    if (auto bad = binaryByte(text)) return *bad;
    Reader r{Cursor{text, 0, 1, 1}, {}, std::nullopt};
    if (!r.module()) return *r.error;
    return std::move(r.mod);
}

bool looksLikePtxModule(std::string_view text) {
    Reader r{Cursor{text.substr(0, std::min<size_t>(text.size(), 1 << 16)), 0, 1, 1}, {}, std::nullopt};
    if (!r.skipBlank()) return false;
    if (r.c.text.substr(r.c.pos, 8) != ".version" || lex::isIdentChar(r.c.peek(8))) return false;
    // A scenario may start with `.version` too (an alias of `ptx`), but never defines a function.
    for (const std::string_view kw : {std::string_view(".entry"), std::string_view(".func")})
        for (size_t at = text.find(kw); at != std::string_view::npos; at = text.find(kw, at + 1))
            if (at + kw.size() == text.size() || !lex::isIdentChar(text[at + kw.size()])) return true;
    return false;
}

} // namespace layoutscope
