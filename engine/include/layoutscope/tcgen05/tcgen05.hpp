#pragma once
/// tcgen05 data movement: tcgen05.ld / tcgen05.st register maps, tcgen05.cp shapes and row maps,
/// decompression bit placement (PTX ISA 9.2 §9.7.16.8-9; tcgen05.md §4-6; golden/cute README).
///
/// [SECTION] index: ld/st forms · ld/st maps · cp forms · cp maps · decompression
///
/// Units: lanes and columns are TMEM rows and 32-bit cells; offsets are relative to the instruction's
/// taddr (lane offset from taddr[31:16], column offset from taddr[15:0]). Bits are 0 = LSB.
#include "layoutscope/core/result.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace layoutscope {

// [SECTION] ld/st forms -----------------------------------------------------------------------------

/// `.shape` of tcgen05.ld / tcgen05.st (PTX ISA §9.7.16.2.3), tokens verbatim.
enum class LdStShape : uint8_t { k16x64b, k16x128b, k16x256b, k32x32b, k16x32bx2 };
[[nodiscard]] const char* ldStShapeName(LdStShape s); ///< "16x64b", ...

/// One tcgen05.ld / tcgen05.st form, e.g. `tcgen05.ld.sync.aligned.16x32bx2.x2.pack::16b.b32 {..}, [taddr],
/// 4;`.
struct LdStForm {
    LdStShape shape = LdStShape::k32x32b;
    uint32_t num = 1;            ///< .x1 ... .x128
    bool pack16b = false;        ///< .pack::16b (ld) or .unpack::16b (st)
    bool store = false;          ///< tcgen05.st (else ld, including ld.red)
    bool reduce = false;         ///< tcgen05.ld.red (same map as the plain load)
    bool redMax = false;         ///< ld.red: .max (else .min)
    bool redAbs = false;         ///< ld.red: .abs (f32 only)
    bool redNaN = false;         ///< ld.red: .NaN (f32 only): a NaN input makes the result NaN
    char redType = 'f';          ///< ld.red: 'f' .f32, 'u' .u32, 's' .s32
    int64_t immHalfSplitoff = 0; ///< 16x32bx2 only: column offset of the second half (threads 16-31)
};

/// Parse the mnemonic (and, for 16x32bx2, the immediate operand) of a ld/st instruction.
/// Accepts the full instruction text or just the dotted mnemonic; the immediate is the operand after
/// `[taddr]` (ld) or before the register vector (st). Shapes and `.num` are validated (Table 49/50).
[[nodiscard]] Result<LdStForm> parseLdSt(std::string_view ptx);
/// tcgen05.ld.red: min/max of one thread's loaded 32-bit values, as the form's type (PTX ISA 8.8
/// tcgen05.ld.red). unverified: open question 29 — the domain is every register of the thread (also for
/// 16x32bx2), and without .NaN NaN inputs are ignored (all-NaN gives the canonical NaN 0x7FFFFFFF).
[[nodiscard]] uint32_t ldRedReduce(const LdStForm& f, const std::vector<uint32_t>& values);
/// 32-bit registers per thread: num x {1,1,1,2,4} for {32x32b,16x64b,16x32bx2,16x128b,16x256b}; pack does not
/// change it.
[[nodiscard]] uint32_t regsPerThread(const LdStForm& f);
/// Lanes a warp touches: 32 for 32x32b, 16 otherwise.
[[nodiscard]] uint32_t lanesTouched(const LdStForm& f);

// [SECTION] ld/st maps ------------------------------------------------------------------------------

/// Register bits [regBitLo, regBitLo+nbits) of one register <-> TMEM cell (taddr.lane + laneOff,
/// taddr.col + colOff), bits [tmemBitLo, tmemBitLo+nbits). Same shape as golden/cute map segments.
struct RegSegment {
    uint32_t regBitLo = 0;
    uint32_t nbits = 32;
    int64_t laneOff = 0;
    int64_t colOff = 0;
    uint32_t tmemBitLo = 0;
    friend bool operator==(const RegSegment&, const RegSegment&) = default;
};

/// The segments of register `reg` of thread `t` (%laneid 0..31): one without pack, two with pack::16b.
/// RuleId::TmemLdStMap (+ TmemPack16b). Closed forms of tcgen05.md §4.1 (CuTe-derived):
///   32x32b   lane t                       col j
///   16x64b   lane t/4 + 8*(t%2)           col 2j + (t/2)%2
///   16x128b  lane t/4 + 8*(j%2)           col 4*(j/2) + t%4
///   16x256b  lane t/4 + 8*((j/2)%2)       col 8*(j/4) + 2*(t%4) + j%2
///   16x32bx2 lane t%16                    col (t/16)*imm + j
/// pack::16b: unpacked column offset k -> bits [0,16) from column 2k, bits [16,32) from 2k+1 (low halves);
/// for 16x32bx2 the half offset imm is added unscaled.
[[nodiscard]] std::vector<RegSegment> ldStSegments(const LdStForm& f, uint32_t t, uint32_t reg);
/// The same segments without allocating: fills `out`, returns how many (1 or 2).
uint32_t ldStSegmentsInto(const LdStForm& f, uint32_t t, uint32_t reg, std::array<RegSegment, 2>& out);

/// The TMEM cell bit that register bit `bit` of (thread t, register reg) maps to.
struct TmemBit {
    int64_t laneOff = 0;
    int64_t colOff = 0;
    uint32_t bit = 0;
    bool mapped = true; ///< false never happens for a valid form (every register bit is mapped)
};
[[nodiscard]] TmemBit ldStBit(const LdStForm& f, uint32_t t, uint32_t reg, uint32_t bit);

/// Footprint of one warp's access: lanes [0, lanes) and columns [0, cols) relative to taddr
/// (for 16x32bx2: max over both halves of the last column + 1).
struct LdStFootprint {
    uint32_t lanes = 0;
    int64_t cols = 0;
};
[[nodiscard]] LdStFootprint ldStFootprint(const LdStForm& f);

/// Checks the access of warp `warpIdInCta` at `taddr`: every touched lane inside the warp's quarter
/// (RuleId::TmemLaneQuarter; open question 24) and every column inside [0, 512).
[[nodiscard]] Status checkLdStAccess(const LdStForm& f, uint32_t warpIdInCta, uint32_t taddr);

// [SECTION] cp forms --------------------------------------------------------------------------------

enum class CpShape : uint8_t { k128x256b, k4x256b, k128x128b, k64x128b, k32x128b };
enum class CpMulticast : uint8_t { None, Warpx2_02_13, Warpx2_01_23, Warpx4 };
enum class CpDecompress : uint8_t { None, B8x16_B6x16_p32, B8x16_B4x16_p64 };
[[nodiscard]] const char* cpShapeName(CpShape s);

/// `tcgen05.cp.cta_group::N.shape{.multicast}{.dst_fmt.src_fmt} [taddr], s-desc;`
struct CpForm {
    CpShape shape = CpShape::k128x256b;
    CpMulticast multicast = CpMulticast::None;
    CpDecompress decompress = CpDecompress::None;
    uint32_t ctaGroup = 1; ///< 1 or 2
};
/// Parse and validate (multicast required by and only with 64x128b / 32x128b; ptxas-confirmed pairings).
[[nodiscard]] Result<CpForm> parseCp(std::string_view ptx);
[[nodiscard]] uint32_t cpSourceRows(CpShape s); ///< 128, 4, 128, 64, 32
[[nodiscard]] uint32_t cpRowBytes(CpShape s);   ///< 32 (x256b) or 16 (x128b)

// [SECTION] cp maps ---------------------------------------------------------------------------------

/// Lane offsets (from taddr.lane) that source row r is written to (multicast replicas in order).
/// RuleId::Tcgen05CpRowMap, Tcgen05Cp4x256b (4x256b: 32r), Tcgen05CpWarpx2 (unverified: open question 20).
[[nodiscard]] std::vector<uint32_t> cpRowLanes(const CpForm& f, uint32_t row);
/// cpRowLanes without an allocation: the lanes in out[0 .. returned count).
uint32_t cpRowLanesInto(const CpForm& f, uint32_t row, std::array<uint32_t, 4>& out);
/// Byte b of a destination row (after decompression) is column taddr.col + b/4, byte b%4 of the cell.

// [SECTION] decompression ---------------------------------------------------------------------------

/// For destination byte e (0..15) of a decompressed 16-byte chunk, bit k (0..7): the source bit index
/// (0..127, little-endian over the 16 source bytes) it comes from, or -1 for a zero bit.
///   .b8x16.b4x16_p64: byte e bits [5:2] = source bits [4e+3:4e]      (unverified: open question 3)
///   .b8x16.b6x16_p32: byte e bits [5:0] = source bits [6e+5:6e]      (unverified: open question 3)
/// Padding bits of the container are zero (unverified: open question 28).
[[nodiscard]] int decompressSourceBit(CpDecompress d, uint32_t e, uint32_t k);
/// Decompress one 16-byte source chunk (identity for CpDecompress::None).
[[nodiscard]] std::array<uint8_t, 16> decompressChunk(CpDecompress d, const std::array<uint8_t, 16>& src);

} // namespace layoutscope
