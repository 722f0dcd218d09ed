// wgmma.mma_async computes D in a scenario (wgmma_d.hpp; issue 24 item 4). PTX ISA 9.2 §9.7.15.5.2: D = A * B
// (+ D when scale-d), A and B negated by imm-scale-a/b = -1; D in the registers of the 128 threads at the
// fragment layout of §9.7.15.5.1.1 (core/wgmma_fragment.hpp, the formula the kernel executor uses too).
// A and B are read where the operand check reads them (consumerOperandSpecs), so a wrong descriptor gives the
// D its wrong reads give. Arithmetic as the executor's and tcgen05.mma's: exact products summed in binary64,
// rounded once to the accumulator type (round to nearest even).
// unverified: the tensor core's accumulation order and intermediate precision (RuleId::WgmmaValues).
#include "scenario/wgmma_d.hpp"

#include "core/wgmma_fragment.hpp"
#include "layoutscope/core/number_formats.hpp"
#include "layoutscope/tcgen05/smem_descriptor.hpp"
#include "scenario/consumer_operands.hpp"

#include <array>
#include <span>

namespace layoutscope::scn {
namespace {

std::string wgmmaRegRange(const std::vector<uint32_t>& r) { // "r0..r31" for a run, else "r0, r2, ..."
    bool run = true;
    for (size_t i = 1; i < r.size(); ++i) run = run && r[i] == r[0] + i;
    if (run) return "r" + std::to_string(r.front()) + "..r" + std::to_string(r.back());
    return "r" + std::to_string(r.front()) + ", r" + std::to_string(r[1]) + ", ... (" +
           std::to_string(r.size()) + " registers)";
}

} // namespace

WgmmaDResult runWgmmaD(const Scenario& s, size_t instrIndex, MachineState& state,
                       std::vector<ScenarioWarp>& warps, TraceBuilder& tb,
                       std::vector<Diagnostic>& findings) {
    const ScenarioInstr& in = s.instrs[instrIndex];
    const WgmmaRead& w = *in.wgmma;
    const uint32_t N = w.n, K = 16;
    const std::vector<OperandSpec> specs = consumerOperandSpecs(s, instrIndex);
    if (specs.size() != 2 || w.dRegs.size() != (w.dBits == 16 ? N / 4 : N / 2) || in.cta >= state.smem.size())
        return {false, "D not computed (no descriptor operands)"};
    // a[m * K + k], b[n * K + k]: the operand values the descriptors read, sign applied.
    std::array<std::vector<double>, 2> v{std::vector<double>(size_t(64) * K),
                                         std::vector<double>(size_t(N) * K)};
    const std::span<const uint8_t> smem = state.smem[in.cta].bytes();
    for (size_t o = 0; o < 2; ++o) {
        const OperandSpec& op = specs[o];
        const bool neg = o ? w.negB : w.negA;
        for (uint32_t r = 0; r < (o ? N : 64); ++r)
            for (uint32_t k = 0; k < K; ++k) {
                const uint32_t addr =
                    elementAddress(op.desc, op.mnMajor ? MatrixMajor::MN : MatrixMajor::K, 16, r, k);
                if (uint64_t(addr) + 2 > smem.size()) {
                    findings.push_back(Diagnostic{Severity::Error, DiagCode::InvalidValue, in.span,
                                                  "wgmma.mma_async: " + std::string(o ? "B" : "A") + "[" +
                                                      std::to_string(r) + "][k=" + std::to_string(k) +
                                                      "] is read at shared address " + std::to_string(addr) +
                                                      ", past the end of CTA " + std::to_string(in.cta) +
                                                      "'s shared memory: D is not computed",
                                                  kWgmmaDRef, Provenance::PtxText});
                    return {false, "D not computed: an operand element lies past the end of shared memory"};
                }
                const auto raw = uint16_t(smem[addr] | smem[addr + 1] << 8); // little-endian
                const double x = w.bf16 ? decodeBf16(raw) : decodeF16(raw);
                v[o][size_t(r) * K + k] = neg ? -x : x;
            }
    }
    const uint32_t wg0 = wgmmaFirstWarp(in), perThread = N / 2; // D elements a thread holds
    for (uint32_t wi = 0; wi < 4; ++wi) (void)scenarioWarp(warps, s, in.cta, wg0 + wi); // all 4 exist first
    std::array<ScenarioWarp*, 4> ws{};
    for (ScenarioWarp& x : warps)
        if (x.cta == in.cta && x.warp >= wg0 && x.warp < wg0 + 4) ws[x.warp - wg0] = &x;
    const size_t nRegs = w.dRegs.size();
    // New register values, [thread in warpgroup][position in {d...}], and the D element of each (low half).
    std::vector<uint32_t> out(size_t(128) * nRegs, 0);
    std::vector<std::array<int32_t, 2>> at(size_t(128) * nRegs);
    for (uint32_t wi = 0; wi < 4; ++wi)
        for (uint32_t l = 0; l < 32; ++l) {
            const std::vector<uint32_t>& old = ws[wi]->final[l];
            for (uint32_t i = 0; i < perThread; ++i) {
                const WgmmaDSlot d = wgmmaDSlot(wi, l, i, w.dBits);
                double sum = 0;
                for (uint32_t k = 0; k < K; ++k)
                    sum += v[0][size_t(d.row) * K + k] * v[1][size_t(d.col) * K + k];
                const uint32_t oldReg = old[w.dRegs[d.reg]];
                const size_t slot = size_t(32 * wi + l) * nRegs + d.reg;
                if (w.dBits == 16) {
                    const auto oldHalf = uint16_t(oldReg >> d.shift);
                    out[slot] |= uint32_t(encodeF16(sum + (w.scaleD ? decodeF16(oldHalf) : 0.0))) << d.shift;
                } else {
                    out[slot] = encodeF32(sum + (w.scaleD ? decodeF32(oldReg) : 0.0));
                }
                if (d.shift == 0) at[slot] = {int32_t(d.row), int32_t(d.col)};
            }
        }
    // One step per register of {d...}: the 128 threads' 4-byte writes (src None: computed, not copied).
    std::vector<ByteMove> ms(128);
    std::vector<uint8_t> bytes(128 * 4);
    for (size_t j = 0; j < nRegs; ++j) {
        for (uint32_t t = 0; t < 128; ++t) {
            const size_t slot = size_t(t) * nRegs + j;
            const uint32_t thread = 32 * wg0 + t;
            ByteMove& m = ms[t];
            m = ByteMove{};
            m.src = MemRef{MemSpace::None, static_cast<uint8_t>(in.cta), 0};
            m.dst = MemRef{MemSpace::Register, static_cast<uint8_t>(in.cta),
                           (uint64_t{thread} << 16) | (w.dRegs[j] * 4)}; // tcgen05/exec.hpp's convention
            m.length = 4;
            m.rule = RuleId::WgmmaValues;
            // coord: D's (m, n) in this register (.f16: and (m, n + 1) in bits [16,32)), D's bits.
            m.coord = {at[slot][0], at[slot][1], int32_t(w.dBits), 0, 0};
            for (uint32_t b = 0; b < 4; ++b) bytes[4 * t + b] = static_cast<uint8_t>(out[slot] >> (8 * b));
            ws[t / 32]->final[t % 32][w.dRegs[j]] = out[slot];
        }
        tb.moveBatch(state, ms, bytes, true);
    }
    tb.alsoRule(RuleId::WgmmaDFragment);
    return {
        true,
        std::string("D = A*B") + (w.scaleD ? " + D" : "") + " into " + wgmmaRegRange(w.dRegs) + " of warps " +
            std::to_string(wg0) + "-" + std::to_string(wg0 + 3) + " (" + (w.dBits == 16 ? ".f16" : ".f32") +
            ", " + std::to_string(nRegs) + " registers a thread; accumulation order unverified)" +
            (w.scaleDKnown ? "" : "; scale-d '" + w.scaleDText + "' has no let value: taken as 0 (D = A*B)")};
}

std::string runWgmma(const Scenario& s, size_t instrIndex, MachineState& state,
                     std::vector<ScenarioWarp>& warps, const Trace& t, TraceBuilder& tb,
                     ProducerIndex& producers, WgmmaValueCheck& check, std::vector<Diagnostic>& findings) {
    const WgmmaRead& w = *s.instrs[instrIndex].wgmma;
    const WgmmaDResult d = runWgmmaD(s, instrIndex, state, warps, tb, findings);
    const size_t before = findings.size();
    checkWgmmaConsumer(s, instrIndex, t, producers, findings);
    if (d.computed) // after the operand check: its findings come first, and the D message refers to them
        (void)check.check(s, instrIndex, t, producers, state.global, warps, findings.size() == before,
                          &findings);
    return "wgmma.mma_async m64n" + std::to_string(w.n) + "k16: reads A (64x16, " + (w.transA ? "MN" : "K") +
           "-major) and B (16x" + std::to_string(w.n) + ", " + (w.transB ? "MN" : "K") +
           "-major) from shared memory; " + d.summary;
}

} // namespace layoutscope::scn
