#pragma once
// Internal: what the tcgen05 executor files share (exec.cpp, exec_cp.cpp, exec_bulk.cpp).
#include "layoutscope/tcgen05/exec.hpp"
#include "layoutscope/tcgen05/smem_descriptor.hpp"

#include <string>

namespace layoutscope::detail {

/// A TMEM cell as a MemRef (exec.hpp conventions): addr = lane << 16 | column.
inline MemRef tmemRef(uint32_t cta, uint32_t lane, uint32_t col) {
    return MemRef{MemSpace::TensorMemory, static_cast<uint8_t>(cta), tmemAddress(lane, col)};
}

/// The CTA exists in the cluster's Tensor Memory.
inline Status checkTmemCta(const TmemState& s, uint32_t cta) {
    if (cta < s.ctas.size()) return okStatus();
    return tcgen05Diagnostic(Severity::Error, RuleId::TmemLdStMap,
                             "CTA " + std::to_string(cta) + " is outside the cluster (" +
                                 std::to_string(s.ctas.size()) + " CTAs)");
}

/// What cpSourceAddresses found: the highest address, and whether the walk is affine: out[r * chunks + q]
/// = out[0] + (r % 8) * (out[chunks] - out[0]) + (r / 8) * (out[8 * chunks] - out[0]) + q * (out[1] - out[0])
/// exactly, without wrapping (SWIZZLE_NONE: start, LBO and SBO are below 2^18).
struct CpWalk {
    uint32_t maxAddr = 0;
    bool affine = false;
};
/// out[r * chunks + q] = cpSourceAddress(d, r, 16 * q) for every row r < rows and chunk q < chunks, in one
/// call (smem_descriptor.cpp: the walk inlined, its swizzle and widths hoisted). rows: 4 or a multiple of 8.
CpWalk cpSourceAddresses(const SmemDescriptor& d, uint32_t rows, uint32_t chunks, uint32_t* out);

/// The bulk paths of tcgen05.st / ld / cp (exec_bulk.cpp), on by default. Tests turn them off to check
/// them against the per-move executor; they record exactly the same trace.
void setTcgen05FastPath(bool enabled);
[[nodiscard]] bool tcgen05FastPath();

} // namespace layoutscope::detail
