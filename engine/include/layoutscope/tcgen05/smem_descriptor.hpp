#pragma once
/// The tcgen05 shared-memory matrix descriptor (PTX ISA 9.2 §9.7.16.4.1, Table 40; tcgen05.md §7;
/// CuTe `UMMA::SmemDescriptor` in cute/arch/mma_sm100_desc.hpp) and the element addresses it implies.
///
/// 64-bit layout:
///   bits [0,14)   start address      (addr & 0x3FFFF) >> 4
///   bits [14,16)  reserved           0
///   bits [16,30)  leading byte offset (LBO) >> 4 (absolute address >> 4 when bit 52 = 1)
///   bits [30,32)  reserved           0
///   bits [32,46)  stride byte offset (SBO) >> 4
///   bits [46,49)  fixed constant     0b001 ("version", CuTe writes 1 into bits [46,48))
///   bits [49,52)  matrix base offset
///   bit  52       LBO mode           0 relative, 1 absolute (sm_103a)
///   bits [53,61)  fixed              0
///   bits [61,64)  layout type        0 none, 1 128B/32B atom, 2 128B, 4 64B, 6 32B (3, 5, 7 invalid)
#include "layoutscope/core/result.hpp"

#include <cstdint>
#include <optional>
#include <string_view>

namespace layoutscope {

/// `UMMA::LayoutType` values (bits [61,64)).
enum class SmemLayoutType : uint8_t {
    SwizzleNone = 0,
    Swizzle128BBase32B = 1,
    Swizzle128B = 2,
    Swizzle64B = 4,
    Swizzle32B = 6,
};
[[nodiscard]] const char* smemLayoutTypeName(uint32_t rawType); ///< "SWIZZLE_128B", ... or "invalid"
/// The short names scenarios and the CLI use: none, 128B, 64B, 32B, 128B_base32B (nullopt otherwise).
[[nodiscard]] std::optional<SmemLayoutType> smemLayoutTypeFromName(std::string_view name);
inline constexpr const char* kSmemLayoutTypeNames = "none, 128B, 64B, 32B or 128B_base32B";

/// Decoded descriptor; byte fields are already multiplied by 16.
struct SmemDescriptor {
    uint32_t startAddress = 0; ///< bytes (18-bit shared address, 16-B aligned)
    uint32_t lbo = 0;          ///< bytes
    uint32_t sbo = 0;          ///< bytes
    uint32_t version = 1;      ///< bits [46,49)
    uint32_t baseOffset = 0;   ///< bits [49,52)
    uint32_t lboMode = 0;      ///< bit 52
    uint32_t layoutType = 0;   ///< bits [61,64), raw
    uint64_t reservedBits = 0; ///< the value's bits in [14,16), [30,32), [53,61) (must be 0)
    friend bool operator==(const SmemDescriptor&, const SmemDescriptor&) = default;
};

[[nodiscard]] SmemDescriptor decodeSmemDescriptor(uint64_t value);
/// Fields -> 64-bit value (reservedBits ignored; byte fields truncated to their 14-bit field).
[[nodiscard]] uint64_t encodeSmemDescriptor(const SmemDescriptor& d);
/// Layout type valid, version 1, reserved bits zero, absolute-LBO mode only with 128B and base offset 0.
[[nodiscard]] Status validateSmemDescriptor(const SmemDescriptor& d);

/// CuTe `Swizzle<B,M,S>(x) = x ^ ((x & (((1<<B)-1) << (M+S))) >> S)` on byte addresses.
struct CuteSwizzle {
    uint32_t b = 0, m = 4, s = 3;
    [[nodiscard]] uint32_t yyyMask() const { return ((1u << b) - 1) << (m + s); }
    [[nodiscard]] uint32_t zzzMask() const { return ((1u << b) - 1) << m; }
    [[nodiscard]] uint32_t apply(uint32_t x) const { return x ^ ((x & yyyMask()) >> s); }
};
/// Layout type -> swizzle: 0 <0,4,3>, 1 <2,5,2>, 2 <3,4,3>, 4 <2,4,3>, 6 <1,4,3>
/// (RuleId::SmemDescriptorSwizzle).
[[nodiscard]] CuteSwizzle swizzleOfLayoutType(uint32_t rawType);
/// Swizzle width in bytes of a layout type (16 for none, 32/64/128 otherwise).
[[nodiscard]] uint32_t swizzleWidthBytes(uint32_t rawType);

/// CuTe's conversion of a Swizzle<B,M,S> to a CUtensorMapSwizzle value (get_tma_swizzle_bits/base,
/// to_CUtensorMapSwizzle); -1 where CuTe throws.
[[nodiscard]] int cuteSwizzleToTensorMapSwizzle(const CuteSwizzle& sw);

enum class MatrixMajor : uint8_t { K, MN };

/// Canonical byte offset (before the swizzle, added to startAddress) of element (mn, k) of an operand
/// with `elemBits`-bit elements described by `d` (PTX ISA §9.7.16.3.3 table; T = 128/elemBits):
///   K  none : (mn%8)*16 + (mn/8)*SBO + (kb%16) + (kb/16)*LBO                  kb = k*elemBits/8
///   K  swz W: (mn%8)*W  + (mn/8)*SBO + kb                                      (kb < W)
///   MN none : (mb%16)   + (mb/16)*SBO + (k%8)*16 + (k/8)*LBO                   mb = mn*elemBits/8
///   MN swz W: (mb%W)    + (mb/W)*LBO  + (k%R)*W + (k/R)*SBO                    R = 8 (4 for type 1)
[[nodiscard]] uint32_t canonicalOffset(const SmemDescriptor& d, MatrixMajor major, uint32_t elemBits,
                                       uint32_t mn, uint32_t k);
/// Absolute shared byte address of element (mn, k): swizzle(startAddress + canonicalOffset). The XOR uses
/// absolute address bits (measured on H100 for base offset 0); a non-zero base offset b counts the XOR's
/// line phase from b: ((addr >> (M+S)) - b) mod 2^B. unverified: open question 22 (smem_descriptor.cpp).
[[nodiscard]] uint32_t elementAddress(const SmemDescriptor& d, MatrixMajor major, uint32_t elemBits,
                                      uint32_t mn, uint32_t k);

/// tcgen05.cp source: shared byte address of byte `b` of source row `row` (K-major canonical walk with
/// the row as the M index and the row's bytes along K; RuleId::Tcgen05CpSourceWalk, open question 3).
[[nodiscard]] uint32_t cpSourceAddress(const SmemDescriptor& d, uint32_t row, uint32_t b);

} // namespace layoutscope
