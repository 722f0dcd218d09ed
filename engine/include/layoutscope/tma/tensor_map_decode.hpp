#pragma once
/// Reading a CUtensorMap back: the 128 bytes (as text or raw) -> the encode parameters that produce
/// them, the inverse of tensorMapBytes() (tensor_map.hpp; layout in docs/tensormap-layout.md §2).
/// Used by `layoutscope-cli tensormap decode` (docs/tensormap-decode.md).
#include "layoutscope/core/result.hpp"
#include "layoutscope/tma/tensor_map.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace layoutscope {

using TensorMapImage = std::array<uint8_t, 128>;

/// The 128 bytes from text, in any of the forms a kernel engineer has at hand:
///  - one hex string of 256 digits in memory order (golden `tensormap_hex`; optional 0x prefix),
///  - 16 u64, 32 u32, 64 u16 or 128 u8 words, each `0x`-prefixed, little-endian values as cuda-gdb
///    `x/16xg`, `x/32xw`, `x/64xh`, `x/128xb` print them, with or without the `0xADDR <sym+off>:`
///    prefix of each line (also `(@generic)0x...:`), separated by blanks, commas or braces,
///  - unprefixed hex digits in memory order split into any groups (`xxd -p`, `00 00 e0 6f ...`).
/// Errors (DiagCode::Syntax, with line:column): garbage tokens, a value wider than its word, mixed
/// word widths, a word count or digit count that is not 128 bytes.
[[nodiscard]] Result<TensorMapImage> parseTensorMapText(std::string_view text);

/// A raw binary blob (`--file blob.bin`): exactly 128 bytes, else DiagCode::InvalidValue.
[[nodiscard]] Result<TensorMapImage> tensorMapFromBinary(std::string_view bytes);

/// What decodeTensorMap() recovers.
struct DecodedTensorMap {
    /// The encode parameters (map.mode picks the encoder; map.p.globalAddress = bytes [0,8)).
    /// Im2col maps decode as cuTensorMapEncodeIm2col unless only Im2colWide accepts them.
    TensorMap map;
    /// cuTensorMapEncodeIm2colWide (mode W or W128: identical bytes on sm_90) with W corners only
    /// writes the same bytes as the im2col parameters in `map` (docs/tensormap-layout.md §2).
    bool im2colWideEquivalent = false;
    /// The sm_90 driver accepts the parameters (false: sub-byte types or 128B_ATOM_* swizzles).
    bool sm90 = true;
    /// Encode rejects globalAddress for these parameters (16- but not 32-byte aligned with
    /// INTERLEAVE_32B): the map was encoded elsewhere and re-pointed by cuTensorMapReplaceAddress.
    bool addressByReplace = false;
};

/// The inverse of tensorMapBytes(): every field read back (bits as tensor_map_bytes.cpp writes
/// them), then the parameters re-encoded (encodeTiled / encodeIm2col / encodeIm2colWide with
/// TmaArch::Sm100 rules, then replaceAddress) and compared byte for byte. Bytes no encode can
/// produce are rejected (DiagCode::InvalidValue) naming the byte range and bits: reserved bits set,
/// unused dimensions non-zero, impossible values (rank 6..8, element type 11/12, interleave 3, a
/// swizzle / alignment pair no mode writes), parameters every encoder rejects (the encoder's own
/// message), or a derived field (box bytes [64,72), smem alignment [72,76)) that disagrees.
[[nodiscard]] Result<DecodedTensorMap> decodeTensorMap(const TensorMapImage& bytes);

/// The scenario directive that encodes the same map (docs/scenario-format.md), e.g.
/// `tensormap T tiled FLOAT16 dims=[64,32] strides=[128] box=[64,8] swizzle=128B address=0x7f...`.
/// Preceded by `target sm_100a` when the sm_90 driver rejects the map, and by `#` comment lines on
/// what the bytes cannot tell (im2col vs im2col-wide). With addressByReplace, the directive uses the
/// address rounded down to 32 bytes (scenarios cannot replace an address) and a comment says so.
/// Ends with a newline.
[[nodiscard]] std::string tensorMapDirective(const DecodedTensorMap& d, std::string_view name = "T");

/// One JSON object with the fields of golden/tma records' `tensor_map` (fn, tensorDataType(+Value),
/// tensorRank, globalDim, globalStrides, boxDim or the im2col fields, elementStrides, interleave,
/// swizzle, l2Promotion, oobFill, each enum with its cuda.h name and ...Value), plus
/// `global_address` ("0x..." lowercase) and, when non-empty, `notes` (strings). No newline.
[[nodiscard]] std::string tensorMapJson(const DecodedTensorMap& d);

} // namespace layoutscope
