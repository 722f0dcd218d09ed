// The operand grid (analysis/operand_grid.hpp): the consumer check's own operand spec, resolution and
// per-read comparison (consumer_operands.hpp, compareRead), kept for every read instead of counted.
#include "layoutscope/analysis/operand_grid.hpp"
#include "scenario/consumer_operands.hpp"

#include <algorithm>

namespace layoutscope {

std::vector<ConsumerOperandRef> consumerOperands(const Scenario& s) {
    std::vector<ConsumerOperandRef> out;
    for (size_t i = 0; i < s.instrs.size(); ++i) {
        const std::vector<scn::OperandSpec> specs = scn::consumerOperandSpecs(s, i);
        for (uint32_t o = 0; o < specs.size(); ++o)
            out.push_back({i, o, "line " + std::to_string(s.instrs[i].span.line) + ": " + specs[o].what});
    }
    return out;
}

Result<OperandGrid> operandGrid(const Scenario& s, const Run& run, const ConsumerOperandRef& ref) {
    const std::vector<scn::OperandSpec> specs = scn::consumerOperandSpecs(s, ref.instr);
    if (ref.operand >= specs.size())
        return Diagnostic{Severity::Error,
                          DiagCode::InvalidValue,
                          {},
                          "instruction " + std::to_string(ref.instr) + " has no consumer operand " +
                              std::to_string(ref.operand) +
                              " (operands are read by wgmma.mma_async, tcgen05.mma and tcgen05.cp)",
                          "docs/consumers.md",
                          Provenance::Assumption};
    const scn::OperandSpec& op = specs[ref.operand];
    OperandGrid g;
    g.what = op.what;
    g.indexName = op.tensorIx;
    g.cta = op.cta;
    g.rowBase = op.rowBase;
    const std::vector<OperandRead> reads = op.reads(op.desc, op.mnMajor);
    const uint32_t len = reads.empty() ? 1 : std::max<uint32_t>(1, reads.front().length);
    for (const OperandRead& r : reads) {
        g.rows = std::max(g.rows, r.m + 1);
        g.cols = std::max(g.cols, r.kByte / len + 1);
    }
    g.cells.resize(size_t(g.rows) * g.cols);
    for (const OperandRead& r : reads) {
        OperandCell& c = g.cells[size_t(r.m) * g.cols + r.kByte / len];
        c.m = r.m;
        c.col = r.kByte / len;
        c.addr = r.addr;
        c.bytes = r.length;
    }
    scn::ProducerIndex index;
    std::string why;
    const std::optional<scn::ResolvedOperand> res =
        scn::resolveOperand(s, ref.instr, op, run.trace, index, &why);
    if (!res || res->wrongTensor) {
        g.note = res ? "the expect statement names " + op.expect->tensor + ", but the descriptor starts in " +
                           res->tensor + "'s tile"
                     : why;
        for (const OperandRead& r : reads) g.cells[size_t(r.m) * g.cols + r.kByte / len].k = r.kByte / len;
        return g;
    }
    g.checked = true;
    g.mnAlongDim0 = res->mnAlongDim0;
    g.elemBytes = res->p.g.elemBytes;
    g.tensor = res->tensor;
    g.tensorAddress = res->p.op->map.p.globalAddress;
    g.producerInstr = res->p.index;
    const ProducerLookup lookup = [&](uint32_t addr) { return index.at(op.cta, addr); };
    for (const OperandRead& r : reads) {
        OperandCell& c = g.cells[size_t(r.m) * g.cols + r.kByte / len];
        const ReadComparison cmp = compareRead(r, lookup, res->origin, g.elemBytes, res->mnAlongDim0);
        c.k = r.kByte / g.elemBytes;
        c.expected = cmp.expected;
        c.actual = cmp.actual;
        c.mismatch = !cmp.match;
        g.mismatched += c.mismatch;
    }
    return g;
}

} // namespace layoutscope
