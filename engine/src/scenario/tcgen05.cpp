// tcgen05 in scenarios (PTX ISA 9.2 §9.7.16): the `warp` and `regs` directives, lowering of validated
// tcgen05 instructions to ScenarioInstr (operand binding only: validity is ptx_validate's), and their
// execution through Tcgen05Executor. Grammar: docs/scenario-format.md "Tensor Memory (tcgen05)".
#include "layoutscope/core/rules.hpp"
#include "layoutscope/ptx/instruction.hpp"
#include "layoutscope/tcgen05/smem_descriptor.hpp"
#include "scenario/parse.hpp"

#include <cctype>
#include <charconv>

namespace layoutscope::scn {
namespace {

constexpr const char* kTcgenRef = "PTX ISA 9.2 §9.7.16 (tcgen05)";
constexpr uint32_t kRegsPerThread = kScenarioRegsPerThread; ///< enough for the widest form (32x32b.x128)

std::optional<int64_t> parseInt(std::string_view t) {
    int base = 10;
    if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) t.remove_prefix(2), base = 16;
    uint64_t v = 0;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v, base);
    if (ec != std::errc{} || p != t.data() + t.size()) return std::nullopt;
    return static_cast<int64_t>(v);
}

uint64_t splitmix(uint64_t o) {
    uint64_t z = o + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

} // namespace

std::optional<uint32_t> registerNumber(std::string_view name) {
    size_t i = name.size();
    while (i > 0 && std::isdigit(static_cast<unsigned char>(name[i - 1]))) --i;
    if (i == name.size()) return std::nullopt;
    auto v = parseInt(name.substr(i));
    if (!v || *v >= kRegsPerThread) return std::nullopt;
    return static_cast<uint32_t>(*v);
}

ScenarioWarp& scenarioWarp(std::vector<ScenarioWarp>& ws, const Scenario& s, uint32_t cta, uint32_t warp) {
    for (ScenarioWarp& w : ws)
        if (w.cta == cta && w.warp == warp) return w;
    ScenarioWarp w{cta, warp, scenarioWarpRegisters(s, cta, warp), {}};
    w.final = w.initial;
    ws.push_back(std::move(w));
    return ws.back();
}

// warp N: the warp of the current CTA issuing the tcgen05 instructions that follow (default 0).
void warpDirective(Context& ctx, const std::vector<Tok>& toks) {
    if (toks.size() != 2) {
        ctx.error(DiagCode::Syntax, toks.size() > 2 ? toks[2].span : toks[0].span,
                  "expected 'warp N' (N = warp id in the CTA, 0..31)");
        return;
    }
    auto v = parseInt(toks[1].text);
    if (!v || *v > 31) {
        ctx.error(DiagCode::InvalidValue, toks[1].span,
                  "warp id '" + toks[1].text + "' is not an integer in [0, 31]");
        return;
    }
    ctx.issuingWarp = static_cast<uint32_t>(*v);
}

// regs pattern=zero|lane|index|bytes|random: the registers r0..r127 of every thread of the issuing warp.
void regsDirective(Context& ctx, const std::vector<Tok>& toks) {
    if (toks.size() != 4 || toks[1].text != "pattern" || toks[2].text != "=") {
        ctx.error(DiagCode::Syntax, toks.size() > 1 ? toks[1].span : toks[0].span,
                  "expected 'regs pattern=zero|lane|index|bytes|random'");
        return;
    }
    const std::string& p = toks[3].text;
    if (p != "zero" && p != "lane" && p != "index" && p != "bytes" && p != "random") {
        ctx.error(DiagCode::InvalidValue, toks[3].span,
                  "unknown register pattern '" + p + "' (zero, lane, index, bytes, random)");
        return;
    }
    WarpRegisters r;
    for (uint32_t t = 0; t < 32; ++t) {
        r[t].resize(kRegsPerThread);
        for (uint32_t j = 0; j < kRegsPerThread; ++j) {
            const uint32_t b0 = (t * kRegsPerThread + j) * 4;
            r[t][j] = p == "zero"    ? 0u
                      : p == "lane"  ? t
                      : p == "index" ? (t << 16 | j)
                      : p == "bytes" ? ((b0 & 0xFF) | ((b0 + 1) & 0xFF) << 8 | ((b0 + 2) & 0xFF) << 16 |
                                        ((b0 + 3) & 0xFF) << 24)
                                     : static_cast<uint32_t>(splitmix(t << 16 | j));
        }
    }
    for (ScenarioWarp& w : ctx.s.warps)
        if (w.cta == ctx.issuingCta && w.warp == ctx.issuingWarp) {
            w.initial = r;
            return;
        }
    ctx.s.warps.push_back(ScenarioWarp{ctx.issuingCta, ctx.issuingWarp, r, {}});
}

// start / lbo / sbo of a descriptor: byte values stored >> 4 in 14 bits, so a multiple of 16 below 0x40000.
static bool descByteField(Context& ctx, SourceSpan at, const char* key, uint64_t bytes) {
    if (bytes % 16 == 0 && bytes < (uint64_t{1} << 18)) return true;
    ctx.error(DiagCode::InvalidValue, at,
              std::string(key) + " = " + std::to_string(bytes) +
                  " B must be a multiple of 16 below 0x40000 (stored as bytes >> 4 in 14 bits)",
              ruleInfo(RuleId::SmemDescriptorFields).reference, Provenance::PtxText);
    return false;
}

// desc NAME start=BUFFER[+BYTES] lbo=BYTES sbo=BYTES swizzle=none|128B|64B|32B|128B_base32B [base=N]:
// a let name holding the 64-bit shared-memory descriptor (smem_descriptor.hpp, PTX ISA §9.7.16.4.1).
void descDirective(Context& ctx, const std::vector<Tok>& toks) {
    if (toks.size() < 2 || toks[1].kind != Tok::Word) {
        ctx.error(DiagCode::Syntax, toks[0].span,
                  "expected 'desc NAME start=BUFFER lbo=N sbo=N swizzle=...'");
        return;
    }
    SmemDescriptor d;
    bool haveStart = false;
    for (size_t i = 2; i < toks.size(); i += 3) {
        if (i + 2 >= toks.size() || toks[i + 1].text != "=") {
            ctx.error(DiagCode::Syntax, toks[i].span,
                      "expected KEY=VALUE (start=, lbo=, sbo=, swizzle=, base=)");
            return;
        }
        const std::string& k = toks[i].text;
        const Tok& v = toks[i + 2];
        if (k == "swizzle") {
            const auto type = smemLayoutTypeFromName(v.text);
            if (!type) {
                ctx.error(DiagCode::InvalidValue, v.span,
                          "swizzle '" + v.text + "' is not " + kSmemLayoutTypeNames);
                return;
            }
            d.layoutType = static_cast<uint32_t>(*type);
            continue;
        }
        if (k == "start") {
            std::string name = v.text;
            uint64_t off = 0;
            if (size_t plus = name.find('+'); plus != std::string::npos) {
                auto o = parseInt(name.substr(plus + 1));
                if (!o) {
                    ctx.error(DiagCode::InvalidValue, v.span, "expected start=BUFFER+BYTES");
                    return;
                }
                off = static_cast<uint64_t>(*o);
                name.resize(plus);
            }
            const ScenarioBuffer* b = ctx.s.findBuffer(name);
            if (!b && ctx.poisoned.count(name)) {  // the buffer's declaration was reported: quiet, and so
                ctx.poisoned.insert(toks[1].text); // are this descriptor's uses (issue 24: no cascade)
                return;
            }
            if (!b) {
                ctx.error(DiagCode::UnknownName, v.span,
                          "'" + name + "' is not an smem buffer declared above");
                return;
            }
            if (off >= b->size) {
                ctx.error(DiagCode::InvalidValue, v.span,
                          "start offset " + v.text.substr(v.text.find('+') + 1) + " is outside " + name +
                              " (" + std::to_string(b->size) + " B)");
                return;
            }
            if (!descByteField(ctx, v.span, "start", b->addr + off)) return;
            d.startAddress = b->addr + off;
            haveStart = true;
            continue;
        }
        if (k != "lbo" && k != "sbo" && k != "base") {
            ctx.error(DiagCode::InvalidValue, toks[i].span,
                      "unknown option '" + k + "' for desc (start=, lbo=, sbo=, swizzle=, base=)");
            return;
        }
        auto n = parseInt(v.text);
        if (!n) {
            ctx.error(DiagCode::InvalidValue, v.span, k + "=" + v.text + " is not a non-negative integer");
            return;
        }
        if (k == "base") {
            if (*n < 0 || *n > 7) {
                ctx.error(DiagCode::InvalidValue, v.span,
                          "base=" + v.text + " must be 0..7 (3 bits, [49,52))",
                          ruleInfo(RuleId::SmemDescriptorFields).reference, Provenance::PtxText);
                return;
            }
            d.baseOffset = static_cast<uint32_t>(*n);
            continue;
        }
        if (!descByteField(ctx, v.span, k.c_str(), static_cast<uint64_t>(*n))) return;
        (k == "lbo" ? d.lbo : d.sbo) = static_cast<uint32_t>(*n);
    }
    if (!haveStart) {
        ctx.error(DiagCode::Syntax, toks[1].span, "desc " + toks[1].text + " needs start=BUFFER");
        return;
    }
    if (Status st = validateSmemDescriptor(d); !st) {
        for (Diagnostic e : st.diagnostics()) {
            e.span = toks[1].span;
            ctx.diags.push_back(std::move(e));
        }
        return;
    }
    ctx.declare(toks[1].text, NameKind::Let, toks[1].span, static_cast<int64_t>(encodeSmemDescriptor(d)));
}

WarpRegisters scenarioWarpRegisters(const Scenario& s, uint32_t cta, uint32_t warp) {
    for (const ScenarioWarp& w : s.warps)
        if (w.cta == cta && w.warp == warp) return w.initial;
    WarpRegisters r;
    for (auto& t : r) t.assign(kRegsPerThread, 0);
    return r;
}

bool isTcgen05(const ParsedInstr& in) {
    return !in.opcode.empty() && in.opcode[0].text == "tcgen05";
}

bool lowerTcgen05(Context& ctx, const ParsedInstr& in, ScenarioInstr& out) {
    const std::string what = in.opcode.size() > 1 ? in.opcode[1].text : std::string();
    out.warp = ctx.issuingWarp;
    auto fail = [&](SourceSpan sp, std::string msg) {
        ctx.error(DiagCode::InvalidValue, sp, std::move(msg), kFormatRef, Provenance::Assumption);
        return false;
    };
    // An integer or let name (a TMEM address, descriptor or column count).
    auto scalar = [&](const Operand& op, const char* role) -> std::optional<int64_t> {
        if (op.kind == OperandKind::Immediate) return op.imm;
        if (op.kind == OperandKind::Symbol || op.kind == OperandKind::Register) {
            if (const NameInfo* n = ctx.lookup(op.text); n && n->kind == NameKind::Let) return n->value;
            if (ctx.poisoned.count(op.text)) return std::nullopt;
        }
        fail(op.span, std::string(role) + " '" + op.text + "' must be an integer or a name bound with 'let " +
                          op.text + " = <value>'");
        return std::nullopt;
    };
    // [taddrBuf]: the TMEM address tcgen05.alloc stored in that buffer, read when the instruction runs.
    auto fromBuffer = [&](const ScenarioBuffer& b, const Operand& op) -> std::optional<uint32_t> {
        if (b.cta != ctx.issuingCta || op.imm != 0) {
            fail(op.span, b.cta != ctx.issuingCta ? "buffer " + b.name + " is not in the issuing CTA"
                                                  : "[" + b.name +
                                                        "+offset]: a TMEM address read from a buffer takes "
                                                        "no offset (bind the address with 'let' to add one)");
            return std::nullopt;
        }
        out.taddrSmem = b.addr;
        return 0u;
    };
    auto taddrOf = [&](const Operand& op) -> std::optional<uint32_t> {
        if (op.kind != OperandKind::Address || op.elements.empty()) {
            fail(op.span, "expected [taddr] (a let name holding a TMEM address lane << 16 | column)");
            return std::nullopt;
        }
        if (const ScenarioBuffer* b = ctx.s.findBuffer(op.elements[0].text)) return fromBuffer(*b, op);
        auto v = scalar(op.elements[0], "TMEM address");
        if (!v) return std::nullopt;
        return static_cast<uint32_t>(*v + op.imm);
    };
    out.kind = ScenarioInstrKind::Tcgen05;
    if (what.rfind(".commit", 0) == 0 || what.rfind(".wait", 0) == 0 || what.rfind(".fence", 0) == 0) {
        out.kind = ScenarioInstrKind::NoOp; // ordering only: no data moves (mbarrier arrive is not modelled)
        return true;
    }
    if (what == ".relinquish_alloc_permit") return true;
    if (what == ".alloc") {
        if (in.operands.size() != 2) return fail(in.span, "expected tcgen05.alloc ... [buffer], nCols;");
        const Operand& d = in.operands[0];
        const ScenarioBuffer* b = d.kind == OperandKind::Address && !d.elements.empty()
                                      ? ctx.s.findBuffer(d.elements[0].text)
                                      : nullptr;
        if (!b)
            return fail(d.span, "expected [buffer]: a declared smem buffer that receives the TMEM address");
        if (b->cta != ctx.issuingCta)
            return fail(d.span, "buffer " + b->name + " is in CTA " + std::to_string(b->cta) +
                                    ", not the issuing CTA");
        if (d.imm < 0 || d.imm + 4 > int64_t(b->size)) // the 4-byte address store must land in the buffer
            return fail(d.span, "tcgen05.alloc writes the 4-byte TMEM address at " + b->name + "+" +
                                    std::to_string(d.imm) + ", outside buffer " + b->name + " (" +
                                    std::to_string(b->size) + " B); give it an offset in 0.." +
                                    std::to_string(int64_t(b->size) - 4));
        out.taddr = b->addr + static_cast<uint32_t>(d.imm);
        auto n = scalar(in.operands[1], "column count");
        if (!n) return false;
        out.value = *n;
        return true;
    }
    if (what == ".dealloc") {
        if (in.operands.size() != 2) return fail(in.span, "expected tcgen05.dealloc ... taddr, nCols;");
        const ScenarioBuffer* tb =
            in.operands[0].kind == OperandKind::Symbol ? ctx.s.findBuffer(in.operands[0].text) : nullptr;
        std::optional<int64_t> t;
        if (!tb)
            t = scalar(in.operands[0], "TMEM address");
        else if (auto v = fromBuffer(*tb, in.operands[0]))
            t = *v;
        auto n = t ? scalar(in.operands[1], "column count") : std::nullopt;
        if (!n) return false;
        out.taddr = static_cast<uint32_t>(*t);
        out.value = *n;
        return true;
    }
    if (what == ".shift" || what == ".cp") {
        if (in.operands.empty()) return fail(in.span, "expected [taddr]");
        auto t = taddrOf(in.operands[0]);
        if (!t) return false;
        out.taddr = *t;
        if (what == ".cp") {
            if (in.operands.size() != 2) return fail(in.span, "expected tcgen05.cp ... [taddr], sdesc;");
            auto d = scalar(in.operands[1], "shared-memory descriptor");
            if (!d) return false;
            out.desc = static_cast<uint64_t>(*d);
        }
        return true;
    }
    if (what == ".st" || what == ".ld") {
        const Operand* addr = nullptr;
        const Operand* vec = nullptr;
        for (const Operand& op : in.operands) {
            if (op.kind == OperandKind::Address && !addr) addr = &op;
            if (op.kind == OperandKind::Vector && !vec) vec = &op;
        }
        if (!addr || !vec) return fail(in.span, "expected a [taddr] and a {register, ...} vector operand");
        auto t = taddrOf(*addr);
        if (!t) return false;
        out.taddr = *t;
        if (what == ".ld") out.expectFragment = ctx.expectFragment; // `expect fragment` (fragment_check.cpp)
        for (const Operand& e : vec->elements) {
            auto n = registerNumber(e.text);
            if (!n)
                return fail(e.span, "register '" + e.text + "' must end in its number 0.." +
                                        std::to_string(kRegsPerThread - 1) + " (%r5, r5)");
            out.regs.push_back(*n);
        }
        return true;
    }
    ctx.error(DiagCode::Unsupported, in.opcode.size() > 1 ? in.opcode[1].span : in.opcode[0].span,
              "tcgen05" + what +
                  " is not supported in scenarios (alloc, dealloc, relinquish_alloc_permit, st, ld, cp, "
                  "shift, commit, wait, fence)",
              kTcgenRef, Provenance::PtxText);
    return false;
}

Status runTcgen05(const Scenario& s, const ScenarioInstr& instr, Tcgen05Executor& ex,
                  std::vector<ScenarioWarp>& warps, const MachineState& state, Trace& trace,
                  ProducerIndex& index, std::vector<Diagnostic>& findings) {
    // A copy only when the TMEM address is read from shared memory (copying every instruction, with its
    // text and register list, was a hot spot of long tcgen05 scenarios).
    std::optional<ScenarioInstr> withTaddr;
    if (instr.taddrSmem >= 0 && !instr.text.starts_with("tcgen05.alloc")) { // [taddrBuf]: little-endian b32
        const auto bytes = state.smem.at(instr.cta).bytes();
        const size_t a = static_cast<size_t>(instr.taddrSmem);
        withTaddr = instr;
        withTaddr->taddr =
            bytes[a] | bytes[a + 1] << 8 | bytes[a + 2] << 16 | static_cast<uint32_t>(bytes[a + 3]) << 24;
    }
    const ScenarioInstr& in = withTaddr ? *withTaddr : instr;
    const InstrSource src{in.text, in.span.line};
    const uint32_t group = in.text.find("cta_group::2") != std::string::npos ? 2 : 1;
    auto is = [&](const char* p) { return in.text.rfind(p, 0) == 0; };
    if (is("tcgen05.alloc")) {
        auto r = ex.alloc(group, in.cta, in.taddr, static_cast<uint32_t>(in.value), src);
        if (!r) return r.diagnostics();
        return okStatus();
    }
    // dealloc / relinquish move no data but still get their trace instruction, so trace.instrs[i] stays
    // scenario instruction i (views index tiles by it).
    auto allocatorOnly = [&](Status st, std::string summary) {
        if (!st) return st;
        TraceBuilder tb(trace);
        tb.beginInstr(in.text, in.span.line);
        tb.endInstr(std::move(summary));
        return st;
    };
    if (is("tcgen05.dealloc"))
        return allocatorOnly(ex.dealloc(group, in.cta, in.taddr, static_cast<uint32_t>(in.value)),
                             "tcgen05.dealloc " + std::to_string(in.value) + " columns at column " +
                                 std::to_string(in.taddr & 0xFFFF));
    if (is("tcgen05.relinquish_alloc_permit"))
        return allocatorOnly(ex.relinquishAllocPermit(group, in.cta), "allocation permit relinquished");
    // Tensor Memory must be allocated before use: columns [lo, lo + n) in this CTA (and its peer for
    // .cta_group::2) must lie in live tcgen05.alloc allocations.
    const TmemAddr ta = decodeTmemAddress(in.taddr);
    auto requireAllocated = [&](int64_t lo, int64_t hi, uint32_t ctaGroup) {
        const std::string_view what = std::string_view(in.text).substr(0, in.text.find_first_of(". \t", 8));
        const std::array<uint32_t, 2> ctas{ctaGroup == 2 ? in.cta & ~1u : in.cta, in.cta | 1u};
        for (uint32_t i = 0; i < (ctaGroup == 2 ? 2u : 1u); ++i) // "tcgen05.st"
            if (auto d = ex.checkAllocated(ctas[i], lo, hi, what)) findings.push_back(*d);
    };
    if (is("tcgen05.shift")) {
        requireAllocated(ta.column, int64_t(ta.column) + 8, group); // the executor's footprint: 8 columns
        return ex.shiftDown(group, in.cta, in.taddr, src);
    }
    if (is("tcgen05.cp")) {
        auto f = parseCp(in.text);
        if (!f) return f.diagnostics();
        requireAllocated(ta.column, int64_t(ta.column) + cpRowBytes(f->shape) / 4, f->ctaGroup);
        Status st = ex.cp(*f, in.cta, in.taddr, in.desc, src);
        if (st && &instr >= s.instrs.data() && &instr < s.instrs.data() + s.instrs.size()) {
            checkCpConsumer(s, size_t(&instr - s.instrs.data()), *f, in.desc, cpDescName(in.text), trace,
                            index, findings);
        }
        return st;
    }
    auto f = parseLdSt(in.text);
    if (!f) return f.diagnostics();
    {
        const LdStFootprint fp = ldStFootprint(*f);
        int64_t lo = ta.column;
        if (f->shape == LdStShape::k16x32bx2 && f->immHalfSplitoff < 0) lo += f->immHalfSplitoff;
        requireAllocated(lo, int64_t(ta.column) + fp.cols, 1);
    }
    ScenarioWarp& w = scenarioWarp(warps, s, in.cta, in.warp);
    // The executor numbers registers by their position in the vector operand; the trace names them as
    // the scenario does ({%r4, %r7}: positions 0, 1 -> registers 4, 7).
    ex.setRegisterNames(in.regs);
    if (f->store) {
        WarpRegisters v;
        for (uint32_t t = 0; t < 32; ++t) v[t].reserve(in.regs.size());
        for (uint32_t t = 0; t < 32; ++t)
            for (uint32_t r : in.regs) v[t].push_back(w.final[t][r]);
        Status st = ex.st(*f, in.cta, in.warp, in.taddr, v, src);
        ex.setRegisterNames({});
        return st;
    }
    if (in.expectFragment && !f->store)
        if (auto d = checkLdFragment(*f, in.taddr, *in.expectFragment)) findings.push_back(*d);
    // One buffer per thread for every load (its vectors keep their capacity): not 32 allocations per ld.
    thread_local WarpRegisters got;
    Status st = ex.ldInto(*f, in.cta, in.warp, in.taddr, src, got);
    ex.setRegisterNames({});
    if (!st) return st;
    for (uint32_t t = 0; t < 32; ++t)
        for (size_t k = 0; k < in.regs.size() && k < got[t].size(); ++k) w.final[t][in.regs[k]] = got[t][k];
    return okStatus();
}

} // namespace layoutscope::scn
