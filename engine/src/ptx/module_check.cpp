// checkPtxModule: the PTX validator run over a whole module (docs/ptx-modules.md). The
// .target/.version pair is reported once, at its directive; each modelled instruction is validated
// with the declarations in scope at its line (so `%r9` is the 32-bit register `.reg .b32 %r<48>`
// declares, and an undeclared name is an error as in ptxas); each function gets the kernel-wide
// .cta_group rule.
#include "ptx/module_internal.hpp"
#include "ptx/rules.hpp"

#include <algorithm>
#include <set>

namespace layoutscope {

std::vector<Diagnostic> checkPtxModule(const PtxModule& module) {
    std::vector<Diagnostic> out = module.diagnostics;
    std::set<std::string> targetMessages;
    if (auto tv = validateTargetVersion(module.target); !tv) {
        for (Diagnostic d : tv.diagnostics()) {
            targetMessages.insert(d.message);
            d.span = module.targetSpan; // where ptxas 13.0 reports it: "PTX .version 8.5 does not support
                                        // .target sm_100a"
            out.push_back(std::move(d));
        }
    }
    // ptxas 13.0: `.address_size 32` is fatal for every target this validator knows: "32-Bit ABI (--machine
    // 32 or 32-Bit addressing) is not supported on sm_90 or higher", and for sm_75 ... sm_89 "32-Bit
    // compilation is no longer supported".
    if (module.addressSize == 32)
        out.push_back(Diagnostic{
            Severity::Error, DiagCode::TargetMismatch, module.addressSizeSpan,
            "`.address_size 32` is not supported on any target of CUDA 13.0 (.target " + module.target.sm +
                "): ptxas 13.0 refuses 32-bit addressing; write `.address_size 64`",
            "PTX ISA 9.2 §11.3.3 (.address_size); ptxas 13.0 fatal error", Provenance::Ptxas});
    for (const PtxFunction& fn : module.functions) {
        const PtxModuleInstr* first[3] = {nullptr, nullptr, nullptr};
        for (const PtxModuleInstr& mi : fn.instrs) {
            if (const int g = ptx::kernelCtaGroup(mi.instr); g && !first[g]) first[g] = &mi;
            if (!mi.modelled) continue;
            const Status s = validateInstruction(mi.instr, module.target, fn.envs[mi.envIndex]);
            if (s) continue;
            for (const Diagnostic& d : s.diagnostics())
                if (!targetMessages.count(d.message)) out.push_back(d);
        }
        if (first[1] && first[2]) {
            const bool oneFirst = first[1] < first[2]; // both point into fn.instrs
            out.push_back(
                ptx::ctaGroupMixDiagnostic(first[oneFirst ? 1 : 2]->instr, first[oneFirst ? 2 : 1]->instr));
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const Diagnostic& a, const Diagnostic& b) {
        if (a.span.line != b.span.line) return a.span.line < b.span.line;
        return a.span.column < b.span.column;
    });
    return out;
}

} // namespace layoutscope
