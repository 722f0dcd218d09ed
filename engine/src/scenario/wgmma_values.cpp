// wgmma.mma_async's D registers against the product of the global tiles (wgmma_d.hpp, issue 24 item 4): the
// reference of mma_values.cpp (the TMA tiles behind the descriptors as the operand check resolves them,
// tileValues) placed by the D fragment of PTX ISA 9.2 §9.7.15.5.1.1 (core/wgmma_fragment.hpp).
#include "core/wgmma_fragment.hpp"
#include "layoutscope/core/number_formats.hpp"
#include "scenario/consumer_operands.hpp"
#include "scenario/mma_values.hpp"
#include "scenario/wgmma_d.hpp"

#include <cmath>

namespace layoutscope::scn {
namespace {

const ScenarioWarp* wgmmaWarp(const std::vector<ScenarioWarp>& ws, uint32_t cta, uint32_t warp) {
    for (const ScenarioWarp& w : ws)
        if (w.cta == cta && w.warp == warp) return &w;
    return nullptr;
}

double dElementValue(uint32_t reg, uint32_t shift, uint32_t dBits) {
    return dBits == 16 ? decodeF16(uint16_t(reg >> shift)) : decodeF32(reg);
}

// What the accumulator type makes of the exact reference: a sum beyond its range is an infinity there.
double inAccumulator(double v, uint32_t dBits) {
    const double r = dBits == 16 ? decodeF16(encodeF16(v)) : decodeF32(encodeF32(v));
    return std::isinf(r) ? r : v;
}

} // namespace

MmaDCheck WgmmaValueCheck::check(const Scenario& s, size_t instrIndex, const Trace& t, ProducerIndex& index,
                                 const GlobalMemory& g, const std::vector<ScenarioWarp>& warps,
                                 bool operandsClean, std::vector<Diagnostic>* findings) {
    MmaDCheck out;
    out.instr = instrIndex;
    const ScenarioInstr& in = s.instrs[instrIndex];
    if (!in.wgmma) return out;
    const WgmmaRead& w = *in.wgmma;
    out.cta = in.cta;
    const uint32_t wg0 = wgmmaFirstWarp(in), M = 64, N = w.n, K = 16;
    const Key key{in.cta, wg0, w.dRegs};
    auto skip = [&](std::string why) {
        m_ref.erase(key); // what the registers hold is no longer known
        out.skipped = std::move(why);
        return out;
    };
    std::array<const ScenarioWarp*, 4> ws{};
    for (uint32_t wi = 0; wi < 4; ++wi)
        if (!(ws[wi] = wgmmaWarp(warps, in.cta, wg0 + wi))) return skip("D was not computed");
    const std::vector<OperandSpec> specs = consumerOperandSpecs(s, instrIndex);
    if (specs.size() != 2) return skip("the operands are not two descriptor reads");
    std::array<ResolvedOperand, 2> r;
    std::array<std::vector<double>, 2> v;
    for (size_t o = 0; o < 2; ++o) {
        std::string why;
        auto x = resolveOperand(s, instrIndex, specs[o], t, index, &why);
        if (!x) return skip("operand " + std::string(o ? "B" : "A") + ": " + why);
        r[o] = std::move(*x);
        auto vals =
            tileValues(r[o], o ? N : M, K, w.bf16 ? UmmaType::Bf16 : UmmaType::F16, o ? w.negB : w.negA, g);
        if (!vals) return skip("tensor " + r[o].tensor + "'s element type is not value-checked");
        v[o] = std::move(*vals);
    }
    // The reference starts from the previous wgmma into these registers (scale-d 1), else from what the
    // `regs` directive put there (C), else zero.
    std::vector<double> sum(size_t(M) * N, 0.0), sumAbs(size_t(M) * N, 0.0);
    if (w.scaleD) {
        if (auto it = m_ref.find(key); it != m_ref.end()) {
            sum = it->second.first;
            sumAbs = it->second.second;
        } else {
            for (uint32_t wi = 0; wi < 4; ++wi) {
                const WarpRegisters c = scenarioWarpRegisters(s, in.cta, wg0 + wi);
                for (uint32_t l = 0; l < 32; ++l)
                    for (uint32_t i = 0; i < N / 2; ++i) {
                        const WgmmaDSlot d = wgmmaDSlot(wi, l, i, w.dBits);
                        const size_t e = size_t(d.row) * N + d.col;
                        sum[e] = dElementValue(c[l][w.dRegs[d.reg]], d.shift, w.dBits);
                        sumAbs[e] = std::fabs(sum[e]);
                    }
            }
        }
    }
    for (uint32_t m = 0; m < M; ++m)
        for (uint32_t n = 0; n < N; ++n) {
            double acc = 0, abs = 0;
            for (uint32_t k = 0; k < K; ++k) {
                const double p = v[0][size_t(m) * K + k] * v[1][size_t(n) * K + k];
                acc += p;
                abs += std::fabs(p);
            }
            sum[size_t(m) * N + n] += acc;
            sumAbs[size_t(m) * N + n] += abs;
        }
    // unverified: the tensor core's accumulation order and internal precision. The tolerance covers one
    // rounding per partial sum at the accumulator's precision and more (f32: 2^-20 against a unit roundoff
    // of 2^-24; f16: 2^-9 against 2^-11), scaled by the sum of |a*b|, so cancellation does not flag a right
    // D.
    const double rel = w.dBits == 16 ? std::ldexp(1.0, -9) : std::ldexp(1.0, -20);
    out.cells.resize(size_t(M) * N);
    for (uint32_t wi = 0; wi < 4; ++wi)
        for (uint32_t l = 0; l < 32; ++l)
            for (uint32_t i = 0; i < N / 2; ++i) {
                const WgmmaDSlot d = wgmmaDSlot(wi, l, i, w.dBits);
                const size_t e = size_t(d.row) * N + d.col;
                MmaDValue& x = out.cells[e];
                x.m = d.row;
                x.n = d.col;
                x.thread = 32 * (wg0 + wi) + l;
                x.reg = w.dRegs[d.reg];
                x.half = d.shift / 16;
                x.expected = inAccumulator(sum[e], w.dBits);
                x.actual = dElementValue(ws[wi]->final[l][x.reg], d.shift, w.dBits);
                x.tolerance = rel * (sumAbs[e] + std::fabs(sum[e]));
            }
    for (const MmaDValue& x : out.cells) out.wrong += !x.ok();
    m_ref[key] = {std::move(sum), std::move(sumAbs)};
    if (out.wrong == 0 || !findings) return out;
    std::string msg = "wgmma.mma_async: D differs from the product of the tiles it reads in " +
                      std::to_string(out.wrong) + " of " + std::to_string(out.cells.size()) +
                      " elements (tolerance " + (w.dBits == 16 ? "2^-9" : "2^-20") +
                      " x (sum |a*b| + |D|): the tensor core's accumulation order is unverified): ";
    size_t shown = 0;
    for (const MmaDValue& x : out.cells) {
        if (x.ok() || shown == 3) continue;
        msg += (shown++ ? "; " : "") + std::string("D[m=") + std::to_string(x.m) +
               "][n=" + std::to_string(x.n) + "] (thread " + std::to_string(x.thread) + ", r" +
               std::to_string(x.reg) + (w.dBits == 16 ? (x.half ? " bits [16,32)" : " bits [0,16)") : "") +
               ") holds " + valueText(x.actual) + ", the product of " + r[0].tensor + " and " + r[1].tensor +
               " gives " + valueText(x.expected);
    }
    // The likely cause when every element was read from the right place: the instruction reads the bytes as
    // the other 16-bit float type than the tensors hold.
    std::string cause;
    const TensorDataType other = w.bf16 ? TensorDataType::FLOAT16 : TensorDataType::BFLOAT16;
    const size_t mixed = r[0].p.op->map.p.dataType == other ? 0 : r[1].p.op->map.p.dataType == other ? 1 : 2;
    if (!operandsClean)
        cause = " (the operand check above names the elements read from the wrong place)";
    else if (mixed < 2)
        cause = std::string(". Fix: the instruction reads A and B as ") + (w.bf16 ? ".bf16" : ".f16") +
                " but tensor " + r[mixed].tensor + " holds " + (w.bf16 ? "FLOAT16" : "BFLOAT16") +
                ": use the " + (w.bf16 ? ".f16.f16" : ".bf16.bf16") + " input types" +
                (w.bf16 || w.dBits == 32 ? "" : " (with a .f32 accumulator)");
    findings->push_back(Diagnostic{Severity::Error, DiagCode::InvalidValue, in.span, msg + cause, kWgmmaDRef,
                                   Provenance::PtxText});
    return out;
}

} // namespace layoutscope::scn

namespace layoutscope {

std::vector<MmaDCheck> wgmmaDValues(const Scenario& s, const Run& run) {
    // Replays the checks over the recorded trace; the last wgmma into each set of registers is compared with
    // the final registers (exact while no later instruction wrote them).
    std::vector<MmaDCheck> out;
    scn::ProducerIndex index;
    scn::WgmmaValueCheck check;
    std::map<std::tuple<uint32_t, uint32_t, std::vector<uint32_t>>, size_t> last;
    for (size_t i = 0; i < s.instrs.size() && i < run.trace.instrs.size(); ++i)
        if (s.instrs[i].wgmma)
            last[{s.instrs[i].cta, scn::wgmmaFirstWarp(s.instrs[i]), s.instrs[i].wgmma->dRegs}] = i;
    for (size_t i = 0; i < s.instrs.size() && i < run.trace.instrs.size(); ++i) {
        if (!s.instrs[i].wgmma) continue;
        MmaDCheck c = check.check(s, i, run.trace, index, run.final.global, run.warps, true, nullptr);
        if (last[{s.instrs[i].cta, scn::wgmmaFirstWarp(s.instrs[i]), s.instrs[i].wgmma->dRegs}] == i)
            out.push_back(std::move(c));
    }
    return out;
}

} // namespace layoutscope
