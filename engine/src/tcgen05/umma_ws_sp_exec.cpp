// Executing the .sp and .ws parts of tcgen05.mma (exec.hpp; umma_ws_sp.hpp): the sparse A expanded through
// the metadata in Tensor Memory (PTX ISA 9.2 §9.7.16.10.8), and the collector buffers of B of
// tcgen05.mma.ws (§9.7.16.10.9.3). The metadata reads become moves (src: the cells, dst None) so the
// timeline shows which cells the MMA used. unverified: the metadata placement (RuleId::Tcgen05MmaSparse).
#include "layoutscope/tcgen05/exec.hpp"
#include "layoutscope/tcgen05/umma.hpp"

#include <set>
#include <string>

namespace layoutscope {

Status Tcgen05Executor::expandSparseA(const UmmaOp& op, const std::array<uint32_t, 2>& ctas,
                                      std::vector<double>& a, std::vector<ByteMove>& reads,
                                      std::vector<uint8_t>& bytes) const {
    const TmemAddr base = decodeTmemAddress(op.spMetaTaddr);
    std::set<std::pair<uint32_t, uint32_t>> lanes; // (pair CTA, lane offset) read
    const UmmaMetaReader read = [&](uint32_t cta, uint32_t lane, uint32_t column) -> std::optional<uint32_t> {
        if (!TensorMemory::inRange(base.lane + lane, base.column + column)) return std::nullopt;
        lanes.insert({cta, lane});
        return m_tmem.ctas[ctas[cta]].cell(base.lane + lane, base.column + column);
    };
    Result<std::vector<double>> full = ummaExpandSparseA(op, a, read);
    if (!full) return full.error();
    a = std::move(*full);
    const uint32_t cols = ummaSparseMetaColumns(op), col0 = base.column + op.spSelector;
    for (const auto& [cta, lane] : lanes) {
        ByteMove mv;
        mv.src = MemRef{MemSpace::TensorMemory, static_cast<uint8_t>(ctas[cta]),
                        tmemAddress(base.lane + lane, col0)};
        mv.dst = MemRef{MemSpace::None, static_cast<uint8_t>(ctas[cta]), 0};
        mv.length = 4 * cols;
        mv.rule = RuleId::Tcgen05MmaSparse;
        // coord: (metadata lane offset, CTA of the pair, metadata columns)
        mv.coord = {static_cast<int32_t>(lane), static_cast<int32_t>(cta), static_cast<int32_t>(cols), 0, 0};
        reads.push_back(mv);
        for (uint32_t c = 0; c < cols; ++c) {
            const uint32_t cell = m_tmem.ctas[ctas[cta]].cell(base.lane + lane, col0 + c);
            for (int byte = 0; byte < 4; ++byte) bytes.push_back(static_cast<uint8_t>(cell >> (8 * byte)));
        }
    }
    return okStatus();
}

Result<const UmmaCollectorBuffer*> Tcgen05Executor::collectedB(const UmmaOp& op, uint32_t cta) const {
    if (!op.ws || (op.collector.op != UmmaCollectorOp::Use && op.collector.op != UmmaCollectorOp::Lastuse))
        return static_cast<const UmmaCollectorBuffer*>(nullptr);
    const std::string q =
        ".collector::b" + std::to_string(op.collector.buffer) + "::" + ummaCollectorOpName(op.collector.op);
    auto it = m_collectors.find({cta, op.collector.buffer});
    if (it == m_collectors.end() || !it->second.valid)
        return tcgen05Diagnostic(
            Severity::Error, RuleId::Tcgen05MmaWs,
            "tcgen05.mma.ws" + q + " in CTA " + std::to_string(cta) + ": collector buffer b" +
                std::to_string(op.collector.buffer) + " holds no B (no earlier .collector::b" +
                std::to_string(op.collector.buffer) +
                "::fill, or a ::lastuse / ::discard dropped it); ::use and ::lastuse need a previous fill "
                "that is still valid (PTX ISA 9.2 §9.7.16.10.9.3)");
    const UmmaCollectorBuffer& buf = it->second;
    const uint32_t K = ummaK(op);
    if (buf.n != op.n || buf.k != K || buf.type != op.b)
        return tcgen05Diagnostic(
            Severity::Error, RuleId::Tcgen05MmaWs,
            "tcgen05.mma.ws" + q + ": collector buffer b" + std::to_string(op.collector.buffer) +
                " holds a B of N = " + std::to_string(buf.n) + ", K = " + std::to_string(buf.k) + " (" +
                ummaTypeName(buf.type) + ") but this MMA reads N = " + std::to_string(op.n) +
                ", K = " + std::to_string(K) + " (" + ummaTypeName(op.b) + ") (PTX ISA 9.2 §9.7.16.10.9.3)");
    return &buf;
}

void Tcgen05Executor::updateCollector(const UmmaOp& op, uint32_t cta, const std::vector<double>& b) {
    if (!op.ws) return;
    UmmaCollectorBuffer& buf = m_collectors[{cta, op.collector.buffer}];
    switch (op.collector.op) {
    case UmmaCollectorOp::Fill:
        buf = UmmaCollectorBuffer{true, op.n, ummaK(op), op.b, b};
        return;
    case UmmaCollectorOp::Use:
        return;
    case UmmaCollectorOp::Lastuse:
    case UmmaCollectorOp::Discard:
        buf = UmmaCollectorBuffer{};
        return;
    }
}

} // namespace layoutscope
