#pragma once
/// Tensor Memory (TMEM) of one CTA and its allocator (PTX ISA 9.2 §9.7.16.1, §9.7.16.7.1; tcgen05.md §2).
///
/// [SECTION] index: addresses · lane quarters · TensorMemory (cells) · TmemAllocator · CTA pairs
///
/// TMEM is 128 lanes (rows) x 512 columns of 32-bit cells per CTA (256 KiB). An address is the 32-bit
/// value `lane << 16 | column` (bits [31,16) lane, bits [0,16) column, in 32-bit cells). tcgen05.ld/st of
/// warp w may touch only lanes 32*(w%4) .. 32*(w%4)+31; violations are Diagnostics, never crashes.
#include "layoutscope/core/result.hpp"
#include "layoutscope/core/rules.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace layoutscope {

inline constexpr uint32_t kTmemLanes = 128;       ///< rows per CTA (sm_100a/sm_100f; open question 26)
inline constexpr uint32_t kTmemColumns = 512;     ///< 32-bit columns per CTA
inline constexpr uint32_t kTmemAllocGranule = 32; ///< smallest allocation, in columns
/// Cells from one lane to the next in TensorMemory's host array: 512 columns and 16 unused cells (64 B).
/// A 2 KiB stride put the same column of every lane in the same two L1 cache sets, so a copy down the
/// lanes (tcgen05.cp, tcgen05.ld/st of 32 lanes) evicted its own lines: 128 lanes x 32 B took 3x longer
/// (issue 25 item 10). Host layout only: no address, trace or view sees it.
inline constexpr uint32_t kTmemLaneStride = kTmemColumns + 16;

/// A diagnostic that names `rule`'s reference and provenance (code InvalidValue). Used by all tcgen05 code.
[[nodiscard]] Diagnostic tcgen05Diagnostic(Severity sev, RuleId rule, std::string message);

// [SECTION] addresses -------------------------------------------------------------------------------

/// A decoded TMEM address: lane (row) and column (32-bit cell index).
struct TmemAddr {
    uint32_t lane = 0;
    uint32_t column = 0;
    friend bool operator==(const TmemAddr&, const TmemAddr&) = default;
};
/// `lane << 16 | column` (PTX ISA §9.7.16.1.1).
[[nodiscard]] constexpr uint32_t tmemAddress(uint32_t lane, uint32_t column) {
    return lane << 16 | (column & 0xFFFF);
}
/// bits [16,32) lane, bits [0,16) column. Bits [30,32) are a sub-word byte index only for block-scaled MMA.
[[nodiscard]] constexpr TmemAddr decodeTmemAddress(uint32_t taddr) {
    return {taddr >> 16, taddr & 0xFFFF};
}

// [SECTION] lane quarters ---------------------------------------------------------------------------

/// Lane quarter q = warpIdInCta % 4 of a warp: it may ld/st lanes [32q, 32q+32).
/// unverified: open question 27 (CTAs whose size is not a multiple of 128 threads) — CUTLASS's rule is used.
[[nodiscard]] constexpr uint32_t laneQuarterOfWarp(uint32_t warpIdInCta) {
    return warpIdInCta % 4;
}

/// Checks that lanes [firstLane, firstLane+laneCount) lie in the quarter of `warpIdInCta`
/// (RuleId::TmemLaneQuarter). Error diagnostic (FaultIllegalInstruction is not documented; InvalidValue) if
/// not.
[[nodiscard]] Status checkLaneQuarter(uint32_t warpIdInCta, uint32_t firstLane, uint32_t laneCount);

// [SECTION] TensorMemory ----------------------------------------------------------------------------

/// The 128x512 cells of one CTA, initially `fill` in every cell. Out-of-range accesses are
/// Diagnostics from the checked accessors; the unchecked ones assert.
class TensorMemory {
  public:
    explicit TensorMemory(uint32_t fill = 0) : m_cells(kTmemLanes * kTmemLaneStride, fill) {}
    [[nodiscard]] static bool inRange(uint32_t lane, uint32_t column) {
        return lane < kTmemLanes && column < kTmemColumns;
    }
    [[nodiscard]] uint32_t cell(uint32_t lane, uint32_t column) const;
    void setCell(uint32_t lane, uint32_t column, uint32_t value);
    /// Byte b (0..3, little-endian) of a cell.
    [[nodiscard]] uint8_t byte(uint32_t lane, uint32_t column, uint32_t b) const;
    void setByte(uint32_t lane, uint32_t column, uint32_t b, uint8_t v);
    [[nodiscard]] Result<uint32_t> readChecked(uint32_t lane, uint32_t column) const;
    /// The 512 cells of lane `lane` (< 128), column 0 first: for bulk copies along a lane. Lane l + 1
    /// starts kTmemLaneStride cells after lane l.
    [[nodiscard]] std::span<uint32_t> laneCells(uint32_t lane) {
        return std::span<uint32_t>(m_cells).subspan(size_t(lane) * kTmemLaneStride, kTmemColumns);
    }
    [[nodiscard]] std::span<const uint32_t> laneCells(uint32_t lane) const {
        return std::span<const uint32_t>(m_cells).subspan(size_t(lane) * kTmemLaneStride, kTmemColumns);
    }

  private:
    std::vector<uint32_t> m_cells; ///< lane-major: index lane * kTmemLaneStride + column
};

// [SECTION] TmemAllocator ---------------------------------------------------------------------------

/// One live allocation.
struct TmemAllocation {
    uint32_t column = 0; ///< first column
    uint32_t nCols = 0;
};

/// tcgen05.alloc / dealloc / relinquish_alloc_permit of one CTA (PTX ISA 9.2 §9.7.16.7.1).
/// Policy (unverified: open question 23; RuleId::TmemAllocPolicy): first fit, start column a multiple
/// of nCols, lane field 0. A request that cannot be satisfied now would block the warp until another warp
/// deallocates; a single-issuer simulation reports it as an error diagnostic ("would block").
class TmemAllocator {
  public:
    /// `tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [dst], nCols;` → the TMEM address written to
    /// dst.
    [[nodiscard]] Result<uint32_t> alloc(uint32_t nCols);
    /// Allocate exactly at `column` (used to mirror an allocation in the peer CTA of a pair).
    [[nodiscard]] Result<uint32_t> allocAt(uint32_t column, uint32_t nCols);
    /// `tcgen05.dealloc.cta_group::1.sync.aligned.b32 taddr, nCols;` — must name a live allocation exactly.
    [[nodiscard]] Status dealloc(uint32_t taddr, uint32_t nCols);
    /// `tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;`
    void relinquishAllocPermit() { m_relinquished = true; }
    [[nodiscard]] bool relinquished() const { return m_relinquished; }
    [[nodiscard]] uint32_t freeColumns() const;
    [[nodiscard]] const std::vector<TmemAllocation>& allocations() const { return m_live; }
    /// Kernel exit: every allocation must have been freed (error diagnostic per leak otherwise).
    [[nodiscard]] Status checkExit() const;
    /// Warnings produced by the last successful call (e.g. non-increasing nCols rule); empty when none.
    [[nodiscard]] const std::vector<Diagnostic>& warnings() const { return m_warnings; }

  private:
    friend Result<uint32_t> allocPair(TmemAllocator& even, TmemAllocator& odd, uint32_t nCols);
    [[nodiscard]] Status checkRequest(uint32_t nCols);
    [[nodiscard]] bool isFree(uint32_t column, uint32_t nCols) const;
    void take(uint32_t column, uint32_t nCols);
    std::array<bool, kTmemColumns / kTmemAllocGranule> m_used{}; ///< one flag per 32-column granule
    std::vector<TmemAllocation> m_live;
    std::vector<Diagnostic> m_warnings;
    uint32_t m_lastNCols = 0; ///< 0 = no allocation yet
    bool m_relinquished = false;
};

/// Nonzero-count power of two in [32, 512] (PTX ISA §9.7.16.7.1).
[[nodiscard]] constexpr bool isValidTmemAllocSize(uint32_t nCols) {
    return nCols >= 32 && nCols <= 512 && (nCols & (nCols - 1)) == 0;
}

// [SECTION] CTA pairs -------------------------------------------------------------------------------

/// The peer of a CTA in a pair: %cluster_ctarank differing only in bit 0 (PTX ISA §9.7.16.5.1).
[[nodiscard]] constexpr uint32_t peerCta(uint32_t clusterCtaRank) {
    return clusterCtaRank ^ 1u;
}

/// `.cta_group::2` alloc: one warp in each CTA of the pair allocates collectively; the same columns are
/// taken in both (unverified: open question 23). `even` and `odd` are the pair's allocators.
[[nodiscard]] Result<uint32_t> allocPair(TmemAllocator& even, TmemAllocator& odd, uint32_t nCols);
[[nodiscard]] Status deallocPair(TmemAllocator& even, TmemAllocator& odd, uint32_t taddr, uint32_t nCols);

} // namespace layoutscope
