// wgmma and st.shared in the CUDA repro (issue 23 item 5: the Hopper races of a reload before the MMA's
// release and of a TMA store without fence.proxy.async run on hardware). wgmma.mma_async's D lives in
// kernel-scope accumulators (`acc_N`: f32 scalars, never indexed, so never in local memory; f16x2 D in the
// register file `r`) that stay in registers from the issue to wgmma.wait_group, whose asm names them (the
// compiler must not read them earlier); after wait_group 0 they are copied into `r`, which the host compares
// with the engine's D. PTX ISA 9.2 §9.7.15.
#include "scenario/export_cuda_detail.hpp"

#include <cstdio>

namespace layoutscope::cudaexport {
namespace {

std::string opcodeOf(const std::string& text) {
    return text.substr(0, text.find_first_of(" \t\n;"));
}

// asm operand constraints naming every accumulator: "+f"(acc_5) for f32 D, "+r"(r[5]) for f16x2 D.
std::string accOperands(const WgmmaRegisters& regs) {
    std::string out;
    for (uint32_t j : regs.f32)
        out += std::string(out.empty() ? "" : ", ") + "\"+f\"(acc_" + std::to_string(j) + ")";
    for (uint32_t j : regs.b32)
        out += std::string(out.empty() ? "" : ", ") + "\"+r\"(r[" + std::to_string(j) + "])";
    return out;
}

} // namespace

WgmmaRegisters wgmmaRegisters(const Scenario& s) {
    WgmmaRegisters regs;
    for (const ScenarioInstr& in : s.instrs) {
        if (!in.wgmma) continue;
        for (uint32_t j : in.wgmma->dRegs) (in.wgmma->dBits == 32 ? regs.f32 : regs.b32).insert(j);
        regs.groups.emplace(std::pair{in.cta, in.warp / 4}, in.span.line);
    }
    return regs;
}

Result<AsmStatement> wgmmaStatement(const ScenarioInstr& in, const WgmmaRegisters& regs) {
    const std::string opcode = opcodeOf(in.text);
    AsmStatement st;
    st.warp = in.warp;
    st.wholeWarp = true;
    st.warpgroup = static_cast<int>(in.warp / 4);
    const std::string where = " // line " + std::to_string(in.span.line);
    if (opcode == "wgmma.fence.sync.aligned" || opcode == "wgmma.commit_group.sync.aligned") {
        st.code = "asm volatile(\"" + opcode + ";\" ::: \"memory\");" + where;
        return st;
    }
    if (opcode == "wgmma.wait_group.sync.aligned") {
        const size_t sp = in.text.find_first_of(" \t");
        unsigned n = 0;
        if (sp == std::string::npos || std::sscanf(in.text.c_str() + sp, " %u", &n) != 1)
            return unsupported(in, "a wgmma.wait_group whose N is not an integer literal");
        const std::string ops = accOperands(regs);
        st.code = "asm volatile(\"wgmma.wait_group.sync.aligned " + std::to_string(n) + ";\"" +
                  (ops.empty() ? std::string(" ::: ") : " : " + ops + " :: ") + "\"memory\");" + where;
        if (n == 0) // every wgmma completed: D into the compared register file
            for (uint32_t j : regs.f32)
                st.code += "\nr[" + std::to_string(j) + "] = __float_as_uint(acc_" + std::to_string(j) + ");";
        return st;
    }
    if (!in.wgmma) return unsupported(in, "'" + opcode + "'");
    const WgmmaRead& w = *in.wgmma;
    // { .reg .pred P2; setp.ne.b32 P2, scale-d, 0; wgmma.mma_async... {d}, descA, descB, P2, sa, sb, ta, tb;
    // }
    std::string outs, dList;
    for (size_t j = 0; j < w.dRegs.size(); ++j) {
        const std::string ref =
            w.dBits == 32 ? "acc_" + std::to_string(w.dRegs[j]) : "r[" + std::to_string(w.dRegs[j]) + "]";
        outs += std::string(j ? ", " : "") + (w.dBits == 32 ? "\"+f\"(" : "\"+r\"(") + ref + ")";
        dList += std::string(j ? ", " : "") + "%" + std::to_string(j);
    }
    const size_t n = w.dRegs.size();
    char descs[96];
    std::snprintf(descs, sizeof descs, "0x%016llxull, sb)), \"l\"(movedDescriptor(0x%016llxull",
                  static_cast<unsigned long long>(w.descA), static_cast<unsigned long long>(w.descB));
    st.code = "asm volatile(\"{ .reg .pred P2; setp.ne.b32 P2, %" + std::to_string(n + 2) + ", 0; " + opcode +
              " {" + dList + "}, %" + std::to_string(n) + ", %" + std::to_string(n + 1) + ", P2, " +
              (w.negA ? "-1" : "1") + ", " + (w.negB ? "-1" : "1") + ", " + (w.transA ? "1" : "0") + ", " +
              (w.transB ? "1" : "0") + "; }\"\n             : " + outs +
              "\n             : \"l\"(movedDescriptor(" + descs + ", sb)), \"r\"(" +
              (w.scaleD ? "1u" : "0u") + ")\n             : \"memory\");" + where;
    return st;
}

Result<AsmStatement> storeStatement(const ScenarioInstr& in, const Run& run) {
    const SmemAccess& a = *in.smemAccess;
    if (a.srcRegs.empty())
        return unsupported(in,
                           "an st.shared whose source is not a register %r0..%r127 (its data is unknown)");
    bool modelled = false;
    for (const ScenarioWarp& w : run.warps) modelled |= w.cta == in.cta && w.warp == in.warp;
    if (!modelled)
        return unsupported(in,
                           "an st.shared of a warp without register values (its data is unknown: give the "
                           "warp `regs pattern=...`)");
    const std::string opcode = opcodeOf(in.text);
    AsmStatement st;
    st.warp = in.warp;
    st.wholeWarp = true;
    std::string addr, srcs, cons;
    for (uint32_t l = 0; l < 32; ++l) addr += (l ? ", " : "") + std::to_string(a.addr[l]) + "u";
    for (size_t e = 0; e < a.srcRegs.size(); ++e) {
        srcs += std::string(e ? ", " : "") + "%" + std::to_string(e + 1);
        cons += ", \"r\"(r[" + std::to_string(a.srcRegs[e]) + "])";
    }
    if (a.srcRegs.size() > 1) srcs = "{" + srcs + "}";
    st.code = "{ // line " + std::to_string(in.span.line) +
              ": st.shared by each active lane from its registers\n" + "    const uint32_t addr[32] = {" +
              addr + "}; // scenario shared::cta addresses\n    if ((" + std::to_string(a.activeMask) +
              "u >> lane) & 1)\n        asm volatile(\"" + opcode + " [%0], " + srcs +
              ";\" :: \"r\"(sb + (addr[lane] - kSmemBase))" + cons + " : \"memory\");\n}";
    return st;
}

} // namespace layoutscope::cudaexport
