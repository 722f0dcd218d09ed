// wgmma.mma_async.sp (PTX ISA 9.2 §9.7.15.6): A is structured sparse; its stored operand holds K/2 values a
// row (64 x K/2, from the descriptor or the registers like a dense m64nNk(K/2) A), and the metadata in the
// sp-meta registers of the warpgroup says where each stored value sits in the K-wide row. Every chunk of a
// row holds 2 stored values of 4 (f16, bf16, e4m3, e5m2, s8, u8: 2:4) or 1 of 2 (tf32: 1:2), and takes 4
// bits of metadata. Which thread holds which chunk (CUTLASS cute/atom/mma_traits_sm90_gmma_sparse.hpp,
// ELayout_64x32 / 64x16 / 64x64; row 16 w + g + 8 u of warp w, g = lane / 4):
//   f16/bf16 (K 32), tf32 (K 16): lane 4 g + 2 sp-sel + h holds the chunks of K-half h of rows g (bits
//     [15:0]) and g + 8 (bits [31:16]), chunk c of the half at bits 4c of its 16 bits;
//   8-bit types (K 64, sp-sel 0): lane 4 g + 2 h + u holds K-half h of row g + 8 u, chunk c at bits 4c.
// Within a 2:4 chunk's 4 bits, bits [1:0] are the position of the first stored value and [3:2] of the
// second (0b0000, 0b0101, 0b1010, 0b1111: undefined behaviour, stopped here); tf32: 0b0100 = the first of
// the pair, 0b1110 = the second (as CUTLASS's compressor writes them: cutlass/transform/kernel/
// sm90_sparse_gemm_compressor.hpp MetadataOneChunk2to4 / 1to2). unverified (no H100 record yet, probe
// scripts/probes/xcomp): the nibble order and the thread map, taken from CUTLASS, not from hardware.
#include "exec/mma_exec.hpp"

#include <string>
#include <vector>

namespace layoutscope::exec {

bool expandSparseA(Machine& m, const Op& op, const std::array<Warp*, 4>& warps, const MmaForm& f,
                   std::vector<long double>& A) {
    const uint32_t K = f.k, Kc = K / 2, bits = meBits(f.a);
    const bool tf32 = f.a == ME::TF32, narrow = bits == 8;
    const Opnd& meta = op.o.back();
    std::vector<long double> full(size_t(64) * K, 0.0L);
    for (uint32_t row = 0; row < 64; ++row) {
        const uint32_t wi = row / 16, g = row % 8, u = (row % 16) / 8;
        for (uint32_t h = 0; h < 2; ++h) {
            const uint32_t lane = narrow ? 4 * g + 2 * h + u : 4 * g + 2 * f.spSel + h;
            const auto word = uint32_t(m.reg(*warps[wi], meta.reg, int(lane)));
            const uint32_t chunkBits = narrow ? word : (word >> (16 * u)) & 0xFFFF;
            const uint32_t chunks = narrow ? 8 : 4, logical = K / 2; // logical columns per half
            for (uint32_t c = 0; c < chunks; ++c) {
                const uint32_t nib = (chunkBits >> (4 * c)) & 0xF;
                auto bad = [&]() {
                    return m.fail(op, DiagCode::InvalidValue,
                                  "wgmma.mma_async.sp metadata 0x" + std::string(1, "0123456789abcdef"[nib]) +
                                      " of row " + std::to_string(row) + ", chunk " +
                                      std::to_string(c + chunks * h) + " (" + m.who(*warps[wi], int(lane)) +
                                      ", sp-meta) is not a valid " +
                                      (tf32 ? "1:2 index (0b0100 or 0b1110)" : "2:4 index pair") +
                                      ": undefined behaviour (PTX ISA §9.7.15.6.1)");
                };
                if (tf32) { // 1:2: chunk c = logical columns 2c, 2c + 1 of the half; one stored value
                    if (nib != 0x4 && nib != 0xE) return bad();
                    full[size_t(row) * K + logical * h + 2 * c + (nib == 0xE ? 1 : 0)] =
                        A[size_t(row) * Kc + logical / 2 * h + c];
                } else { // 2:4: chunk c = logical columns 4c .. 4c + 3 of the half; two stored values
                    const uint32_t i0 = nib & 3, i1 = nib >> 2;
                    if (i0 == i1) return bad();
                    const size_t src = size_t(row) * Kc + logical / 2 * h + 2 * c;
                    full[size_t(row) * K + logical * h + 4 * c + i0] = A[src];
                    full[size_t(row) * K + logical * h + 4 * c + i1] = A[src + 1];
                }
            }
        }
    }
    A.swap(full);
    return true;
}

} // namespace layoutscope::exec
