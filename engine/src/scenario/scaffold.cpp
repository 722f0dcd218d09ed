// scaffoldScenario: a PTX kernel's data-movement instructions as a scenario to fill in
// (docs/ptx-modules.md "Scaffold").
//
// Each register operand a scenario needs a value for becomes a declaration, named after what the
// kernel moved into the register when a `mov`/`cvta` shows it (`mov.u32 %r8, _ZZ4kernE4tile` gives
// `tile`, `mov.b64 %rd1, k_param_0` gives `k_param_0`), else after its role and the register
// (`smem_r11`, `bar_r7`, `map_rd5`, `v_r2`). Defaults: tensor maps FLOAT16 with a 64-element box
// (64x64 for rank 2 and up; im2col 64 channels x 32 pixels), coordinates and TMEM addresses 0, counts
// 1, allocations 32 columns, expect_tx the bytes the defaults move to that barrier.
//
// The Scaffolder (scaffold_detail.hpp) is split by concern: this file holds the entry point and the
// per-instruction dispatch, scaffold_operands.cpp the declarations, scaffold_text.cpp the output.
#include "layoutscope/scenario/scaffold.hpp"
#include "scenario/scaffold_detail.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace layoutscope {

namespace scaffold {

std::string Scaffolder::run(const std::string& source) {
    for (const PtxModuleInstr& mi : m_fn.instrs) instruction(mi);
    return text(source);
}

void Scaffolder::instruction(const PtxModuleInstr& mi) {
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

} // namespace scaffold

Result<std::string> scaffoldScenario(const PtxModule& module, const ScaffoldOptions& options) {
    const auto entries = module.entries();
    auto names = [&] {
        std::string s;
        for (const PtxFunction* f : entries) s += (s.empty() ? "" : ", ") + f->name;
        return s;
    };
    // A scenario runs on sm_90 or later (its `target` directive refuses the rest: no TMA); the validator also
    // knows sm_75 ... sm_89 (issue 21), whose modules `check` takes but cannot scaffold.
    const std::string& sm = module.target.sm;
    if (sm.size() > 3 && sm.compare(0, 3, "sm_") == 0 && std::isdigit(static_cast<unsigned char>(sm[3])) &&
        std::atoi(sm.c_str() + 3) < 90)
        return Diagnostic{
            Severity::Error,
            DiagCode::TargetMismatch,
            module.targetSpan,
            "a scenario needs sm_90 or later (it runs TMA and mbarrier transactions); this module is "
            ".target " +
                sm + ": `layoutscope-cli check` validates its instructions, scaffold cannot run them",
            "docs/ptx-modules.md (scaffold)",
            Provenance::ToolFormat};
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
    scaffold::Scaffolder s(module, *fn);
    return s.run(options.sourceName.empty() ? std::string("the PTX module") : options.sourceName);
}

} // namespace layoutscope
