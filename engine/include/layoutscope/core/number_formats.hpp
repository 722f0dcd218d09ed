#pragma once
/// Narrow floating-point formats used by tcgen05 operands and scale factors, and their 8-bit
/// containers in Tensor Memory (ref/formats.md; PTX ISA 9.2 §5.2.3; cuda_fp4.h, cuda_fp6.h, cuda_fp8.h).
///
/// Bit layouts (MSB -> LSB):
///   E2M1  s[3] e[2:1] m[0]        bias 1   no Inf/NaN          max 6
///   E2M3  s[5] e[4:3] m[2:0]      bias 1   no Inf/NaN          max 7.5
///   E3M2  s[5] e[4:2] m[1:0]      bias 3   no Inf/NaN          max 28
///   E4M3  s[7] e[6:3] m[2:0]      bias 7   NaN 0x7F/0xFF only  max 448
///   E5M2  s[7] e[6:2] m[1:0]      bias 15  Inf e=31 m=0, NaN e=31 m!=0
///   UE8M0 e[7:0]                  2^(x-127), 0xFF NaN, 0x00 = 2^-127 (CUDA decoder)
///   UE4M3 bit 7 padding, e[6:3] m[2:0]  bias 7, 0x7F NaN (unverified: bit 7 set, open question 30)
#include <cstdint>

namespace layoutscope {

enum class NarrowFormat : uint8_t { E2M1, E2M3, E3M2, E4M3, E5M2, UE8M0, UE4M3 };

[[nodiscard]] const char* narrowFormatName(NarrowFormat f); ///< "e2m1", ... as in PTX
/// Width of the code in bits: 4, 6, 6, 8, 8, 8, 8.
[[nodiscard]] uint32_t narrowFormatBits(NarrowFormat f);

/// Value of `code` (the low narrowFormatBits(f) bits are used) as a double; NaN and +-Inf where the
/// format has them. Matches the CUDA 13.0 host decoders of cuda_fp4.h / cuda_fp6.h / cuda_fp8.h.
[[nodiscard]] double decodeNarrow(NarrowFormat f, uint32_t code);

/// The 8-bit Tensor Memory container of a code (formats.md §3.1, PTX ISA §9.7.16.10.4.3):
/// E2M1 in bits [5:2] (code << 2), E2M3/E3M2 in bits [5:0], 8-bit formats the whole byte. Padding bits 0.
[[nodiscard]] uint8_t containerOfCode(NarrowFormat f, uint32_t code);
/// The code held in a container (padding bits ignored).
[[nodiscard]] uint32_t codeOfContainer(NarrowFormat f, uint8_t container);

/// Element e (0-based) of a packed little-endian bit string of `bits`-bit elements (element 0 in the lowest
/// bits of byte 0; unverified: open questions 10, 31).
[[nodiscard]] uint32_t packedElement(const uint8_t* bytes, uint32_t bits, uint32_t e);

/// Wide MMA input and accumulator formats (IEEE 754 binary16; bfloat16 = the top 16 bits of a binary32;
/// TF32 = a binary32 whose low 13 mantissa bits the tensor core ignores, PTX ISA 9.2 §5.2.2):
/// the exact value of a code as a double (NaN and +-Inf where the code has them).
[[nodiscard]] double decodeF16(uint16_t bits);
[[nodiscard]] double decodeBf16(uint16_t bits);
[[nodiscard]] double decodeF32(uint32_t bits);
/// TF32: decodeF32 of the bits with bits [0,13) cleared (unverified: truncation, RuleId::Tcgen05MmaValues).
[[nodiscard]] double decodeTf32(uint32_t bits);
/// `v` rounded to binary16 / binary32, round to nearest even (overflow to +-Inf; NaN -> 0x7E00 / 0x7FC00000).
[[nodiscard]] uint16_t encodeF16(double v);
[[nodiscard]] uint32_t encodeF32(double v);

} // namespace layoutscope
