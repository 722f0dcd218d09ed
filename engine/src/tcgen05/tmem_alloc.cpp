// Tensor Memory cells and allocator (PTX ISA 9.2 §9.7.16.1, §9.7.16.7.1; tcgen05.md §2).
#include "layoutscope/tcgen05/tmem.hpp"

#include <string>

namespace layoutscope {
namespace {

Diagnostic tmemDiag(Severity sev, RuleId rule, std::string msg) {
    return tcgen05Diagnostic(sev, rule, std::move(msg));
}

std::string hex(uint32_t v) {
    static const char* d = "0123456789abcdef";
    std::string s = "0x";
    for (int i = 7; i >= 0; --i) s += d[(v >> (4 * i)) & 15];
    return s;
}

} // namespace

Diagnostic tcgen05Diagnostic(Severity sev, RuleId rule, std::string message) {
    const RuleInfo& r = ruleInfo(rule);
    return Diagnostic{sev, DiagCode::InvalidValue, {}, std::move(message), r.reference, r.provenance};
}

Status checkLaneQuarter(uint32_t warpIdInCta, uint32_t firstLane, uint32_t laneCount) {
    const uint32_t q = laneQuarterOfWarp(warpIdInCta);
    const uint32_t lo = 32 * q, hi = lo + 32;
    if (laneCount == 0 || (firstLane >= lo && firstLane + laneCount <= hi)) return okStatus();
    return tmemDiag(Severity::Error, RuleId::TmemLaneQuarter,
                    "warp " + std::to_string(warpIdInCta) + " (lane quarter " + std::to_string(q) +
                        ") may access TMEM lanes " + std::to_string(lo) + ".." + std::to_string(hi - 1) +
                        " only, but this access touches lanes " + std::to_string(firstLane) + ".." +
                        std::to_string(firstLane + laneCount - 1) +
                        "; use a taddr lane in its quarter or issue it from warp " +
                        std::to_string((firstLane / 32) % 4) + " (mod 4)");
}

uint32_t TensorMemory::cell(uint32_t lane, uint32_t column) const {
    LAYOUTSCOPE_ASSERT(inRange(lane, column));
    return m_cells[lane * kTmemLaneStride + column];
}

void TensorMemory::setCell(uint32_t lane, uint32_t column, uint32_t value) {
    LAYOUTSCOPE_ASSERT(inRange(lane, column));
    m_cells[lane * kTmemLaneStride + column] = value;
}

uint8_t TensorMemory::byte(uint32_t lane, uint32_t column, uint32_t b) const {
    return static_cast<uint8_t>(cell(lane, column) >> (8 * b));
}

void TensorMemory::setByte(uint32_t lane, uint32_t column, uint32_t b, uint8_t v) {
    uint32_t c = cell(lane, column);
    c = (c & ~(0xFFu << (8 * b))) | (uint32_t{v} << (8 * b));
    setCell(lane, column, c);
}

Result<uint32_t> TensorMemory::readChecked(uint32_t lane, uint32_t column) const {
    if (!inRange(lane, column))
        return tmemDiag(Severity::Error, RuleId::TmemLdStMap,
                        "TMEM cell (lane " + std::to_string(lane) + ", column " + std::to_string(column) +
                            ") is outside 128 lanes x 512 columns");
    return cell(lane, column);
}

Status TmemAllocator::checkRequest(uint32_t nCols) {
    m_warnings.clear();
    if (m_relinquished)
        return tmemDiag(Severity::Error, RuleId::TmemRelinquish,
                        "tcgen05.alloc after tcgen05.relinquish_alloc_permit is illegal for this CTA");
    if (!isValidTmemAllocSize(nCols))
        return tmemDiag(Severity::Error, RuleId::TmemAlloc,
                        "nCols = " + std::to_string(nCols) +
                            " must be a power of two in [32, 512] (32, 64, 128, "
                            "256 or 512)");
    if (m_lastNCols != 0 && nCols > m_lastNCols)
        m_warnings.push_back(
            tmemDiag(Severity::Warning, RuleId::TmemAllocMonotonic,
                     "this allocation requests " + std::to_string(nCols) +
                         " columns, more than the previous allocation (" + std::to_string(m_lastNCols) +
                         "); rule '" + ruleInfo(RuleId::TmemAllocMonotonic).name +
                         "': PTX asks for a non-increasing sequence (consequence not stated)"));
    return okStatus();
}

bool TmemAllocator::isFree(uint32_t column, uint32_t nCols) const {
    if (column % kTmemAllocGranule != 0 || column + nCols > kTmemColumns) return false;
    for (uint32_t g = column / kTmemAllocGranule; g < (column + nCols) / kTmemAllocGranule; ++g)
        if (m_used[g]) return false;
    return true;
}

void TmemAllocator::take(uint32_t column, uint32_t nCols) {
    for (uint32_t g = column / kTmemAllocGranule; g < (column + nCols) / kTmemAllocGranule; ++g)
        m_used[g] = true;
    m_live.push_back({column, nCols});
    m_lastNCols = nCols;
}

Result<uint32_t> TmemAllocator::alloc(uint32_t nCols) {
    if (Status s = checkRequest(nCols); !s) return s.diagnostics();
    // unverified: open question 23 — first fit with the start column aligned to nCols.
    for (uint32_t c = 0; c + nCols <= kTmemColumns; c += nCols) {
        if (isFree(c, nCols)) {
            take(c, nCols);
            return tmemAddress(0, c);
        }
    }
    return tmemDiag(Severity::Error, RuleId::TmemAlloc,
                    "tcgen05.alloc of " + std::to_string(nCols) + " columns would block: only " +
                        std::to_string(freeColumns()) +
                        " columns are free (not contiguous and aligned) and no other warp deallocates");
}

Result<uint32_t> TmemAllocator::allocAt(uint32_t column, uint32_t nCols) {
    if (Status s = checkRequest(nCols); !s) return s.diagnostics();
    if (!isFree(column, nCols))
        return tmemDiag(Severity::Error, RuleId::TmemAlloc,
                        "columns " + std::to_string(column) + ".." + std::to_string(column + nCols - 1) +
                            " are not free in this CTA (the peer allocation cannot be mirrored)");
    take(column, nCols);
    return tmemAddress(0, column);
}

Status TmemAllocator::dealloc(uint32_t taddr, uint32_t nCols) {
    m_warnings.clear();
    const TmemAddr a = decodeTmemAddress(taddr);
    if (!isValidTmemAllocSize(nCols))
        return tmemDiag(Severity::Error, RuleId::TmemAlloc,
                        "dealloc nCols = " + std::to_string(nCols) + " must be a power of two in [32, 512]");
    for (size_t i = 0; i < m_live.size(); ++i) {
        if (m_live[i].column == a.column && m_live[i].nCols == nCols && a.lane == 0) {
            for (uint32_t g = a.column / kTmemAllocGranule; g < (a.column + nCols) / kTmemAllocGranule; ++g)
                m_used[g] = false;
            m_live.erase(m_live.begin() + static_cast<std::ptrdiff_t>(i));
            return okStatus();
        }
    }
    // unverified: open question 23 — PTX does not say what dealloc of an address alloc did not return does.
    return tmemDiag(Severity::Error, RuleId::TmemAllocPolicy,
                    "tcgen05.dealloc " + hex(taddr) + ", " + std::to_string(nCols) +
                        ": no live allocation starts there with that size (undefined in PTX)");
}

uint32_t TmemAllocator::freeColumns() const {
    uint32_t n = 0;
    for (bool u : m_used) n += u ? 0 : kTmemAllocGranule;
    return n;
}

Status TmemAllocator::checkExit() const {
    if (m_live.empty()) return okStatus();
    std::vector<Diagnostic> ds;
    for (const TmemAllocation& a : m_live)
        ds.push_back(
            tmemDiag(Severity::Error, RuleId::TmemAlloc,
                     "kernel exits with TMEM columns " + std::to_string(a.column) + ".." +
                         std::to_string(a.column + a.nCols - 1) + " still allocated: rule '" +
                         ruleInfo(RuleId::TmemAlloc).name +
                         "' requires a tcgen05.dealloc of everything allocated before the kernel exits"));
    return ds;
}

Result<uint32_t> allocPair(TmemAllocator& even, TmemAllocator& odd, uint32_t nCols) {
    // unverified: open question 23 — both CTAs of the pair get the same columns (first fit free in both).
    // Both requests are checked first (keeping each CTA's warnings), then the columns are taken in both at
    // once.
    if (Status s = even.checkRequest(nCols); !s) return s.diagnostics();
    if (Status s = odd.checkRequest(nCols); !s) return s.diagnostics();
    for (uint32_t c = 0; c + nCols <= kTmemColumns; c += nCols) {
        if (!even.isFree(c, nCols) || !odd.isFree(c, nCols)) continue;
        even.take(c, nCols);
        odd.take(c, nCols);
        return tmemAddress(0, c);
    }
    return tmemDiag(Severity::Error, RuleId::TmemAlloc,
                    "tcgen05.alloc.cta_group::2 of " + std::to_string(nCols) +
                        " columns would block: no column range is free in both CTAs of the pair");
}

Status deallocPair(TmemAllocator& even, TmemAllocator& odd, uint32_t taddr, uint32_t nCols) {
    Status a = even.dealloc(taddr, nCols);
    Status b = odd.dealloc(taddr, nCols);
    if (!a) return a;
    return b;
}

} // namespace layoutscope
