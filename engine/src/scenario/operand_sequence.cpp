// The operand-sequence check (issue 24 item 2): an MMA over a tile reads it as a sequence of k-blocks,
// one instruction each, whose descriptors advance the start along K. Each instruction alone can read
// exactly the elements its start implies (a +16 B advance in a SWIZZLE_128B tile reads k 8..23, all of
// them where the swizzle put them), so the per-instruction check cannot see a wrong advance; across the
// sequence, every element of the tile must be read exactly once and in order: k-block j + 1 starts one
// k-block (K elements) after k-block j. PTX ISA 9.2 §9.7.15.5.1 (wgmma: K = 16 per instruction for
// f16/bf16) and §9.7.16.10.9 (tcgen05.mma: 32 bytes of K per instruction for the dense kinds).
#include "scenario/consumer_operands.hpp"

#include <string>

namespace layoutscope::scn {
namespace {

// A shared address as BUFFER+BYTES where a declared buffer holds it (the `desc start=` syntax).
std::string startText(const Scenario& s, uint32_t cta, uint32_t addr) {
    for (const ScenarioBuffer& b : s.buffers)
        if (b.cta == cta && addr >= b.addr && addr - b.addr < b.size)
            return b.name + (addr == b.addr ? std::string() : "+" + std::to_string(addr - b.addr));
    return std::to_string(addr);
}

} // namespace

void checkKBlockStep(const Scenario& s, size_t instrIndex, const OperandSpec& op, const ResolvedOperand& r,
                     ProducerIndex& index, std::vector<Diagnostic>& findings) {
    std::vector<KBlockStep>& steps = index.kBlocks();
    const ScenarioInstr& in = s.instrs[instrIndex];
    KBlockStep now{r.p.index, op.cta,  op.what,     r.mnAlongDim0,
                   r.origin,  in.span, op.descName, op.desc.startAddress};
    const KBlockStep* prev = nullptr;
    for (auto it = steps.rbegin(); it != steps.rend() && !prev; ++it)
        if (it->producer == now.producer && it->cta == now.cta && it->role == now.role &&
            it->mnAlongDim0 == now.mnAlongDim0)
            prev = &*it;
    const int kd = r.mnAlongDim0 ? 1 : 0; // the tile dimension K runs along
    const int64_t k = op.k;
    if (prev && prev->origin[1 - kd] == now.origin[1 - kd]) {
        const int64_t delta = now.origin[kd] - prev->origin[kd];
        if (delta > 0 && delta != k) { // delta <= 0: a new pass over the tile (e.g. the next N tile)
            const int64_t k0 = prev->origin[kd], k1 = now.origin[kd];
            const uint32_t eb = op.elemBits / 8;
            // The advance of one k-block in the descriptor's own layout (the canonical offset of element
            // (0, K)); the XOR then acts on absolute address bits, so a start advanced by it reads on.
            const MatrixMajor major = op.mnMajor ? MatrixMajor::MN : MatrixMajor::K;
            const uint32_t right = canonicalOffset(op.desc, major, op.elemBits, 0, op.k) -
                                   canonicalOffset(op.desc, major, op.elemBits, 0, 0);
            const int64_t advanced = int64_t(now.start) - int64_t(prev->start);
            std::string what =
                delta < k ? "k " + std::to_string(k1) + "-" + std::to_string(k0 + k - 1) + " are read twice"
                          : "k " + std::to_string(k0 + k) + "-" + std::to_string(k1 - 1) + " are never read";
            findings.push_back(Diagnostic{
                Severity::Error, DiagCode::InvalidValue, in.span,
                op.what + ": this k-block starts at k=" + std::to_string(k1 - k0) + " of " + r.tensor +
                    "'s tile relative to the k-block at line " + std::to_string(prev->span.line) + " (" +
                    prev->descName + "), which read k " + std::to_string(k0) + "-" +
                    std::to_string(k0 + k - 1) + ": " + what + ". Each instruction reads " +
                    std::to_string(k) + " elements of K (" + std::to_string(k * eb) + " B); the descriptor " +
                    op.descName + " advances the start by " + std::to_string(advanced) +
                    " B. Fix: advance the start by " + std::to_string(right) +
                    " B per k-block: " + op.descName + " start=" + startText(s, op.cta, prev->start + right),
                std::string(op.what.rfind("wgmma", 0) == 0
                                ? "PTX ISA 9.2 §9.7.15.5.1 (wgmma matrix descriptors)"
                                : "PTX ISA 9.2 §9.7.16.10.9 (tcgen05.mma)"),
                Provenance::PtxText});
        }
    }
    steps.push_back(std::move(now));
}

} // namespace layoutscope::scn
