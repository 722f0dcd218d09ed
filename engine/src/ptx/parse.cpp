// PTX instruction syntax (PTX ISA 9.2 §4 "Syntax", §6.1 "Instruction statements"):
//
//   [@p | @!p]  opcode{.qualifier}  [operand {, operand}]  [;]
//
// Blanks are optional around braces, brackets and commas and between the last qualifier and a
// '{', '[' or '%' operand; qualifiers may follow blanks (`tcgen05.ld.sync .aligned`), as ptxas 13.0
// reads them (the token spans show the blank; the validator refuses one inside an instruction name).
//
// The parser is generic: it knows no opcode and rejects nothing on semantics, so that the
// ptxas-equivalent validator (ptx_validate.cpp) can name the real rule. Qualifiers may contain
// "::" (".shared::cluster", ".mbarrier::complete_tx::bytes", ".warpx2::02_13") and start with a
// digit (".2d", ".16x32bx2"). Operands:
//   register   %r1  %rd0  %tid.x         immediate  0  -8  0x10  0b101  0f3F800000
//   symbol     sA  tmap$1  _             vector     {a, b, %r3, 0}
//   address    [x]  [x+16]  [%rd1+-8]  [tensorMap, {c0, c1}]   ([x-8] is a ptxas syntax error)
// A leading '!' on a register or symbol operand (negated predicate) is kept in its text.
#include "layoutscope/ptx/instruction.hpp"
#include "ptx/lex.hpp"

#include <string>

namespace layoutscope {

std::string ParsedInstr::opcodeText() const {
    std::string s;
    for (const auto& t : opcode) s += t.text;
    return s;
}

bool ParsedInstr::hasToken(std::string_view t) const {
    for (const auto& o : opcode)
        if (o.text == t) return true;
    return false;
}

namespace {

using lex::Cursor;

constexpr const char* kSyntaxRef = "PTX ISA 9.2 §4 (syntax)";

struct Parser {
    Cursor c;
    std::optional<Diagnostic> error;

    bool fail(SourceSpan span, std::string message) {
        if (!error)
            error = Diagnostic{Severity::Error,    DiagCode::Syntax, span,
                               std::move(message), kSyntaxRef,       Provenance::PtxText};
        return false;
    }
    bool failHere(const std::string& expected) {
        return fail(c.here(), "expected " + expected + " at column " + std::to_string(c.column) + ", found " +
                                  lex::describeChar(c.text, c.pos));
    }

    // Identifier body after its first character was checked.
    std::string identifier() {
        const size_t start = c.pos;
        while (lex::isIdentChar(c.peek())) c.advance();
        return std::string(c.text.substr(start, c.pos - start));
    }

    bool guard(ParsedInstr& out) {
        const Cursor start = c;
        c.advance(); // '@'
        std::string g = "@";
        if (c.peek() == '!') {
            g += '!';
            c.advance();
        }
        if (c.peek() == '%') {
            g += '%';
            c.advance();
        }
        if (!lex::isIdentStart(c.peek())) return failHere("a predicate name after '" + g + "'");
        g += identifier();
        out.predicate = g;
        (void)start;
        if (!lex::isSpace(c.peek())) return failHere("whitespace after the guard '" + g + "'");
        return true;
    }

    // One qualifier body: [A-Za-z0-9_$]+ with "::" joining parts.
    bool qualifier(OpcodeToken& tok) {
        const Cursor start = c;
        c.advance(); // '.'
        if (!lex::isIdentChar(c.peek())) return failHere("a qualifier after '.'");
        for (;;) {
            while (lex::isIdentChar(c.peek())) c.advance();
            if (c.peek() == ':' && c.peek(1) == ':') {
                c.advance(2);
                if (!lex::isIdentChar(c.peek())) return failHere("a name after '::'");
                continue;
            }
            if (c.peek() == ':') return failHere("'::' (a qualifier uses a double colon)");
            break;
        }
        tok.text = std::string(c.text.substr(start.pos, c.pos - start.pos));
        tok.span = c.spanFrom(start);
        return true;
    }

    bool opcode(ParsedInstr& out) {
        if (!lex::isIdentStart(c.peek())) return failHere("an instruction opcode");
        const Cursor start = c;
        OpcodeToken first;
        first.text = identifier();
        first.span = c.spanFrom(start);
        out.opcode.push_back(std::move(first));
        for (;;) {
            // ptxas 13.0 reads qualifiers after blanks too (`tcgen05.ld.sync .aligned.32x32b`); no
            // operand starts with '.', so a '.' after blanks is always one more qualifier.
            const Cursor before = c;
            c.skipSpace();
            const bool spaced = c.pos != before.pos;
            if (c.peek() != '.' || (spaced && !lex::isIdentChar(c.peek(1)))) {
                c = before;
                break;
            }
            OpcodeToken q;
            if (!qualifier(q)) return false;
            out.opcode.push_back(std::move(q));
        }
        return true;
    }

    bool immediate(Operand& op) {
        const Cursor start = c;
        const size_t n = lex::literalRunLength(c);
        const std::string_view lit = c.text.substr(c.pos, n);
        c.advance(n);
        const lex::IntLiteral v = lex::parseIntLiteral(lit);
        const SourceSpan span = c.spanFrom(start);
        if (v.status == lex::IntStatus::Malformed)
            return fail(span, "malformed integer literal '" + std::string(lit) + "' at column " +
                                  std::to_string(start.column));
        if (v.status == lex::IntStatus::OutOfRange)
            return fail(span, "integer literal '" + std::string(lit) + "' at column " +
                                  std::to_string(start.column) + " does not fit in 64 bits");
        op.kind = OperandKind::Immediate;
        op.text = std::string(lit);
        op.imm = v.value;
        op.span = span;
        return true;
    }

    // Register, symbol or immediate (the elements of vectors and addresses).
    bool scalar(Operand& op, const std::string& what) {
        const Cursor start = c;
        const char ch = c.peek();
        if (lex::isDigit(ch) || ((ch == '-' || ch == '+') && lex::isDigit(c.peek(1)))) return immediate(op);
        std::string text;
        if (ch == '!') {
            text = "!";
            c.advance();
        }
        if (c.peek() == '%') {
            c.advance();
            if (!lex::isIdentStart(c.peek())) return failHere("a register name after '%'");
            text += "%" + identifier();
            // special-register components: %tid.x, %ctaid.y
            while (c.peek() == '.' && lex::isIdentStart(c.peek(1))) {
                c.advance();
                text += "." + identifier();
            }
            op.kind = OperandKind::Register;
        } else if (lex::isIdentStart(c.peek())) {
            text += identifier();
            op.kind = OperandKind::Symbol;
        } else {
            c = start;
            return failHere(what);
        }
        op.text = std::move(text);
        op.span = c.spanFrom(start);
        return true;
    }

    bool vector(Operand& op) {
        const Cursor start = c;
        c.advance(); // '{'
        op.kind = OperandKind::Vector;
        for (;;) {
            c.skipSpace();
            Operand e;
            if (!scalar(e, "a vector element (register, symbol or integer)")) return false;
            op.elements.push_back(std::move(e));
            c.skipSpace();
            if (c.peek() == ',') {
                c.advance();
                continue;
            }
            if (c.peek() == '}') break;
            return failHere("',' or '}' after vector element " + std::to_string(op.elements.size()) +
                            " (the '{' is at column " + std::to_string(start.column) + ")");
        }
        c.advance(); // '}'
        op.span = c.spanFrom(start);
        op.text = std::string(c.text.substr(start.pos, c.pos - start.pos));
        return true;
    }

    bool address(Operand& op) {
        const Cursor start = c;
        c.advance(); // '['
        op.kind = OperandKind::Address;
        c.skipSpace();
        Operand base;
        if (!scalar(base, "an address (register, symbol or integer) after '['")) return false;
        op.elements.push_back(std::move(base));
        c.skipSpace();
        if (c.peek() == '-')
            return fail(c.here(), "expected '+' or ']' at column " + std::to_string(c.column) +
                                      ": PTX writes a negative offset as [x+-8] (ptxas rejects [x-8])");
        if (c.peek() == '+') {
            c.advance();
            c.skipSpace();
            if (!lex::isDigit(c.peek()) && !(c.peek() == '-' && lex::isDigit(c.peek(1))))
                return failHere("an integer offset after '+'");
            Operand off;
            if (!immediate(off)) return false;
            op.imm = off.imm;
            c.skipSpace();
        }
        while (c.peek() == ',') {
            c.advance();
            c.skipSpace();
            Operand e;
            if (c.peek() == '{') {
                if (!vector(e)) return false;
            } else if (!scalar(e, "a vector or operand after ',' inside '[...]'")) {
                return false;
            }
            op.elements.push_back(std::move(e));
            c.skipSpace();
        }
        if (c.peek() != ']')
            return failHere("']' to close the '[' at column " + std::to_string(start.column));
        c.advance();
        op.span = c.spanFrom(start);
        op.text = std::string(c.text.substr(start.pos, c.pos - start.pos));
        return true;
    }

    bool operand(Operand& op, size_t index) {
        if (c.peek() == '{') return vector(op);
        if (c.peek() == '[') return address(op);
        const Cursor start = c;
        if (!scalar(op, "operand " + std::to_string(index) + " (register, immediate, symbol, '{' or '[')"))
            return false;
        // A destination pair `d|p` (elect.sync, setp): both halves as elements, the text as written.
        Cursor after = c;
        c.skipSpace();
        if (c.peek() != '|') {
            c = after;
            return true;
        }
        c.advance();
        c.skipSpace();
        Operand second;
        if (!scalar(second, "the second half of a `d|p` pair after '|'")) return false;
        Operand pair;
        pair.kind = op.kind;
        pair.elements = {std::move(op), std::move(second)};
        pair.span = c.spanFrom(start);
        pair.text = std::string(c.text.substr(start.pos, c.pos - start.pos));
        op = std::move(pair);
        return true;
    }

    // After ';': only whitespace or a // comment may follow.
    bool tail() {
        c.skipSpace();
        if (c.peek() == '/' && c.peek(1) == '/') return true;
        if (c.atEnd()) return true;
        return fail(c.here(), "unexpected " + lex::describeChar(c.text, c.pos) + " at column " +
                                  std::to_string(c.column) + " after the end of the instruction");
    }

    bool instruction(ParsedInstr& out) {
        c.skipSpace();
        const Cursor start = c;
        if (c.peek() == '@' && !guard(out)) return false;
        c.skipSpace();
        if (!opcode(out)) return false;
        // nvcc writes inline asm without a blank before the operands (`...b32{%r1},[%r0];`), and
        // ptxas reads it: a '{', '[' or '%' may follow the last qualifier directly.
        if (!c.atEnd() && !lex::isSpace(c.peek()) && c.peek() != ';' && c.peek() != '{' && c.peek() != '[' &&
            c.peek() != '%')
            return failHere("whitespace, ';', an operand or a '.qualifier' after the opcode");
        c.skipSpace();
        Cursor last = c;
        if (!c.atEnd() && c.peek() != ';') {
            for (size_t i = 1;; ++i) {
                Operand op;
                if (!operand(op, i)) return false;
                out.operands.push_back(std::move(op));
                last = c;
                c.skipSpace();
                if (c.peek() == ',') {
                    c.advance();
                    c.skipSpace();
                    continue;
                }
                if (c.atEnd() || c.peek() == ';') break;
                return failHere("',' or ';' after operand " + std::to_string(i));
            }
        } else {
            last = c;
        }
        if (c.peek() == ';') {
            c.advance();
            last = c;
        }
        out.span = last.spanFrom(start);
        if (out.span.line != start.line) out.span.length = static_cast<int>(last.pos - start.pos);
        return tail();
    }
};

} // namespace

Result<ParsedInstr> parseInstruction(std::string_view text, int line, int column) {
    Parser p{Cursor{text, 0, line, column}, std::nullopt};
    ParsedInstr out;
    if (!p.instruction(out)) return *p.error;
    return out;
}

} // namespace layoutscope
