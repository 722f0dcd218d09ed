#pragma once
/// Shared-memory bank conflicts of one warp-wide ld.shared / st.shared, counted in wavefronts the
/// way Nsight Compute reports them (smsp__sass_..._shared_op_ld wavefronts,
/// l1tex__data_bank_conflicts_pipe_lsu_mem_shared = wavefronts - ideal).
///
/// Model (rule RuleId::SmemBankWavefronts, provenance "measured on H100": it reproduces every record
/// of ../shared/golden/banks, docs/banks.md):
///  * 32 banks of 4-byte words, bank = (byte address / 4) % 32 (CUDA C Programming Guide, 5.x+).
///  * The warp is cut into fixed phases of 128 requested bytes: the whole warp for 1/2/4-byte
///    accesses, half-warps for 8 B (ld/st.shared.v2.b32), quarter-warps for 16 B (.v4.b32), and one
///    phase per 8x8 matrix of ldmatrix (lanes 8m..8m+7 give its row addresses; other lanes ignored).
///  * Per phase: wavefronts = max over banks of the DISTINCT 32-bit words wanted in that bank (same
///    word = broadcast / one writer); at least 1 if the phase has an active thread.
///  * Measured exception (loads only, 8 and 16 B): when lanes come in pairs that read one address,
///    either every lane t with lane t^1 or every lane t with lane t^2 (predicated-off lanes agree with
///    anything), the phases pair up: the two half-warps of an 8-B load are counted as one phase,
///    quarter-warps 0+1 and 2+3 of a 16-B load as one each. Stores and ldmatrix never pair.
///  * ideal = number of counted phases with an active thread; excess = wavefronts - ideal (Nsight
///    Compute "bank conflicts": l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld/st).
#include "layoutscope/core/result.hpp"
#include "layoutscope/core/rules.hpp"

#include <array>
#include <cstdint>

namespace layoutscope {

inline constexpr uint32_t kSmemBanks = 32;
inline constexpr uint32_t kWarpSize = 32;

/// Which instruction makes the access (the phase rules differ).
enum class SmemOp {
    Load,     ///< ld.shared
    Store,    ///< st.shared
    LdMatrix, ///< ldmatrix.sync.aligned.m8n8.x{1,2,4}.shared.b16 (16-B rows, widthBytes ignored)
};

/// One warp-wide shared-memory access: per-thread byte addresses and the per-thread width.
struct WarpSmemAccess {
    SmemOp op = SmemOp::Load;
    uint32_t matrices = 1; ///< ldmatrix .x1/.x2/.x4: lanes 0..8*matrices-1 give row addresses
    std::array<uint32_t, kWarpSize> addr{}; ///< shared byte address of each thread (lane order)
    uint32_t activeMask = 0xFFFFFFFFu;      ///< bit t set = thread t takes part
    uint32_t widthBytes = 4;                ///< 1, 2, 4, 8 or 16 (ld.shared.v2.b32 = 8, .v4.b32 = 16)
};

struct BankReport {
    RuleId rule = RuleId::SmemBankWavefronts; ///< provenance HardwareSm90 (measured on H100)
    uint32_t phases = 0;                      ///< fixed phases: 1 (<= 4 B), 2 (8 B), 4 (16 B), matrices
    bool paired = false;                      ///< lane-paired 8/16-B load: phases counted in pairs
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

/// Count wavefronts of one warp access. Fails on a width outside {1,2,4,8,16}, an ldmatrix with
/// other than 1, 2 or 4 matrices, or an address that is not a multiple of the width (16 for
/// ldmatrix rows; the hardware raises cudaErrorMisalignedAddress).
[[nodiscard]] Result<BankReport> countBankWavefronts(const WarpSmemAccess& access);

} // namespace layoutscope
