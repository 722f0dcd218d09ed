#pragma once
/// Breakpoints and instruction stepping over a trace (no Qt, testable without GL; issue 16 item 4).
///
/// Positions are timeline positions (Playback::step()): position p shows memory after every move of
/// steps 0..p-1. A move of step s is therefore *seen* at position s + 1, and playing stops there.
/// An instruction-level event (a bank-conflicting shared access, a rule no single move names) stops
/// after the instruction's first step (position firstStep + 1), or where it stands when it moves
/// no bytes (position firstStep == endStep).
#include "scene/selection.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace layoutscope::views {

/// The first move step >= `fromStep` whose destination writes any of `locs` (a byte of shared or
/// global memory, a TMEM cell lane<<16|column, a register thread<<16|register; selection.hpp).
[[nodiscard]] std::optional<uint32_t> nextWriteStep(const Trace& t, std::span<const DataLoc> locs,
                                                    uint32_t fromStep);

/// The first move step >= `fromStep` whose rule is not verified by a tool or hardware
/// (provenance.hpp isVerified), with that rule.
struct RuleUse {
    uint32_t step = 0;
    RuleId rule = RuleId::None;
};
[[nodiscard]] std::optional<RuleUse> nextUnverifiedMove(const Trace& t, uint32_t fromStep);

/// Where playing stops for an instruction-level event of instruction `i` (see the file comment).
[[nodiscard]] uint32_t instrStopPosition(const TraceInstr& i);

/// Excess shared-memory wavefronts (bank conflicts) of every trace instruction: for the scenario's
/// ld.shared / st.shared / ldmatrix accesses, countBankWavefronts' excess (banks.hpp); 0 for the others.
/// Scenario instructions are matched to trace instructions by source line.
[[nodiscard]] std::vector<uint32_t> bankExcessPerInstr(const Trace& t, const Scenario& s);

/// A breakpoint: what stops playing.
struct Breakpoint {
    enum class Kind : uint8_t {
        CellWritten,    ///< a move writes one of `locs`
        BankExcess,     ///< an instruction's excess wavefronts exceed `maxExcess`
        UnverifiedRule, ///< a move or instruction uses a rule whose provenance is not verified
    } kind = Kind::CellWritten;
    std::vector<DataLoc> locs; ///< CellWritten
    uint32_t maxExcess = 0;    ///< BankExcess: N
    std::string label;         ///< CellWritten: the cell as the user picked it
    bool enabled = true;
};

/// Text of a breakpoint for the list ("when shared CTA 0 0x400 is written", ...).
[[nodiscard]] std::string describeBreakpoint(const Breakpoint& b);

/// A stop: the position, and why (names the breakpoint and the move or instruction).
struct BreakHit {
    uint32_t position = 0;
    std::string why;
};

/// The first position > `after` at which one of the enabled `bps` stops playing (nullopt: none).
/// `excessPerInstr` (bankExcessPerInstr) is needed by BankExcess breakpoints (missing entries: 0).
[[nodiscard]] std::optional<BreakHit> nextBreak(const Trace& t, std::span<const Breakpoint> bps,
                                                std::span<const uint32_t> excessPerInstr, uint32_t after);

/// Instruction stepping: the nearest instruction boundary after / before `position`. Boundaries are
/// 0, stepCount and the first and end step of every instruction that moves bytes (so a position inside
/// an instruction steps back to its start). Instructions that move nothing have no extent.
[[nodiscard]] uint32_t nextInstrPosition(const Trace& t, uint32_t position);
[[nodiscard]] uint32_t prevInstrPosition(const Trace& t, uint32_t position);

} // namespace layoutscope::views
