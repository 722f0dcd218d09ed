#pragma once
/// Which instructions the event list and the timeline show (issue 22 item 4): by issuing warp (the
/// recorded kernel's TraceInstr::origin) and by instruction family, told from the PTX opcode. Plain C++.
#include "layoutscope/core/trace.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace layoutscope::views {

/// Instruction families, by PTX opcode prefix (PTX ISA 9.2 §9.7).
enum class InstrFamily : uint8_t {
    Tma,        ///< cp.async.bulk.tensor, cp.reduce.async.bulk.tensor, cp.async.bulk.prefetch.tensor
    BulkCopy,   ///< cp.async.bulk / cp.reduce.async.bulk without .tensor (§9.7.9.25)
    CpAsync,    ///< cp.async (sm_80, not bulk) and its commit/wait groups
    Mbarrier,   ///< mbarrier.*
    Tcgen05Mma, ///< tcgen05.mma*
    Tcgen05,    ///< every other tcgen05.* (alloc, ld, st, cp, shift, commit, ...)
    Wgmma,      ///< wgmma.*
    MmaSync,    ///< mma.sync (warp-level MMA)
    LdSt,       ///< ld / st / ldu / atom / red / ldmatrix / stmatrix
    Other,      ///< fences, barriers, ...
    Count
};

/// The family of a PTX instruction as written (a guard `@p` / `@!p` and leading space are skipped). A
/// recorded kernel's `poke` (bytes its threads stored: docs/exec.md) is ld/st when its PTX is not known.
[[nodiscard]] InstrFamily instrFamilyOf(std::string_view ptx);
/// The family of each instruction of `t`: instrFamilyOf its text, except that a recorded `poke` takes the
/// family of the kernel's instruction at its origin.ptxLine in `ptxText` (the module; empty: not known),
/// so cp.async, atom or stmatrix stores are told apart from st.
[[nodiscard]] std::vector<InstrFamily> instrFamilies(const Trace& t, std::string_view ptxText);
/// "TMA", "bulk copy", "cp.async", "mbarrier", "tcgen05.mma", "tcgen05 (other)", "wgmma", "mma.sync",
/// "ld/st", "other".
[[nodiscard]] const char* instrFamilyName(InstrFamily f);

/// A filter: every instruction passes the default one.
struct InstrFilter {
    int32_t cta = -1;                                             ///< issuing CTA (%cluster_ctarank); -1: any
    int32_t warp = -1;                                            ///< issuing warp in its CTA; -1: any
    uint32_t families = (1u << uint32_t(InstrFamily::Count)) - 1; ///< bit per InstrFamily
    [[nodiscard]] bool all() const {
        return cta < 0 && warp < 0 && families == (1u << uint32_t(InstrFamily::Count)) - 1;
    }
    /// Whether `in` passes. With a warp (or CTA) chosen, an instruction whose issuer is not known
    /// (origin.warp < 0: a hand-written scenario's) does not.
    [[nodiscard]] bool passes(const TraceInstr& in) const;
    /// The same, with the instruction's family already known (instrFamilies).
    [[nodiscard]] bool passes(const TraceInstr& in, InstrFamily family) const;
};

/// A warp that issued instructions of a trace, and how many it issued.
struct IssuingWarp {
    int32_t cta = 0, warp = 0; ///< cta -1: the issuer's CTA is not known
    uint32_t instrs = 0;
};
/// Every (CTA, warp) of the trace's origins, CTA then warp order (empty for hand-written scenarios).
[[nodiscard]] std::vector<IssuingWarp> issuingWarps(const Trace& t);
/// How many instructions of each family there are (index: InstrFamily), from instrFamilies.
[[nodiscard]] std::vector<uint32_t> familyCounts(const std::vector<InstrFamily>& families);

} // namespace layoutscope::views
