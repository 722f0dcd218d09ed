// tcgen05.mma in scenarios (PTX ISA 9.2 §9.7.16.10.9): the dense form, A from a shared-memory descriptor or
// from Tensor Memory, B from a descriptor,
// `tcgen05.mma.cta_group::N.kind::{f16,tf32,f8f6f4,i8} [d-tmem], a-desc|[a-tmem], b-desc, idesc,
// enable-input-d;`. The instruction descriptor (32 bits; CuTe UMMA::InstrDescriptor,
// cute/arch/mma_sm100_desc.hpp):
//   bits [0,2) sparse id2, [2,3) sparse flag, [3,4) saturate, [4,6) D format (0 F16, 1 F32, 2 S32),
//   [7,10) A format, [10,13) B format (kind::f16: 0 F16, 1 BF16; kind::tf32: 2 TF32), [13,14) negate A,
//   [14,15) negate B, [15,16) A major (0 K, 1 MN), [16,17) B major, [17,23) N >> 3, [24,29) M >> 4,
//   [30,32) max shift (.ws only).
// The block-scaled form `tcgen05.mma.cta_group::N.kind::{mxf8f6f4,mxf4,mxf4nvf4}.block_scale{.scale_vec::NX|
// .block16|.block32} [d-tmem], a-desc|[a-tmem], b-desc, idesc, [scale-A-tmem], [scale-B-tmem],
// enable-input-d;` has CuTe's UMMA::InstrDescriptorBlockScaled (decodeUmmaIdescBlockScaled, umma_scale.cpp).
// The .ws and .sp forms (umma_ws_sp.hpp): `tcgen05.mma{.ws}{.sp}.cta_group::N.kind::K{.collector::bN::op}
// [d-tmem], a-desc|[a-tmem], b-desc, {[sp-meta-tmem],} idesc, enable-input-d {, zero-column-mask-desc};`
// (.ws: .cta_group::1, the collector usage and the zero-column mask; PTX ISA 9.2 §9.7.16.10.9.2-4).
// The idesc is decoded by decodeUmmaIdesc (tcgen05/umma.cpp). The run executes the MMA (Tcgen05Executor::mma:
// D written into TMEM; unverified: the accumulation order), checks the operand fetch against the TMA tiles
// (consumer_checks.cpp) and D's columns against the allocation.
#include "layoutscope/tcgen05/umma_ws_sp.hpp"
#include "scenario/parse.hpp"

#include <algorithm>
#include <string>

namespace layoutscope::scn {
namespace {

constexpr const char* kMmaRef = "PTX ISA 9.2 §9.7.16.10.9 (tcgen05.mma), instruction descriptor §9.7.16.4.2";
constexpr const char* kScaleRef = "PTX ISA 9.2 §9.7.16.10.9 (tcgen05.mma .scale_vectorsize), §9.7.16.10.7; "
                                  "checked with ptxas 13.0";

// The K elements one scale factor covers for a block-scaled kind and its scale-vector qualifier ("" when
// omitted), with the rules ptxas 13.0 enforces: kind::mxf8f6f4 .scale_vec::1X | .block32 (the default);
// kind::mxf4 .scale_vec::2X | .block32 (the default); kind::mxf4nvf4 .scale_vec::2X | .block32 (32 elements)
// or .scale_vec::4X | .block16 (16), no default. kind::mxf4nvf4 needs PTX ISA 8.7; .block16 / .block32 and
// the default need 8.8; .scale_vec::NX is refused on the family (`f`) targets.
Result<uint32_t> ummaScaleVecSize(UmmaKind k, const std::string& q, const PtxTarget& t) {
    auto err = [](std::string msg, DiagCode code = DiagCode::InvalidValue) -> Result<uint32_t> {
        return Diagnostic{Severity::Error, code, {}, std::move(msg), kScaleRef, Provenance::PtxText};
    };
    const std::string kind = ummaKindName(k);
    const int ver = t.ptxMajor * 10 + t.ptxMinor;
    const std::string verText = std::to_string(t.ptxMajor) + "." + std::to_string(t.ptxMinor);
    if (k == UmmaKind::Mxf4nvf4 && ver < 87)
        return err(kind + " needs PTX ISA 8.7 or later (this scenario is " + verText + ")",
                   DiagCode::TargetMismatch);
    const bool named = q.rfind(".scale_vec::", 0) == 0, block = q == ".block16" || q == ".block32";
    if (!q.empty() && !named && !block)
        return err("'" + q + "': expected .scale_vec::1X, ::2X, ::4X, .block16 or .block32");
    if ((q.empty() || block) && ver < 88)
        return err(std::string(q.empty() ? "an omitted scale vector size (.block32)" : q) +
                       " needs PTX ISA 8.8 or later (this scenario is " + verText + "); .scale_vec::" +
                       (k == UmmaKind::Mxf8f6f4 ? "1X"
                        : k == UmmaKind::Mxf4   ? "2X"
                                                : "2X / 4X") +
                       " is the older spelling",
                   DiagCode::TargetMismatch);
    if (named && !t.sm.empty() && t.sm.back() == 'f')
        return err(q + " is not supported on the family target " + t.sm + " (ptxas); use the " +
                       (q == ".scale_vec::4X" ? ".block16" : ".block32") + " spelling there",
                   DiagCode::TargetMismatch);
    const std::string rule =
        kind == "kind::mxf8f6f4"
            ? "kind::mxf8f6f4 takes .scale_vec::1X or .block32 (one scale factor per 32 elements of K)"
        : kind == "kind::mxf4"
            ? "kind::mxf4 takes .scale_vec::2X or .block32 (one scale factor per 32 elements of K)"
            : "kind::mxf4nvf4 takes .scale_vec::2X / .block32 (32 elements a scale factor) or "
              ".scale_vec::4X / .block16 (16)";
    if (q.empty()) {
        if (k == UmmaKind::Mxf4nvf4) return err("kind::mxf4nvf4 needs a scale vector size: " + rule);
        return 32u;
    }
    if (q == ".block32" || (q == ".scale_vec::1X" && k == UmmaKind::Mxf8f6f4) ||
        (q == ".scale_vec::2X" && k != UmmaKind::Mxf8f6f4))
        return 32u;
    if ((q == ".block16" || q == ".scale_vec::4X") && k == UmmaKind::Mxf4nvf4) return 16u;
    return err(q + " cannot be combined with " + kind + ": " + rule);
}

// The opcode tokens of a tcgen05.mma without .ws, .sp and `.collector::bN::op` (the .ws collector usage),
// which come right after `.mma` (.ws before .sp) and last; an error for any other place or spelling.
struct FormTokens {
    std::vector<OpcodeToken> opc;
    bool ws = false, sp = false;
    UmmaCollector collector;
    std::optional<std::string> error;
    SourceSpan errorSpan;
    DiagCode errorCode = DiagCode::InvalidValue;
};

FormTokens formTokens(const ParsedInstr& in) {
    FormTokens f;
    auto bad = [&](const OpcodeToken& t, std::string msg, DiagCode code = DiagCode::InvalidValue) {
        f.error = std::move(msg);
        f.errorSpan = t.span;
        f.errorCode = code;
        return f;
    };
    for (size_t i = 0; i < in.opcode.size(); ++i) {
        const OpcodeToken& t = in.opcode[i];
        if (t.text == ".ws" || t.text == ".sp") {
            const bool first = i == 2 && f.opc.size() == 2, second = i == 3 && f.ws && t.text == ".sp";
            if (!first && !second)
                return bad(t, t.text + " goes right after tcgen05.mma (`tcgen05.mma.ws.sp.cta_group::1...`, "
                                       "PTX ISA 9.2 §9.7.16.10.9)");
            (t.text == ".ws" ? f.ws : f.sp) = true;
            continue;
        }
        if (t.text.rfind(".collector::", 0) == 0) {
            if (!f.ws)
                return bad(t,
                           t.text + ": the scenario models the collector usage of tcgen05.mma.ws "
                                    "(.collector::b0..b3::fill|use|lastuse|discard); the .collector::a forms "
                                    "are not modelled",
                           DiagCode::Unsupported);
            static const char* kOps[] = {"discard", "fill", "use", "lastuse"}; // UmmaCollectorOp order
            const std::string q = t.text.substr(12);                           // after ".collector::"
            const size_t sep = q.find("::");
            const std::string buf = q.substr(0, sep),
                              what = sep == std::string::npos ? "" : q.substr(sep + 2);
            const auto it = std::find(std::begin(kOps), std::end(kOps), what);
            if (buf.size() != 2 || buf[0] != 'b' || buf[1] < '0' || buf[1] > '3' || it == std::end(kOps))
                return bad(t, "'" + t.text +
                                  "': expected .collector::b0, ::b1, ::b2 or ::b3 then ::fill, ::use, "
                                  "::lastuse or ::discard (PTX ISA 9.2 §9.7.16.10.9.3)");
            if (i + 1 != in.opcode.size())
                return bad(t, t.text + " comes last (`...kind::f16" + t.text + "`)");
            f.collector = {uint32_t(buf[1] - '0'), static_cast<UmmaCollectorOp>(it - std::begin(kOps))};
            continue;
        }
        f.opc.push_back(t);
    }
    return f;
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
    // tcgen05.mma{.ws}{.sp}.cta_group::N.kind::K{.collector::bN::op}, qualifiers in this order; the
    // block-scaled kinds add .block_scale and an optional scale vector size. `opc`: the tokens without .ws,
    // .sp and the collector usage, which umma_ws_sp.hpp models.
    const FormTokens ft = formTokens(in);
    if (ft.error) return fail(ft.errorSpan, *ft.error, ft.errorCode);
    const std::vector<OpcodeToken>& opc = ft.opc;
    const bool ws = ft.ws, sp = ft.sp;
    const bool blockScale = opc.size() > 4 && opc[4].text == ".block_scale";
    if (!blockScale && opc.size() > 4 && opc.size() <= 5 && opc[3].text.rfind(".kind::mx", 0) == 0)
        return fail(opc[4].span, opc[3].text.substr(1) + " needs .block_scale before " + opc[4].text +
                                     " (`...." + opc[3].text.substr(1) + ".block_scale" + opc[4].text + "`)");
    if (opc.size() < 4 || opc.size() > (blockScale ? 6u : 4u) ||
        (opc[2].text != ".cta_group::1" && opc[2].text != ".cta_group::2"))
        return fail(
            in.span,
            "the scenario models tcgen05.mma{.ws}{.sp}.cta_group::1|2.kind::f16|tf32|f8f6f4|i8"
            "{.collector::bN::op} and .kind::mxf8f6f4|mxf4|mxf4nvf4.block_scale{.scale_vec::NX|.block16|"
            ".block32}; other forms (.collector::a, .ashift, disable-output-lane, scale-input-d) are not "
            "modelled yet",
            DiagCode::Unsupported);
    const std::string& kind = opc[3].text;
    UmmaKind k = UmmaKind::F16;
    if (kind == ".kind::tf32")
        k = UmmaKind::Tf32;
    else if (kind == ".kind::f8f6f4")
        k = UmmaKind::F8f6f4;
    else if (kind == ".kind::i8")
        k = UmmaKind::I8;
    else if (kind == ".kind::mxf8f6f4")
        k = UmmaKind::Mxf8f6f4;
    else if (kind == ".kind::mxf4")
        k = UmmaKind::Mxf4;
    else if (kind == ".kind::mxf4nvf4")
        k = UmmaKind::Mxf4nvf4;
    else if (kind != ".kind::f16")
        return fail(opc[3].span,
                    kind +
                        " is not modelled (kind::f16, tf32, f8f6f4, i8 and the block-scaled mxf8f6f4, mxf4 "
                        "and mxf4nvf4 are)",
                    DiagCode::Unsupported);
    if (ummaKindBlockScaled(k) != blockScale)
        return fail(blockScale ? opc[4].span : opc[3].span,
                    blockScale ? kind + " has no .block_scale form (only kind::mxf8f6f4, mxf4, mxf4nvf4)"
                               : kind + " needs .block_scale (`" + opc[0].text + ".mma" + opc[2].text + kind +
                                     ".block_scale ...`)");
    if (ws && (opc[2].text != ".cta_group::1" || blockScale))
        return fail(ws && opc[2].text != ".cta_group::1" ? opc[2].span : opc[3].span,
                    blockScale ? "tcgen05.mma.ws has no block-scaled kinds: kind::f16, tf32, f8f6f4 or i8 "
                                 "(PTX ISA 9.2 §9.7.16.10.9.3)"
                               : "tcgen05.mma.ws is .cta_group::1 only (PTX ISA 9.2 §9.7.16.10.9.3)");
    if (sp && blockScale)
        return fail(opc[4].span,
                    "tcgen05.mma.sp with .block_scale is not modelled (the dense-kind .sp forms are)",
                    DiagCode::Unsupported);
    uint32_t vecSize = 0;
    if (blockScale) {
        const SourceSpan vsSpan = opc.size() > 5 ? opc[5].span : opc[4].span;
        const Result<uint32_t> vs = ummaScaleVecSize(k, opc.size() > 5 ? opc[5].text : "", ctx.ptxTarget());
        if (!vs) {
            const Diagnostic& e = vs.diagnostics()[0];
            ctx.error(e.code, vsSpan, e.message, e.ruleRef, e.provenance);
            return false;
        }
        vecSize = *vs;
    }
    // Operands: [d-tmem], a-desc|[a-tmem], b-desc, {[sp-meta-tmem] (.sp),} idesc, {[scale-A-tmem],
    // [scale-B-tmem] (.block_scale),} enable-input-d {, zero-column-mask-desc (.ws)}.
    const size_t meta = sp ? 1 : 0, at = 3 + meta; // idesc's index
    const size_t nOperands = blockScale ? 7 : 5 + meta;
    const bool zcm = ws && in.operands.size() == nOperands + 1;
    if (in.operands.size() != nOperands && !zcm)
        return fail(in.span, std::string("expected [d-tmem], a-desc or [a-tmem], b-desc, ") +
                                 (sp ? "[sp-meta-tmem], " : "") + "idesc, " +
                                 (blockScale ? "[scale-A-tmem], [scale-B-tmem], " : "") + "enable-input-d" +
                                 (ws ? " {, zero-column-mask-desc}" : "") + " (got " +
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
    const auto dm = db && sp ? tmemOperand(in.operands[3], "sp-meta-tmem") : db;
    const auto id = dm ? scalar(in.operands[at], "idesc") : std::nullopt;
    if (!id) return false;
    if (*id < 0 || *id > 0xFFFFFFFFll) return fail(in.operands[at].span, "idesc is a 32-bit value");
    const auto zc = zcm ? scalar(in.operands[nOperands], "zero-column-mask-desc") : std::optional<int64_t>(0);
    if (!zc) return false;
    const uint32_t group = opc[2].text == ".cta_group::2" ? 2 : 1;
    std::optional<int64_t> sfa, sfb;
    if (blockScale) {
        sfa = tmemOperand(in.operands[4], "scale-A-tmem");
        sfb = sfa ? tmemOperand(in.operands[5], "scale-B-tmem") : std::nullopt;
        if (!sfb) return false;
    }
    Result<UmmaOp> op = blockScale ? decodeUmmaIdescBlockScaled(k, group, vecSize, uint32_t(*id))
                                   : decodeUmmaIdesc(k, group, uint32_t(*id), UmmaForm{ws, sp});
    if (!op) {
        const Diagnostic& e = op.diagnostics()[0];
        ctx.error(e.code, in.operands[at].span, e.message, e.ruleRef, e.provenance);
        return false;
    }
    if (zcm) { // the descriptor's fields are checked here, where the scenario can point at it
        const Result<UmmaZeroColumns> z = ummaZeroColumnMask(op->m, op->n, uint64_t(*zc));
        if (!z) {
            const Diagnostic& e = z.diagnostics()[0];
            ctx.error(e.code, in.operands[nOperands].span, e.message, e.ruleRef, e.provenance);
            return false;
        }
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
    u.elemBits = std::max(8u, ummaTypeBits(op->a)); // e2m1: the operand check compares packed byte pairs
    u.transA = op->transA;
    u.transB = op->transB;
    u.op = *op;
    u.op.descA = u.descA;
    u.op.descB = u.descB;
    u.op.aFromTmem = aTmem;
    u.op.aTaddr = aTmem ? uint32_t(*da) : 0;
    u.op.dTaddr = u.dTaddr;
    u.op.spMetaTaddr = sp ? uint32_t(*dm) : 0;
    u.op.collector = ft.collector;
    u.op.hasZeroColumnMask = zcm;
    u.op.zeroColumnMask = uint64_t(*zc);
    // Scale-factor addresses: bits [31:30] carry CuTe's SF id (make_runtime_instr_desc_block_scaled copies
    // them into the idesc); the byte used is the idesc's, the lane and column are bits [16,30) and [0,16).
    u.op.sfaTaddr = blockScale ? uint32_t(*sfa) & 0x3FFFFFFFu : 0;
    u.op.sfbTaddr = blockScale ? uint32_t(*sfb) & 0x3FFFFFFFu : 0;
    // enable-input-d: an immediate or a let name; a predicate register name (PTX's form) has no value in a
    // scenario and is taken as false (D = A*B), which the run's summary says.
    const Operand& en = in.operands[nOperands - 1];
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
