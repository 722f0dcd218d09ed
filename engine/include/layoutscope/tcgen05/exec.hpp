#pragma once
/// Executing tcgen05.st / ld / cp / shift on Tensor Memory and recording every byte move in a Trace
/// (PTX ISA 9.2 §9.7.16.8-9; tcgen05.md §4-6).
///
/// MachineState has no Tensor Memory, and TraceBuilder::move writes only shared/global memory, so TMEM
/// lives in TmemState beside it. Tcgen05Executor records moves through TraceBuilder (steps, instruction
/// ranges) and then fixes the move's `before` bytes from its own state and applies the write itself.
/// Replay ignores TMEM moves; TmemReplay replays them (forwards and backwards) for views.
///
/// MemRef conventions of these moves:
///   MemSpace::TensorMemory  addr = lane << 16 | column (the move starts at byte 0 of that cell; a move of
///                           n bytes covers columns column .. column + ceil(n/4) - 1 of that lane)
///   MemSpace::Register      addr = threadInCta << 16 | (register * 4 + byte)
///   MemSpace::SharedCta     shared::cta byte address (after swizzle)
#include "layoutscope/core/memory.hpp"
#include "layoutscope/core/trace.hpp"
#include "layoutscope/tcgen05/tcgen05.hpp"
#include "layoutscope/tcgen05/tmem.hpp"
#include "layoutscope/tcgen05/umma_ws_sp.hpp"

#include <array>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace layoutscope {

struct UmmaOp; // umma.hpp
namespace detail {
struct CpWalk; // tcgen05/exec_detail.hpp (internal)
}

/// Tensor Memory and allocator of every CTA of a cluster (index = %cluster_ctarank).
struct TmemState {
    explicit TmemState(uint32_t clusterSize = 1, uint32_t fill = 0)
        : ctas(clusterSize, TensorMemory(fill)), allocators(clusterSize) {}
    std::vector<TensorMemory> ctas;
    std::vector<TmemAllocator> allocators;
};

/// The registers of one warp: regs[t][j] is register j of %laneid t.
using WarpRegisters = std::array<std::vector<uint32_t>, 32>;

/// Where an instruction came from (trace text and line).
struct InstrSource {
    std::string text;
    int line = 0;
};

class Tcgen05Executor {
  public:
    Tcgen05Executor(Trace& trace, MachineState& state, TmemState& tmem)
        : m_trace(trace), m_state(state), m_tmem(tmem) {}

    /// `tcgen05.alloc.cta_group::N.sync.aligned.shared::cta.b32 [dst], nCols;` — allocates (both CTAs of the
    /// pair for N = 2, same columns) and records the 4-byte store of the TMEM address to `dst` in each CTA's
    /// shared memory. `dst` must be 4-byte aligned and inside shared memory.
    [[nodiscard]] Result<uint32_t> alloc(uint32_t ctaGroup, uint32_t cta, uint32_t dstSmem, uint32_t nCols,
                                         const InstrSource& src);
    /// `tcgen05.dealloc.cta_group::N.sync.aligned.b32 taddr, nCols;`
    [[nodiscard]] Status dealloc(uint32_t ctaGroup, uint32_t cta, uint32_t taddr, uint32_t nCols);
    /// `tcgen05.relinquish_alloc_permit.cta_group::N.sync.aligned;`
    [[nodiscard]] Status relinquishAllocPermit(uint32_t ctaGroup, uint32_t cta);
    /// tcgen05.st by warp `warpIdInCta` of CTA `cta`: one step per register index, 32 threads each.
    /// .unpack::16b writes zero into bits [31:16] (unverified: open question 19).
    [[nodiscard]] Status st(const LdStForm& f, uint32_t cta, uint32_t warpIdInCta, uint32_t taddr,
                            const WarpRegisters& regs, const InstrSource& src);
    /// tcgen05.ld: returns the warp's registers (pack::16b joins the low halves of two cells).
    [[nodiscard]] Result<WarpRegisters> ld(const LdStForm& f, uint32_t cta, uint32_t warpIdInCta,
                                           uint32_t taddr, const InstrSource& src);
    /// ld() into `out`, whose vectors keep their capacity (a caller issuing many loads reuses one buffer
    /// instead of 32 allocations per load). On error `out` is unspecified.
    [[nodiscard]] Status ldInto(const LdStForm& f, uint32_t cta, uint32_t warpIdInCta, uint32_t taddr,
                                const InstrSource& src, WarpRegisters& out);
    /// tcgen05.cp from shared memory through descriptor `desc`: one step per source row.
    /// .cta_group::2 also copies in the peer CTA from the peer's own shared memory (open question 21).
    [[nodiscard]] Status cp(const CpForm& f, uint32_t cta, uint32_t taddr, uint64_t desc,
                            const InstrSource& src);
    /// tcgen05.mma (umma.hpp) issued by CTA `cta`: reads A (shared memory through op.descA, or TMEM) and B,
    /// computes D = A x B (+ D) and writes D into Tensor Memory at the data path layout (umma_layout.hpp),
    /// one step per accumulator row. .cta_group::2 reads each CTA's half of A and B from its own shared
    /// memory and writes each CTA's half of D into its own TMEM. Checks every address before writing.
    [[nodiscard]] Status mma(const UmmaOp& op, uint32_t cta, const InstrSource& src);
    /// tcgen05.shift.cta_group::N.down [taddr]: taddr lane must be a multiple of 32 (open question 2).
    [[nodiscard]] Status shiftDown(uint32_t ctaGroup, uint32_t cta, uint32_t taddr, const InstrSource& src);
    /// Warning diagnostics of the last successful alloc (RuleId::TmemAllocMonotonic, "CTA n: ..."), else
    /// empty.
    [[nodiscard]] const std::vector<Diagnostic>& warnings() const { return m_warnings; }
    /// Columns [lo, hi) of CTA `cta`'s Tensor Memory used by `what` (e.g. "tcgen05.st"): an error when no
    /// live tcgen05.alloc covers them all: never allocated, freed by tcgen05.dealloc, or partly outside
    /// the allocation (PTX ISA 9.2 §9.7.16.7.1: Tensor Memory is allocated before use). nullopt: covered.
    [[nodiscard]] std::optional<Diagnostic> checkAllocated(uint32_t cta, int64_t lo, int64_t hi,
                                                           std::string_view what) const;
    /// Register numbers the trace names for vector positions 0, 1, ... of st/ld (`{%r4, %r7}` -> {4, 7});
    /// empty: the position itself.
    void setRegisterNames(std::vector<uint32_t> names) { m_regNames = std::move(names); }

  private:
    [[nodiscard]] MemRef regRef(uint32_t cta, uint32_t threadInCta, uint32_t pos, uint32_t byte) const;
    void record(TraceBuilder& tb, ByteMove m, std::span<const uint8_t> bytes, bool newStep);
    /// record() of each move in one step (a new one when `newStep`), appended as one batch.
    void recordBatch(TraceBuilder& tb, std::span<ByteMove> ms, std::span<const uint8_t> bytes, bool newStep);
    /// Bulk paths that record exactly what the per-move paths record, as one grid of moves (up to six
    /// nested counts) with the cells copied in bulk; false: not a form they take. ld/st of every shape and
    /// .pack/.unpack (exec_ldst_bulk.cpp; `in`: the registers stored, else `out`: those loaded, each
    /// already `n` long); false for register names past 1 << 14.
    [[nodiscard]] bool ldStBulk(TraceBuilder& tb, const LdStForm& f, uint32_t cta, uint32_t warp, TmemAddr a,
                                const WarpRegisters* in, WarpRegisters* out);
    /// cp of every shape into one CTA (exec_bulk.cpp; .cta_group::2: false); saddr[r * chunks + q] is the
    /// source of chunk q of row r, or null when `walk` is affine (its terms give them); false, recording
    /// nothing, also when it would need saddr and has none.
    [[nodiscard]] bool cpBulk(TraceBuilder& tb, const CpForm& f, uint32_t cta, TmemAddr a,
                              const uint32_t* saddr, const detail::CpWalk& walk, Transform tr, RuleId rule);
    /// Block-scaled tcgen05.mma (umma_scale_exec.cpp): multiplies a[m*K + k] by SFA[m][k / VS] and b by SFB,
    /// the bytes read from Tensor Memory at ummaScaleCell; `reads` / `bytes`: one move per row and operand
    /// (src: the SF cell, dst None) for the caller to record. Errors: an SF cell outside Tensor Memory.
    [[nodiscard]] Status applyScaleFactors(const UmmaOp& op, const std::array<uint32_t, 2>& ctas,
                                           std::vector<double>& a, std::vector<double>& b,
                                           std::vector<ByteMove>& reads, std::vector<uint8_t>& bytes) const;
    /// tcgen05.mma.sp (umma_ws_sp_exec.cpp): `a` (M x K/2 stored values) becomes the dense M x K A through
    /// the metadata at op.spMetaTaddr (ummaExpandSparseA); `reads` / `bytes`: one move per metadata lane read
    /// (src: the cells, dst None, rule Tcgen05MmaSparse) for the caller to record.
    [[nodiscard]] Status expandSparseA(const UmmaOp& op, const std::array<uint32_t, 2>& ctas,
                                       std::vector<double>& a, std::vector<ByteMove>& reads,
                                       std::vector<uint8_t>& bytes) const;
    /// tcgen05.mma.ws `.collector::bN::use|lastuse` of CTA `cta`: the buffer's B (N x K values), checked
    /// to be valid and of the op's shape and type; nullptr for fill / discard (B is read from memory).
    [[nodiscard]] Result<const UmmaCollectorBuffer*> collectedB(const UmmaOp& op, uint32_t cta) const;
    /// After a successful .ws MMA: fill keeps `b` (as read, before the zero-column mask) in buffer N;
    /// lastuse and discard drop it.
    void updateCollector(const UmmaOp& op, uint32_t cta, const std::vector<double>& b);
    /// endInstr, then TraceInstr::alsoRules = the rules of `uses` that no move of the instruction names.
    void endInstr(TraceBuilder& tb, std::string summary, std::span<const RuleId> uses);
    Trace& m_trace;
    MachineState& m_state;
    TmemState& m_tmem;
    std::vector<Diagnostic> m_warnings;
    std::vector<uint32_t> m_regNames;
    std::vector<std::pair<uint32_t, TmemAllocation>> m_freed; ///< (CTA, columns) freed by dealloc, in order
    std::map<std::pair<uint32_t, uint32_t>, UmmaCollectorBuffer> m_collectors; ///< (CTA, bN) -> B of .ws
};

/// Replays the TensorMemory-destination moves of a trace on a TmemState (the counterpart of Replay).
class TmemReplay {
  public:
    TmemReplay(const Trace& t, const TmemState& initial) : m_t(t), m_state(initial) {}
    /// State after all moves of steps < `step`.
    void seek(uint32_t step);
    [[nodiscard]] uint32_t step() const { return m_step; }
    [[nodiscard]] const TmemState& state() const { return m_state; }

  private:
    const Trace& m_t;
    TmemState m_state;
    uint32_t m_step = 0;
};

/// Writes `bytes` into TMEM at a MemRef of space TensorMemory (byte 0 of its cell onwards along the lane).
void writeTmemBytes(TmemState& s, const MemRef& r, std::span<const uint8_t> bytes);
/// Reads `n` bytes of TMEM at a MemRef of space TensorMemory.
[[nodiscard]] std::vector<uint8_t> readTmemBytes(const TmemState& s, const MemRef& r, size_t n);

} // namespace layoutscope
