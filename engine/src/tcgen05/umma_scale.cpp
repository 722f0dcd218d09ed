// Block-scaled tcgen05.mma (umma.hpp [SECTION] block scaling; PTX ISA 9.2 §9.7.16.10.9 tcgen05.mma,
// §9.7.16.10.7 block scaling, instruction descriptor §9.7.16.4.2): the block-scaled instruction descriptor
// (CuTe UMMA::InstrDescriptorBlockScaled, cute/arch/mma_sm100_desc.hpp), where each scale factor sits in
// Tensor Memory (CuTe UMMA::tmem_sf_frg, cute/atom/mma_traits_sm100.hpp) and the scale values.
#include "layoutscope/core/number_formats.hpp"
#include "layoutscope/tcgen05/umma.hpp"

#include <string>

namespace layoutscope {
namespace {

constexpr const char* kBsIdescRef =
    "PTX ISA 9.2 §9.7.16.4.2 (instruction descriptor, block-scaled kinds); CuTe "
    "UMMA::InstrDescriptorBlockScaled (mma_sm100_desc.hpp)";

uint32_t bits(uint32_t v, int lo, int n) {
    return (v >> lo) & ((1u << n) - 1);
}

Diagnostic bsError(std::string msg, DiagCode code = DiagCode::InvalidValue) {
    return Diagnostic{Severity::Error, code, {}, std::move(msg), kBsIdescRef, Provenance::PtxText};
}

} // namespace

Result<UmmaOp> decodeUmmaIdescBlockScaled(UmmaKind kind, uint32_t ctaGroup, uint32_t scaleVecSize,
                                          uint32_t v) {
    UmmaOp op;
    op.kind = kind;
    op.ctaGroup = ctaGroup;
    op.idesc = v;
    op.d = UmmaType::F32; // the block-scaled descriptor has no D format: always F32
    const std::string k = ummaKindName(kind);
    if (!ummaKindBlockScaled(kind)) return bsError(k + " is not a block-scaled kind");
    if (bits(v, 0, 3) != 0)
        return bsError("idesc bits [0,3) (sparsity) must be 0: sparse block-scaled MMA is not modelled",
                       DiagCode::Unsupported);
    if (bits(v, 3, 1) || bits(v, 6, 1)) return bsError("idesc reserved bits 3 and 6 must be 0");
    if (bits(v, 31, 1))
        return bsError("idesc bit 31 (K size) = 1 selects K = 96 (kind::mxf4*, sm_103 only): not modelled; 0 "
                       "is the K = 32 (mxf8f6f4) / 64 (mxf4, mxf4nvf4) form",
                       DiagCode::Unsupported);
    const uint32_t afmt = bits(v, 7, 3), bfmt = bits(v, 10, 3);
    const std::string fmts = "idesc A/B formats (bits [7,10) = " + std::to_string(afmt) +
                             ", [10,13) = " + std::to_string(bfmt) + ") for " + k + ": ";
    if (kind == UmmaKind::Mxf8f6f4) {
        for (uint32_t f : {afmt, bfmt}) {
            if (f == 3 || f == 4 || f == 5)
                return bsError(fmts + "E2M3 (3), E3M2 (4) and E2M1 (5) in 8-bit containers are not modelled; "
                                      "E4M3 (0) and E5M2 (1) are",
                               DiagCode::Unsupported);
            if (f > 1) return bsError(fmts + "0 (E4M3), 1 (E5M2), 3 (E2M3), 4 (E3M2) or 5 (E2M1)");
        }
        op.a = afmt == 0 ? UmmaType::E4m3 : UmmaType::E5m2;
        op.b = bfmt == 0 ? UmmaType::E4m3 : UmmaType::E5m2;
    } else {
        if (afmt != 1 || bfmt != 1) return bsError(fmts + "both 1 (E2M1; CuTe UMMA::MXF4Format)");
        op.a = op.b = UmmaType::E2m1;
        if (bits(v, 13, 2)) return bsError("idesc negate bits 13/14 must be 0 for " + k + " (E2M1 operands)");
        if (bits(v, 15, 2))
            return bsError("idesc A/B major (bits 15/16) must be 0 (K-major) for E2M1 operands: MN-major is "
                           "only valid for E4M3, E5M2, INT8, F16, BF16 and TF32");
    }
    op.negA = bits(v, 13, 1);
    op.negB = bits(v, 14, 1);
    op.transA = bits(v, 15, 1);
    op.transB = bits(v, 16, 1);
    op.sfFormat = bits(v, 23, 1) ? UmmaScaleFormat::Ue8m0 : UmmaScaleFormat::Ue4m3;
    op.scaleVecSize = scaleVecSize;
    // Valid scale combinations (PTX ISA §9.7.16.10.7): mxf8f6f4 32-element blocks (1X) with UE8M0; mxf4
    // 32-element blocks (2X) with UE8M0; mxf4nvf4 2X with UE8M0, or 16-element blocks (4X) with UE8M0/UE4M3.
    if (op.sfFormat == UmmaScaleFormat::Ue4m3 && !(kind == UmmaKind::Mxf4nvf4 && scaleVecSize == 16))
        return bsError("idesc bit 23 (scale format) = 0 selects UE4M3 scale factors, which only "
                       "kind::mxf4nvf4 with .scale_vec::4X / .block16 takes; set bit 23 (UE8M0)");
    op.sfbId = bits(v, 4, 2);
    op.sfaId = bits(v, 29, 2);
    const uint32_t perRow = ummaScalesPerRow(op);
    for (auto [id, name] : {std::pair{op.sfaId, "A scale-factor id (bits [29,31))"},
                            std::pair{op.sfbId, "B scale-factor id (bits [4,6))"}})
        if (id + perRow > 4)
            return bsError("idesc " + std::string(name) + " = " + std::to_string(id) + ": the " +
                           std::to_string(perRow) + " scale factors of a row are bytes sf_id.." +
                           std::to_string(id + perRow - 1) + " of one 32-bit column, past byte 3");
    op.m = bits(v, 24, 5) << 4;
    op.n = bits(v, 17, 6) << 3;
    const bool mOk = ctaGroup == 1 ? op.m == 128 : (op.m == 128 || op.m == 256);
    if (!mOk)
        return bsError("idesc M (bits [24,29) << 4) = " + std::to_string(op.m) + ": " +
                       (ctaGroup == 1 ? "128 with .cta_group::1 (block-scaled kinds have no M = 64)"
                                      : "128 or 256 with .cta_group::2"));
    if (op.n < 16 || op.n > 256 || op.n % 16 != 0)
        return bsError("idesc N (bits [17,23) << 3) = " + std::to_string(op.n) +
                       ": a multiple of 16 in 16..256");
    return op;
}

uint32_t ummaScalesPerRow(const UmmaOp& op) {
    return op.scaleVecSize == 0 ? 0 : ummaK(op) / op.scaleVecSize;
}

UmmaDCell ummaScaleCell(const UmmaOp& op, UmmaOperand which, uint32_t row, uint32_t kBlock) {
    const UmmaRowHome h = which == UmmaOperand::A ? ummaARow(op, row) : ummaBRow(op, row);
    UmmaDCell c;
    c.cta = h.cta;
    c.lane = h.row % 32 + 32 * ((h.row / 32) % 4); // unverified: the replica in the row's own quarter
    c.column = h.row / 32;
    c.byte = (which == UmmaOperand::A ? op.sfaId : op.sfbId) + kBlock;
    return c;
}

uint32_t ummaScaleColumns(const UmmaOp& op, UmmaOperand which) {
    const uint32_t rows = which == UmmaOperand::A ? op.m : op.n;
    const uint32_t perCta = op.ctaGroup == 2 ? rows / 2 : rows;
    return (perCta + 31) / 32;
}

double ummaScaleValue(UmmaScaleFormat f, uint8_t raw) {
    // UE4M3 with bit 7 set: ignored, unverified (open question 30; number_formats.cpp).
    return decodeNarrow(f == UmmaScaleFormat::Ue8m0 ? NarrowFormat::UE8M0 : NarrowFormat::UE4M3, raw);
}

} // namespace layoutscope
