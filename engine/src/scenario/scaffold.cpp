// scaffoldScenario: a PTX kernel's data-movement instructions as a scenario to fill in
// (docs/ptx-modules.md "Scaffold").
//
// Each register operand a scenario needs a value for becomes a declaration, named after what the
// kernel moved into the register when a `mov`/`cvta` shows it (`mov.u32 %r8, _ZZ4kernE4tile` gives
// `tile`, `mov.b64 %rd1, k_param_0` gives `k_param_0`), else after its role and the register
// (`smem_r11`, `bar_r7`, `map_rd5`, `v_r2`). Defaults: tensor maps FLOAT16 with a 64-element box
// (64x64 for rank 2 and up; im2col 64 channels x 32 pixels), coordinates and TMEM addresses 0, counts
// 1, allocations 32 columns, expect_tx the bytes the defaults move to that barrier.
#include "layoutscope/scenario/scaffold.hpp"
#include "layoutscope/core/memory.hpp"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <set>

namespace layoutscope {

namespace {

enum class Kind { Map, Smem, Bar, Desc, Let };

struct Sym {
    Kind kind;
    std::string name;
    std::string comment;
    uint64_t bytes = 0;         // smem: bytes the instructions need
    uint64_t declaredBytes = 0; // smem: the PTX variable's size
    std::string mapDecl;        // map: the directive's options
    int64_t value = 0;          // let
    bool fromPtx = false;       // let: the value is the PTX's
    std::string txBarrier;      // let: an expect_tx count for this barrier (computed at the end)
    std::string descBuf;        // desc: its buffer
};

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

class Scaffolder {
  public:
    Scaffolder(const PtxModule& m, const PtxFunction& fn) : m_mod(m), m_fn(fn) {}

    std::string run(const std::string& source) {
        for (const PtxModuleInstr& mi : m_fn.instrs) instruction(mi);
        return text(source);
    }

  private:
    const PtxModule& m_mod;
    const PtxFunction& m_fn;
    const PtxModuleInstr* m_cur = nullptr;
    std::deque<Sym> m_syms; // a deque: references stay valid while more declarations are added
    std::map<std::string, size_t> m_byKey;
    std::set<std::string> m_names;
    std::vector<std::string> m_body;
    std::map<std::string, uint64_t> m_txBytes; // barrier -> bytes the default loads deliver
    struct Load {
        std::string map, smem;
        bool tiled2d; // a tiled load of rank >= 2 (its box rows can be chosen)
    };
    std::map<std::string, std::vector<Load>> m_loads; // barrier -> the loads that complete on it
    std::map<std::string, int> m_mapUses;

    const PtxRegOrigin* originOf(const std::string& reg) const {
        for (const auto& o : m_cur->origins)
            if (o.reg == reg) return &o;
        return nullptr;
    }
    std::string lineNote(const Operand& op) const {
        return "line " + std::to_string(op.span.line) + " `" + op.text + "`";
    }

    // The declaration standing for operand `op` in role `kind` (created on first use).
    Sym& sym(Kind kind, const Operand& op, const char* prefix) {
        const PtxRegOrigin* o = op.kind == OperandKind::Register ? originOf(op.text) : nullptr;
        const bool bySymbol =
            (o && !o->symbol.empty() && kind != Kind::Let) || op.kind == OperandKind::Symbol;
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
    std::string value(const Operand& op, int64_t dflt, int64_t lo = INT32_MIN, int64_t hi = UINT32_MAX,
                      bool pow2 = false) {
        if (op.kind == OperandKind::Immediate) return op.text;
        Sym& s = sym(Kind::Let, op, "v_");
        if (s.fromPtx && (s.value < lo || s.value > hi || (pow2 && (s.value & (s.value - 1))))) {
            s.fromPtx = false;
            s.comment += "; not usable here, the default is";
        }
        if (!s.fromPtx) s.value = dflt;
        return s.name;
    }
    std::string vec(const Operand& op, int64_t dflt) {
        if (op.kind != OperandKind::Vector) return value(op, dflt);
        std::string t = "{";
        for (size_t i = 0; i < op.elements.size(); ++i) t += (i ? ", " : "") + value(op.elements[i], dflt);
        return t + "}";
    }
    std::string addr(const Operand& op, Kind kind, const char* prefix, uint64_t bytes = 0) {
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
    static std::string regs(const Operand& op) {
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

    void tma(const ParsedInstr& in, std::vector<std::string>& ops) {
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
                                " upper=" + list(std::vector<int64_t>(rank - 2, 0)) +
                                " channels=64 pixels=32";
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
                    s.comment +=
                        "; the default 1 keeps the run in CTA 0 (more CTAs need `cluster N` and their "
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
        for (; i < in.operands.size(); ++i)
            ops.push_back(hint ? value(in.operands[i], 0) : in.operands[i].text);
    }

    void mbarrier(const ParsedInstr& in, std::vector<std::string>& ops) {
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

    void tcgen05(const ParsedInstr& in, std::vector<std::string>& ops) {
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

    void instruction(const PtxModuleInstr& mi) {
        m_cur = &mi;
        const ParsedInstr& in = mi.instr;
        if (in.opcode.empty()) return;
        const std::string line = "line " + std::to_string(in.span.line);
        const std::string head = in.opcode.front().text;
        if (!mi.modelled) {
            m_body.push_back("# " + line + ": " + in.opcodeText() + " (not modelled: left out)");
            return;
        }
        // The validator also checks cp.async.bulk, cp.reduce.async.bulk{,.tensor}, the bulk prefetches
        // and commit/wait_group; of the cp family a scenario runs cp.async.bulk.tensor only.
        // Bulk async-groups order TMA stores (docs/async-order.md): a scenario runs them, so they stay.
        if (head == "cp" && in.opcode.size() > 3 && in.opcode[1].text == ".async" &&
            in.opcode[2].text == ".bulk" &&
            (in.opcode[3].text == ".commit_group" || in.opcode[3].text == ".wait_group")) {
            std::string t = in.opcodeText();
            for (size_t i = 0; i < in.operands.size(); ++i) t += (i ? ", " : " ") + in.operands[i].text;
            m_body.push_back(t + ";  # " + line);
            return;
        }
        if (head == "cp" &&
            !(in.opcode.size() > 3 && in.opcode[1].text == ".async" && in.opcode[3].text == ".tensor")) {
            m_body.push_back("# " + line + ": " + in.opcodeText() +
                             " (validated; scenarios do not run it: left out)");
            return;
        }
        std::vector<std::string> ops;
        if (head == "cp")
            tma(in, ops);
        else if (head == "mbarrier")
            mbarrier(in, ops);
        else
            tcgen05(in, ops);
        std::string t = in.opcodeText();
        for (size_t i = 0; i < ops.size(); ++i) t += (i ? ", " : " ") + ops[i];
        t += ";";
        t += "  # " + line + (in.predicate.empty() ? "" : ", guarded by " + in.predicate + " in the PTX");
        m_body.push_back(t);
    }

    Sym* named(const std::string& name) {
        for (Sym& s : m_syms)
            if (s.name == name) return &s;
        return nullptr;
    }

    // A barrier that one tiled load fills and whose expect_tx count the PTX shows: the map's box gets
    // as many 128-byte rows (64 FLOAT16) as that count, so that the scenario keeps the kernel's value.
    void fitBoxesToTx() {
        for (const Sym& t : m_syms) {
            if (t.txBarrier.empty() || !t.fromPtx || t.value <= 0 || t.value % 128 || t.value / 128 > 256)
                continue;
            const auto& loads = m_loads[t.txBarrier];
            if (loads.size() != 1 || !loads[0].tiled2d || m_mapUses[loads[0].map] != 1) continue;
            Sym* map = named(loads[0].map);
            Sym* buf = named(loads[0].smem);
            const size_t at = map ? map->mapDecl.find("box=[64,64") : std::string::npos;
            if (!buf || at == std::string::npos) continue;
            map->mapDecl.replace(at, 10, "box=[64," + std::to_string(t.value / 128));
            buf->bytes = std::max(buf->bytes, static_cast<uint64_t>(t.value));
            m_txBytes[t.txBarrier] = static_cast<uint64_t>(t.value);
        }
    }

    std::string text(const std::string& source) {
        fitBoxesToTx();
        for (Sym& s : m_syms)
            if (!s.txBarrier.empty()) {
                const uint64_t b = m_txBytes.count(s.txBarrier) ? m_txBytes[s.txBarrier] : 0;
                if (s.fromPtx && static_cast<uint64_t>(s.value) != b)
                    s.comment +=
                        "; the default is the " + std::to_string(b) + " bytes the default maps deliver";
                s.value = static_cast<int64_t>(b);
            }
        // The PTX variables' sizes, unless together they exceed a CTA's shared memory (1 KiB reserved,
        // up to 1 KiB of alignment each): then only what the instructions need.
        uint64_t total = 1024;
        for (const Sym& s : m_syms)
            total += s.kind == Kind::Smem  ? std::max(s.bytes, s.declaredBytes) + 1024
                     : s.kind == Kind::Bar ? 8
                                           : 0;
        const bool useDeclared = total <= kSmemBytesPerCta;
        if (!useDeclared)
            for (Sym& s : m_syms)
                if (s.kind == Kind::Smem && s.declaredBytes > s.bytes)
                    s.comment += "; the PTX declares " + std::to_string(s.declaredBytes) +
                                 " bytes, more than a scenario CTA holds with the rest";
        std::string o =
            "# Scaffold of kernel `" + m_fn.name + "` (" + source +
            "), written by layoutscope-cli scaffold.\n"
            "# Its data-movement instructions in program order; each declaration below stands for a\n"
            "# register of the PTX (the comment names its line). FILL: replace the defaults with the\n"
            "# kernel's real values (tensor map parameters, coordinates, addresses); as written it runs.\n";
        o += "target " + m_mod.target.sm + "\nptx " + std::to_string(m_mod.target.ptxMajor) + "." +
             std::to_string(m_mod.target.ptxMinor) + "\n";
        const char* titles[] = {"# Tensor maps (FILL: the CUtensorMap the kernel receives)",
                                "# Shared memory (FILL: sizes and alignment)", "# mbarriers",
                                "# Shared-memory descriptors (FILL: lbo, sbo, swizzle)", "# Values (FILL)"};
        for (int k = 0; k < 5; ++k) {
            bool any = false;
            for (const Sym& s : m_syms) {
                if (int(s.kind) != k) continue;
                if (!any) o += "\n" + std::string(titles[k]) + "\n";
                any = true;
                switch (s.kind) {
                case Kind::Map:
                    o += "tensormap " + s.name + " " + s.mapDecl;
                    break;
                case Kind::Smem:
                    o += "smem " + s.name + " " +
                         std::to_string(useDeclared ? std::max(s.bytes, s.declaredBytes) : s.bytes) +
                         " align=1024";
                    break;
                case Kind::Bar:
                    o += "mbarrier " + s.name;
                    break;
                case Kind::Desc:
                    o += "desc " + s.name + " start=" + s.descBuf + " lbo=16 sbo=1024 swizzle=128B";
                    break;
                case Kind::Let:
                    o += "let " + s.name + " = " + std::to_string(s.value);
                    break;
                }
                o += "  # " + s.comment + "\n";
            }
        }
        o += "\n# Instructions (PTX lines as in " + source + ")\n";
        for (const auto& b : m_body) o += b + "\n";
        return o;
    }
};

} // namespace

Result<std::string> scaffoldScenario(const PtxModule& module, const ScaffoldOptions& options) {
    const auto entries = module.entries();
    auto names = [&] {
        std::string s;
        for (const PtxFunction* f : entries) s += (s.empty() ? "" : ", ") + f->name;
        return s;
    };
    const PtxFunction* fn = nullptr;
    if (!options.entry.empty()) {
        for (const PtxFunction* f : entries)
            if (f->name == options.entry) fn = f;
        if (!fn)
            return Diagnostic{
                Severity::Error,
                DiagCode::UnknownName,
                {},
                "no .entry named `" + options.entry + "` in the module" +
                    (entries.empty() ? std::string(" (it has none)") : "; its entries: " + names()),
                "docs/ptx-modules.md (scaffold)",
                Provenance::ToolFormat};
    } else if (entries.size() == 1) {
        fn = entries.front();
    } else {
        return Diagnostic{Severity::Error,
                          DiagCode::InvalidValue,
                          {},
                          entries.empty() ? "the module has no .entry (kernel) to scaffold"
                                          : "the module has " + std::to_string(entries.size()) +
                                                " entries; choose one with --entry NAME: " + names(),
                          "docs/ptx-modules.md (scaffold)",
                          Provenance::ToolFormat};
    }
    if (std::none_of(fn->instrs.begin(), fn->instrs.end(),
                     [](const PtxModuleInstr& i) { return i.modelled; }))
        return Diagnostic{Severity::Error,
                          DiagCode::InvalidValue,
                          fn->span,
                          "kernel `" + fn->name +
                              "` has no TMA, tcgen05 or mbarrier instruction that a scenario could run",
                          "docs/ptx-modules.md (scaffold)",
                          Provenance::ToolFormat};
    Scaffolder s(module, *fn);
    return s.run(options.sourceName.empty() ? std::string("the PTX module") : options.sourceName);
}

} // namespace layoutscope
