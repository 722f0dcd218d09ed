#pragma once
/// The immutable execution trace: ordered steps of byte moves, each with its source, destination,
/// length and transform, plus the bytes before and after, so any step's memory can be rebuilt by
/// replaying forwards or backwards. Views replay a Trace; they never re-execute instructions.
#include "layoutscope/core/byte_store.hpp"
#include "layoutscope/core/memory.hpp"
#include "layoutscope/core/move_bytes.hpp"
#include "layoutscope/core/move_table.hpp"
#include "layoutscope/core/result.hpp"
#include "layoutscope/core/rules.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
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
    uint32_t stepCount = 0;
    /// Memory the trace may use (moves, before/after bytes). An instruction that starts over it still
    /// executes (the final state is exact) but records no moves: TraceInstr::traced = false, and the
    /// trace is summarised from then on instead of aborting the run.
    uint64_t budgetBytes = kDefaultTraceBudget;
    static constexpr uint64_t kDefaultTraceBudget = uint64_t(1) << 30; // 1 GiB
    /// Keep at most one byte per byte moved where the rest can be reproduced exactly (issue 25 item 9):
    /// TraceBuilder::moveGrid with a state keeps no `after` bytes that the initial global memory or a fill
    /// reproduces, and no `before` bytes equal to the previous grid's `after` at the same place. Off: every
    /// byte stored (the reference the tests compare against). runScenario turns it on (RunOptions).
    bool compactBytes = false;

    /// A span of ByteMove::dataOffset values (the bytes of one or more moves, back to back) and where
    /// their before and after bytes are. Sorted by `at`, disjoint.
    struct DataSegment {
        uint64_t at = 0; ///< first dataOffset covered
        uint64_t bytes = 0;
        uint64_t beforeAt = 0;  ///< offset in the before store (ByteSource::Stored)
        uint64_t afterAt = 0;   ///< offset in the after store (ByteSource::Stored)
        uint64_t firstMove = 0; ///< index of its first move (Previous, Generated: a grid's moves)
        uint32_t moveLength = 0;
        uint32_t from = 0;  ///< before Previous: the segment whose after bytes these are
        uint32_t image = 0; ///< after Generated: index into images
        ByteSource before = ByteSource::Stored;
        ByteSource after = ByteSource::Stored;
    };
    /// Index of the first instruction not traced, or instrs.size() when all were.
    [[nodiscard]] size_t firstUntraced() const;
    [[nodiscard]] uint64_t memoryBytes() const {
        return moves.memoryBytes() + m_before.capacity() + m_after.capacity() +
               m_segments.capacity() * sizeof(DataSegment);
    }
    /// Before and after bytes kept in the stores (what compaction saves; <= bytes moved when compact).
    [[nodiscard]] uint64_t storedBytes() const { return m_before.usedBytes() + m_after.usedBytes(); }
    [[nodiscard]] const std::vector<DataSegment>& segments() const { return m_segments; }

    /// Moves of one step: [first, last) indices into moves (binary search).
    [[nodiscard]] std::pair<size_t, size_t> movesOfStep(uint32_t step) const;
    /// The destination bytes after move `m` (a move of this trace): O(length + log segments).
    [[nodiscard]] MoveBytes afterBytes(const ByteMove& m) const;
    /// The destination bytes before move `m`; zeros for a register destination.
    [[nodiscard]] MoveBytes beforeBytes(const ByteMove& m) const;
    /// The before (`after` false) or after bytes of data offsets [at, at + n) as the trace keeps them, for a
    /// reader that compares the bytes of many moves at once: the longest prefix that lies contiguous in a
    /// store (stored bytes, or before bytes shared with an earlier grid's stored after bytes), the same
    /// bytes beforeBytes / afterBytes give for the moves there. Empty when the bytes at `at` are not kept
    /// as they are (generated after bytes, the implied zeros of a register destination: read those moves
    /// through beforeBytes / afterBytes). O(log segments).
    [[nodiscard]] std::span<const uint8_t> keptBytes(uint64_t at, uint64_t n, bool after) const;
    /// `n` zero bytes (n <= 16: a register move).
    [[nodiscard]] static std::span<const uint8_t> zeroBytes(uint32_t n);
    /// The same after bytes stored at the same offsets (fast-path tests: both executors keep the same).
    [[nodiscard]] bool sameStoredAfter(const Trace& o) const { return m_after == o.m_after; }

    /// Initial global memory (regions, no written pages) that Generated after bytes are read from: an
    /// immutable copy, shared, so the trace reproduces them after the run's state is gone.
    std::vector<std::shared_ptr<const GlobalMemory>> images;

  private:
    friend class TraceBuilder;
    [[nodiscard]] const DataSegment& segmentOf(uint64_t dataOffset) const;
    void generatedAfter(const DataSegment& seg, const ByteMove& m, uint8_t* out) const;
    ByteStore m_before; ///< stored before bytes (DataSegment::beforeAt); read through beforeBytes()
    ByteStore m_after;  ///< stored after bytes (DataSegment::afterAt); read through afterBytes()
    std::vector<DataSegment> m_segments;
    uint64_t m_dataEnd = 0; ///< next dataOffset
    /// Tells traces apart (a builder's memory of earlier grids is void once its trace is replaced).
    uint64_t m_serial = nextSerial();
    static uint64_t nextSerial();
};

/// What the CLI and the GUI say when a trace stopped recording at its memory budget, e.g. "trace summarised
/// after step 5120 (instruction [10], line 14): the 1 GiB trace budget was reached; later instructions
/// executed (final state exact) without recording moves". Empty when every instruction was traced.
[[nodiscard]] std::string traceBudgetNote(const Trace& t);

/// Appends moves while an instruction executes; applies them to the machine state as it goes.
class TraceBuilder {
  public:
    explicit TraceBuilder(Trace& t) : m_t(t) {}
    ~TraceBuilder(); ///< flush()es
    TraceBuilder(const TraceBuilder&) = delete;
    TraceBuilder& operator=(const TraceBuilder&) = delete;
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
    /// The same, and when Trace::compactBytes the trace may keep fewer of the bytes the caller fills in
    /// (exactly: every reader still gets them through Trace::beforeBytes / afterBytes): `after` bytes that
    /// the initial global memory reproduces (a copy whose source `state` has never written) or a fill
    /// pattern reproduces, and `before` bytes equal to the `after` bytes of an earlier grid with the same
    /// destination, size and move length (a buffer reloaded). The spans are then scratch, kept until the
    /// next call on this builder, which decides what is stored.
    GridBytes moveGrid(const MachineState& state, ByteMove first, const std::array<uint32_t, 3>& n,
                       const std::array<MoveTable::Strides, 3>& s, const AddrDerivation& derive = {});
    /// The `before` bytes of the last `n` bytes recorded by move() or moveBatch(), for a caller that puts
    /// a Tensor Memory destination's earlier bytes there (the builder wrote zeros). Empty if not traced.
    [[nodiscard]] std::span<uint8_t> lastBefore(uint64_t n);
    /// Whether the open instruction records moves (false once the trace is over its budget).
    [[nodiscard]] bool tracing() const { return m_tracing; }
    void tx(MachineState& state, uint8_t cta, uint32_t mbarAddr, int64_t bytes);
    /// Name a rule the open instruction applies that no move carries (TraceInstr::alsoRules), once.
    void alsoRule(RuleId rule);
    [[nodiscard]] uint32_t currentStep() const { return m_t.stepCount; }

    /// Decide what the last compact moveGrid keeps (done by every later call and by endInstr).
    void flush();

  private:
    /// `n` bytes stored before and after (before zeroed when `zeroBefore`); returns their dataOffset.
    uint64_t appendData(uint64_t n, bool zeroBefore);
    /// The data segment of a grid into registers (moveGrid, moveGridLevels): its `before` bytes are implied
    /// zeros, only `after` is stored; sets first.dataOffset. The caller appends the moves.
    GridBytes registerGrid(ByteMove& first, uint64_t bytes);
    /// A grid whose bytes wait in scratch until flush() (moveGrid with a state).
    struct Pending {
        bool open = false;
        size_t segment = 0; ///< its DataSegment (before and after not yet decided)
        bool beforeCandidate = false;
        size_t slot = 0;               ///< the candidate whose after bytes `before` may equal
        bool generated = false;        ///< after reproducible from images.back() or the fill
        ByteMove first;                ///< the grid's first move (its source, transform)
        std::array<uint64_t, 4> key{}; ///< destination space and CTA, address, bytes, move length
        uint64_t serial = 0;           ///< Trace::m_serial then (a trace reset drops it)
    };
    /// An earlier grid's after bytes at a destination: the candidates for a later grid's before.
    struct Slot {
        std::array<uint64_t, 4> key{};
        uint64_t serial = 0; ///< Trace::m_serial of the trace it describes (0: empty)
        size_t segment = 0;
        const uint8_t* stored = nullptr; ///< its after bytes in the store, or
        std::vector<uint8_t> copy;       ///< their copy (generated ones)
        uint64_t used = 0;               ///< for least recently used replacement
    };
    [[nodiscard]] uint32_t imageOf(const GlobalMemory& g);
    /// The stored bytes of dataOffset `at`, just appended (in the last segment).
    [[nodiscard]] uint8_t* beforeAt(uint64_t at);
    [[nodiscard]] uint8_t* afterAt(uint64_t at);
    Trace& m_t;
    uint32_t m_instr = 0;
    bool m_open = false;
    bool m_tracing = true;
    Pending m_pending;
    std::vector<uint8_t> m_beforeScratch, m_afterScratch;
    std::array<Slot, 4> m_slots;
    uint64_t m_clock = 0;
    const GlobalMemory* m_imageSource = nullptr; ///< the state images.back() was copied from
    size_t m_imageRegions = 0;                   ///< and its region count then
    uint64_t m_imageSerial = 0;                  ///< in the trace of this serial
};

/// Rebuilds memory at any step of a trace: seek forwards or backwards in O(bytes moved between).
class Replay {
  public:
    Replay(const Trace& t, const MachineState& initial);
    /// A replay already at `step`, whose state `atStep` the caller knows to be what seek(step) from the
    /// initial state gives (e.g. a complete run's final memory at stepCount): no move is applied to get
    /// there.
    Replay(const Trace& t, MachineState atStep, uint32_t step)
        : m_t(t), m_state(std::move(atStep)), m_step(step) {}
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
