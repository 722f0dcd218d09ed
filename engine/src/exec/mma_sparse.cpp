// mma.sp / mma.sp::ordered_metadata (PTX ISA 9.2 §9.7.14.6): A is structured sparse. Its registers hold
// K/2 stored values a row (16 x K/2, in the fragment of the dense m16n8k(K/2) A: §9.7.14.6.2 gives the
// same rows and columns), and the metadata operand e says where each sits in the K-wide row.
//
// Chunks (§9.7.14.6.1): f16, bf16, s8, u8, e4m3, e5m2: 2:4, a chunk of 4 logical columns holds 2 stored
// values (compressed columns 2c, 2c + 1 of chunk c), with 4 bits of metadata: bits [1:0] the position of
// the first stored value, [3:2] of the second. tf32: 1:2, a chunk of 2 columns holds 1 stored value
// (compressed column c), 4 bits: 0b0100 the first position, 0b1110 the second. Values the ISA calls
// undefined stop the run: 0b0000, 0b0101, 0b1010, 0b1111 (both indices equal); with
// `::ordered_metadata` also a decreasing pair (the meaningful values are 0b0100, 0b1000, 0b1001, 0b1100,
// 0b1101, 0b1110); tf32 anything but 0b0100 / 0b1110.
//
// Which lane holds which chunk (g = lane / 4, rows g and g + 8 of the quad; sel = the selector f):
//   4 chunks a row (f16/bf16 m16n8k16, tf32 m16n8k8): lane 4 g + sel holds row g's chunk c at bits
//     [4c, 4c + 4) and row g + 8's at [16 + 4c, 20 + 4c);
//   8 chunks of 16-/32-bit types (f16/bf16 m16n8k32, tf32 m16n8k16): lane 4 g + 2 sel + h holds chunks
//     4h .. 4h + 3, the same way (the thread pair T0 T1 for sel 0, T2 T3 for sel 1);
//   8-bit types (s8/u8 m16n8k32, 8 chunks, sel 0 or 1; s8/u8, e4m3/e5m2 m16n8k64, 16 chunks, sel 0): a
//     lane holds 8 chunks of ONE row: lane 4 g + 2 h + u holds chunks 8h .. 8h + 7 of row g + 8 u at bits
//     [4c', 4c' + 4), c' = c - 8h, with h = sel for m16n8k32 (the pair T0 T1 for sel 0, T2 T3 for sel 1)
//     and h = c / 8 for m16n8k64.
// The ISA draws these maps as figures (Figures 118-131); the text above is this reading of them, the same
// map wgmma.mma_async.sp's warps use for 16-bit types (wgmma_sparse.cpp). An H200 ran every form and
// selector the executor runs (scripts/probes/mma_sp, record tests/data/exec/h100/mma_sp, ctest
// exec.h100.mma_sp): all 19 kernels agree bit for bit. The record decided the 8-bit m16n8k32 map (issue
// 22): the f16-style reading (lane 4 g + 2 sel + c/4, row g + 8 at bits [16, 32)) differed in every D word.
// With plain `.sp`, a decreasing index pair (e.g. 0b0001) is executed as written (first stored value at
// position 1); the ISA only names the four equal pairs undefined, and the H200 record's `.sp` kernels,
// whose metadata holds such pairs in every lane, agree.
#include "exec/mma_exec.hpp"

#include <string>
#include <vector>

namespace layoutscope::exec {

namespace {

std::string hexNibble(uint32_t nib) {
    return std::string("0x") + "0123456789abcdef"[nib & 0xF];
}

} // namespace

bool expandMmaSpA(Machine& m, Warp& w, const Op& op, const MmaForm& f, std::vector<long double>& A) {
    const uint32_t K = f.k, Kc = K / 2;
    const bool tf32 = f.a == ME::TF32;
    const uint32_t chunks = K / (tf32 ? 2 : 4), span = tf32 ? 2 : 4; // chunks a row, columns a chunk
    const bool bits8 = meBits(f.a) == 8; // s8, u8, e4m3, e5m2: a lane's metadata is one row's
    const Opnd& meta = op.o[4];
    std::vector<long double> full(size_t(16) * K, 0.0L);
    for (uint32_t row = 0; row < 16; ++row) {
        const uint32_t g = row % 8, u = row / 8;
        for (uint32_t c = 0; c < chunks; ++c) {
            uint32_t lane = 0, shift = 0;
            if (bits8) // one row a lane: h = sel (m16n8k32) or c / 8 (m16n8k64)
                lane = 4 * g + 2 * (chunks == 8 ? f.spSel : c / 8) + u, shift = 4 * (c % 8);
            else if (chunks == 4)
                lane = 4 * g + f.spSel, shift = 16 * u + 4 * c;
            else
                lane = 4 * g + 2 * f.spSel + c / 4, shift = 16 * u + 4 * (c % 4);
            const auto word = uint32_t(m.reg(w, meta.reg, int(lane)));
            const uint32_t nib = (word >> shift) & 0xF, i0 = nib & 3, i1 = nib >> 2;
            const bool bad = tf32 ? nib != 0x4 && nib != 0xE : i0 == i1 || (f.spOrdered && i0 > i1);
            if (bad)
                return m.fail(
                    op, DiagCode::InvalidValue,
                    std::string(f.spOrdered ? "mma.sp::ordered_metadata" : "mma.sp") + " metadata " +
                        hexNibble(nib) + " of row " + std::to_string(row) + ", chunk " + std::to_string(c) +
                        " (" + m.who(w, int(lane)) + ", bits [" + std::to_string(shift) + "," +
                        std::to_string(shift + 4) + ") of e) is not " +
                        (tf32          ? "a 1:2 index (0b0100 or 0b1110)"
                         : f.spOrdered ? "an increasing 2:4 index pair (0x4, 0x8, 0x9, 0xc, 0xd, 0xe)"
                                       : "a 2:4 index pair of two positions") +
                        ": undefined behaviour (PTX ISA §9.7.14.6.1)");
            if (tf32) {
                full[size_t(row) * K + span * c + (nib == 0xE ? 1 : 0)] = A[size_t(row) * Kc + c];
            } else {
                full[size_t(row) * K + span * c + i0] = A[size_t(row) * Kc + 2 * c];
                full[size_t(row) * K + span * c + i1] = A[size_t(row) * Kc + 2 * c + 1];
            }
        }
    }
    A.swap(full);
    return true;
}

} // namespace layoutscope::exec
