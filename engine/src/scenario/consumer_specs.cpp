// The operand specs of the descriptor consumers (consumer_operands.hpp): tcgen05.cp one, wgmma.mma_async
// and tcgen05.mma A and B (each .cta_group::2 operand as the two CTAs' halves), read by the consumer check
// (consumer_checks.cpp) and the operand grid (operand_grid.cpp).
#include "layoutscope/analysis/consumer.hpp"
#include "layoutscope/tcgen05/umma_ws_sp.hpp"
#include "scenario/consumer_operands.hpp"

namespace layoutscope::scn {

OperandSpec cpOperandSpec(const Scenario& s, size_t instrIndex, const CpForm& f, uint64_t descValue,
                          std::string descName) {
    OperandSpec op;
    op.what = "tcgen05.cp";
    op.tensorIx = "m";
    op.descName = std::move(descName);
    op.desc = decodeSmemDescriptor(descValue);
    op.reads = [shape = f.shape](const SmemDescriptor& d, bool) { return tcgen05CpReads(shape, d); };
    const ScenarioInstr& in = s.instrs[instrIndex];
    op.cta = f.ctaGroup == 2 ? in.cta & ~1u : in.cta;
    return op;
}

namespace {

// An MMA's A (M x K) and B (N x K) through their descriptors: one operand spec each.
struct MmaShape {
    std::string name;          ///< "wgmma.mma_async", "tcgen05.mma"
    uint32_t rows[2] = {0, 0}; ///< M, N
    uint32_t k = 16, elemBits = 16;
    uint64_t desc[2] = {0, 0};
    std::string descName[2];
    bool trans[2] = {false, false};
    std::string transName[2];
    std::optional<OperandExpectation> expect[2];
    bool aFromTmem = false; ///< tcgen05.mma [a-tmem]: only B is read through a descriptor
    uint32_t ctaGroup = 1;  ///< tcgen05.mma .cta_group::2: each operand read as two halves (below)
    uint32_t kB = 0;        ///< K of B when it differs from A's (tcgen05.mma.sp: A stores K / 2 a row)
    bool noB = false;       ///< tcgen05.mma.ws: B not read through b-desc as is (collector, column shift)
};

std::vector<OperandSpec> mmaOperandSpecs(const Scenario& s, size_t instrIndex, const MmaShape& m) {
    std::vector<OperandSpec> out;
    for (int o = m.aFromTmem ? 1 : 0; o < (m.noB ? 1 : 2); ++o) { // [a-tmem]: A is no shared-memory read
        OperandSpec op;
        op.what = m.name + " operand " + (o ? "B" : "A");
        op.tensorIx = o ? "n" : "m";
        op.descName = m.descName[o];
        op.desc = decodeSmemDescriptor(m.desc[o]);
        op.mnMajor = m.trans[o];
        op.transName = m.transName[o];
        op.expect = m.expect[o];
        const uint32_t bits = m.elemBits, k = o && m.kB ? m.kB : m.k;
        op.k = k;
        op.elemBits = bits;
        op.rows = m.ctaGroup == 2 ? m.rows[o] / 2 : m.rows[o];
        op.cta = s.instrs[instrIndex].cta;
        if (m.ctaGroup != 2) {
            const uint32_t rows = m.rows[o];
            op.reads = [rows, bits, k](const SmemDescriptor& d, bool mn) {
                return descriptorOperandReads(d, mn ? MatrixMajor::MN : MatrixMajor::K, bits, rows, k);
            };
            out.push_back(std::move(op));
            continue;
        }
        // .cta_group::2 (umma.hpp ummaARow / ummaBRow): rows [0, R/2) are the even CTA's rows [0, R/2),
        // rows [R/2, R) the odd CTA's, each read through the same descriptor in its own shared memory and
        // compared with the tile that CTA loaded. unverified (RuleId::Tcgen05MmaCtaPair).
        const uint32_t half = m.rows[o] / 2;
        for (uint32_t h = 0; h < 2; ++h) {
            OperandSpec x = op;
            x.cta = h ? op.cta | 1u : op.cta & ~1u;
            x.rowBase = h * half;
            x.pairHalf = true;
            x.what += " (CTA " + std::to_string(x.cta) + " of the pair: " + op.tensorIx + " " +
                      std::to_string(x.rowBase) + "-" + std::to_string(x.rowBase + half - 1) + ")";
            x.reads = [half, bits, k](const SmemDescriptor& d, bool mn) {
                return descriptorOperandReads(d, mn ? MatrixMajor::MN : MatrixMajor::K, bits, half, k);
            };
            out.push_back(std::move(x));
        }
    }
    return out;
}

} // namespace

std::vector<OperandSpec> wgmmaOperandSpecs(const Scenario& s, size_t instrIndex) {
    const ScenarioInstr& in = s.instrs[instrIndex];
    if (!in.wgmma) return {};
    const WgmmaRead& w = *in.wgmma;
    return mmaOperandSpecs(s, instrIndex,
                           MmaShape{"wgmma.mma_async",
                                    {64, w.n},
                                    16,
                                    w.elemBits,
                                    {w.descA, w.descB},
                                    {w.descAName, w.descBName},
                                    {w.transA, w.transB},
                                    {"imm-trans-a", "imm-trans-b"},
                                    {w.expectA, w.expectB},
                                    false});
}

std::vector<OperandSpec> ummaOperandSpecs(const Scenario& s, size_t instrIndex) {
    const ScenarioInstr& in = s.instrs[instrIndex];
    if (!in.umma) return {};
    const UmmaRead& u = *in.umma;
    // .ws: B comes from a collector buffer (::use, ::lastuse) or is read column-shifted: not compared here.
    const bool collected = u.op.ws && (u.op.collector.op == UmmaCollectorOp::Use ||
                                       u.op.collector.op == UmmaCollectorOp::Lastuse);
    const auto zc = u.op.hasZeroColumnMask ? ummaZeroColumnMask(u.op.m, u.op.n, u.op.zeroColumnMask)
                                           : Result<UmmaZeroColumns>(UmmaZeroColumns{});
    const bool shifted = !zc || zc->shift != 0;
    return mmaOperandSpecs(s, instrIndex,
                           MmaShape{"tcgen05.mma",
                                    {u.m, u.n},
                                    256 / u.elemBits /* 32 bytes of K per MMA (.sp: A's stored values) */,
                                    u.elemBits,
                                    {u.descA, u.descB},
                                    {u.descAName, u.descBName},
                                    {u.transA, u.transB},
                                    {"idesc bit 15 (A major)", "idesc bit 16 (B major)"},
                                    {u.expectA, u.expectB},
                                    u.op.aFromTmem,
                                    u.ctaGroup,
                                    u.op.sparse ? 512 / u.elemBits : 0,
                                    collected || shifted});
}

std::string cpDescName(const std::string& text) {
    std::string name = text.substr(text.find_last_of(',') + 1);
    name.erase(0, name.find_first_not_of(" \t"));
    return name.substr(0, name.find_first_of(" \t;"));
}

std::vector<OperandSpec> consumerOperandSpecs(const Scenario& s, size_t instrIndex) {
    if (instrIndex >= s.instrs.size()) return {};
    const ScenarioInstr& in = s.instrs[instrIndex];
    if (in.wgmma) return wgmmaOperandSpecs(s, instrIndex);
    if (in.umma) return ummaOperandSpecs(s, instrIndex);
    if (in.kind == ScenarioInstrKind::Tcgen05 && in.text.rfind("tcgen05.cp", 0) == 0) {
        auto f = parseCp(in.text);
        if (!f) return {};
        return {cpOperandSpec(s, instrIndex, *f, in.desc, cpDescName(in.text))};
    }
    return {};
}

} // namespace layoutscope::scn
