// Consumer reads in the CUDA repro (export_cuda_detail.hpp ObservedRead): a scenario's `ld.shared` runs on
// its warp's lanes and what each lane saw is compared with the engine's prediction, so a read that races an
// asynchronous write (a wait with the wrong parity, no wait at all) shows on hardware as a stale value
// (issue 23 item 5).
#include "scenario/export_cuda_detail.hpp"

#include <algorithm>

namespace layoutscope::cudaexport {

Result<ObservedRead> observedRead(ReadCursor& c, const Run& run, const ScenarioInstr& in, uint32_t offset) {
    const SmemAccess& a = *in.smemAccess;
    ObservedRead r;
    r.line = in.span.line;
    r.cta = in.cta, r.warp = in.warp, r.mask = a.activeMask, r.width = a.widthBytes, r.offset = offset;
    r.addr = a.addr;
    // The instruction's trace entry (it moves no byte): shared memory before it is what the read sees. Reads
    // come in program order, so the search goes on from the previous read's entry (linear in the trace).
    const auto& instrs = run.trace.instrs;
    for (; c.instr < instrs.size() && instrs[c.instr].sourceLine != in.span.line; ++c.instr) {
        const TraceInstr& ti = instrs[c.instr]; // the bytes before the read must be in the trace
        if (!ti.traced || (ti.bytesMoved && ti.firstMove == ti.endMove))
            return Diagnostic{
                Severity::Error,
                DiagCode::Unsupported,
                in.span,
                "export-cuda: the read's expected bytes need the run's trace, which was not recorded "
                "(run the scenario with the trace on)",
                "docs/export-cuda.md: what a repro covers",
                Provenance::PtxText};
    }
    if (c.instr == instrs.size())
        return Diagnostic{Severity::Error,
                          DiagCode::Unsupported,
                          in.span,
                          "export-cuda: the read has no place in the run's trace (was the run stopped?)",
                          "docs/export-cuda.md: what a repro covers",
                          Provenance::PtxText};
    Replay& rp = c.replay;
    rp.seek(instrs[c.instr].firstStep);
    const auto& smem = rp.state().smem.at(in.cta);
    r.predicted.assign(size_t(32) * r.width, 0);
    for (uint32_t l = 0; l < 32; ++l) {
        if (!(r.mask >> l & 1)) continue;
        if (uint64_t(r.addr[l]) + r.width > smem.size())
            return Diagnostic{Severity::Error,
                              DiagCode::InvalidValue,
                              in.span,
                              "export-cuda: lane " + std::to_string(l) + " reads past shared memory",
                              "docs/export-cuda.md: what a repro covers",
                              Provenance::PtxText};
        const auto bytes = smem.bytes().subspan(r.addr[l], r.width);
        std::copy(bytes.begin(), bytes.end(), r.predicted.begin() + size_t(l) * r.width);
    }
    return r;
}

AsmStatement readStatement(const ObservedRead& r) {
    AsmStatement st;
    st.warp = r.warp;
    st.wholeWarp = true;
    std::string addr;
    for (uint32_t l = 0; l < 32; ++l) addr += (l ? ", " : "") + std::to_string(r.addr[l]) + "u";
    const std::string dst =
        "obs + " + std::to_string(r.offset) + "u + lane * " + std::to_string(r.width) + "u";
    st.code = "{ // line " + std::to_string(r.line) +
              ": ld.shared by each active lane; what it saw goes to obs for the host to compare\n"
              "    const uint32_t addr[32] = {" +
              addr + "}; // scenario shared::cta addresses\n    if ((" + std::to_string(r.mask) +
              "u >> lane) & 1) {\n        const uint32_t a = sb + (addr[lane] - kSmemBase);\n";
    if (r.width == 16)
        st.code +=
            "        uint32_t v[4];\n        asm volatile(\"ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];\" : "
            "\"=r\"(v[0]), \"=r\"(v[1]), \"=r\"(v[2]), \"=r\"(v[3]) : \"r\"(a) : \"memory\");\n"
            "        memcpy(" +
            dst + ", v, 16);\n";
    else if (r.width == 8)
        st.code += "        uint32_t v[2];\n        asm volatile(\"ld.shared.v2.b32 {%0, %1}, [%2];\" : "
                   "\"=r\"(v[0]), \"=r\"(v[1]) : \"r\"(a) : \"memory\");\n        memcpy(" +
                   dst + ", v, 8);\n";
    else if (r.width == 4)
        st.code +=
            "        uint32_t v;\n        asm volatile(\"ld.shared.b32 %0, [%1];\" : \"=r\"(v) : \"r\"(a) : "
            "\"memory\");\n        memcpy(" +
            dst + ", &v, 4);\n";
    else
        st.code +=
            "        for (uint32_t b = 0; b < " + std::to_string(r.width) +
            "u; ++b) {\n            uint32_t v;\n            asm volatile(\"ld.shared.u8 %0, [%1];\" : "
            "\"=r\"(v) : \"r\"(a + b) : \"memory\");\n            (" +
            dst + ")[b] = uint8_t(v);\n        }\n";
    st.code += "    }\n}";
    return st;
}

} // namespace layoutscope::cudaexport
