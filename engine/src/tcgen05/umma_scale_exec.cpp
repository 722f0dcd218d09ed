// Block-scaled tcgen05.mma execution (exec.hpp Tcgen05Executor::applyScaleFactors; PTX ISA 9.2 §9.7.16.10.9,
// block scaling §9.7.16.10.7): every element of A and B is multiplied by the scale factor of its K block,
// read from Tensor Memory where ummaScaleCell says (CuTe UMMA::tmem_sf_frg). The reads become moves (src: the
// SF cell, dst None) so the timeline shows which bytes the MMA used.
// unverified: which of the four lane-quarter replicas the hardware reads (RuleId::Tcgen05MmaScaleFactors).
#include "layoutscope/tcgen05/exec.hpp"
#include "layoutscope/tcgen05/umma.hpp"

#include <string>

namespace layoutscope {

Status Tcgen05Executor::applyScaleFactors(const UmmaOp& op, const std::array<uint32_t, 2>& ctas,
                                          std::vector<double>& a, std::vector<double>& b,
                                          std::vector<ByteMove>& reads, std::vector<uint8_t>& bytes) const {
    const uint32_t K = ummaK(op), perRow = ummaScalesPerRow(op);
    for (UmmaOperand which : {UmmaOperand::A, UmmaOperand::B}) {
        const bool isA = which == UmmaOperand::A;
        const TmemAddr base = decodeTmemAddress(isA ? op.sfaTaddr : op.sfbTaddr);
        const uint32_t rows = isA ? op.m : op.n;
        std::vector<double>& vals = isA ? a : b;
        for (uint32_t r = 0; r < rows; ++r) {
            const UmmaDCell c0 = ummaScaleCell(op, which, r, 0);
            const uint32_t lane = base.lane + c0.lane, column = base.column + c0.column;
            if (!TensorMemory::inRange(lane, column))
                return tcgen05Diagnostic(Severity::Error, RuleId::Tcgen05MmaScaleFactors,
                                         std::string(isA ? "SFA" : "SFB") + " of row " + std::to_string(r) +
                                             " would be read at lane " + std::to_string(lane) + ", column " +
                                             std::to_string(column) + ": outside 128 lanes x 512 columns");
            const uint32_t cell = m_tmem.ctas[ctas[c0.cta]].cell(lane, column);
            for (uint32_t j = 0; j < perRow; ++j) {
                const uint8_t raw = uint8_t(cell >> (8 * (c0.byte + j)));
                const double scale = ummaScaleValue(op.sfFormat, raw);
                for (uint32_t k = j * op.scaleVecSize; k < (j + 1) * op.scaleVecSize; ++k)
                    vals[size_t(r) * K + k] *= scale;
            }
            ByteMove mv;
            mv.src =
                MemRef{MemSpace::TensorMemory, static_cast<uint8_t>(ctas[c0.cta]), tmemAddress(lane, column)};
            mv.dst = MemRef{MemSpace::None, static_cast<uint8_t>(ctas[c0.cta]), 0};
            mv.length = 4; // the whole cell; coord says which of its bytes are the row's scale factors
            mv.rule = RuleId::Tcgen05MmaScaleFactors;
            // coord: (row of A or B, 0 = SFA / 1 = SFB, first byte used, bytes used, CTA of the pair)
            mv.coord = {static_cast<int32_t>(r), isA ? 0 : 1, static_cast<int32_t>(c0.byte),
                        static_cast<int32_t>(perRow), static_cast<int32_t>(c0.cta)};
            reads.push_back(mv);
            for (int byte = 0; byte < 4; ++byte) bytes.push_back(static_cast<uint8_t>(cell >> (8 * byte)));
        }
    }
    return okStatus();
}

} // namespace layoutscope
