#pragma once
/// Shared-memory bank conflicts of one warp-wide ld.shared / st.shared, counted in wavefronts the
/// way Nsight Compute reports them (smsp__sass_..._shared_op_ld wavefronts,
/// l1tex__data_bank_conflicts_pipe_lsu_mem_shared = wavefronts - ideal).
///
/// Model (rule RuleId::SmemBankWavefronts):
///  * CUDA C Programming Guide, "Compute Capability 5.x / 7.x / 9.0 - Shared Memory": shared memory
///    has 32 banks; successive 32-bit words map to successive banks, bank = (byte address / 4) % 32.
///    "A shared memory request for a warp does not generate a bank conflict between two threads that
///    access any address within the same 32-bit word": same word = broadcast (reads) / one writer.
///  * Accesses of 1, 2 and 4 bytes: the whole warp is one phase.
///  * 8-byte accesses: two phases of 16 threads (half-warps); 16-byte accesses: four phases of 8
///    threads (quarter-warps). Each phase serves at most 128 bytes = one word per bank.
///    // unverified: the half/quarter-warp phase split is the common reading of the Guide and of
///    Nsight Compute counts, not measured here (no open question yet; provenance Assumption).
///  * Per phase: wavefronts = max over banks of the number of DISTINCT 32-bit words wanted in that
///    bank (at least 1 if any thread of the phase is active); a warp's total is the sum over phases.
///  * ideal = the wavefronts of a conflict-free access of the same width = number of phases with an
///    active thread; excess = wavefronts - ideal (Nsight Compute "bank conflicts").
#include "layoutscope/result.hpp"
#include "layoutscope/rules.hpp"

#include <array>
#include <cstdint>

namespace layoutscope {

inline constexpr uint32_t kSmemBanks = 32;
inline constexpr uint32_t kWarpSize = 32;

/// One warp-wide shared-memory access: per-thread byte addresses and the per-thread width.
struct WarpSmemAccess {
    std::array<uint32_t, kWarpSize> addr{}; ///< shared byte address of each thread (lane order)
    uint32_t activeMask = 0xFFFFFFFFu;      ///< bit t set = thread t takes part
    uint32_t widthBytes = 4;                ///< 1, 2, 4, 8 or 16 (ld.shared.v2.b32 = 8, .v4.b32 = 16)
};

struct BankReport {
    RuleId rule = RuleId::SmemBankWavefronts; ///< provenance Assumption (phase split unverified)
    uint32_t phases = 0;                      ///< 1 (<= 4 B), 2 (8 B) or 4 (16 B)
    uint32_t wavefronts = 0;                  ///< sum over phases of the worst bank's distinct-word count
    uint32_t ideal = 0;                       ///< wavefronts without conflicts (phases with an active thread)
    uint32_t excess = 0;                      ///< wavefronts - ideal (Nsight Compute bank conflicts)
    /// For the heat map: per bank, distinct 32-bit words requested, summed over phases.
    std::array<uint32_t, kSmemBanks> wordsPerBank{};
    /// Per thread, the wavefront (0-based, over the whole warp) that serves its first word.
    std::array<uint32_t, kWarpSize> threadWavefront{};
};

/// Bank of a shared byte address: (addr / 4) % 32.
[[nodiscard]] constexpr uint32_t smemBank(uint32_t addr) {
    return (addr >> 2) % kSmemBanks;
}

/// Count wavefronts of one warp access. Fails on a width outside {1,2,4,8,16} or an address that is
/// not a multiple of the width (the hardware raises cudaErrorMisalignedAddress).
[[nodiscard]] Result<BankReport> countBankWavefronts(const WarpSmemAccess& access);

} // namespace layoutscope
