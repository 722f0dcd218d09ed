// Scenario instructions: parse (ptx_parse.cpp), validate as ptxas would (ptx_validate.cpp), then
// lower to an executable ScenarioInstr, checking what only the scenario knows: declared names,
// buffer sizes, where buffers and barriers live, and coordinate values. This file dispatches each
// instruction; the tma/mbarrier lowering is ops_tma.cpp with its operand binders in lowering.cpp.
#include "layoutscope/ptx/instruction.hpp"
#include "ptx/lex.hpp"
#include "ptx/rules.hpp"
#include "scenario/lowering.hpp"
#include "scenario/parse.hpp"

namespace layoutscope::scn {
namespace {

std::string displayText(std::string_view text) {
    std::string out;
    bool space = false;
    for (char c : text) {
        if (lex::isSpace(c)) {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += c;
    }
    return out;
}

bool startsWith(const ParsedInstr& in, std::initializer_list<const char*> toks) {
    size_t i = 0;
    for (const char* t : toks) {
        if (i >= in.opcode.size() || in.opcode[i].text != t) return false;
        ++i;
    }
    return true;
}

bool isNoOp(const ParsedInstr& in) {
    return startsWith(in, {"fence"}) || startsWith(in, {"cp", ".async", ".bulk", ".commit_group"}) ||
           startsWith(in, {"cp", ".async", ".bulk", ".wait_group"}) ||
           startsWith(in, {"barrier", ".cluster"});
}

} // namespace

void applyInstruction(Context& ctx, std::string_view text, int line, int column, bool terminated) {
    if (isSmemAccess(text)) { // its address is an expression of the lane: not a PTX operand
        if (!terminated)
            ctx.error(DiagCode::Syntax, {line, column + int(text.size()), 1},
                      "expected ';' at the end of the instruction (scenario instructions end with ';')",
                      "PTX ISA 9.2 §4 (statements end with ';')", Provenance::PtxText);
        else
            lowerSmemAccess(ctx, text, line, column);
        return;
    }
    auto parsed = parseInstruction(text, line, column);
    if (!parsed) {
        for (const auto& d : parsed.diagnostics()) ctx.diags.push_back(d);
        return;
    }
    const ParsedInstr& in = *parsed;
    if (!terminated) {
        const SourceSpan& s = in.operands.empty() ? in.opcode.back().span : in.operands.back().span;
        ctx.error(DiagCode::Syntax, {s.line, s.column + s.length, 1},
                  "expected ';' at the end of the instruction (scenario instructions end with ';')",
                  "PTX ISA 9.2 §4 (statements end with ';')", Provenance::PtxText);
        return;
    }
    if (!in.predicate.empty()) {
        ctx.error(DiagCode::Unsupported,
                  {in.span.line, in.span.column, static_cast<int>(in.predicate.size())},
                  "guarded instructions (" + in.predicate +
                      ") are not supported: a scenario runs every instruction");
        return;
    }
    ScenarioInstr out;
    out.text = displayText(text);
    out.span = in.span;
    out.cta = ctx.issuingCta;
    if (isTcgen05Mma(in)) { // scenario_umma.cpp: its own strict form check
        // The .ws / .sp forms are first checked by the validator (rules_tcgen05_mma.cpp: ptxas 13.0's forms,
        // targets and operand lists); the plain forms keep the lowering's own check.
        if ((in.hasToken(".ws") || in.hasToken(".sp")) && !ctx.targetInvalid)
            if (Status st = validateInstruction(in, ctx.ptxTarget()); !st) {
                for (Diagnostic d : st.diagnostics()) {
                    if (!d.span.valid()) d.span = in.span;
                    ctx.diags.push_back(std::move(d));
                }
                return;
            }
        if (lowerTcgen05Mma(ctx, in, out)) ctx.s.instrs.push_back(std::move(out));
        return;
    }
    if (isTcgen05(in)) { // scenario_tcgen05.cpp: the validator checks the form, lowering binds operands
        // Every form is validated, wait/commit/fence included (they then run as no-ops).
        if (!ctx.targetInvalid) {
            if (Status st = validateInstruction(in, ctx.ptxTarget()); !st) {
                for (Diagnostic d : st.diagnostics()) {
                    if (!d.span.valid()) d.span = in.span;
                    ctx.diags.push_back(std::move(d));
                }
                return;
            }
            // Kernel-wide rule (validateKernel): one .cta_group for all tcgen05 instructions,
            // reported once, like ptxas's function-level error.
            if (const int g = ptx::kernelCtaGroup(in); g && !ctx.ctaGroupFirst) {
                ctx.ctaGroupFirst = in;
            } else if (g && g != ptx::kernelCtaGroup(*ctx.ctaGroupFirst) && !ctx.ctaGroupMixReported) {
                ctx.diags.push_back(ptx::ctaGroupMixDiagnostic(*ctx.ctaGroupFirst, in));
                ctx.ctaGroupMixReported = true;
                return;
            }
        }
        if (lowerTcgen05(ctx, in, out)) ctx.s.instrs.push_back(std::move(out));
        return;
    }
    if (isWgmma(in)) { // scenario_wgmma.cpp
        if (lowerWgmma(ctx, in, out)) ctx.s.instrs.push_back(std::move(out));
        return;
    }
    const bool tensor = startsWith(in, {"cp", ".async", ".bulk", ".tensor"});
    const bool mbar = startsWith(in, {"mbarrier"});
    if (!tensor && !mbar) {
        if (!isNoOp(in)) {
            ctx.error(DiagCode::Unsupported, in.opcode[0].span,
                      "'" + in.opcodeText() +
                          "' is not supported in scenarios (supported: cp.async.bulk.tensor tile "
                          "loads and stores, mbarrier.init / arrive.expect_tx / try_wait, fence.proxy.async, "
                          "cp.async.bulk.commit_group / wait_group, tcgen05.*, wgmma.*)");
            return;
        }
        out.kind = ScenarioInstrKind::NoOp;
        ctx.s.instrs.push_back(std::move(out));
        return;
    }
    const bool validatorKnows =
        tensor ||
        (in.opcode.size() > 1 && (in.opcode[1].text == ".init" || in.opcode[1].text == ".arrive" ||
                                  in.opcode[1].text == ".try_wait" || in.opcode[1].text == ".test_wait"));
    if (validatorKnows && !ctx.targetInvalid) {
        if (Status st = validateInstruction(in, ctx.ptxTarget()); !st) {
            for (Diagnostic d : st.diagnostics()) {
                if (!d.span.valid()) d.span = in.span;
                ctx.diags.push_back(std::move(d));
            }
            return;
        }
    }
    Lowering low{ctx, in};
    if (tensor ? low.tma(out) : low.mbarrier(out)) ctx.s.instrs.push_back(std::move(out));
}

} // namespace layoutscope::scn
