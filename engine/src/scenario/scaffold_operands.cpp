// The Scaffolder's operands (scaffold_detail.hpp): each register operand a scenario needs a value for
// becomes a declaration (a tensor map, smem buffer, mbarrier, descriptor or let), named after what the
// kernel moved into it; the cp.async.bulk.tensor, mbarrier and tcgen05 operand lists rewritten with them.
#include "scenario/scaffold_detail.hpp"

#include <algorithm>

namespace layoutscope::scaffold {

namespace {

constexpr uint64_t kTileBytes2d = 64 * 64 * 2, kTileBytes1d = 64 * 2, kIm2colBytes = 64 * 32 * 2;

std::string shortName(const std::string& symbol) {
    // Demoted locals: _ZZ<fn>E<len><name>; parameters: <fn>_param_<i>.
    std::string s = symbol;
    if (s.rfind("_ZZ", 0) == 0) {
        const size_t e = s.rfind('E');
        if (e != std::string::npos) {
            size_t i = e + 1;
            while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
            if (i < s.size() && i > e + 1) s = s.substr(i);
        }
    } else if (const size_t p = s.rfind("_param_"); p != std::string::npos) {
        s = "param_" + s.substr(p + 7);
    }
    std::string out;
    for (char c : s) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
    if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "v_" + out;
    return out;
}

std::string bare(const std::string& reg) {
    std::string s = reg;
    s.erase(std::remove(s.begin(), s.end(), '%'), s.end());
    std::replace(s.begin(), s.end(), '.', '_');
    return s;
}

std::string list(const std::vector<int64_t>& v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
    return s + "]";
}

} // namespace

// The declaration standing for operand `op` in role `kind` (created on first use).
Sym& Scaffolder::sym(Kind kind, const Operand& op, const char* prefix) {
    const PtxRegOrigin* o = op.kind == OperandKind::Register ? originOf(op.text) : nullptr;
    const bool bySymbol = (o && !o->symbol.empty() && kind != Kind::Let) || op.kind == OperandKind::Symbol;
    const std::string what = op.kind == OperandKind::Symbol ? op.text
                             : o && !o->symbol.empty()      ? o->symbol
                                                            : op.text;
    const std::string key = std::to_string(int(kind)) + ":" + (bySymbol ? what : op.text);
    if (auto it = m_byKey.find(key); it != m_byKey.end()) return m_syms[it->second];
    std::string name = bySymbol ? shortName(what) : std::string(prefix) + bare(op.text);
    for (int i = 2; m_names.count(name); ++i)
        name = (bySymbol ? shortName(what) : prefix + bare(op.text)) + "_" + std::to_string(i);
    m_names.insert(name);
    Sym s{kind, name, lineNote(op)};
    if (o && !o->symbol.empty())
        s.comment += " = " + o->symbol + " (mov at line " + std::to_string(o->line) + ")";
    if (kind == Kind::Let && o && o->symbol.empty()) {
        s.value = o->value, s.fromPtx = true;
        s.comment += " = " + std::to_string(o->value) + " (mov at line " + std::to_string(o->line) + ")";
    }
    if (kind == Kind::Smem && o && !o->symbol.empty())
        for (const auto& v : m_fn.variables)
            if (v.name == o->symbol) s.declaredBytes = v.bytes;
    m_byKey[key] = m_syms.size();
    m_syms.push_back(std::move(s));
    return m_syms.back();
}

// A scalar value operand: immediates stay, registers and symbols become `let` names. A value the
// PTX moved into the register is kept when the scenario accepts it here ([lo, hi], a power of two
// if `pow2`), else the default is used and the comment says so.
std::string Scaffolder::value(const Operand& op, int64_t dflt, int64_t lo, int64_t hi, bool pow2) {
    if (op.kind == OperandKind::Immediate) return op.text;
    Sym& s = sym(Kind::Let, op, "v_");
    if (s.fromPtx && (s.value < lo || s.value > hi || (pow2 && (s.value & (s.value - 1))))) {
        s.fromPtx = false;
        s.comment += "; not usable here, the default is";
    }
    if (!s.fromPtx) s.value = dflt;
    return s.name;
}

std::string Scaffolder::vec(const Operand& op, int64_t dflt) {
    if (op.kind != OperandKind::Vector) return value(op, dflt);
    std::string t = "{";
    for (size_t i = 0; i < op.elements.size(); ++i) t += (i ? ", " : "") + value(op.elements[i], dflt);
    return t + "}";
}

std::string Scaffolder::addr(const Operand& op, Kind kind, const char* prefix, uint64_t bytes) {
    if (op.kind != OperandKind::Address || op.elements.empty()) return op.text;
    const Operand& base = op.elements[0];
    std::string name;
    if (kind == Kind::Let) {
        name = value(base, 0);
    } else {
        Sym& s = sym(kind, base, prefix);
        s.bytes = std::max(s.bytes, bytes + static_cast<uint64_t>(std::max<int64_t>(0, op.imm)));
        name = s.name;
    }
    return "[" + name + (op.imm ? "+" + std::to_string(op.imm) : "") + "]";
}

// tcgen05.ld/st registers: kept, renumbered from 0 when a number is beyond the scenario's r0..r127.
std::string Scaffolder::regs(const Operand& op) {
    if (op.kind != OperandKind::Vector) return op.text;
    bool big = false;
    for (const auto& e : op.elements) {
        const auto d = e.text.find_first_of("0123456789");
        big |= d == std::string::npos || std::stol(e.text.substr(d, 9)) > 127;
    }
    std::string t = "{";
    for (size_t i = 0; i < op.elements.size(); ++i)
        t += (i ? ", " : "") + (big ? "%r" + std::to_string(i) : op.elements[i].text);
    return t + "}";
}

void Scaffolder::tma(const ParsedInstr& in, std::vector<std::string>& ops) {
    int rank = 2, gIdx = -1, sIdx = -1;
    bool im2col = false, multicast = false, hint = false, gather = false;
    for (size_t i = 0; i < in.opcode.size(); ++i) {
        const std::string& t = in.opcode[i].text;
        if (t.size() == 3 && t[0] == '.' && t[2] == 'd' && t[1] >= '1' && t[1] <= '5') rank = t[1] - '0';
        if (t == ".global" && gIdx < 0) gIdx = int(i);
        if (t.rfind(".shared", 0) == 0 && sIdx < 0) sIdx = int(i);
        im2col |= t.rfind(".im2col", 0) == 0;
        gather |= t.rfind(".tile::", 0) == 0;
        multicast |= t == ".multicast::cluster";
        hint |= t == ".L2::cache_hint";
    }
    // scaffoldScenario must not trust that the module was checked first (the GUI scaffolds directly):
    // an im2col form has rank 3..5, and operands may be missing altogether.
    if (im2col) rank = std::max(rank, 3);
    const bool load = sIdx >= 0 && sIdx < gIdx;
    const uint64_t bytes = im2col      ? kIm2colBytes
                           : gather    ? 4 * 64 * 2
                           : rank == 1 ? kTileBytes1d
                                       : kTileBytes2d;
    auto mapOp = [&](const Operand& op) {
        if (op.kind != OperandKind::Address || op.elements.size() < 2) return op.text;
        Sym& s = sym(Kind::Map, op.elements[0], "map_");
        if (s.mapDecl.empty()) {
            const std::vector<int64_t> dims = {256, 256, 8, 8, 8}, box = {64, 64, 1, 1, 1};
            const int r = gather ? 2 : rank;
            if (im2col) {
                std::vector<int64_t> d = {64, 16, 16, 16, 2};
                d.erase(d.begin() + 1 + (rank - 2), d.end() - 1);
                s.mapDecl = "im2col FLOAT16 dims=" + list(d) +
                            " lower=" + list(std::vector<int64_t>(rank - 2, 0)) +
                            " upper=" + list(std::vector<int64_t>(rank - 2, 0)) + " channels=64 pixels=32";
            } else {
                s.mapDecl = "tiled FLOAT16 dims=" + list({dims.begin(), dims.begin() + r}) + " box=" +
                            list(gather ? std::vector<int64_t>{64, 1}
                                        : std::vector<int64_t>{box.begin(), box.begin() + r});
            }
        }
        ++m_mapUses[s.name];
        return "[" + s.name + ", " + vec(op.elements[1], 0) + "]";
    };
    size_t i = 0;
    if (load && in.operands.size() >= 2) {
        const std::string bar = in.operands.size() > 2 ? addr(in.operands[2], Kind::Bar, "bar_") : "";
        ops.push_back(addr(in.operands[0], Kind::Smem, "smem_", bytes));
        ops.push_back(mapOp(in.operands[1]));
        ops.push_back(bar);
        if (in.operands.size() > 2 && in.operands[2].elements.size() == 1) {
            const std::string b = sym(Kind::Bar, in.operands[2].elements[0], "bar_").name;
            m_txBytes[b] += bytes;
            if (in.operands[0].elements.size() == 1 && in.operands[1].elements.size() >= 2)
                m_loads[b].push_back({sym(Kind::Map, in.operands[1].elements[0], "map_").name,
                                      sym(Kind::Smem, in.operands[0].elements[0], "smem_").name,
                                      !im2col && !gather && rank >= 2});
        }
        i = 3;
        if (im2col && i < in.operands.size()) ops.push_back(vec(in.operands[i++], 0));
        if (multicast && i < in.operands.size()) {
            Sym& s = sym(Kind::Let, in.operands[i], "mask_");
            if (s.fromPtx && s.value != 1)
                s.comment += "; the default 1 keeps the run in CTA 0 (more CTAs need `cluster N` and their "
                             "own smem/mbarrier declarations, see tma_multicast_cluster2.scn)";
            s.value = 1, s.fromPtx = false;
            ops.push_back(s.name);
            ++i;
        }
    } else if (in.operands.size() >= 2) {
        ops.push_back(mapOp(in.operands[0]));
        ops.push_back(addr(in.operands[1], Kind::Smem, "smem_", bytes));
        i = 2;
    }
    for (; i < in.operands.size(); ++i) ops.push_back(hint ? value(in.operands[i], 0) : in.operands[i].text);
}

void Scaffolder::mbarrier(const ParsedInstr& in, std::vector<std::string>& ops) {
    const std::string what = in.opcode.size() > 1 ? in.opcode[1].text : "";
    for (size_t i = 0; i < in.operands.size(); ++i) {
        const Operand& op = in.operands[i];
        if (op.kind == OperandKind::Address) {
            const std::string a = addr(op, Kind::Bar, "bar_");
            ops.push_back(a);
            if (i + 1 < in.operands.size() && (what == ".init" || what == ".arrive")) {
                const Operand& n = in.operands[++i];
                if (what == ".init") {
                    ops.push_back(value(n, 1, 1, (1 << 20) - 1)); // arrival count (PTX ISA §9.7.13.15)
                } else if (n.kind == OperandKind::Immediate) {
                    ops.push_back(n.text);
                } else if (!op.elements.empty()) {
                    Sym& s = sym(Kind::Let, n, "tx_");
                    s.txBarrier = sym(Kind::Bar, op.elements[0], "bar_").name;
                    ops.push_back(s.name);
                }
            }
        } else {
            ops.push_back(op.text); // state, waitComplete, phase: checked, no value needed
        }
    }
}

void Scaffolder::tcgen05(const ParsedInstr& in, std::vector<std::string>& ops) {
    const std::string what = in.opcode.size() > 1 ? in.opcode[1].text : "";
    for (size_t i = 0; i < in.operands.size(); ++i) {
        const Operand& op = in.operands[i];
        if (what == ".alloc") {
            ops.push_back(i == 0 ? addr(op, Kind::Smem, "smem_", 16) : value(op, 32, 32, 512, true));
        } else if (what == ".dealloc") {
            ops.push_back(i == 0 ? value(op, 0) : value(op, 32, 32, 512, true));
        } else if (what == ".ld" || what == ".st") {
            ops.push_back(op.kind == OperandKind::Vector    ? regs(op)
                          : op.kind == OperandKind::Address ? addr(op, Kind::Let, "t_")
                                                            : value(op, 0));
        } else if (what == ".cp" && i == 1 && op.kind != OperandKind::Immediate) {
            Sym& s = sym(Kind::Desc, op, "desc_");
            if (s.descBuf.empty()) {
                Operand b;
                b.kind = OperandKind::Symbol, b.text = s.name + "_buf", b.span = op.span;
                Sym& buf = sym(Kind::Smem, b, "");
                buf.bytes = std::max<uint64_t>(buf.bytes, 16384);
                buf.comment = "the shared memory that descriptor " + s.name + " points at";
                s.descBuf = buf.name;
            }
            ops.push_back(s.name);
        } else if (what == ".commit") {
            ops.push_back(op.kind == OperandKind::Address ? addr(op, Kind::Bar, "bar_") : value(op, 1));
        } else {
            ops.push_back(op.kind == OperandKind::Address ? addr(op, Kind::Let, "t_") : value(op, 0));
        }
    }
}

} // namespace layoutscope::scaffold
