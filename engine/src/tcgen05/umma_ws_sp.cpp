// tcgen05.mma.sp metadata and tcgen05.mma.ws zero-column mask (umma_ws_sp.hpp; PTX ISA 9.2 §9.7.16.10.8
// sparse matrices, §9.7.16.4.3 zero-column mask descriptor). The metadata placement follows CuTe
// UMMA::tmem_e_frg / tmem_e_frg_ws (cute/atom/mma_traits_sm100_frag.hpp) and JAX's
// format_tcgen05_sparse_metadata, read to learn the layout; the PTX figures are images.
#include "layoutscope/tcgen05/umma_ws_sp.hpp"

#include "layoutscope/tcgen05/tmem.hpp"

#include <string>

namespace layoutscope {
namespace {

Diagnostic sparseError(std::string msg) {
    return tcgen05Diagnostic(Severity::Error, RuleId::Tcgen05MmaSparse, std::move(msg));
}

std::string binaryNibble(uint32_t v) {
    std::string s = "0b";
    for (int b = 3; b >= 0; --b) s += char('0' + ((v >> b) & 1));
    return s;
}

} // namespace

uint32_t ummaSparseChunks(const UmmaOp& op) {
    return ummaK(op) / 4;
}

uint32_t ummaSparseMetaColumns(const UmmaOp& op) {
    return ummaTypeBits(op.a) == 8 ? 2 : 1;
}

UmmaMetaCell ummaSparseMetaCell(const UmmaOp& op, uint32_t m, uint32_t chunk) {
    LAYOUTSCOPE_ASSERT(m < op.m && chunk < ummaSparseChunks(op));
    UmmaMetaCell c;
    c.cta = op.ctaGroup == 2 ? m / 128 : 0;
    const uint32_t r = m % 128;
    if (ummaTypeBits(op.a) == 8) { // 64 nibbles a row: lane r, two columns of 8 nibbles
        c.lane = r;
        c.column = op.spSelector + chunk / 8;
        c.bit = 4 * (chunk % 8);
        return c;
    }
    // 16-bit: row group r / 16 takes 16 lanes; lanes +0..7 hold K-half 0, +8..15 K-half 1; rows r % 16 < 8 in
    // bits [0,16), the other 8 rows in bits [16,32); chunk c % 4 of the half at nibble c % 4.
    const uint32_t half = chunk / 4;
    c.lane = (r % 8) + 8 * half + 16 * (r / 16);
    c.column = op.spSelector;
    c.bit = 16 * ((r / 8) % 2) + 4 * (chunk % 4);
    return c;
}

std::optional<std::array<uint32_t, 2>> ummaSparseIndices(uint32_t nibble) {
    // §9.7.16.10.8.2: the only meaningful values; 0b0110 names position 2 first, then 1.
    switch (nibble & 0xF) {
    case 0b0100:
    case 0b1000:
    case 0b1100:
    case 0b1001:
    case 0b1101:
    case 0b0110:
    case 0b1110:
        return std::array<uint32_t, 2>{nibble & 3, (nibble >> 2) & 3};
    default:
        return std::nullopt;
    }
}

Result<std::vector<double>> ummaExpandSparseA(const UmmaOp& op, const std::vector<double>& stored,
                                              const UmmaMetaReader& read) {
    const uint32_t K = ummaK(op), chunks = ummaSparseChunks(op);
    LAYOUTSCOPE_ASSERT(stored.size() == size_t(op.m) * (K / 2));
    std::vector<double> full(size_t(op.m) * K, 0.0);
    const TmemAddr base = decodeTmemAddress(op.spMetaTaddr);
    for (uint32_t m = 0; m < op.m; ++m)
        for (uint32_t c = 0; c < chunks; ++c) {
            const UmmaMetaCell cell = ummaSparseMetaCell(op, m, c);
            const std::optional<uint32_t> word = read(cell.cta, cell.lane, cell.column);
            const std::string where =
                "lane " + std::to_string(base.lane + cell.lane) + ", column " +
                std::to_string(base.column + cell.column) + ", bits [" + std::to_string(cell.bit) + "," +
                std::to_string(cell.bit + 4) + ")" +
                (op.ctaGroup == 2 ? " of CTA " + std::to_string(cell.cta) + " of the pair" : std::string());
            if (!word)
                return sparseError("the sparsity metadata of A row " + std::to_string(m) + ", chunk " +
                                   std::to_string(c) + " would be read at " + where +
                                   ": outside 128 lanes x 512 columns");
            const uint32_t nib = (*word >> cell.bit) & 0xF;
            const auto idx = ummaSparseIndices(nib);
            if (!idx)
                return sparseError("sparsity metadata " + binaryNibble(nib) + " of A row " +
                                   std::to_string(m) + ", chunk " + std::to_string(c) + " (elements " +
                                   std::to_string(4 * c) + ".." + std::to_string(4 * c + 3) + ", at " +
                                   where +
                                   ") is not a 2:4 index pair: the meaningful values are 0b0100, 0b1000, "
                                   "0b1100, 0b1001, 0b1101, 0b0110 and 0b1110, any other is undefined "
                                   "behaviour (PTX ISA 9.2 §9.7.16.10.8.2)");
            const size_t src = size_t(m) * (K / 2) + 2 * c, dst = size_t(m) * K + 4 * c;
            full[dst + (*idx)[0]] = stored[src];
            full[dst + (*idx)[1]] = stored[src + 1];
        }
    return full;
}

Result<UmmaZeroColumns> ummaZeroColumnMask(uint32_t m, uint32_t n, uint64_t desc) {
    auto field = [&](int lo, int bits) { return uint32_t((desc >> lo) & ((uint64_t(1) << bits) - 1)); };
    auto bad = [](std::string msg) {
        return tcgen05Diagnostic(Severity::Error, RuleId::Tcgen05MmaWs,
                                 "zero-column-mask-desc: " + std::move(msg) +
                                     " (PTX ISA 9.2 §9.7.16.4.3, zero-column mask descriptor)");
    };
    if (field(36, 3) != 0) return bad("reserved bits [36,39) must be 0");
    if (field(62, 2) != 0) return bad("bits [62,64) are outside the descriptor's fields and must be 0");
    UmmaZeroColumns z;
    z.shift = field(56, 6);
    const uint32_t maxShift = m == 32 ? 16 : 32;
    if (z.shift > maxShift)
        return bad("column shift (bits [56,62)) = " + std::to_string(z.shift) + ": at most " +
                   std::to_string(maxShift) + " for M = " + std::to_string(m));
    z.zero.assign(n, false);
    if (field(39, 1) == 0) return z; // Non-Zero Mask = 0: every column of B is used
    const uint32_t ones = field(40, 8) + 1, zeros = field(48, 8) + 1;
    const uint32_t parts = m == 128 ? 1 : m == 64 ? 2 : 4, width = n / parts;
    for (uint32_t i = 0; i < parts; ++i) {
        bool value = field(32 + int(i), 1);
        uint32_t left = value ? ones : zeros;                          // bits left in the current run
        for (uint32_t skip = field(8 * int(i), 8); skip > 0; --skip) { // drop the first sc_i bits
            if (--left == 0) value = !value, left = value ? ones : zeros;
        }
        for (uint32_t j = 0; j < width; ++j) {
            z.zero[i * width + j] = value;
            if (--left == 0) value = !value, left = value ? ones : zeros;
        }
    }
    return z;
}

} // namespace layoutscope
