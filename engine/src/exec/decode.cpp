// The executor's decoder: every function body statement (PtxFunction::body) decoded once into an Op
// (opcode, types, modifiers, operands resolved to register slots, symbols and pcs). Forms it does not
// model decode to Opc::Trap with the reason, so the run stops there with a diagnostic, never skips them.
#include "exec/decode.hpp"
#include "exec/decode_async.hpp"
#include "ptx/module_internal.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace layoutscope::exec {

namespace {

uint64_t alignUp(uint64_t v, uint64_t a) {
    return a ? (v + a - 1) / a * a : v;
}

// Function::recursive: the functions on a cycle of the call graph (direct or mutual recursion). The callees
// are read from the `call` statements' words before the bodies are decoded, so that the `.local`
// declarations of a recursive function can be placed in its frame.
void markRecursive(const PtxModule& m, const std::map<std::string, int>& index, std::vector<Function>& fns) {
    std::vector<std::vector<int>> callees(fns.size());
    for (size_t fi = 0; fi < m.functions.size(); ++fi)
        for (const PtxStatement& st : m.functions[fi].body) {
            if (st.kind != PtxStatement::Kind::Instruction) continue;
            std::string_view t = st.text;
            if (t.size() > 1 && t[0] == '@') t.remove_prefix(std::min(t.size(), t.find_first_of(" \t\n")));
            while (!t.empty() && std::strchr(" \t\r\n", t[0])) t.remove_prefix(1);
            if (t.substr(0, 4) != "call") continue;
            std::string word;
            for (size_t i = 4; i <= t.size(); ++i) { // every identifier naming a function of the module
                const char c = i < t.size() ? t[i] : ' ';
                if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$') {
                    word += c;
                    continue;
                }
                if (auto it = index.find(word); it != index.end()) callees[fi].push_back(it->second);
                word.clear();
            }
        }
    for (size_t f = 0; f < fns.size(); ++f) { // f is recursive when a call path leads back to it
        std::vector<char> seen(fns.size(), 0);
        std::vector<int> todo(callees[f].begin(), callees[f].end());
        while (!todo.empty() && !fns[f].recursive) {
            const int g = todo.back();
            todo.pop_back();
            if (size_t(g) == f) fns[f].recursive = true;
            if (seen[size_t(g)]) continue;
            seen[size_t(g)] = 1;
            todo.insert(todo.end(), callees[size_t(g)].begin(), callees[size_t(g)].end());
        }
    }
}

} // namespace

// Decode one instruction statement.
void decodeInstruction(const PtxStatement& st, DecodeScope& s, Op& op) {
    op.line = st.line, op.column = st.column, op.locFile = st.locFile, op.locLine = st.locLine;
    op.text = trim(st.text);
    std::string_view t = op.text;
    auto fail = [&](const std::string& why) {
        op.opc = Opc::Trap;
        op.o.clear();
        op.target = -2; // not the `trap` instruction: an unmodelled form
        op.text = op.text + "\n" + why;
    };
    if (!t.empty() && t[0] == '@') {
        size_t e = 1;
        while (e < t.size() && t[e] != ' ' && t[e] != '\t') ++e;
        Opnd g;
        if (auto err = parseOperand(t.substr(1, e - 1), s, g); err || g.kind != OK::Reg)
            return fail("guard `" + std::string(t.substr(0, e)) + "` is not a predicate register");
        op.guard = static_cast<int>(g.reg);
        op.guardNeg = g.neg;
        t = t.substr(e);
        while (!t.empty() && (t[0] == ' ' || t[0] == '\t' || t[0] == '\n')) t = t.substr(1);
    }
    if (t.substr(0, 8) == "tcgen05.") {
        if (auto err = decodeTcgen05(t, s, op)) return fail(*err);
        return;
    }
    size_t e = 0;
    while (e < t.size() && t[e] != ' ' && t[e] != '\t' && t[e] != '\n' && t[e] != '\r') ++e;
    const std::string opcode(t.substr(0, e));
    std::vector<std::string> parts;
    for (size_t a = 0; a <= opcode.size();) {
        size_t b = opcode.find('.', a);
        if (b == std::string::npos) b = opcode.size();
        parts.push_back(opcode.substr(a, b - a));
        a = b + 1;
    }
    if (isMatrixOpcode(parts)) { // decode_mma.cpp
        if (auto err = decodeMatrix(parts, trim(t.substr(e)), s, op)) return fail(*err);
        return;
    }
    bool asyncForm = false; // h/xasync: mbarrier, elect, mapa, barrier.cluster, fence, bulk copies
    if (auto err = decodeAsync(parts, op, asyncForm)) return fail(*err);
    if (!asyncForm) {
        const auto opc = opcodeOf(parts[0]);
        if (!opc) return fail("instruction `" + parts[0] + "` is not modelled by the executor");
        op.opc = *opc;
        if (auto err = decodeModifiers(op, std::vector<std::string>(parts.begin() + 1, parts.end())))
            return fail(*err);
    }
    const std::string rest = trim(t.substr(e));
    if (op.opc == Opc::Call) { // call{.uni} (rets), func, (args);
        for (const auto& a : splitOperands(rest)) {
            if (a.empty()) continue;
            if (a.front() == '(') {
                std::vector<int>& dst = op.target < 0 ? op.callRets : op.callArgs;
                for (const auto& n : splitOperands(a.substr(1, a.size() - 2))) {
                    if (n.empty()) continue;
                    const int sym = s.symbol(n);
                    if (sym < 0) return fail("call parameter `" + n + "` is not a declared .param");
                    dst.push_back(sym);
                }
            } else {
                const auto f = s.functions->find(a);
                if (f == s.functions->end() && a == "vprintf") { // CUDA printf: no output (a note says so)
                    op.mode = 1, op.target = 0;
                    continue;
                }
                if (f == s.functions->end())
                    return fail("call of `" + a + "`, which the module does not define");
                op.target = f->second;
            }
        }
        if (op.target < 0) return fail("call without a function");
        if (op.mode == 1) op.opc = Opc::Nop, op.target = -1;
        std::string oneLine; // nvcc writes a call over several lines: diagnostics quote it on one
        for (const char c : op.text)
            if (!std::isspace(static_cast<unsigned char>(c)) || (!oneLine.empty() && oneLine.back() != ' '))
                oneLine += std::isspace(static_cast<unsigned char>(c)) ? ' ' : c;
        op.text = oneLine;
        return;
    }
    auto ops = splitOperands(rest);
    if (!ops.empty() && ops[0].find('|') != std::string::npos) { // `d|p` (shfl) or `p|q` (setp)
        if (op.opc != Opc::Setp && op.opc != Opc::Shfl && op.opc != Opc::Elect && op.opc != Opc::Match)
            return fail("`|` in a destination of this instruction");
        const std::string first = ops[0];
        ops[0] = trim(first.substr(0, first.find('|')));
        ops.insert(ops.begin() + 1, trim(first.substr(first.find('|') + 1)));
        op.pairDest = true;
    }
    for (const auto& a : ops) {
        Opnd o;
        bool tensorOperand = false; // h/xasync: `[tensorMap, {coords}]`
        if (op.opc == Opc::AsyncCopy)
            if (auto err = parseTensorOperand(a, s, o, tensorOperand)) return fail(*err);
        if (tensorOperand) {
            op.o.push_back(std::move(o));
            continue;
        }
        if (auto err = parseOperand(a, s, o)) return fail(*err);
        op.o.push_back(std::move(o));
    }
    if (op.opc == Opc::Bra) {
        if (op.o.size() != 1 || op.o[0].kind != OK::Label || op.o[0].sym == -2)
            return fail("`bra` needs a label of this function");
        op.target = static_cast<int>(op.o[0].imm);
    }
    if (op.opc == Opc::Trap) op.target = -1;
}

Result<Program> decodeModule(const PtxModule& m) {
    Program p;
    std::map<std::string, int> globals, functions;
    auto addSymbol = [&](Symbol sym) {
        p.symbols.push_back(std::move(sym));
        return static_cast<int>(p.symbols.size() - 1);
    };
    uint64_t constBytes = 0;
    auto placeVar = [&](const PtxVariable& v, std::map<std::string, int>& into) {
        Symbol sym{v.name, Space::Global, 0, v.bytes, false};
        const uint64_t a = std::max<uint64_t>(v.align, 1);
        if (v.space == ".shared") {
            sym.space = Space::Shared;
            if (v.bytes == 0) { // extern .shared x[]: the dynamic shared memory
                into[v.name] = addSymbol(sym);
                p.symbols.back().offset = UINT64_MAX; // placed after the static ones (below)
                return;
            }
            sym.offset = p.staticSmem = alignUp(p.staticSmem, a);
            p.staticSmem += v.bytes;
        } else if (v.space == ".local") {
            sym.space = Space::Local;
            sym.offset = p.localBytes = alignUp(p.localBytes, a);
            p.localBytes += v.bytes;
        } else if (v.space == ".global") {
            // unverified: initializers (`= {...}`) are not read, the bytes start as zeros.
            sym.offset = kModuleGlobalBase + (p.moduleGlobalBytes = alignUp(p.moduleGlobalBytes, a));
            p.moduleGlobalBytes += v.bytes;
        } else if (v.space == ".const") {
            // unverified: initializers (`= {...}`) are not read, the bytes start as zeros.
            sym.space = Space::Const;
            sym.offset = constBytes = alignUp(constBytes, a);
            constBytes += v.bytes;
        } else {
            return;
        }
        into[v.name] = addSymbol(sym);
    };
    for (const auto& v : m.globals) placeVar(v, globals);
    for (size_t i = 0; i < m.functions.size(); ++i) functions[m.functions[i].name] = static_cast<int>(i);
    // Kernel parameters share one param buffer per entry (offsets from 0 each); .func parameters and
    // call-site .param variables live in a per-thread param area.
    std::vector<std::map<std::string, int>> locals(m.functions.size());
    for (size_t fi = 0; fi < m.functions.size(); ++fi) {
        const PtxFunction& f = m.functions[fi];
        Function fn{f.name, f.isEntry, 0, 0, {}, {}};
        uint64_t off = 0;
        const uint64_t paramsFrom = p.threadParamBytes;
        auto addParam = [&](const PtxParam& prm, std::vector<int>& list) {
            const uint64_t a =
                prm.align ? prm.align : std::min<uint64_t>(std::max<uint64_t>(prm.bytes, 1), 8);
            Symbol sym{prm.name, Space::Param, 0, prm.bytes, !f.isEntry};
            if (f.isEntry) {
                sym.offset = off = alignUp(off, a);
                off += prm.bytes;
            } else {
                sym.offset = p.threadParamBytes = alignUp(p.threadParamBytes, 8);
                p.threadParamBytes += prm.bytes;
            }
            const int id = addSymbol(sym);
            list.push_back(id);
            locals[fi][prm.name] = id;
        };
        for (const auto& prm : f.returns) addParam(prm, fn.returns);
        for (const auto& prm : f.params) addParam(prm, fn.params);
        if (f.isEntry) p.kernelParamBytes = std::max(p.kernelParamBytes, off);
        fn.paramRanges.emplace_back(paramsFrom, p.threadParamBytes);
        p.functions.push_back(std::move(fn));
    }
    markRecursive(m, functions, p.functions);
    for (auto& sym : p.symbols)
        if (sym.offset == UINT64_MAX) sym.offset = 0; // fixed after the function bodies' .shared
    for (size_t fi = 0; fi < m.functions.size(); ++fi) {
        const PtxFunction& f = m.functions[fi];
        // Labels first (pcs), then statements in order so declarations bind the names that follow.
        // A label is visible in its `{ }` block and the blocks inside it (PTX ISA 9.2 §4.4): CUTLASS's
        // inline asm repeats `LAB_WAIT:` / `DONE:` in every inlined wait loop of a function. The reader
        // numbers the blocks (PtxStatement::scopeId, PtxFunction::scopeParents), so sibling blocks are apart
        // even back to back; a label defined twice in one block is an error naming both lines.
        const auto& parents = f.scopeParents;
        auto blockOf = [&](const PtxStatement& st) {
            return st.scopeId >= 0 && size_t(st.scopeId) < parents.size() ? st.scopeId : 0;
        };
        std::map<int, std::map<std::string, std::pair<int, int>>> blockLabels; // block -> name -> (pc, line)
        int pc = static_cast<int>(p.ops.size());
        p.functions[fi].firstPc = pc;
        p.functions[fi].regBegin = p.regSlots;
        const uint64_t callSiteParamsFrom = p.threadParamBytes;
        for (const PtxStatement& st : f.body) {
            if (st.kind == PtxStatement::Kind::Label) {
                auto [it, fresh] = blockLabels[blockOf(st)].try_emplace(st.text, pc, st.line);
                if (!fresh)
                    return Diagnostic{Severity::Error,
                                      DiagCode::Syntax,
                                      {st.line, st.column, 1},
                                      "label `" + st.text + "` is defined twice in one block (lines " +
                                          std::to_string(it->second.second) + " and " +
                                          std::to_string(st.line) + ")",
                                      "PTX ISA 9.2 §4.4 (labels)",
                                      Provenance::PtxText};
            }
            if (st.kind == PtxStatement::Kind::Instruction) ++pc;
        }
        std::map<std::string, int> labels; // those visible at the statement being decoded
        int current = -1;                  // the block `labels` was built for
        DecodeScope s{&p, static_cast<int>(fi), {}, locals[fi], &globals, &labels, &functions};
        for (size_t si = 0; si < f.body.size(); ++si) {
            const PtxStatement& st = f.body[si];
            if (blockOf(st) != current) {
                current = blockOf(st);
                std::vector<int> chain{current}; // the block and its ancestors, innermost first
                for (int b = current;
                     size_t(b) < parents.size() && parents[size_t(b)] >= 0 && chain.size() <= parents.size();)
                    chain.push_back(b = parents[size_t(b)]);
                labels.clear();
                for (auto it = chain.rbegin(); it != chain.rend(); ++it) // outer blocks first, inner override
                    if (auto bl = blockLabels.find(*it); bl != blockLabels.end())
                        for (const auto& [name, at] : bl->second) labels[name] = at.first;
            }
            if (st.kind == PtxStatement::Kind::Declaration) {
                auto d = ptxmod::parseDecl(st.text, st.line, st.column);
                if (!d) return d.diagnostics();
                for (const auto& n : d->names) // predicate registers (cp.async's ignore-src, decode_mma.cpp)
                    for (int i = 0; d->space == ".reg" && d->type == ".pred" && i < std::max(n.count, 1); ++i)
                        s.predRegs.insert(n.count ? n.name + std::to_string(i) : n.name);
                for (const auto& n : d->names)
                    if (d->space == ".reg")
                        s.regDecls[n.name] = {d->type == ".pred" ? 1 : int(d->typeBytes * 8), n.count};
                for (const auto& n : d->names) {
                    if (d->space == ".reg") { // names without '%' (inline asm `{ .reg .pred p; ... }`)
                        if (!n.name.empty() && n.name[0] != '%') s.reg(n.name);
                        continue;
                    }
                    const uint64_t bytes = d->typeBytes * n.elements;
                    if (d->space == ".param") {
                        const uint64_t at = p.threadParamBytes = alignUp(p.threadParamBytes, 8);
                        p.threadParamBytes += std::max<uint64_t>(bytes, 1);
                        s.symbols[n.name] = addSymbol({n.name, Space::Param, at, bytes, true});
                    } else if (d->space == ".local" && p.functions[fi].recursive) {
                        Function& fn = p.functions[fi]; // one frame per activation (call.cpp)
                        const uint64_t a = std::max<uint64_t>(d->align, 1);
                        const uint64_t at = fn.frameBytes = alignUp(fn.frameBytes, a);
                        fn.frameBytes += bytes;
                        fn.frameAlign = std::max(fn.frameAlign, a);
                        Symbol sym{n.name, Space::Local, at, bytes, false};
                        sym.frame = true;
                        s.symbols[n.name] = addSymbol(sym);
                    } else if (d->space == ".shared" || d->space == ".local" || d->space == ".const" ||
                               d->space == ".global") {
                        placeVar({d->space, n.name, d->type, bytes, d->align, n.span}, s.symbols);
                    }
                }
            } else if (st.kind == PtxStatement::Kind::Instruction) {
                p.ops.emplace_back();
                decodeInstruction(st, s, p.ops.back());
            }
        }
        p.functions[fi].endPc = static_cast<int>(p.ops.size());
        p.functions[fi].regEnd = p.regSlots;
        p.functions[fi].paramRanges.emplace_back(callSiteParamsFrom, p.threadParamBytes);
        Op r; // falling off the end of a body (and a label after its last instruction) returns
        r.opc = Opc::Ret;
        r.text = "ret (end of `" + f.name + "`)";
        p.ops.push_back(r);
        p.functions[fi].endPc++;
    }
    p.dynSmemOffset = alignUp(p.staticSmem, 16);
    for (auto& sym : p.symbols)
        if (sym.space == Space::Shared && sym.bytes == 0) sym.offset = p.dynSmemOffset;
    p.constMem.assign(constBytes, 0);
    p.files = m.files;
    return p;
}

} // namespace layoutscope::exec
