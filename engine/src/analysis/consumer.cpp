// The consumer model's reads and the producer/consumer comparison (consumer.hpp).
#include "layoutscope/analysis/consumer.hpp"

namespace layoutscope {

std::vector<OperandRead> tcgen05CpReads(CpShape shape, const SmemDescriptor& d) {
    const uint32_t rows = cpSourceRows(shape), rowBytes = cpRowBytes(shape);
    std::vector<OperandRead> out;
    out.reserve(size_t(rows) * rowBytes / 16);
    for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t b = 0; b < rowBytes; b += 16) out.push_back({r, b, 16, cpSourceAddress(d, r, b)});
    return out;
}

uint32_t ldmatrixSource(const LdmatrixForm& f, const std::array<uint32_t, 32>& rowAddr, uint32_t t,
                        uint32_t r, uint32_t h) {
    if (!f.trans) return rowAddr[8 * r + t / 4] + 4 * (t % 4) + 2 * h;
    return rowAddr[8 * r + 2 * (t % 4) + h] + 2 * (t / 4);
}

std::vector<OperandRead> ldmatrixReads(const LdmatrixForm& f, const std::array<uint32_t, 32>& rowAddr) {
    std::vector<OperandRead> out;
    for (uint32_t t = 0; t < 32; ++t)
        for (uint32_t r = 0; r < f.num; ++r)
            for (uint32_t h = 0; h < 2; ++h) {
                // The matrix element this half is: (row, column) of matrix r.
                const uint32_t row = f.trans ? 2 * (t % 4) + h : t / 4;
                const uint32_t col = f.trans ? t / 4 : 2 * (t % 4) + h;
                out.push_back({8 * r + row, 2 * col, 2, ldmatrixSource(f, rowAddr, t, r, h)});
            }
    return out;
}

std::vector<OperandRead> descriptorOperandReads(const SmemDescriptor& d, MatrixMajor major, uint32_t elemBits,
                                                uint32_t rows, uint32_t k) {
    std::vector<OperandRead> out;
    out.reserve(size_t(rows) * k);
    const uint32_t eb = elemBits / 8;
    for (uint32_t mn = 0; mn < rows; ++mn)
        for (uint32_t kk = 0; kk < k; ++kk)
            out.push_back({mn, kk * eb, eb, elementAddress(d, major, elemBits, mn, kk)});
    return out;
}

ReadComparison compareRead(const OperandRead& r, const ProducerLookup& producer,
                           std::array<int64_t, 2> origin, uint32_t elemBytes, bool mnMajor) {
    const uint32_t eb = elemBytes == 0 ? 1 : elemBytes;
    ReadComparison c;
    c.expected = mnMajor ? std::array<int64_t, 2>{origin[0] + r.m, origin[1] + r.kByte / eb}
                         : std::array<int64_t, 2>{origin[0] + r.kByte / eb, origin[1] + r.m};
    if (const std::optional<ProducedByte> got = producer(r.addr)) c.actual = got->coord;
    c.match = c.actual && *c.actual == c.expected;
    return c;
}

ConsumerCheck checkReads(const std::vector<OperandRead>& reads, const ProducerLookup& producer,
                         std::array<int64_t, 2> origin, uint32_t elemBytes, size_t keep, bool mnMajor) {
    ConsumerCheck c;
    const uint32_t eb = elemBytes == 0 ? 1 : elemBytes;
    for (const OperandRead& r : reads) {
        ++c.reads;
        const ReadComparison cmp = compareRead(r, producer, origin, elemBytes, mnMajor);
        if (cmp.match) continue;
        ++c.mismatched;
        if (c.first.size() < keep) c.first.push_back({r.m, r.kByte / eb, cmp.expected, cmp.actual});
    }
    return c;
}

} // namespace layoutscope
