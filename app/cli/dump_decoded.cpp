// dump --tmem / --regs: accumulator values beside the hex (issue 24: values, not only bits).
#include "cli/dump_decoded.hpp"

#include "layoutscope/core/number_formats.hpp"
#include "layoutscope/tcgen05/umma.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

namespace layoutscope::cli {

// dump --tmem: the cells again, decoded as the accumulator type of the CTA's last tcgen05.mma (f32, s32 or
// f16 in the low 16 bits, PTX ISA 9.2 §9.7.16.10.4.1), when it has one (issue 24: values beside the hex).
void printDecodedTmem(const Scenario& sc, const std::array<uint32_t, 4>& box, uint32_t cta,
                      const TensorMemory& m, std::ostream& out) {
    const ScenarioInstr* mma = nullptr;
    for (const ScenarioInstr& in : sc.instrs)
        if (in.umma && (in.cta == cta || (in.umma->ctaGroup == 2 && (in.cta | 1u) == (cta | 1u)))) mma = &in;
    if (!mma) return;
    const UmmaType d = mma->umma->op.d;
    if (d != UmmaType::F32 && d != UmmaType::S32 && d != UmmaType::F16) return;
    out << "# the same cells as " << ummaTypeName(d) << " (the D type of the tcgen05.mma at line "
        << mma->span.line << ")\nlane\\col";
    for (uint32_t c = box[2]; c <= box[3]; ++c)
        out << " " << std::string(12 - std::min<size_t>(12, std::to_string(c).size()), ' ') << c;
    out << "\n";
    char buf[32];
    for (uint32_t lane = box[0]; lane <= box[1]; ++lane) {
        std::snprintf(buf, sizeof buf, "%8u", lane);
        out << buf;
        for (uint32_t c = box[2]; c <= box[3]; ++c) {
            const uint32_t v = m.cell(lane, c);
            if (d == UmmaType::S32)
                std::snprintf(buf, sizeof buf, " %12d", int32_t(v));
            else
                std::snprintf(buf, sizeof buf, " %12.6g",
                              d == UmmaType::F32 ? decodeF32(v) : decodeF16(uint16_t(v)));
            out << buf;
        }
        out << "\n";
    }
}

// dump --regs: the D registers of the warp's last wgmma.mma_async again, decoded as its accumulator type
// (.f32, or .f16: two a register, bits [0,16) first; PTX ISA 9.2 §9.7.15.5.1.1), when it has one.
void printDecodedWgmmaD(const Scenario& sc, const ScenarioWarp& w, std::ostream& out) {
    const ScenarioInstr* mma = nullptr;
    for (const ScenarioInstr& in : sc.instrs)
        if (in.wgmma && in.cta == w.cta && in.warp / 4 == w.warp / 4) mma = &in;
    if (!mma) return;
    const WgmmaRead& g = *mma->wgmma;
    out << "# D of the wgmma.mma_async at line " << mma->span.line << " as "
        << (g.dBits == 16 ? ".f16" : ".f32") << (g.dBits == 16 ? " (bits [0,16) / [16,32))" : "")
        << "\nthread";
    char buf[64];
    for (uint32_t j : g.dRegs) {
        const std::string name = "r" + std::to_string(j);
        if (g.dBits == 16)
            std::snprintf(buf, sizeof buf, " %25s", name.c_str());
        else
            std::snprintf(buf, sizeof buf, " %12s", name.c_str());
        out << buf;
    }
    out << "\n";
    for (uint32_t t = 0; t < 32; ++t) {
        std::snprintf(buf, sizeof buf, "%6u", t);
        out << buf;
        for (uint32_t j : g.dRegs) {
            const uint32_t v = w.final[t][j];
            if (g.dBits == 16)
                std::snprintf(buf, sizeof buf, " %12.6g/%12.6g", decodeF16(uint16_t(v)),
                              decodeF16(uint16_t(v >> 16)));
            else
                std::snprintf(buf, sizeof buf, " %12.6g", decodeF32(v));
            out << buf;
        }
        out << "\n";
    }
}

} // namespace layoutscope::cli
