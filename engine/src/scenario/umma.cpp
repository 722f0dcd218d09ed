// tcgen05.mma in scenarios (PTX ISA 9.2 §9.7.16.10.9): the dense form, A from a shared-memory descriptor or
// from Tensor Memory, B from a descriptor,
// `tcgen05.mma.cta_group::N.kind::{f16,tf32,f8f6f4,i8} [d-tmem], a-desc|[a-tmem], b-desc, idesc,
// enable-input-d;`. The instruction descriptor (32 bits; CuTe UMMA::InstrDescriptor,
// cute/arch/mma_sm100_desc.hpp):
//   bits [0,2) sparse id2, [2,3) sparse flag, [3,4) saturate, [4,6) D format (0 F16, 1 F32, 2 S32),
//   [7,10) A format, [10,13) B format (kind::f16: 0 F16, 1 BF16; kind::tf32: 2 TF32), [13,14) negate A,
//   [14,15) negate B, [15,16) A major (0 K, 1 MN), [16,17) B major, [17,23) N >> 3, [24,29) M >> 4,
//   [30,32) max shift (.ws only).
// The idesc is decoded by decodeUmmaIdesc (tcgen05/umma.cpp). The run executes the MMA (Tcgen05Executor::mma:
// D written into TMEM; unverified: the accumulation order), checks the operand fetch against the TMA tiles
// (consumer_checks.cpp) and D's columns against the allocation.
#include "scenario/parse.hpp"

#include <string>

namespace layoutscope::scn {
namespace {

constexpr const char* kMmaRef = "PTX ISA 9.2 §9.7.16.10.9 (tcgen05.mma), instruction descriptor §9.7.16.4.2";

} // namespace

bool isTcgen05Mma(const ParsedInstr& in) {
    return in.opcode.size() > 1 && in.opcode[0].text == "tcgen05" && in.opcode[1].text == ".mma";
}

bool lowerTcgen05Mma(Context& ctx, const ParsedInstr& in, ScenarioInstr& out) {
    auto fail = [&](SourceSpan sp, std::string msg, DiagCode code = DiagCode::InvalidValue) {
        ctx.error(code, sp, std::move(msg), kMmaRef, Provenance::PtxText);
        return false;
    };
    const std::string sm = ctx.ptxTarget().sm;
    if (sm != "sm_100a" && sm != "sm_100f" && sm != "sm_103a" && sm != "sm_103f" && sm != "sm_110a" &&
        sm != "sm_110f")
        return fail(in.opcode[0].span,
                    "tcgen05.mma needs an sm_100a/f, sm_103a/f or sm_110a/f target (this scenario "
                    "targets " +
                        sm + ")",
                    DiagCode::TargetMismatch);
    for (const auto& q : in.opcode)
        if (q.text == ".block_scale")
            return fail(
                q.span,
                "block-scaled tcgen05.mma is not modelled yet: the scale-factor operands [scale-A-tmem] "
                "and [scale-B-tmem] (which TMEM columns and bytes each 16/32-element K block of A and B "
                "uses for each .scale_vec) and the mxf8f6f4/mxf4/mxf4nvf4 element types are missing; "
                "kind::f16, tf32, f8f6f4 (e4m3/e5m2) and i8 run",
                DiagCode::Unsupported);
    // tcgen05.mma.cta_group::N.kind::K, qualifiers in this order (the dense, non-block-scaled form).
    if (in.opcode.size() != 4 ||
        (in.opcode[2].text != ".cta_group::1" && in.opcode[2].text != ".cta_group::2"))
        return fail(
            in.span,
            "the scenario models tcgen05.mma.cta_group::1|2.kind::f16|tf32|f8f6f4|i8 (dense); other "
            "forms (.ws, .sp, block scale, collector usage, disable-output-lane) are not modelled yet",
            DiagCode::Unsupported);
    const std::string& kind = in.opcode[3].text;
    UmmaKind k = UmmaKind::F16;
    if (kind == ".kind::tf32")
        k = UmmaKind::Tf32;
    else if (kind == ".kind::f8f6f4")
        k = UmmaKind::F8f6f4;
    else if (kind == ".kind::i8")
        k = UmmaKind::I8;
    else if (kind != ".kind::f16")
        return fail(in.opcode[3].span,
                    kind + " is not modelled (kind::f16, kind::tf32, kind::f8f6f4 and kind::i8 are; the "
                           "block-scaled kinds need scale factors in Tensor Memory)",
                    DiagCode::Unsupported);
    if (in.operands.size() != 5)
        return fail(in.span, "expected [d-tmem], a-desc or [a-tmem], b-desc, idesc, enable-input-d (got " +
                                 std::to_string(in.operands.size()) + " operands)");
    auto scalar = [&](const Operand& op, const char* role) { return letOrImmediate(ctx, op, role, kMmaRef); };
    auto tmemOperand = [&](const Operand& op, const char* role) -> std::optional<int64_t> {
        if (op.kind != OperandKind::Address || op.elements.empty()) {
            fail(op.span, std::string("expected [") + role +
                              "]: a let name holding a TMEM address (lane << 16 | column)");
            return std::nullopt;
        }
        const auto v = scalar(op.elements[0], role);
        return v ? std::optional<int64_t>(*v + op.imm) : std::nullopt;
    };
    const Operand& d = in.operands[0];
    const bool aTmem = in.operands[1].kind == OperandKind::Address;
    const auto dt = tmemOperand(d, "d-tmem");
    const auto da = !dt     ? std::nullopt
                    : aTmem ? tmemOperand(in.operands[1], "a-tmem")
                            : scalar(in.operands[1], "a-desc");
    const auto db = da ? scalar(in.operands[2], "b-desc") : std::nullopt;
    const auto id = db ? scalar(in.operands[3], "idesc") : std::nullopt;
    if (!id) return false;
    if (*id < 0 || *id > 0xFFFFFFFFll) return fail(in.operands[3].span, "idesc is a 32-bit value");
    const uint32_t group = in.opcode[2].text == ".cta_group::2" ? 2 : 1;
    Result<UmmaOp> op = decodeUmmaIdesc(k, group, uint32_t(*id));
    if (!op) {
        const Diagnostic& e = op.diagnostics()[0];
        ctx.error(e.code, in.operands[3].span, e.message, e.ruleRef, e.provenance);
        return false;
    }
    UmmaRead u;
    u.ctaGroup = group;
    u.idesc = uint32_t(*id);
    u.dTaddr = uint32_t(*dt);
    u.descA = aTmem ? 0 : uint64_t(*da);
    u.descB = uint64_t(*db);
    u.descAName = in.operands[1].text;
    u.descBName = in.operands[2].text;
    u.m = op->m;
    u.n = op->n;
    u.elemBits = ummaTypeBits(op->a);
    u.transA = op->transA;
    u.transB = op->transB;
    u.op = *op;
    u.op.descA = u.descA;
    u.op.descB = u.descB;
    u.op.aFromTmem = aTmem;
    u.op.aTaddr = aTmem ? uint32_t(*da) : 0;
    u.op.dTaddr = u.dTaddr;
    // enable-input-d: an immediate or a let name; a predicate register name (PTX's form) has no value in a
    // scenario and is taken as false (D = A*B), which the run's summary says.
    const Operand& en = in.operands[4];
    u.enableInputD = en.text;
    if (en.kind == OperandKind::Immediate) {
        u.op.enableInputD = en.imm != 0;
    } else if (const NameInfo* ni = ctx.lookup(en.text); ni && ni->kind == NameKind::Let) {
        u.op.enableInputD = ni->value != 0;
    } else if (ni) {
        return fail(en.span, "enable-input-d '" + en.text + "' must be 0, 1, a let name or a predicate name");
    } else {
        u.enableInputDKnown = false;
    }
    u.expectA = ctx.expectA;
    u.expectB = ctx.expectB;
    out.kind = ScenarioInstrKind::NoOp; // executed by the run through Tcgen05Executor::mma
    out.umma = std::move(u);
    return true;
}

} // namespace layoutscope::scn
