// wgmma in scenarios (PTX ISA 9.2 §9.7.15): wgmma.fence / commit_group / wait_group run as no-ops;
// wgmma.mma_async with A and B from shared-memory matrix descriptors is lowered to the operand fetch the
// run checks against the TMA tiles behind the descriptors (consumer_checks.cpp) and to D computed into the
// {d...} registers of the warpgroup (wgmma_d.cpp). Only the forms the consumer model covers are accepted:
// m64nNk16 with .f16/.bf16 inputs, .f32/.f16 accumulators.
#include "scenario/parse.hpp"

#include <string>

namespace layoutscope::scn {
namespace {

constexpr const char* kWgmmaRef = "PTX ISA 9.2 §9.7.15.5.2 (wgmma.mma_async)";

} // namespace

std::optional<int64_t> letOrImmediate(Context& ctx, const Operand& op, const char* role, const char* ref) {
    if (op.kind == OperandKind::Immediate) return op.imm;
    if (const NameInfo* ni = ctx.lookup(op.text); ni && ni->kind == NameKind::Let) return ni->value;
    if (!ctx.poisoned.count(op.text)) // a name whose declaration failed was reported there
        ctx.error(DiagCode::InvalidValue, op.span,
                  std::string(role) + " '" + op.text +
                      "' must be an integer or a name bound with 'desc' or 'let'",
                  ref, Provenance::PtxText);
    return std::nullopt;
}

bool isWgmma(const ParsedInstr& in) {
    return !in.opcode.empty() && in.opcode[0].text == "wgmma";
}

bool lowerWgmma(Context& ctx, const ParsedInstr& in, ScenarioInstr& out) {
    auto fail = [&](SourceSpan sp, std::string msg, DiagCode code = DiagCode::InvalidValue) {
        ctx.error(code, sp, std::move(msg), kWgmmaRef, Provenance::PtxText);
        return false;
    };
    const std::string what = in.opcode.size() > 1 ? in.opcode[1].text : "";
    if (ctx.ptxTarget().sm != "sm_90a")
        return fail(in.opcode[0].span, "wgmma needs target sm_90a (this scenario targets " +
                                           ctx.ptxTarget().sm + "); Blackwell's MMA is tcgen05.mma");
    if (what == ".fence" || what == ".commit_group" || what == ".wait_group") {
        out.kind = ScenarioInstrKind::NoOp; // ordering only
        return true;
    }
    if (what != ".mma_async")
        return fail(in.opcode[0].span, "wgmma" + what +
                                           " is not a wgmma instruction (fence, commit_group, "
                                           "wait_group, mma_async)");
    // wgmma.mma_async.sync.aligned.shape.dtype.atype.btype
    if (in.opcode.size() != 8 || in.opcode[2].text != ".sync" || in.opcode[3].text != ".aligned")
        return fail(in.span, "expected wgmma.mma_async.sync.aligned.m64nNk16.dtype.atype.btype");
    const std::string& shape = in.opcode[4].text;
    const std::string mid = shape.size() > 8 ? shape.substr(5, shape.size() - 8) : std::string();
    if (shape.rfind(".m64n", 0) != 0 || shape.size() <= 8 || shape.compare(shape.size() - 3, 3, "k16") != 0 ||
        mid.empty() || mid.size() > 3 || mid.find_first_not_of("0123456789") != std::string::npos)
        return fail(in.opcode[4].span, "shape " + shape + " is not .m64nNk16 (the .f16/.bf16 forms)");
    const unsigned n = unsigned(std::stoul(mid));
    if (n < 8 || n > 256 || n % 8 != 0)
        return fail(in.opcode[4].span,
                    "N = " + std::to_string(n) + " in " + shape + ": N is a multiple of 8 in 8..256");
    const std::string &dtype = in.opcode[5].text, &atype = in.opcode[6].text, &btype = in.opcode[7].text;
    if (atype != btype || (atype != ".f16" && atype != ".bf16"))
        return fail(in.opcode[6].span,
                    "input types " + atype + btype +
                        ": the consumer model covers .f16.f16 and .bf16.bf16 (others are not "
                        "modelled yet)",
                    DiagCode::Unsupported);
    if (dtype != ".f32" && !(dtype == ".f16" && atype == ".f16"))
        return fail(in.opcode[5].span,
                    "accumulator " + dtype + " with " + atype + " inputs: .f32, or .f16 with .f16");
    if (in.operands.size() != 8)
        return fail(in.span,
                    "wgmma.mma_async takes 8 operands: {d...}, a-desc, b-desc, scale-d, imm-scale-a, "
                    "imm-scale-b, imm-trans-a, imm-trans-b (got " +
                        std::to_string(in.operands.size()) + ")");
    const Operand& d = in.operands[0];
    const size_t dRegs = dtype == ".f32" ? n / 2 : n / 4;
    if (d.kind != OperandKind::Vector || d.elements.size() != dRegs)
        return fail(d.span,
                    "d must be a vector of " + std::to_string(dRegs) + " registers for " + shape + dtype);
    std::vector<uint32_t> dNumbers; // D lands in these registers of the scenario's register model
    for (const Operand& e : d.elements) {
        const auto r = registerNumber(e.text);
        if (!r)
            return fail(e.span,
                        "register '" + e.text + "' must end in its number 0.." +
                            std::to_string(kScenarioRegsPerThread - 1) +
                            " (%f5, r5): D is written to the scenario's registers by number",
                        DiagCode::InvalidValue);
        dNumbers.push_back(*r);
    }
    if (in.operands[1].kind == OperandKind::Vector)
        return fail(in.operands[1].span,
                    "A from registers is not modelled: give a-desc (a shared-memory descriptor)",
                    DiagCode::Unsupported);
    auto scalar = [&](const Operand& op, const char* role) {
        return letOrImmediate(ctx, op, role, kWgmmaRef);
    };
    WgmmaRead w;
    w.n = n;
    w.elemBits = 16;
    const auto da = scalar(in.operands[1], "a-desc"), db = scalar(in.operands[2], "b-desc");
    if (!da || !db) return false;
    w.descA = uint64_t(*da);
    w.descB = uint64_t(*db);
    w.descAName = in.operands[1].text;
    w.descBName = in.operands[2].text;
    for (int i = 4; i <= 7; ++i) {
        const Operand& op = in.operands[size_t(i)];
        const bool scale = i <= 5;
        if (op.kind != OperandKind::Immediate ||
            (scale ? (op.imm != 1 && op.imm != -1) : (op.imm != 0 && op.imm != 1)))
            return fail(op.span, std::string(scale ? "imm-scale-" : "imm-trans-") + (i % 2 == 0 ? "a" : "b") +
                                     " must be the immediate " + (scale ? "1 or -1" : "0 or 1"));
    }
    w.expectA = ctx.expectA;
    w.expectB = ctx.expectB;
    w.transA = in.operands[6].imm == 1;
    w.transB = in.operands[7].imm == 1;
    w.negA = in.operands[4].imm == -1;
    w.negB = in.operands[5].imm == -1;
    w.dRegs = std::move(dNumbers);
    w.dBits = dtype == ".f16" ? 16 : 32;
    w.bf16 = atype == ".bf16";
    // scale-d: an immediate or a let name; a predicate register name (PTX's form) has no value in a
    // scenario and is taken as 0 (D = A*B), which the run's summary says (as tcgen05.mma's enable-input-d).
    const Operand& sd = in.operands[3];
    w.scaleDText = sd.text;
    if (sd.kind == OperandKind::Immediate) {
        w.scaleD = sd.imm != 0;
    } else if (const NameInfo* ni = ctx.lookup(sd.text); ni && ni->kind == NameKind::Let) {
        w.scaleD = ni->value != 0;
    } else if (ni) {
        return fail(sd.span, "scale-d '" + sd.text + "' must be 0, 1, a let name or a predicate name");
    } else {
        w.scaleDKnown = false;
    }
    out.warp = ctx.issuingWarp; // its warpgroup: warps 4 (warp / 4) .. + 3 of the CTA
    out.kind = ScenarioInstrKind::NoOp;
    out.wgmma = std::move(w);
    return true;
}

void expectDirective(Context& ctx, const std::vector<Tok>& toks) {
    auto fail = [&](SourceSpan sp, std::string msg) {
        ctx.error(DiagCode::InvalidValue, sp, std::move(msg));
    };
    if (toks.size() > 1 && toks[1].text == "fragment")
        return fragmentDirective(ctx, toks); // fragment_check.cpp
    if (toks.size() < 2 || (toks[1].text != "A" && toks[1].text != "B")) {
        fail(toks.size() > 1 ? toks[1].span : toks[0].span,
             "expected 'expect A|B tensor=NAME m=dimI k=dimJ' (B: n=dimI): what the wgmma operand must see, "
             "or 'expect fragment SHAPE': the tcgen05.ld fragment the epilogue assumes");
        return;
    }
    const bool b = toks[1].text == "B";
    OperandExpectation e;
    e.span = toks[1].span;
    bool haveTensor = false, haveMn = false, haveK = false;
    for (size_t i = 2; i < toks.size(); i += 3) {
        if (i + 2 >= toks.size() || toks[i + 1].text != "=") {
            fail(toks[i].span, "expected KEY=VALUE (tensor=, " + std::string(b ? "n=" : "m=") + ", k=)");
            return;
        }
        const std::string& k = toks[i].text;
        const Tok& v = toks[i + 2];
        if (k == "tensor") {
            const NameInfo* ni = ctx.lookup(v.text);
            if (!ni || ni->kind != NameKind::TensorMap) {
                fail(v.span, "'" + v.text + "' is not a tensor map declared above");
                return;
            }
            e.tensor = v.text;
            haveTensor = true;
            continue;
        }
        if (k != (b ? "n" : "m") && k != "k") {
            fail(toks[i].span, "unknown key '" + k + "' (tensor=, " + (b ? "n=" : "m=") + ", k=)");
            return;
        }
        if (v.text != "dim0" && v.text != "dim1") {
            fail(v.span,
                 k + "=" + v.text + ": give dim0 or dim1 (the tensor dimension this index runs along)");
            return;
        }
        const uint32_t dim = v.text == "dim0" ? 0 : 1;
        if (k == "k")
            e.kDim = dim, haveK = true;
        else
            e.mnDim = dim, haveMn = true;
    }
    if (!haveTensor || !haveMn || !haveK || e.mnDim == e.kDim) {
        fail(toks[1].span, std::string("expect ") + toks[1].text + " needs tensor=, " + (b ? "n=" : "m=") +
                               " and k= on different dimensions (e.g. m=dim1 k=dim0)");
        return;
    }
    (b ? ctx.expectB : ctx.expectA) = e;
}

} // namespace layoutscope::scn
