#pragma once
/// The data paths of tcgen05.mma.sp (structured-sparse A) and tcgen05.mma.ws (weight stationary): the
/// sparsity metadata in Tensor Memory, the 2:4 index decode, the zero-column mask and the collector
/// buffers of B. Where D lands is umma_layout.hpp (Layouts C, E, G); the instruction descriptor is umma.hpp.
///
/// [SECTION] index: sparse A (PTX ISA 9.2 §9.7.16.10.8) · zero-column mask (§9.7.16.4.3) · collector
/// buffers (§9.7.16.10.9.3)
#include "layoutscope/core/result.hpp"
#include "layoutscope/tcgen05/umma.hpp"

#include <array>
#include <functional>
#include <optional>
#include <vector>

namespace layoutscope {

// [SECTION] sparse A ------------------------------------------------------------------------------------
//
// tcgen05.mma.sp: A (M x K) is stored as M x K/2 values (read through a-desc or [a-tmem] exactly like a dense
// A of K/2 elements, 256 bits a row); every chunk of 4 adjacent elements of a row holds 2 stored values
// (2:4: kind::f16, f8f6f4, i8), and a 4-bit metadata nibble per chunk gives their positions: bits [0,2) the
// position of the first stored value, bits [2,4) the second's. Meaningful nibbles (§9.7.16.10.8.2):
// 0b0100, 0b1000, 0b1100, 0b1001, 0b1101, 0b0110, 0b1110; any other is undefined behaviour.
//
// The metadata matrix in Tensor Memory, from [sp-meta-tmem] (CuTe UMMA::tmem_e_frg / tmem_e_frg_ws,
// cute/atom/mma_traits_sm100_frag.hpp; JAX format_tcgen05_sparse_metadata; the PTX figures of §9.7.16.10.8.4
// are images), for row r of A (r = m % 128; .cta_group::2 M = 256: CTA m / 128) and chunk c of the row:
//   16-bit kinds (f16, K = 32, 8 chunks): half h = c / 4 of K; lane (r % 8) + 8 h + 16 (r / 16), column
//     spSelector, bits [16 ((r / 8) % 2) + 4 (c % 4), +4): one 32-bit column holds a whole MMA's metadata.
//   8-bit kinds (f8f6f4, i8, K = 64, 16 chunks): lane r, column c / 8, bits [4 (c % 8), +4): two columns.
// .ws M = 64 / 32 use the same lanes for rows [0, M); CuTe writes replicas at lane + 64 (M = 64) / + 32 q (M
// = 32) for the other datapath quarters. unverified: the selector as a column offset (CuTe passes bit 0 of
// the metadata column as the selector; 8-bit kinds: only selector 0 is modelled), and which replica .ws
// reads (the model reads lanes [0, M)). RuleId::Tcgen05MmaSparse.

/// Chunks of one row of A per instruction: K / 4.
[[nodiscard]] uint32_t ummaSparseChunks(const UmmaOp& op);
/// Columns the metadata of one instruction spans from [sp-meta-tmem] + selector: 1 (16-bit) or 2 (8-bit).
[[nodiscard]] uint32_t ummaSparseMetaColumns(const UmmaOp& op);

/// Where the metadata nibble of chunk `chunk` of row `m` lives, as an offset from [sp-meta-tmem].
struct UmmaMetaCell {
    uint32_t cta = 0;    ///< 0: the issuing (even) CTA; 1: its peer (.cta_group::2, rows >= 128)
    uint32_t lane = 0;   ///< lane offset
    uint32_t column = 0; ///< column offset (selector included)
    uint32_t bit = 0;    ///< first bit of the nibble in the 32-bit cell
    friend bool operator==(const UmmaMetaCell&, const UmmaMetaCell&) = default;
};
[[nodiscard]] UmmaMetaCell ummaSparseMetaCell(const UmmaOp& op, uint32_t m, uint32_t chunk);

/// The positions (0..3) in its chunk of the first and second stored value of a 2:4 nibble; nullopt: not
/// one of the seven meaningful values (undefined behaviour, §9.7.16.10.8.2).
[[nodiscard]] std::optional<std::array<uint32_t, 2>> ummaSparseIndices(uint32_t nibble);

/// Reads a 32-bit Tensor Memory cell: (pair CTA 0/1, lane offset, column offset) from [sp-meta-tmem];
/// nullopt: outside Tensor Memory.
using UmmaMetaReader = std::function<std::optional<uint32_t>(uint32_t cta, uint32_t lane, uint32_t column)>;

/// The dense A (M x K, row-major) of a sparse op from its stored values `stored` (M x K/2, row-major) and the
/// metadata `read` gives; the positions no stored value names are zero. Errors (RuleId::Tcgen05MmaSparse):
/// a nibble that is not a meaningful 2:4 value, naming row, chunk, lane, column and the rule; a cell
/// outside Tensor Memory.
[[nodiscard]] Result<std::vector<double>>
ummaExpandSparseA(const UmmaOp& op, const std::vector<double>& stored, const UmmaMetaReader& read);

// [SECTION] zero-column mask ------------------------------------------------------------------------------
//
// The optional zero-column-mask-desc of tcgen05.mma.ws (64 bits, §9.7.16.4.3): bits [8i, 8i+8) start count
// sc_i, bit 32 + i first span fs_i, bits [36,39) reserved, bit 39 non-zero mask, [40,48) skip span, [48,56)
// use span, [56,62) column shift. M = 128 builds one N-bit sub-mask, M = 64 two of N/2 bits (columns [0, N/2)
// and [N/2, N)), M = 32 four of N/4. Sub-mask i is the periodic run pattern starting with value fs_i, runs
// of 1s (skip span + 1) long and runs of 0s (use span + 1) long, with its first sc_i bits dropped — as the
// ISA's four worked examples generate it (the field descriptions name the spans the other way round). A 1
// bit: B column n reads as zero. The shift: D column n multiplies B column n + shift (at most 16 for M = 32,
// 32 otherwise). unverified: whether the mask applies before or after the shift (the model: mask bit n
// zeroes D column n's B column), RuleId::Tcgen05MmaWs.

struct UmmaZeroColumns {
    std::vector<bool> zero; ///< N entries: true = the column of B used for D column n is all zeros
    uint32_t shift = 0;     ///< column shift
};
/// The mask of a zero-column mask descriptor for an M x N .ws MMA; errors name the field (reserved bits
/// set, a shift over the maximum).
[[nodiscard]] Result<UmmaZeroColumns> ummaZeroColumnMask(uint32_t m, uint32_t n, uint64_t desc);

// [SECTION] collector buffers ---------------------------------------------------------------------------
//
// tcgen05.mma.ws `.collector::bN::op` (§9.7.16.10.9.3), per CTA, buffers b0..b3 holding a B matrix:
//   fill     B is read from shared memory and kept in bN
//   use      B is read from bN (a previous fill must still be valid); bN stays valid
//   lastuse  B is read from bN, then bN is discarded
//   discard  B is read from shared memory; bN is discarded (the default: b0::discard)
// The model keeps B's values (N x K as read, before the zero-column mask); a use / lastuse of an empty
// buffer, or of one filled with another shape or type, is an error. unverified: whether use still requires
// b-desc to describe the same matrix (the model ignores b-desc then and says so in the trace summary).

/// One collector buffer's contents.
struct UmmaCollectorBuffer {
    bool valid = false;
    uint32_t n = 0, k = 0;
    UmmaType type = UmmaType::F16;
    std::vector<double> b; ///< n x k, row-major, as read from shared memory
};

} // namespace layoutscope
