// Declarations of a PTX module (PTX ISA 9.2 §5.4 "Variables"):
//
//   {.visible|.extern|.weak} .space {.align N} {.ptr {.space} {.align N}} {.vN} .type name {, name}
//   name:  ident | ident<N> (register range) | ident[N]{[M]} | ident[] , each with an optional = init
//
// The linkage prefixes are consumed by the statement reader; this file sees `.space ...`.
#include "ptx/lex.hpp"
#include "ptx/module_internal.hpp"

#include <map>

namespace layoutscope::ptxmod {

namespace {

using lex::Cursor;

// Element size in bytes of the fundamental types (PTX ISA 9.2 §5.2.1); .pred has none.
uint64_t typeSize(std::string_view t) {
    static const std::map<std::string_view, uint64_t> kSizes = {
        {".b8", 1},    {".u8", 1},     {".s8", 1},         {".b16", 2},    {".u16", 2},    {".s16", 2},
        {".f16", 2},   {".bf16", 2},   {".b32", 4},        {".u32", 4},    {".s32", 4},    {".f32", 4},
        {".f16x2", 4}, {".bf16x2", 4}, {".tf32", 4},       {".b64", 8},    {".u64", 8},    {".s64", 8},
        {".f64", 8},   {".b128", 16},  {".e4m3", 1},       {".e5m2", 1},   {".e4m3x2", 2}, {".e5m2x2", 2},
        {".pred", 0},  {".texref", 8}, {".samplerref", 8}, {".surfref", 8}};
    const auto it = kSizes.find(t);
    return it == kSizes.end() ? UINT64_MAX : it->second;
}

struct DeclParser {
    Cursor c;
    std::optional<Diagnostic> error;

    bool fail(SourceSpan at, std::string msg) {
        if (!error)
            error = Diagnostic{Severity::Error, DiagCode::Syntax, at,
                               std::move(msg),  kDeclRef,         Provenance::PtxText};
        return false;
    }
    bool failHere(const std::string& expected) {
        return fail(c.here(), "expected " + expected + " in the declaration, found " +
                                  lex::describeChar(c.text, c.pos));
    }
    std::string word() { // [A-Za-z0-9_$]+ with "::" joining parts (".shared::cta")
        const size_t start = c.pos;
        for (;;) {
            while (lex::isIdentChar(c.peek())) c.advance();
            if (c.peek() != ':' || c.peek(1) != ':' || !lex::isIdentChar(c.peek(2))) break;
            c.advance(2);
        }
        return std::string(c.text.substr(start, c.pos - start));
    }
    bool integer(uint64_t& v) {
        c.skipSpace();
        const Cursor start = c;
        const size_t n = lex::literalRunLength(c);
        const auto lit = lex::parseIntLiteral(c.text.substr(c.pos, n));
        c.advance(n);
        if (n == 0 || lit.status != lex::IntStatus::Ok || lit.value < 0)
            return fail(c.spanFrom(start), "expected a non-negative integer in the declaration");
        v = static_cast<uint64_t>(lit.value);
        return true;
    }

    bool qualifiers(Decl& d) {
        for (;;) {
            c.skipSpace();
            if (c.peek() != '.') return true;
            const Cursor start = c;
            c.advance();
            const std::string q = "." + word();
            if (q == ".") return fail(start.here(), "expected a qualifier after '.' in the declaration");
            if (q == ".align") {
                if (!integer(d.align)) return false;
                if (d.align == 0 || (d.align & (d.align - 1)))
                    return fail(c.spanFrom(start), ".align takes a power of two");
            } else if (q == ".v2" || q == ".v4" || q == ".v8") {
                d.vector = q[2] - '0';
            } else if (q == ".reg" || q == ".shared" || q == ".global" || q == ".const" || q == ".local" ||
                       q == ".param" || q == ".tex" || q == ".sreg" || q == ".shared::cta" ||
                       q == ".shared::cluster") {
                if (d.space.empty()) d.space = q; // a second one is the .ptr's space: `.ptr .global`
            } else if (typeSize(q) != UINT64_MAX) {
                d.type = q;
            } else if (q != ".ptr" && q != ".attribute" && q != ".managed" && q != ".unified") {
                return fail(c.spanFrom(start), "`" + q +
                                                   "` is not a state space, type or variable "
                                                   "qualifier PTX knows");
            }
        }
    }

    // `= initializer`: skipped up to the next ',' at depth 0 (braces nest).
    bool initializer() {
        c.advance(); // '='
        int depth = 0;
        while (!c.atEnd()) {
            const char ch = c.peek();
            if (ch == '{') ++depth;
            if (ch == '}' && --depth < 0) return failHere("an initializer (unbalanced '}')");
            if (ch == ',' && depth == 0) return true;
            c.advance();
        }
        return depth == 0 || failHere("'}' to close the initializer");
    }

    bool name(Decl& d) {
        c.skipSpace();
        const Cursor start = c;
        std::string n;
        if (c.peek() == '%') {
            n = "%";
            c.advance();
        }
        if (!lex::isIdentStart(c.peek())) return failHere("a variable name");
        while (lex::isIdentChar(c.peek())) n += c.peek(), c.advance();
        DeclName dn{n, 0, 1, c.spanFrom(start)};
        if (c.peek() == '<') {
            c.advance();
            uint64_t count = 0;
            if (!integer(count)) return false;
            if (count > 1000000)
                return fail(c.spanFrom(start), "register range `" + n + "<...>` is too large");
            dn.count = static_cast<int>(count);
            c.skipSpace();
            if (c.peek() != '>') return failHere("'>' to close the register range");
            c.advance();
        }
        while (c.peek() == '[') {
            c.advance();
            c.skipSpace();
            uint64_t ext = 0;
            if (c.peek() == ']') {
                dn.elements = 0;
            } else {
                if (!integer(ext)) return false;
                dn.elements = ext > (uint64_t(1) << 40) || dn.elements > (uint64_t(1) << 40)
                                  ? (uint64_t(1) << 62)
                                  : dn.elements * ext;
            }
            c.skipSpace();
            if (c.peek() != ']') return failHere("']' to close the array extent");
            c.advance();
        }
        dn.span = c.spanFrom(start);
        d.names.push_back(std::move(dn));
        c.skipSpace();
        if (c.peek() == '=') return initializer();
        return true;
    }

    bool decl(Decl& d) {
        if (!qualifiers(d)) return false;
        if (d.space.empty())
            return fail(c.here(), "a declaration starts with its state space (.reg, "
                                  ".shared, .global, .const, .local, .param)");
        const uint64_t es = d.type.empty() ? 0 : typeSize(d.type);
        d.typeBytes = es * static_cast<uint64_t>(d.vector);
        for (;;) {
            if (!name(d)) return false;
            c.skipSpace();
            if (c.peek() == ',') {
                c.advance();
                continue;
            }
            if (c.atEnd()) return true;
            return failHere("',' or the end of the declaration");
        }
    }
};

} // namespace

Result<Decl> parseDecl(std::string_view text, int line, int column) {
    DeclParser p{Cursor{text, 0, line, column}, std::nullopt};
    Decl d;
    if (!p.decl(d)) return *p.error;
    return d;
}

std::optional<PtxValueKind> valueKindOf(const Decl& d) {
    if (d.space == ".reg") {
        if (d.vector != 1) return std::nullopt;
        if (d.type == ".pred") return PtxValueKind::PredReg;
        switch (d.typeBytes) {
        case 2:
            return PtxValueKind::B16Reg;
        case 4:
            return PtxValueKind::B32Reg;
        case 8:
            return PtxValueKind::B64Reg;
        case 16: // `.reg .b128` (PTX 8.3): ld/st/atom .b128 operands
            return PtxValueKind::B128Reg;
        default:
            return std::nullopt;
        }
    }
    if (d.space == ".shared" || d.space == ".shared::cta" || d.space == ".shared::cluster")
        return PtxValueKind::SharedVar;
    if (d.space == ".param") return PtxValueKind::ParamVar;
    // .global, and .const / .local (addresses outside shared memory: the validator's "global" kind)
    if (d.space == ".global" || d.space == ".const" || d.space == ".local") return PtxValueKind::GlobalVar;
    return std::nullopt;
}

std::string blankComments(std::string_view text) {
    std::string out(text);
    bool inString = false;
    for (size_t i = 0; i < out.size(); ++i) {
        if (inString) {
            if (out[i] == '"') inString = false;
            continue;
        }
        if (out[i] == '"') {
            inString = true;
        } else if (out[i] == '/' && i + 1 < out.size() && out[i + 1] == '/') {
            while (i < out.size() && out[i] != '\n') out[i++] = ' ';
        } else if (out[i] == '/' && i + 1 < out.size() && out[i + 1] == '*') {
            out[i] = out[i + 1] = ' ';
            for (i += 2; i < out.size() && !(out[i] == '*' && i + 1 < out.size() && out[i + 1] == '/'); ++i)
                if (out[i] != '\n') out[i] = ' ';
            if (i < out.size()) out[i] = out[i + 1] = ' ', ++i;
        }
    }
    return out;
}

} // namespace layoutscope::ptxmod
