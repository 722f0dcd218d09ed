#pragma once
/// The immutable execution trace: ordered steps of byte moves, each with its source, destination,
/// length and transform, plus the bytes before and after, so any step's memory can be rebuilt by
/// replaying forwards or backwards. Views replay a Trace; they never re-execute instructions.
#include "layoutscope/core/byte_store.hpp"
#include "layoutscope/core/memory.hpp"
#include "layoutscope/core/move_table.hpp"
#include "layoutscope/core/result.hpp"
#include "layoutscope/core/rules.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace layoutscope {

/// An mbarrier transaction-count change (complete_tx by a copy, expect_tx by a thread).
struct TxEvent {
    uint32_t step = 0;
    uint32_t instr = 0;
    uint8_t cta = 0;
    uint32_t mbarAddr = 0;
    int64_t bytes = 0; ///< positive: complete_tx of that many bytes
};

/// Where an instruction recorded from a kernel run came from (issue 22): its PTX line and, when the
/// module has line info (`.loc`), the CUDA source line, and who issued it. Empty for hand-written
/// scenario instructions (ptxLine 0).
struct SourceOrigin {
    int ptxLine = 0;      ///< 1-based line in the .ptx module; 0: not from a kernel
    std::string cudaFile; ///< the `.file` name of the `.loc` in force (empty: no line info)
    int cudaLine = 0;
    int32_t cta = -1;    ///< issuing CTA's %cluster_ctarank (-1: not known)
    int32_t warp = -1;   ///< issuing warp in its CTA
    int32_t thread = -1; ///< first issuing thread (linear index in the CTA)
    [[nodiscard]] bool known() const { return ptxLine > 0; }
};

/// One executed instruction and the range of steps it produced.
struct TraceInstr {
    std::string text;       ///< PTX as written
    int sourceLine = 0;     ///< 1-based line in the scenario, 0 if none
    uint32_t firstStep = 0; ///< [firstStep, endStep)
    uint32_t endStep = 0;
    std::string summary; ///< e.g. "TMA tile load 64x64 FLOAT16, SWIZZLE_128B, 8192 B"
    /// Rules the instruction also depends on that no single move names (a ByteMove carries one rule), e.g.
    /// the source walk and the lane map of a decompressing tcgen05.cp. Views and the CLI list them with the
    /// moves'.
    std::vector<RuleId> alsoRules;
    uint64_t firstMove = 0; ///< [firstMove, endMove): this instruction's moves in Trace::moves
    uint64_t endMove = 0;
    uint64_t bytesMoved = 0; ///< sum of the lengths of its moves (counted even when not traced)
    bool traced = true;      ///< false: over Trace::budgetBytes, executed but its moves not recorded
    SourceOrigin origin;     ///< the kernel line behind a recorded instruction (ScenarioInstr::origin)
};

struct Trace {
    std::vector<TraceInstr> instrs;
    MoveTable moves; ///< sorted by step; compact runs (move_table.hpp), read by value
    std::vector<TxEvent> txEvents;
    /// Destination bytes before each move (at its dataOffset). A register destination's are not stored
    /// (a register holds no earlier value in this model: zeros), so the ld paths write half the bytes;
    /// read them through beforeBytes(), never this store directly.
    ByteStore before;
    ByteStore after; ///< destination bytes after each move (the same offsets as before)
    uint32_t stepCount = 0;
    /// Memory the trace may use (moves, before/after bytes). An instruction that starts over it still
    /// executes (the final state is exact) but records no moves: TraceInstr::traced = false, and the
    /// trace is summarised from then on instead of aborting the run.
    uint64_t budgetBytes = kDefaultTraceBudget;
    static constexpr uint64_t kDefaultTraceBudget = uint64_t(1) << 30; // 1 GiB
    /// Index of the first instruction not traced, or instrs.size() when all were.
    [[nodiscard]] size_t firstUntraced() const;
    [[nodiscard]] uint64_t memoryBytes() const {
        return moves.memoryBytes() + before.capacity() + after.capacity();
    }

    /// Moves of one step: [first, last) indices into moves (binary search).
    [[nodiscard]] std::pair<size_t, size_t> movesOfStep(uint32_t step) const;
    [[nodiscard]] std::span<const uint8_t> afterBytes(const ByteMove& m) const {
        if (m.length == 0) return {};
        return {after.data(m.dataOffset), m.length};
    }
    /// Zeros for a register destination (kept nowhere: see `before`).
    [[nodiscard]] std::span<const uint8_t> beforeBytes(const ByteMove& m) const {
        if (m.length == 0) return {};
        if (m.dst.space == MemSpace::Register) return zeroBytes(m.length);
        return {before.data(m.dataOffset), m.length};
    }
    /// `n` zero bytes (n <= 16: a register move).
    [[nodiscard]] static std::span<const uint8_t> zeroBytes(uint32_t n);
};

/// Appends moves while an instruction executes; applies them to the machine state as it goes.
class TraceBuilder {
  public:
    explicit TraceBuilder(Trace& t) : m_t(t) {}
    /// Start an instruction; subsequent moves belong to it.
    void beginInstr(std::string text, int sourceLine = 0, const SourceOrigin& origin = {});
    void endInstr(std::string summary = {});
    /// Record a move and write `bytes` to the destination in `state` (shared or global memory).
    /// `derive`: the destination (or source) address is the swizzle of its logicalOffset (move_table.hpp),
    /// which lets a swizzled box row be stored as one run. Returns false when the instruction is not
    /// traced (over budget): the bytes are still written to `state`.
    bool move(MachineState& state, ByteMove m, std::span<const uint8_t> bytes, bool newStep = true,
              const AddrDerivation& derive = {});
    /// `count` moves of `first.length` bytes, move k = MoveTable::rowMove(first, s0, k, derive), each its
    /// own step (s0[0] is ignored: steps follow the trace), their bytes `bytes` back to back; the same as
    /// `count` calls of move() with newStep = true, in one append (a TMA box row, a TMEM lane).
    bool moveRow(MachineState& state, ByteMove first, uint32_t count, MoveTable::Strides s0,
                 std::span<const uint8_t> bytes, const AddrDerivation& derive = {});
    /// Moves `ms` in order, their bytes `bytes` back to back, all in one step (a new one when
    /// `newStep`): the same as move() of each with newStep only on the first, in one append.
    /// The moves' step, instr and dataOffset are filled in here.
    bool moveBatch(MachineState& state, std::span<ByteMove> ms, std::span<const uint8_t> bytes, bool newStep);
    /// Where the caller of moveGrid puts the grid's bytes: count * first.length each, in move order.
    struct GridBytes {
        uint8_t* before = nullptr;
        uint8_t* after = nullptr;
    };
    /// Records the moves of a grid (MoveTable::appendGrid; s[l][0] are step strides and the first move
    /// starts a new step) for a caller that moves the data itself, in bulk (a TMA box, a TMEM block): it
    /// must fill both returned spans and write the destinations. `before` arrives zeroed (the value of a
    /// register destination) unless the destination is shared, global or Tensor Memory, whose bytes the
    /// caller copies there. Not traced (over budget): returns null pointers and records only the bytes
    /// moved. The same trace as count calls of move().
    GridBytes moveGrid(ByteMove first, const std::array<uint32_t, 3>& n,
                       const std::array<MoveTable::Strides, 3>& s, const AddrDerivation& derive = {});
    /// moveGrid of n.size() <= MoveTable::kMaxLevels levels (MoveTable::appendGridLevels), level 0 fastest:
    /// a tcgen05.ld/st map of more than three nested counts.
    GridBytes moveGridLevels(ByteMove first, std::span<const uint32_t> n,
                             std::span<const MoveTable::Strides> s);
    /// Whether the open instruction records moves (false once the trace is over its budget).
    [[nodiscard]] bool tracing() const { return m_tracing; }
    void tx(MachineState& state, uint8_t cta, uint32_t mbarAddr, int64_t bytes);
    /// Name a rule the open instruction applies that no move carries (TraceInstr::alsoRules), once.
    void alsoRule(RuleId rule);
    [[nodiscard]] uint32_t currentStep() const { return m_t.stepCount; }

  private:
    /// `n` bytes at the same new offset of before and after (before zeroed when `zeroBefore`).
    uint64_t appendData(uint64_t n, bool zeroBefore);
    Trace& m_t;
    uint32_t m_instr = 0;
    bool m_open = false;
    bool m_tracing = true;
};

/// Rebuilds memory at any step of a trace: seek forwards or backwards in O(bytes moved between).
class Replay {
  public:
    Replay(const Trace& t, const MachineState& initial);
    /// State after all moves of steps < `step` (step 0 = initial, stepCount = final).
    void seek(uint32_t step);
    [[nodiscard]] uint32_t step() const { return m_step; }
    [[nodiscard]] const MachineState& state() const { return m_state; }

  private:
    const Trace& m_t;
    MachineState m_state;
    uint32_t m_step = 0;
};

} // namespace layoutscope
