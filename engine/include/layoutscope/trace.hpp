#pragma once
/// The immutable execution trace: ordered steps of byte moves, each with its source, destination,
/// length and transform, plus the bytes before and after, so any step's memory can be rebuilt by
/// replaying forwards or backwards. Views replay a Trace; they never re-execute instructions.
#include "layoutscope/memory.hpp"
#include "layoutscope/result.hpp"
#include "layoutscope/rules.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace layoutscope {

enum class MemSpace : uint8_t { None, Global, SharedCta, TensorMemory, Register, Fill };

struct MemRef {
    MemSpace space = MemSpace::None;
    uint8_t cta = 0;   ///< %cluster_ctarank for shared/tensor memory
    uint64_t addr = 0; ///< global VA, shared::cta byte address, or TMEM (lane<<16 | column)
};

/// What happened to the bytes on the way.
enum class Transform : uint8_t {
    Copy,       ///< bytes copied unchanged
    FillZero,   ///< out-of-bounds element, zero fill
    FillNaN,    ///< out-of-bounds element, OOB-NaN fill (0x7FF7 per 16-bit unit)
    RoundTf32,  ///< FP32 rounded to TF32 (low 13 bits cleared, nearest even)
    Decompress4to8, ///< tcgen05.cp .b8x16.b4x16_p64: 4-bit values into 8-bit containers (bits [5:2])
    Decompress6to8, ///< tcgen05.cp .b8x16.b6x16_p32: 6-bit values into 8-bit containers (bits [5:0])
    Unpack16b,      ///< tcgen05.st .unpack::16b: a 16-bit register half into the low half of a TMEM cell
    Pack16b,        ///< tcgen05.ld .pack::16b: the low halves of two TMEM cells into one register
    Pack8to6,       ///< TMA .b6p2x16 store: bits [5:0] of 8-bit containers packed into 6-bit values
};
[[nodiscard]] const char* transformName(Transform t);

/// One move of `length` contiguous destination bytes. POD, sorted by step.
struct ByteMove {
    uint32_t step = 0;        ///< timeline step (several moves may share one, e.g. multicast)
    uint32_t instr = 0;       ///< index of the instruction in Trace::instrs
    MemRef src;               ///< source of the first byte (space Fill for fills)
    MemRef dst;               ///< destination of the first byte (physical, after swizzle)
    uint32_t length = 0;      ///< bytes
    Transform transform = Transform::Copy;
    RuleId rule = RuleId::None;             ///< the rule that placed these bytes
    uint32_t logicalOffset = 0;             ///< byte offset in the dense box image, before swizzle
    std::array<int32_t, 5> coord{};         ///< tensor coordinate of the first element (dim 0 first)
    uint32_t dataOffset = 0;  ///< into Trace::before/after: `length` bytes each
};
static_assert(std::is_trivially_copyable_v<ByteMove>);

/// An mbarrier transaction-count change (complete_tx by a copy, expect_tx by a thread).
struct TxEvent {
    uint32_t step = 0;
    uint32_t instr = 0;
    uint8_t cta = 0;
    uint32_t mbarAddr = 0;
    int64_t bytes = 0; ///< positive: complete_tx of that many bytes
};

/// One executed instruction and the range of steps it produced.
struct TraceInstr {
    std::string text;       ///< PTX as written
    int sourceLine = 0;     ///< 1-based line in the scenario, 0 if none
    uint32_t firstStep = 0; ///< [firstStep, endStep)
    uint32_t endStep = 0;
    std::string summary;    ///< e.g. "TMA tile load 64x64 FLOAT16, SWIZZLE_128B, 8192 B"
    /// Rules the instruction also depends on that no single move names (a ByteMove carries one rule), e.g.
    /// the source walk and the lane map of a decompressing tcgen05.cp. Views and the CLI list them with the
    /// moves'.
    std::vector<RuleId> alsoRules;
};

struct Trace {
    std::vector<TraceInstr> instrs;
    std::vector<ByteMove> moves; ///< sorted by step
    std::vector<TxEvent> txEvents;
    std::vector<uint8_t> before; ///< destination bytes before each move
    std::vector<uint8_t> after;  ///< destination bytes after each move
    uint32_t stepCount = 0;

    /// Moves of one step: [first, last) indices into moves (binary search).
    [[nodiscard]] std::pair<size_t, size_t> movesOfStep(uint32_t step) const;
    [[nodiscard]] std::span<const uint8_t> afterBytes(const ByteMove& m) const {
        return {after.data() + m.dataOffset, m.length};
    }
    [[nodiscard]] std::span<const uint8_t> beforeBytes(const ByteMove& m) const {
        return {before.data() + m.dataOffset, m.length};
    }
};

/// Appends moves while an instruction executes; applies them to the machine state as it goes.
class TraceBuilder {
public:
    explicit TraceBuilder(Trace& t) : m_t(t) {}
    /// Start an instruction; subsequent moves belong to it.
    void beginInstr(std::string text, int sourceLine = 0);
    void endInstr(std::string summary = {});
    /// Record a move and write `bytes` to the destination in `state` (shared or global memory).
    void move(MachineState& state, ByteMove m, std::span<const uint8_t> bytes, bool newStep = true);
    void tx(MachineState& state, uint8_t cta, uint32_t mbarAddr, int64_t bytes);
    /// Name a rule the open instruction applies that no move carries (TraceInstr::alsoRules), once.
    void alsoRule(RuleId rule);
    [[nodiscard]] uint32_t currentStep() const { return m_t.stepCount; }

private:
    Trace& m_t;
    uint32_t m_instr = 0;
    bool m_open = false;
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
