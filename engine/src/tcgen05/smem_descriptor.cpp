// Shared-memory matrix descriptor: decode, encode, validate, implied element addresses
// (PTX ISA 9.2 §9.7.16.4.1 Table 40, §9.7.16.3.3; tcgen05.md §7; golden/cute umma_smem_desc.json).
#include "layoutscope/tcgen05/smem_descriptor.hpp"
#include "layoutscope/tcgen05/tmem.hpp"
#include "tcgen05/exec_detail.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <string>
#include <utility>

namespace layoutscope {
namespace {

constexpr uint64_t field(uint64_t v, unsigned lo, unsigned width) {
    return (v >> lo) & ((uint64_t{1} << width) - 1);
}

constexpr uint64_t kReservedMask = (uint64_t{0x3} << 14)     // bits [14,16)
                                   | (uint64_t{0x3} << 30)   // bits [30,32)
                                   | (uint64_t{0xFF} << 53); // bits [53,61)

} // namespace

const char* smemLayoutTypeName(uint32_t t) {
    switch (t) {
    case 0:
        return "SWIZZLE_NONE";
    case 1:
        return "SWIZZLE_128B_BASE32B";
    case 2:
        return "SWIZZLE_128B";
    case 4:
        return "SWIZZLE_64B";
    case 6:
        return "SWIZZLE_32B";
    default:
        return "invalid";
    }
}

std::optional<SmemLayoutType> smemLayoutTypeFromName(std::string_view name) {
    static constexpr std::pair<std::string_view, SmemLayoutType> kTypes[] = {
        {"none", SmemLayoutType::SwizzleNone},
        {"128B", SmemLayoutType::Swizzle128B},
        {"64B", SmemLayoutType::Swizzle64B},
        {"32B", SmemLayoutType::Swizzle32B},
        {"128B_base32B", SmemLayoutType::Swizzle128BBase32B}};
    for (const auto& [n, t] : kTypes)
        if (n == name) return t;
    return std::nullopt;
}

SmemDescriptor decodeSmemDescriptor(uint64_t v) {
    SmemDescriptor d;
    d.startAddress = static_cast<uint32_t>(field(v, 0, 14) << 4); // bits [0,14)
    d.lbo = static_cast<uint32_t>(field(v, 16, 14) << 4);         // bits [16,30)
    d.sbo = static_cast<uint32_t>(field(v, 32, 14) << 4);         // bits [32,46)
    d.version = static_cast<uint32_t>(field(v, 46, 3));           // bits [46,49)
    d.baseOffset = static_cast<uint32_t>(field(v, 49, 3));        // bits [49,52)
    d.lboMode = static_cast<uint32_t>(field(v, 52, 1));           // bits [52,53)
    d.layoutType = static_cast<uint32_t>(field(v, 61, 3));        // bits [61,64)
    d.reservedBits = v & kReservedMask;
    return d;
}

uint64_t encodeSmemDescriptor(const SmemDescriptor& d) {
    uint64_t v = 0;
    v |= uint64_t{(d.startAddress & 0x3FFFF) >> 4}; // bits [0,14)
    v |= uint64_t{(d.lbo & 0x3FFFF) >> 4} << 16;    // bits [16,30)
    v |= uint64_t{(d.sbo & 0x3FFFF) >> 4} << 32;    // bits [32,46)
    v |= uint64_t{d.version & 7} << 46;             // bits [46,49)
    v |= uint64_t{d.baseOffset & 7} << 49;          // bits [49,52)
    v |= uint64_t{d.lboMode & 1} << 52;             // bits [52,53)
    v |= uint64_t{d.layoutType & 7} << 61;          // bits [61,64)
    return v;
}

Status validateSmemDescriptor(const SmemDescriptor& d) {
    std::vector<Diagnostic> ds;
    auto bad = [&](RuleId r, std::string m) {
        ds.push_back(tcgen05Diagnostic(Severity::Error, r, std::move(m)));
    };
    if (std::string(smemLayoutTypeName(d.layoutType)) == "invalid")
        bad(RuleId::SmemDescriptorFields, "layout type " + std::to_string(d.layoutType) +
                                              " is invalid (0 none, 1 128B/32B atom, 2 128B, 4 64B, 6 32B)");
    if (d.version != 1)
        bad(RuleId::SmemDescriptorFields,
            "bits [46,49) must hold the fixed constant 0b001, not " + std::to_string(d.version));
    if (d.reservedBits != 0)
        bad(RuleId::SmemDescriptorFields, "reserved bits [14,16), [30,32) or [53,61) are not 0");
    if (d.lboMode == 1 && (d.layoutType != 2 || d.baseOffset != 0))
        bad(RuleId::SmemDescriptorFields,
            "absolute LBO mode (bit 52) needs SWIZZLE_128B and base offset 0 (PTX §9.7.16.3.1.2.1)");
    if (ds.empty()) return okStatus();
    return ds;
}

CuteSwizzle swizzleOfLayoutType(uint32_t t) {
    switch (t) {
    case 1:
        return {2, 5, 2};
    case 2:
        return {3, 4, 3};
    case 4:
        return {2, 4, 3};
    case 6:
        return {1, 4, 3};
    default:
        return {0, 4, 3};
    }
}

uint32_t swizzleWidthBytes(uint32_t t) {
    switch (t) {
    case 1:
    case 2:
        return 128;
    case 4:
        return 64;
    case 6:
        return 32;
    default:
        return 16;
    }
}

int cuteSwizzleToTensorMapSwizzle(const CuteSwizzle& sw) {
    // CuTe get_tma_swizzle_bits / get_tma_swizzle_base / to_CUtensorMapSwizzle (golden/cute swizzle.json).
    if (sw.m == 4) {
        if (sw.b == 0) return 0; // NONE (the base is not checked for the identity swizzle)
        if (sw.s != 3 || sw.b > 3) return -1;
        return static_cast<int>(sw.b); // 32B=1, 64B=2, 128B=3
    }
    if (sw.m == 5) return (sw.b == 2 && sw.s == 2) ? 4 : -1; // 128B_ATOM_32B
    if (sw.m == 6) return sw.b == 2 ? 6 : -1;                // 128B_ATOM_64B (CuTe requires B==2)
    return -1;
}

uint32_t canonicalOffset(const SmemDescriptor& d, MatrixMajor major, uint32_t elemBits, uint32_t mn,
                         uint32_t k) {
    // unverified: open question 3 — absolute-LBO mode (bit 52, sm_103a) is not modelled: LBO stays relative.
    const uint32_t w = swizzleWidthBytes(d.layoutType);
    const bool swizzled = w != 16;
    if (major == MatrixMajor::K) {
        const uint32_t kb = k * elemBits / 8;
        if (!swizzled) return (mn % 8) * 16 + (mn / 8) * d.sbo + kb % 16 + (kb / 16) * d.lbo;
        // w is 32, 64 or 128: kb % w and kb / w as a mask and a shift (no division per element).
        const int shift = std::countr_zero(w);
        return (mn % 8) * w + (mn / 8) * d.sbo + (kb & (w - 1)) + (kb >> shift) * d.lbo;
    }
    const uint32_t mb = mn * elemBits / 8;
    if (!swizzled) return mb % 16 + (mb / 16) * d.sbo + (k % 8) * 16 + (k / 8) * d.lbo;
    const uint32_t rows = d.layoutType == 1 ? 4 : 8; // 128B with 32B atoms: (4,k) rows of 128 B
    return mb % w + (mb / w) * d.lbo + (k % rows) * w + (k / rows) * d.sbo;
}

namespace {

// The descriptor's swizzle of absolute shared byte address `addr`: Swizzle<B,M,S> with the line phase bits
// [M+S, M+S+B) counted from the base offset (bits [49,52)). Base 0 is the plain absolute XOR (measured on
// H100, tests/data/wgmma). (RuleId::SmemDescriptorBaseOffset.) `sw`: the layout type's swizzle, looked up
// by the caller (once per walk).
uint32_t descriptorSwizzleWith(const SmemDescriptor& d, const CuteSwizzle& sw, uint32_t addr) {
    if (sw.b == 0 || d.baseOffset == 0) return sw.apply(addr); // base 0: measured on H100 (wgmma records)
    // A non-zero base offset names the line phase (addr >> 7) & mask at which the pattern starts (PTX
    // §9.7.15.5.1.2.1: base offset = (pattern start >> 7) & 7), so the phase that selects the XOR is counted
    // from it: ((addr >> 7) - base) mod 2^B; the field's low B bits enter (3 for 128B, 2 for 64B and
    // 128B_base32B, 1 for 32B). Measured for wgmma on Hopper: all 288 records of
    // tests/data/wgmma/h100_base_offset.jsonl (base 0..7 x 128B/64B/32B x starts 0/128/384, A and B, both
    // majors) fit this and no other candidate. unverified: open question 22 for tcgen05 (sm_100).
    const uint32_t yShift = sw.m + sw.s, mask = (1u << sw.b) - 1;
    const uint32_t phase = ((addr >> yShift) - d.baseOffset) & mask;
    return addr ^ (phase << sw.m);
}

uint32_t descriptorSwizzle(const SmemDescriptor& d, uint32_t addr) {
    return descriptorSwizzleWith(d, swizzleOfLayoutType(d.layoutType), addr);
}

} // namespace

uint32_t elementAddress(const SmemDescriptor& d, MatrixMajor major, uint32_t elemBits, uint32_t mn,
                        uint32_t k) {
    // The XOR uses absolute address bits (open question 22, measured on H100 for base offset 0).
    return descriptorSwizzle(d, d.startAddress + canonicalOffset(d, major, elemBits, mn, k));
}

uint32_t cpSourceAddress(const SmemDescriptor& d, uint32_t row, uint32_t b) {
    // unverified: open question 3 — K-major canonical walk: row = M index, row bytes along K (8-bit view).
    return elementAddress(d, MatrixMajor::K, 8, row, b);
}

namespace detail {
CpWalk cpWalkOf(const SmemDescriptor& d, uint32_t rows, uint32_t chunks) {
    CpWalk w;
    if (swizzleOfLayoutType(d.layoutType).b != 0 || rows == 0 || chunks == 0) return w;
    // The terms of cpSourceAddresses' walk (canonicalOffset: K-major, 8-bit view); without a swizzle the
    // chunk term is linear in q (16 q bytes along K: q LBOs).
    w.affine = true;
    w.start = d.startAddress;
    w.t1 = canonicalOffset(d, MatrixMajor::K, 8, 1, 0);
    w.t8 = canonicalOffset(d, MatrixMajor::K, 8, 8, 0);
    w.dq = chunks > 1 ? canonicalOffset(d, MatrixMajor::K, 8, 0, 16) : 0;
    for (uint32_t q = 2; q < chunks; ++q)
        LAYOUTSCOPE_ASSERT(canonicalOffset(d, MatrixMajor::K, 8, 0, 16 * q) == q * w.dq);
    const uint32_t r = rows - 1; // the last row and chunk: the highest address (every term grows)
    w.maxAddr = w.start + (r % 8) * w.t1 + (r / 8) * w.t8 + (chunks - 1) * w.dq;
    return w;
}

CpWalk cpSourceAddresses(const SmemDescriptor& d, uint32_t rows, uint32_t chunks, uint32_t* out) {
    // cpSourceAddress = elementAddress(d, K, 8, r, b), with the swizzle looked up once.
    // The K-major offset is a row term plus a byte term (canonicalOffset, mod 2^32): each computed once.
    std::array<uint32_t, 8> chunkTerm{}; // chunks <= 2 for every shape; 8 leaves room
    LAYOUTSCOPE_ASSERT(chunks <= chunkTerm.size());
    for (uint32_t q = 1; q < chunks; ++q) chunkTerm[q] = canonicalOffset(d, MatrixMajor::K, 8, 0, 16 * q);
    // The row term is (r % 8) * t1 + (r / 8) * t8 (mod 2^32) in every layout type: two calls, not one per
    // row (checked against the per-row call where asserts are on).
    const CuteSwizzle sw = swizzleOfLayoutType(d.layoutType);
    const uint32_t t1 = canonicalOffset(d, MatrixMajor::K, 8, 1, 0),
                   t8 = canonicalOffset(d, MatrixMajor::K, 8, 8, 0);
    // Rows in blocks of 8 (r / 8 fixed): block r8's addresses are r8 * t8 plus one pattern of 8 * chunks
    // offsets, a loop of fixed length that the compiler vectorises; the identity swizzle (SWIZZLE_NONE)
    // needs nothing more (issue 25 item 10: the walk was a fifth of a tcgen05.cp .128x256b).
    std::array<uint32_t, 8 * 8> pattern; // [i * chunks + q] for i < 8, q < chunks: all that is read
    for (uint32_t i = 0; i < 8; ++i)
        for (uint32_t q = 0; q < chunks; ++q) pattern[i * chunks + q] = i * t1 + chunkTerm[q];
    const uint32_t full = rows / 8, tail = rows % 8; // rows is 4 or a multiple of 8 (cpSourceRows)
    auto walk = [&]<uint32_t Chunks>(auto swizzle) {
        for (uint32_t r8 = 0; r8 < full; ++r8) {
            const uint32_t blockBase = d.startAddress + r8 * t8;
            uint32_t* o = out + size_t(r8) * 8 * Chunks;
            for (uint32_t j = 0; j < 8 * Chunks; ++j) o[j] = swizzle(blockBase + pattern[j]);
        }
        for (uint32_t j = 0; j < tail * Chunks; ++j)
            out[size_t(full) * 8 * Chunks + j] = swizzle(d.startAddress + full * t8 + pattern[j]);
    };
    auto walkChunks = [&](auto swizzle) {
        if (chunks == 2)
            walk.template operator()<2>(swizzle);
        else if (chunks == 1)
            walk.template operator()<1>(swizzle);
        else
            for (uint32_t r = 0; r < rows; ++r)
                for (uint32_t q = 0; q < chunks; ++q)
                    out[r * chunks + q] =
                        swizzle(d.startAddress + (r % 8) * t1 + (r / 8) * t8 + chunkTerm[q]);
    };
#ifndef NDEBUG
    for (uint32_t r = 0; r < rows; ++r)
        LAYOUTSCOPE_ASSERT((r % 8) * t1 + (r / 8) * t8 == canonicalOffset(d, MatrixMajor::K, 8, r, 0));
#endif
    if (sw.b == 0) { // CuteSwizzle::apply of <0,4,3> is the identity: the walk only grows
        walkChunks([](uint32_t a) { return a; });
        const CpWalk w = cpWalkOf(d, rows, chunks);
        LAYOUTSCOPE_ASSERT(w.affine && w.maxAddr == out[rows * chunks - 1]);
        return w;
    }
    walkChunks([&](uint32_t a) { return descriptorSwizzleWith(d, sw, a); });
    CpWalk w;
    for (uint32_t i = 0; i < rows * chunks; ++i) w.maxAddr = std::max(w.maxAddr, out[i]);
    return w;
}
} // namespace detail

} // namespace layoutscope
