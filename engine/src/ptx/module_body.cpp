// The PTX module reader, part 2 (part 1: module_read.cpp): .entry/.func headers and their .param
// lists, declarations and the names they put in scope, `{ ... }` scopes, instructions (those the
// validator models are parsed and kept) and register origins (`mov`/`cvta` chains, for scaffold).
#include "ptx/module_reader.hpp"
#include "ptx/rules.hpp"

#include <algorithm>

namespace layoutscope::ptxmod {

void Reader::declare(const ptxmod::Decl& d, std::vector<PtxVariable>* vars, bool moduleScope) {
    const auto kind = ptxmod::valueKindOf(d);
    for (const auto& n : d.names) {
        if (kind) decls.push_back({n.name, n.count, *kind});
        if (vars && d.space != ".reg" && d.space != ".param")
            vars->push_back({d.space, n.name, d.type, d.typeBytes * n.elements, d.align, n.span});
    }
    envDirty = true;
    if (moduleScope) moduleDecls = decls.size();
}

void Reader::record(PtxStatement::Kind k, std::string_view text, const Cursor& at) {
    if (!fn) return;
    fn->body.push_back({k, ptxmod::blankComments(text), at.line, at.column, locFile, locLine,
                        static_cast<int>(marks.size()) - 1, scopeIds.empty() ? 0 : scopeIds.back()});
}

bool Reader::declaration(const Cursor& start, std::vector<PtxVariable>* vars) {
    const auto text = toSemicolon(start, "declaration");
    if (!text) return false;
    record(PtxStatement::Kind::Declaration, *text, start);
    const std::string clean = ptxmod::blankComments(*text);
    auto d = ptxmod::parseDecl(clean, start.line, start.column);
    if (!d) return error = d.error(), false;
    declare(*d, vars, fn == nullptr);
    return true;
}

// `( param, ... )` of an .entry/.func; each parameter is a declaration.
bool Reader::paramList(PtxFunction* f) {
    const Cursor open = c;
    c.advance(); // '('
    for (;;) {
        if (!skipBlank()) return false;
        if (c.peek() == ')') break;
        const Cursor start = c;
        int depth = 0;
        while (!c.atEnd() && !(depth == 0 && (c.peek() == ',' || c.peek() == ')'))) {
            if (c.peek() == '(') ++depth;
            if (c.peek() == ')') --depth;
            if (c.peek() == '{' || c.peek() == '}' || c.peek() == ';')
                return fail(c.here(), "expected ',' or ')' in the parameter list opened at " +
                                          where(open.here()) + ", found " + lex::describeChar(c.text, c.pos));
            c.advance();
        }
        if (c.atEnd()) return fail(open.here(), "parameter list '(' is never closed (the file ends first)");
        const std::string clean = ptxmod::blankComments(c.text.substr(start.pos, c.pos - start.pos));
        auto d = ptxmod::parseDecl(clean, start.line, start.column);
        if (!d) return error = d.error(), false;
        if (f)
            for (const auto& n : d->names)
                f->params.push_back(
                    {n.name, d->type, d->typeBytes * std::max<uint64_t>(1, n.elements), d->align, n.span});
        declare(*d, nullptr, false);
        if (c.peek() == ',') c.advance();
    }
    c.advance(); // ')'
    return true;
}

bool Reader::function(bool isEntry) {
    if (fn) return fail(c.here(), "a function cannot be defined inside another function's body");
    if (!skipBlank()) return false;
    decls.resize(moduleDecls);
    PtxFunction rets;
    if (!isEntry && c.peek() == '(' && !paramList(&rets)) return false; // return parameters
    if (!skipBlank()) return false;
    const Cursor nameAt = c;
    if (!lex::isIdentStart(c.peek()))
        return fail(c.here(), std::string("expected the ") + (isEntry ? "kernel" : "function") +
                                  " name, found " + lex::describeChar(c.text, c.pos));
    PtxFunction f;
    f.name = word();
    f.isEntry = isEntry;
    f.returns = std::move(rets.params);
    f.span = c.spanFrom(nameAt);
    if (!skipBlank()) return false;
    if (c.peek() == '(' && !paramList(&f)) return false;
    for (;;) { // performance directives, then ';' (a prototype) or the body
        if (!skipBlank()) return false;
        if (c.peek() == '.') {
            const Cursor d = c;
            c.advance();
            const std::string name = "." + word();
            if (!isLineDirective(name))
                return fail(d.here(static_cast<int>(name.size())), "`" + name +
                                                                       "` cannot follow the header of `" +
                                                                       f.name + "` (expected '{' or ';')");
            restOfLine();
            continue;
        }
        if (c.peek() == ';') {
            c.advance();
            decls.resize(moduleDecls);
            return true;
        }
        if (c.peek() == '{') break;
        if (c.atEnd())
            return fail(nameAt.here(), "`" + f.name + "` has no body: the file ends after its header");
        return fail(c.here(), "expected '{' to open the body of `" + f.name + "`, found " +
                                  lex::describeChar(c.text, c.pos));
    }
    mod.functions.push_back(std::move(f));
    fn = &mod.functions.back();
    origin.clear();
    locFile = locLine = 0;
    return openScope();
}

bool Reader::openScope() {
    if (marks.size() >= kMaxDepth)
        return fail(c.here(), "scopes nested deeper than " + std::to_string(kMaxDepth) + " levels");
    marks.push_back(decls.size());
    opens.push_back(c.here());
    if (fn) { // blocks numbered in opening order, so sibling blocks are told apart (labels are per block)
        fn->scopeParents.push_back(scopeIds.empty() ? -1 : scopeIds.back());
        scopeIds.push_back(static_cast<int>(fn->scopeParents.size()) - 1);
    }
    c.advance();
    return true;
}

void Reader::closeScope() {
    decls.resize(marks.back());
    marks.pop_back();
    opens.pop_back();
    if (!scopeIds.empty()) scopeIds.pop_back();
    envDirty = true;
    c.advance();
    if (marks.empty()) fn = nullptr, decls.resize(moduleDecls);
}

bool Reader::instruction(const Cursor& start) {
    if (!fn) return fail(start.here(), "an instruction outside a function body");
    Cursor h = c;
    if (h.peek() == '@') { // guard: @%p or @!%p, a declared .pred register (PTX ISA 9.2 §9.3.1)
        h.advance();
        if (h.peek() == '!') h.advance();
        const Cursor nameAt = h;
        if (h.peek() == '%') h.advance();
        while (lex::isIdentChar(h.peek())) h.advance();
        const std::string_view guard = c.text.substr(nameAt.pos, h.pos - nameAt.pos);
        if (guard.empty() || guard == "%" || (!h.atEnd() && !lex::isSpace(h.peek())))
            return fail(nameAt.here(),
                        "a guard is `@%p` or `@!%p` (a predicate register, then a blank), found " +
                            lex::describeChar(c.text, h.pos));
        const auto declared = std::find_if(decls.begin(), decls.end(), [&](const PtxDeclaration& d) {
            if (d.kind != PtxValueKind::PredReg) return false;
            if (d.count == 0) return guard == d.name;
            if (guard.size() <= d.name.size() || guard.substr(0, d.name.size()) != d.name) return false;
            const std::string_view n = guard.substr(d.name.size());
            if (n.size() > 9 || (n.size() > 1 && n[0] == '0') ||
                !std::all_of(n.begin(), n.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
                return false;
            return std::stol(std::string(n)) < d.count;
        });
        if (declared == decls.end()) {
            SourceSpan at = nameAt.here();
            at.length = static_cast<int>(guard.size());
            mod.diagnostics.push_back(Diagnostic{
                Severity::Error, DiagCode::UnknownName, at,
                "guard predicate `" + std::string(guard) + "` is not declared (`.reg .pred " +
                    std::string(guard) + ";` or a `%p<N>` range that holds it)",
                "PTX ISA 9.2 §9.3.1 (predicated execution), §5.1 (registers)", Provenance::PtxText});
        }
        h.skipSpace();
    }
    Cursor o = h;
    while (lex::isIdentChar(o.peek())) o.advance();
    const std::string_view head = c.text.substr(h.pos, o.pos - h.pos);
    if (head.empty())
        return fail(h.here(), "expected an instruction opcode, found " + lex::describeChar(c.text, h.pos));
    const auto text = toSemicolon(start, "instruction");
    if (!text) return false;
    record(PtxStatement::Kind::Instruction, *text, start);
    // The whole opcode (qualifiers included) ends at a blank or at the first operand's bracket.
    Cursor e = h;
    while (!e.atEnd() && !lex::isSpace(e.peek()) &&
           std::string_view("{[(,;").find(e.peek()) == std::string_view::npos)
        e.advance();
    const std::string_view opcode = c.text.substr(h.pos, e.pos - h.pos);
    const auto notModelled = [&] {
        ++fn->otherInstructions;
        if (std::string family = ptxmod::dataMovementFamily(opcode); !family.empty())
            fn->unmodelled.push_back({std::move(family), std::string(opcode),
                                      SourceSpan{h.line, h.column, static_cast<int>(opcode.size())}});
    };
    if (!ptx::validatorHead(head)) {
        notModelled();
        track(head, *text, o.pos - start.pos, start.line);
        return true;
    }
    const std::string clean = ptxmod::blankComments(*text);
    auto parsed = parseInstruction(clean, start.line, start.column);
    if (!parsed) {
        // Report it only for the validator's instructions: read the opcode alone to find out.
        const auto opEnd = clean.find_first_of(" \t\r\n{[%;", h.pos - start.pos);
        auto op = parseInstruction(std::string_view(clean).substr(0, opEnd), start.line, start.column);
        if (op && validatorModels(*op))
            mod.diagnostics.insert(mod.diagnostics.end(), parsed.diagnostics().begin(),
                                   parsed.diagnostics().end());
        else
            notModelled();
        return true;
    }
    const bool modelled = validatorModels(*parsed);
    if (!modelled && head != "tcgen05") { // unmodelled tcgen05 still counts for the .cta_group rule
        notModelled();
        return true;
    }
    if (envDirty || fn->envs.empty()) {
        fn->envs.push_back(PtxEnvironment{decls, false, false});
        envDirty = false;
    }
    PtxModuleInstr mi{std::move(parsed).value(), fn->envs.size() - 1, modelled, {}};
    addOrigins(mi, mi.instr.operands);
    fn->instrs.push_back(std::move(mi));
    if (!modelled) notModelled();
    return true;
}

// Origins: `mov`/`cvta` of a symbol, an immediate or a register with a known origin; any other
// instruction whose first operand is a register forgets that register's origin.
void Reader::track(std::string_view head, std::string_view text, size_t opcodeEnd, int line) {
    if (head == "mov" || head == "cvta") {
        auto p = parseInstruction(ptxmod::blankComments(text), line, 1);
        if (p && p->predicate.empty() && p->operands.size() == 2 &&
            p->operands[0].kind == OperandKind::Register) {
            const Operand& src = p->operands[1];
            const std::string& dst = p->operands[0].text;
            if (src.kind == OperandKind::Symbol && src.text != "_") {
                origin[dst] = {dst, src.text, 0, line};
                return;
            }
            if (src.kind == OperandKind::Immediate) {
                origin[dst] = {dst, "", src.imm, line};
                return;
            }
            if (auto it = origin.find(src.text); src.kind == OperandKind::Register && it != origin.end()) {
                PtxRegOrigin o = it->second;
                o.reg = dst;
                origin[dst] = o;
                return;
            }
        }
    }
    size_t i = opcodeEnd;
    while (i < text.size() && !lex::isSpace(text[i]) && text[i] != '%') ++i; // the qualifiers
    while (i < text.size() && lex::isSpace(text[i])) ++i;
    if (i < text.size() && text[i] == '%') {
        size_t e = i + 1;
        while (e < text.size() && lex::isIdentChar(text[e])) ++e;
        origin.erase(std::string(text.substr(i, e - i)));
    }
}

void Reader::addOrigins(PtxModuleInstr& mi, const std::vector<Operand>& ops) {
    for (const Operand& op : ops) {
        if (op.kind == OperandKind::Register) {
            if (auto it = origin.find(op.text);
                it != origin.end() && std::none_of(mi.origins.begin(), mi.origins.end(),
                                                   [&](const PtxRegOrigin& o) { return o.reg == op.text; }))
                mi.origins.push_back(it->second);
        }
        addOrigins(mi, op.elements);
    }
}
} // namespace layoutscope::ptxmod
