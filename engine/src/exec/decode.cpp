// The executor's decoder: every function body statement (PtxFunction::body) decoded once into an Op
// (opcode, types, modifiers, operands resolved to register slots, symbols and pcs). Forms it does not
// model decode to Opc::Trap with the reason, so the run stops there with a diagnostic, never skips them.
#include "exec/decode.hpp"
#include "exec/decode_async.hpp"
#include "ptx/module_internal.hpp"

#include <algorithm>

namespace layoutscope::exec {

namespace {

uint64_t alignUp(uint64_t v, uint64_t a) {
    return a ? (v + a - 1) / a * a : v;
}

std::optional<Ty> typeOf(std::string_view m) {
    static const std::pair<const char*, Ty> kTypes[] = {
        {"u8", {TK::U, 8}},       {"u16", {TK::U, 16}},       {"u32", {TK::U, 32}},
        {"u64", {TK::U, 64}},     {"s8", {TK::S, 8}},         {"s16", {TK::S, 16}},
        {"s32", {TK::S, 32}},     {"s64", {TK::S, 64}},       {"b8", {TK::B, 8}},
        {"b16", {TK::B, 16}},     {"b32", {TK::B, 32}},       {"b64", {TK::B, 64}},
        {"f32", {TK::F, 32}},     {"f64", {TK::F, 64}},       {"f16", {TK::F16, 16}},
        {"bf16", {TK::BF16, 16}}, {"f16x2", {TK::F16x2, 32}}, {"bf16x2", {TK::BF16x2, 32}},
        {"pred", {TK::Pred, 1}}};
    for (const auto& [n, t] : kTypes)
        if (m == n) return t;
    return std::nullopt;
}

std::optional<Cmp> cmpOf(std::string_view m) {
    static const char* kNames[] = {"eq", "ne",  "lt",  "le",  "gt",  "ge",  "lo",  "ls",  "hi",
                                   "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
    for (size_t i = 0; i < std::size(kNames); ++i)
        if (m == kNames[i]) return static_cast<Cmp>(i + 1);
    return std::nullopt;
}

std::optional<Rnd> rndOf(std::string_view m) {
    static const char* kNames[] = {"rn", "rz", "rm", "rp", "rna", "rni", "rzi", "rmi", "rpi"};
    for (size_t i = 0; i < std::size(kNames); ++i)
        if (m == kNames[i]) return static_cast<Rnd>(i + 1);
    return std::nullopt;
}

std::optional<Space> spaceOf(std::string_view m) {
    if (m == "global") return Space::Global;
    if (m == "shared" || m == "shared::cta") return Space::Shared;
    if (m == "shared::cluster") return Space::SharedCluster;
    if (m == "local") return Space::Local;
    if (m == "const") return Space::Const;
    if (m == "param" || m == "param::entry" || m == "param::func") return Space::Param;
    return std::nullopt;
}

// Qualifiers with no effect on a sequential, single-copy memory: cache and eviction hints, memory
// ordering and scope (every access is sequentially consistent here), `.sync.aligned`.
bool ignorable(std::string_view m) {
    static const char* kNames[] = {"sync",    "aligned", "volatile", "relaxed", "acquire", "release",
                                   "acq_rel", "weak",    "sc",       "gpu",     "cta",     "sys",
                                   "cluster", "nc",      "ca",       "cg",      "cs",      "lu",
                                   "cv",      "wb",      "wt",       "full",    "uni",     "noftz"};
    if (m.rfind("L1::", 0) == 0 || m.rfind("L2::", 0) == 0) return true;
    return std::any_of(std::begin(kNames), std::end(kNames), [&](const char* k) { return m == k; });
}

struct OpcName {
    const char* name;
    Opc opc;
};
constexpr OpcName kOpcodes[] = {
    {"mov", Opc::Mov},
    {"add", Opc::Add},
    {"sub", Opc::Sub},
    {"mul", Opc::Mul},
    {"mad", Opc::Mad},
    {"mul24", Opc::Mul24},
    {"mad24", Opc::Mad24},
    {"div", Opc::Div},
    {"rem", Opc::Rem},
    {"abs", Opc::Abs},
    {"neg", Opc::Neg},
    {"min", Opc::Min},
    {"max", Opc::Max},
    {"and", Opc::And},
    {"or", Opc::Or},
    {"xor", Opc::Xor},
    {"not", Opc::Not},
    {"cnot", Opc::Cnot},
    {"shl", Opc::Shl},
    {"shr", Opc::Shr},
    {"bfe", Opc::Bfe},
    {"bfi", Opc::Bfi},
    {"prmt", Opc::Prmt},
    {"popc", Opc::Popc},
    {"clz", Opc::Clz},
    {"brev", Opc::Brev},
    {"bfind", Opc::Bfind},
    {"setp", Opc::Setp},
    {"selp", Opc::Selp},
    {"slct", Opc::Slct},
    {"cvt", Opc::Cvt},
    {"cvta", Opc::Cvta},
    {"fma", Opc::Fma},
    {"sqrt", Opc::Sqrt},
    {"rsqrt", Opc::Rsqrt},
    {"rcp", Opc::Rcp},
    {"ex2", Opc::Ex2},
    {"lg2", Opc::Lg2},
    {"sin", Opc::Sin},
    {"cos", Opc::Cos},
    {"copysign", Opc::Copysign},
    {"testp", Opc::Testp},
    {"ld", Opc::Ld},
    {"ldu", Opc::Ld},
    {"st", Opc::St},
    {"atom", Opc::Atom},
    {"red", Opc::Red},
    {"shfl", Opc::Shfl},
    {"vote", Opc::Vote},
    {"activemask", Opc::Activemask},
    {"bra", Opc::Bra},
    {"call", Opc::Call},
    {"ret", Opc::Ret},
    {"exit", Opc::Exit},
    {"bar", Opc::Bar},
    {"barrier", Opc::Bar},
    {"membar", Opc::Nop},
    {"fence", Opc::Nop},
    {"addc", Opc::AddC},
    {"subc", Opc::SubC},
    {"trap", Opc::Trap},
    {"prefetch", Opc::Nop},
    {"prefetchu", Opc::Nop},
    {"nanosleep", Opc::Nop},
    {"pmevent", Opc::Nop},
};

// Modifiers of one opcode; returns the reason when a modifier is not understood.
std::optional<std::string> modifiers(Op& op, const std::vector<std::string>& mods) {
    int types = 0;
    for (const auto& m : mods) {
        if (auto t = typeOf(m)) {
            (types++ == 0 ? op.t : op.t2) = *t;
        } else if (op.opc == Opc::Setp && (m == "and" || m == "or" || m == "xor")) {
            op.boolOp = m == "and" ? 1 : m == "or" ? 2 : 3;
        } else if ((op.opc == Opc::Mul || op.opc == Opc::Mad || op.opc == Opc::Mul24 ||
                    op.opc == Opc::Mad24) &&
                   (m == "lo" || m == "hi" || m == "wide")) {
            op.mode = m == "lo" ? 0 : m == "hi" ? 1 : 2;
        } else if ((op.opc == Opc::Setp || op.opc == Opc::Testp) && op.cmp == Cmp::None && cmpOf(m)) {
            op.cmp = *cmpOf(m);
        } else if (op.opc == Opc::Testp && (m == "finite" || m == "infinite" || m == "number" ||
                                            m == "notanumber" || m == "normal" || m == "subnormal")) {
            op.mode = m == "finite"       ? 0
                      : m == "infinite"   ? 1
                      : m == "number"     ? 2
                      : m == "notanumber" ? 3
                      : m == "normal"     ? 4
                                          : 5;
        } else if (auto r = rndOf(m)) {
            op.rnd = *r;
        } else if (auto sp = spaceOf(m)) {
            (op.opc == Opc::Cvta && op.space != Space::Generic ? op.space2 : op.space) = *sp;
        } else if (m == "to" && op.opc == Opc::Cvta) {
            op.toGeneric = false;
        } else if (m == "v2" || m == "v4" || m == "v8") {
            op.vec = static_cast<uint8_t>(m[1] - '0');
        } else if (m == "sat" || m == "satfinite") {
            op.sat = true;
        } else if (m == "ftz") {
            op.ftz = true;
        } else if (m == "approx") {
            op.approx = true;
        } else if (m == "cc") {
            op.cc = true;
        } else if ((op.opc == Opc::Atom || op.opc == Opc::Red) &&
                   (m == "add" || m == "min" || m == "max" || m == "exch" || m == "cas" || m == "and" ||
                    m == "or" || m == "xor" || m == "inc" || m == "dec")) {
            static const char* kOps[] = {"add", "min", "max", "exch", "cas",
                                         "and", "or",  "xor", "inc",  "dec"};
            for (size_t i = 0; i < std::size(kOps); ++i)
                if (m == kOps[i]) op.atom = static_cast<AtomOp>(i + 1);
        } else if (op.opc == Opc::Shfl && (m == "up" || m == "down" || m == "bfly" || m == "idx")) {
            op.mode = m == "up" ? 0 : m == "down" ? 1 : m == "bfly" ? 2 : 3;
        } else if (op.opc == Opc::Vote && (m == "all" || m == "any" || m == "uni" || m == "ballot")) {
            op.mode = m == "all" ? 0 : m == "any" ? 1 : m == "uni" ? 2 : 3;
        } else if (op.opc == Opc::Prmt &&
                   (m == "f4e" || m == "b4e" || m == "rc8" || m == "ecl" || m == "ecr" || m == "rc16")) {
            static const char* kModes[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
            for (size_t i = 0; i < std::size(kModes); ++i)
                if (m == kModes[i]) op.mode = static_cast<uint8_t>(i + 1);
        } else if (op.opc == Opc::Bar && (m == "arrive" || m == "red")) {
            if (m == "red") return std::string("`bar.red` is not modelled yet");
            op.opc = Opc::BarArrive;
        } else if (op.opc == Opc::Bar && m == "warp") {
            op.opc = Opc::BarWarp;
        } else if (m == "shiftamt" || m == "clamp" || m == "wrap") {
            if (m != "shiftamt" || op.opc != Opc::Bfind) return "`." + m + "` is not modelled yet";
            op.mode = 1;
        } else if (!ignorable(m)) {
            return "modifier `." + m + "` is not modelled";
        }
    }
    if (op.opc == Opc::Add && op.cc) op.opc = Opc::AddCC;
    if (op.opc == Opc::Sub && op.cc) op.opc = Opc::SubCC;
    return std::nullopt;
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
        const auto it = std::find_if(std::begin(kOpcodes), std::end(kOpcodes),
                                     [&](const OpcName& n) { return parts[0] == n.name; });
        if (it == std::end(kOpcodes))
            return fail("instruction `" + parts[0] + "` is not modelled by the executor");
        op.opc = it->opc;
        if (auto err = modifiers(op, std::vector<std::string>(parts.begin() + 1, parts.end())))
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
        return;
    }
    auto ops = splitOperands(rest);
    if (!ops.empty() && ops[0].find('|') != std::string::npos) { // `d|p` (shfl) or `p|q` (setp)
        if (op.opc != Opc::Setp && op.opc != Opc::Shfl && op.opc != Opc::Elect)
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
        p.functions.push_back(std::move(fn));
    }
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
