// Shared-memory bank-conflict wavefront counting (banks.hpp for the model and its sources).
#include "layoutscope/banks.hpp"

#include <algorithm>
#include <set>
#include <string>

namespace layoutscope {

namespace {

Diagnostic bankError(DiagCode code, std::string message) {
    Diagnostic d;
    d.code = code;
    d.message = std::move(message);
    d.ruleRef = "CUDA C Programming Guide, shared memory banks (compute capability 5.x+)";
    d.provenance = Provenance::PtxText;
    return d;
}

} // namespace

Result<BankReport> countBankWavefronts(const WarpSmemAccess& access) {
    const uint32_t w = access.widthBytes;
    if (w != 1 && w != 2 && w != 4 && w != 8 && w != 16)
        return bankError(DiagCode::InvalidValue,
                         "access width " + std::to_string(w) + " B: shared loads/stores move 1, 2, 4, 8 or 16 bytes");
    for (uint32_t t = 0; t < kWarpSize; ++t) {
        if (((access.activeMask >> t) & 1u) && access.addr[t] % w != 0)
            return bankError(DiagCode::FaultMisalignedAddress,
                             "thread " + std::to_string(t) + " address " + std::to_string(access.addr[t]) +
                                 " is not a multiple of the access width " + std::to_string(w));
    }
    BankReport r;
    // unverified: 8-B accesses in half-warp phases, 16-B in quarter-warp phases (banks.hpp).
    r.phases = w <= 4 ? 1u : w / 4u;
    const uint32_t threadsPerPhase = kWarpSize / r.phases;
    const uint32_t wordsPerThread = std::max(1u, w / 4u);
    uint32_t base = 0; // wavefronts of the earlier phases
    for (uint32_t p = 0; p < r.phases; ++p) {
        std::array<std::set<uint32_t>, kSmemBanks> words; // distinct word indices per bank
        bool any = false;
        for (uint32_t t = p * threadsPerPhase; t < (p + 1) * threadsPerPhase; ++t) {
            if (!((access.activeMask >> t) & 1u)) continue;
            any = true;
            for (uint32_t k = 0; k < wordsPerThread; ++k) {
                const uint32_t word = (access.addr[t] >> 2) + k;
                words[word % kSmemBanks].insert(word);
            }
        }
        if (!any) continue;
        uint32_t worst = 0;
        for (uint32_t b = 0; b < kSmemBanks; ++b) {
            worst = std::max<uint32_t>(worst, static_cast<uint32_t>(words[b].size()));
            r.wordsPerBank[b] += static_cast<uint32_t>(words[b].size());
        }
        // A thread's word is served in the wavefront of its rank among its bank's distinct words.
        for (uint32_t t = p * threadsPerPhase; t < (p + 1) * threadsPerPhase; ++t) {
            if (!((access.activeMask >> t) & 1u)) continue;
            const uint32_t word = access.addr[t] >> 2;
            const auto& s = words[word % kSmemBanks];
            r.threadWavefront[t] = base + static_cast<uint32_t>(std::distance(s.begin(), s.find(word)));
        }
        base += worst;
        r.ideal += 1;
    }
    r.wavefronts = base;
    r.excess = r.wavefronts - r.ideal;
    return r;
}

} // namespace layoutscope
