// Shared-memory bank-conflict wavefront counting (banks.hpp for the model and its sources).
#include "layoutscope/analysis/banks.hpp"

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

namespace {

bool active(const WarpSmemAccess& a, uint32_t t) {
    return (a.activeMask >> t) & 1u;
}

// Measured exception (banks.hpp, docs/banks.md): an 8/16-B load counts its phases in pairs when every
// active lane reads the same address as lane (t ^ 1), or every active lane the same as lane (t ^ 2).
bool lanesShareWith(const WarpSmemAccess& a, uint32_t partnerXor) {
    for (uint32_t t = 0; t < kWarpSize; ++t) {
        const uint32_t u = t ^ partnerXor;
        if (active(a, t) && active(a, u) && a.addr[t] != a.addr[u]) return false;
    }
    return true;
}

} // namespace

Result<BankReport> countBankWavefronts(const WarpSmemAccess& access) {
    const bool ldsm = access.op == SmemOp::LdMatrix;
    const uint32_t w = ldsm ? 16u : access.widthBytes;
    if (w != 1 && w != 2 && w != 4 && w != 8 && w != 16)
        return bankError(DiagCode::InvalidValue, "access width " + std::to_string(w) +
                                                     " B: shared loads/stores move 1, 2, 4, 8 or 16 bytes");
    if (ldsm && access.matrices != 1 && access.matrices != 2 && access.matrices != 4)
        return bankError(DiagCode::InvalidValue,
                         "ldmatrix loads .x1, .x2 or .x4 matrices, not " + std::to_string(access.matrices));
    // ldmatrix: lanes 0..8*matrices-1 give row addresses, the others are ignored by the hardware.
    const uint32_t lanes = ldsm ? 8u * access.matrices : kWarpSize;
    auto takesPart = [&](uint32_t t) { return t < lanes && (ldsm || active(access, t)); };
    for (uint32_t t = 0; t < lanes; ++t) {
        if (takesPart(t) && access.addr[t] % w != 0)
            return bankError(DiagCode::FaultMisalignedAddress,
                             "thread " + std::to_string(t) + " address " + std::to_string(access.addr[t]) +
                                 " is not a multiple of the access width " + std::to_string(w));
    }
    BankReport r;
    // Fixed phases of 128 requested bytes; ldmatrix: one per 8x8 matrix.
    const uint32_t threadsPerPhase = ldsm ? 8u : (w <= 4 ? kWarpSize : 128u / w);
    r.phases = lanes / threadsPerPhase;
    r.paired =
        access.op == SmemOp::Load && w >= 8 && (lanesShareWith(access, 1) || lanesShareWith(access, 2));
    const uint32_t threadsPerGroup = r.paired ? 2 * threadsPerPhase : threadsPerPhase;
    const uint32_t wordsPerThread = std::max(1u, w / 4u);
    uint32_t base = 0; // wavefronts of the earlier phases
    for (uint32_t g0 = 0; g0 < lanes; g0 += threadsPerGroup) {
        std::array<std::set<uint32_t>, kSmemBanks> words; // distinct word indices per bank
        bool any = false;
        for (uint32_t t = g0; t < g0 + threadsPerGroup; ++t) {
            if (!takesPart(t)) continue;
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
        for (uint32_t t = g0; t < g0 + threadsPerGroup; ++t) {
            if (!takesPart(t)) continue;
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
