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

/// The shape of a tcgen05.cp source walk (the descriptor's addresses of chunk q of row r). affine: the
/// address is start + (r % 8) * t1 + (r / 8) * t8 + q * dq exactly, without wrapping (SWIZZLE_NONE: start,
/// LBO and SBO are below 2^18, so every term is small), and maxAddr is the highest; otherwise only maxAddr
/// is known (from cpSourceAddresses).
struct CpWalk {
    uint32_t maxAddr = 0;
    bool affine = false;
    uint32_t start = 0, t1 = 0, t8 = 0, dq = 0;
};
/// The walk's shape without its addresses (O(1)): affine with its terms, or affine false (the addresses
/// are then cpSourceAddresses').
CpWalk cpWalkOf(const SmemDescriptor& d, uint32_t rows, uint32_t chunks);
CpWalk cpSourceAddresses(const SmemDescriptor& d, uint32_t rows, uint32_t chunks, uint32_t* out);

/// The bulk paths of tcgen05.st / ld / cp (exec_bulk.cpp), on by default. Tests turn them off to check
/// them against the per-move executor; they record exactly the same trace.
void setTcgen05FastPath(bool enabled);
[[nodiscard]] bool tcgen05FastPath();

} // namespace layoutscope::detail
