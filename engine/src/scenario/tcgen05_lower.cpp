// tcgen05 in scenarios: lowering of validated tcgen05 instructions (PTX ISA 9.2 §9.7.16) to ScenarioInstr,
// binding their operands only (validity is ptx_validate's). Grammar: docs/scenario-format.md "Tensor
// Memory (tcgen05)".
#include "layoutscope/ptx/instruction.hpp"
#include "scenario/parse.hpp"

namespace layoutscope::scn {
namespace {

constexpr const char* kTcgenRef = "PTX ISA 9.2 §9.7.16 (tcgen05)";
constexpr uint32_t kRegsPerThread = kScenarioRegsPerThread; ///< enough for the widest form (32x32b.x128)

} // namespace

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

} // namespace layoutscope::scn
