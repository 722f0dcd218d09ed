// tcgen05.mma in scenarios (PTX ISA 9.2 §9.7.16.10.9): the dense form with A and B from shared-memory
// descriptors, `tcgen05.mma.cta_group::N.kind::{f16,tf32} [d-tmem], a-desc, b-desc, idesc, enable-input-d;`.
// The instruction descriptor (32 bits; CuTe UMMA::InstrDescriptor, cute/arch/mma_sm100_desc.hpp):
//   bits [0,2) sparse id2, [2,3) sparse flag, [3,4) saturate, [4,6) D format (0 F16, 1 F32, 2 S32),
//   [7,10) A format, [10,13) B format (kind::f16: 0 F16, 1 BF16; kind::tf32: 2 TF32), [13,14) negate A,
//   [14,15) negate B, [15,16) A major (0 K, 1 MN), [16,17) B major, [17,23) N >> 3, [24,29) M >> 4,
//   [30,32) max shift (.ws only).
// The accumulator is not computed (unverified: the K-step accumulation order); the operand fetch is
// checked against the TMA tiles (scenario_consumer.cpp) and D's columns against the allocation.
#include "scenario/parse.hpp"

#include <string>

namespace layoutscope::scn {
namespace {

constexpr const char* kMmaRef = "PTX ISA 9.2 §9.7.16.10.9 (tcgen05.mma), instruction descriptor §9.7.16.4.2";

uint32_t bits(uint32_t v, int lo, int n) {
    return (v >> lo) & ((1u << n) - 1);
}

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
    // tcgen05.mma.cta_group::N.kind::K, qualifiers in this order (the dense, non-block-scaled form).
    if (in.opcode.size() != 4 ||
        (in.opcode[2].text != ".cta_group::1" && in.opcode[2].text != ".cta_group::2"))
        return fail(in.span,
                    "the scenario models tcgen05.mma.cta_group::1|2.kind::f16|tf32 (dense, A and B from "
                    "descriptors); other forms (.ws, .sp, block scale, kind::f8f6f4/i8, collector usage) are "
                    "not modelled yet",
                    DiagCode::Unsupported);
    const std::string& kind = in.opcode[3].text;
    if (kind != ".kind::f16" && kind != ".kind::tf32")
        return fail(in.opcode[3].span, kind + " is not modelled (kind::f16 and kind::tf32 are)",
                    DiagCode::Unsupported);
    if (in.operands.size() != 5)
        return fail(in.span, "expected [d-tmem], a-desc, b-desc, idesc, enable-input-d (got " +
                                 std::to_string(in.operands.size()) + " operands)");
    if (in.operands[1].kind == OperandKind::Address)
        return fail(in.operands[1].span, "A from Tensor Memory ([a-tmem]) is not modelled: give a-desc",
                    DiagCode::Unsupported);
    auto scalar = [&](const Operand& op, const char* role) { return letOrImmediate(ctx, op, role, kMmaRef); };
    const Operand& d = in.operands[0];
    if (d.kind != OperandKind::Address || d.elements.empty())
        return fail(d.span, "expected [d-tmem]: a let name holding a TMEM address (lane << 16 | column)");
    const auto dt = scalar(d.elements[0], "d-tmem");
    const auto da = dt ? scalar(in.operands[1], "a-desc") : std::nullopt;
    const auto db = da ? scalar(in.operands[2], "b-desc") : std::nullopt;
    const auto id = db ? scalar(in.operands[3], "idesc") : std::nullopt;
    if (!id) return false;
    if (*id < 0 || *id > 0xFFFFFFFFll) return fail(in.operands[3].span, "idesc is a 32-bit value");
    UmmaRead u;
    u.ctaGroup = in.opcode[2].text == ".cta_group::2" ? 2 : 1;
    u.idesc = uint32_t(*id);
    u.dTaddr = uint32_t(*dt + d.imm);
    u.descA = uint64_t(*da);
    u.descB = uint64_t(*db);
    u.descAName = in.operands[1].text;
    u.descBName = in.operands[2].text;
    const SourceSpan is = in.operands[3].span;
    const uint32_t v = u.idesc;
    // The fields a kind::f16 / kind::tf32 dense MMA allows (anything else names its bits).
    if (bits(v, 0, 3) != 0) return fail(is, "idesc bits [0,3) (sparsity) must be 0 for a dense tcgen05.mma");
    if (bits(v, 3, 1) != 0) return fail(is, "idesc bit 3 (saturate) is for integer kinds only");
    const uint32_t dfmt = bits(v, 4, 2), afmt = bits(v, 7, 3), bfmt = bits(v, 10, 3);
    if (bits(v, 6, 1) || bits(v, 23, 1) || bits(v, 29, 1) || bits(v, 30, 2))
        return fail(is, "idesc reserved bits 6, 23, 29 or max shift [30,32) (.ws only) are set");
    const bool tf32 = kind == ".kind::tf32";
    if (tf32 ? (afmt != 2 || bfmt != 2) : (afmt > 1 || bfmt > 1 || afmt != bfmt))
        return fail(is, std::string("idesc A/B formats (bits [7,10) = ") + std::to_string(afmt) +
                            ", [10,13) = " + std::to_string(bfmt) + ") for " + kind + ": " +
                            (tf32 ? "both 2 (TF32)" : "both 0 (F16) or both 1 (BF16)"));
    if (dfmt != 1 && !(dfmt == 0 && !tf32 && afmt == 0))
        return fail(is, "idesc D format (bits [4,6) = " + std::to_string(dfmt) +
                            "): 1 (F32), or 0 (F16) with F16 inputs");
    u.m = bits(v, 24, 5) << 4;
    u.n = bits(v, 17, 6) << 3;
    const bool mOk = u.ctaGroup == 1 ? (u.m == 64 || u.m == 128) : (u.m == 128 || u.m == 256);
    if (!mOk)
        return fail(is,
                    "idesc M (bits [24,29) << 4) = " + std::to_string(u.m) + ": " +
                        (u.ctaGroup == 1 ? "64 or 128 with .cta_group::1" : "128 or 256 with .cta_group::2"));
    const uint32_t nStep = u.m == 64 ? 8 : 16;
    if (u.n < nStep || u.n > 256 || u.n % nStep != 0)
        return fail(is, "idesc N (bits [17,23) << 3) = " + std::to_string(u.n) + ": a multiple of " +
                            std::to_string(nStep) + " in " + std::to_string(nStep) +
                            "..256 for M = " + std::to_string(u.m));
    u.elemBits = tf32 ? 32 : 16;
    u.transA = bits(v, 15, 1);
    u.transB = bits(v, 16, 1);
    u.expectA = ctx.expectA;
    u.expectB = ctx.expectB;
    out.kind = ScenarioInstrKind::NoOp;
    out.umma = std::move(u);
    return true;
}

} // namespace layoutscope::scn
