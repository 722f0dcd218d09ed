#pragma once
/// Internal to the executor: the recorder (issue 22 item 3; docs/exec.md "Kernel scenarios"). While a kernel
/// runs with ExecOptions::record, every operation that moves data the engine's trace can show is written as
/// a scenario statement with its concrete operands, each preceded by an `origin` naming its PTX line, CUDA
/// line and issuing thread:
///   TMA tile loads and stores          -> the same cp.async.bulk.tensor instruction on named maps and
///   buffers mbarrier.init / expect_tx          -> the same instruction on a named barrier
///   a warp's mbarrier wait that saw its phase  -> mbarrier.try_wait.parity on that barrier, once; tcgen05
///   alloc/dealloc/ld/cp/shift/mma, wgmma.mma_async -> the same instruction, descriptors as `let`s every
///   other byte the threads store into shared or global memory (st, atom, red, cp.async, stmatrix, bulk
///   copies, TMA reduces) -> `poke` with the bytes as stored
/// The text is a scenario (parseScenario reads it back; loadScenario gives its tensors the kernel's bytes).
#include "exec/machine.hpp"
#include "layoutscope/tma/tma.hpp"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace layoutscope::exec {

struct Recorder {
    std::string body;                                    ///< statements in execution order
    std::set<std::pair<uint32_t, uint32_t>> barriers;    ///< (CTA, shared::cta offset)
    std::map<std::string, uint64_t> lets;                ///< name -> value, declared in the header
    std::vector<std::pair<TensorMap, std::string>> maps; ///< distinct tensor maps and their names
    std::vector<std::string> notes;                      ///< what was not recorded, once each
    std::set<std::string> noted;
    struct Write {
        bool global = false;
        uint32_t cta = 0;
        uint64_t addr = 0, len = 0;
    };
    std::vector<Write> pending; ///< thread stores of the instruction being executed
    int cta = -1, warp = -1;    ///< the `cta` / `warp` directives in force
    uint64_t pokeBytes = 0;
    static constexpr uint64_t kMaxBytes = uint64_t(15) << 20;    ///< text budget (scenarios stop at 16 MiB)
    static constexpr uint64_t kMaxPokeText = uint64_t(10) << 20; ///< thread stores stop here (ops go on)
    bool truncated = false, pokesTruncated = false;
    /// Statements recorded so far: statement k becomes the recording's instruction k (its trace step), and
    /// the count when the executing instruction began (orderSite gives the order model's events their step).
    uint32_t statements = 0, instrStart = 0;
    /// (CTA, warpgroup) -> the statement of its last recorded wgmma.mma_async: the first warp records it,
    /// the last warp to arrive executes it (orderWgmma gives the operation that step).
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> wgmmaStatement;
};

/// The origin line and the `cta`/`warp` directives for an instruction of warp `w` issued by `lane`.
void recordOrigin(Machine& m, const Warp& w, const Op& op, int lane);
/// One recorded statement (after recordOrigin); counts it (Recorder::statements).
void recordStatement(Machine& m, const std::string& text);
/// A thread store about to happen (resolve()); flushed as pokes by recordFlush after the instruction.
void recordWrite(Machine& m, bool global, uint32_t cta, uint64_t addr, uint64_t len);
void recordFlush(Machine& m, const Warp& w, const Op& op, uint32_t exec);
/// Whether `more` bytes of text still fit the recording's budget (`poke`: the thread-store budget); false
/// marks the recording truncated.
[[nodiscard]] bool recordFits(Machine& m, size_t more, bool poke);
/// Something the recording leaves out (said once, in the header and ExecResult::notes).
void recordNote(Machine& m, const std::string& what);

/// Names, declared on first use: a barrier, a tensor map (by its fields), a 64-bit `let` value.
[[nodiscard]] std::string barrierName(Machine& m, uint32_t cta, uint32_t offset);
[[nodiscard]] std::string mapName(Machine& m, const TensorMap& map);
[[nodiscard]] std::string letName(Machine& m, const char* prefix, uint64_t value);
/// `smem_cN+0xOFF`: a shared::cta address of CTA `cta` inside its recorded buffer.
[[nodiscard]] std::string smemRef(uint32_t cta, uint64_t offset);
/// The opcode as written (the instruction's text without its guard, up to its first operand).
[[nodiscard]] std::string opcodeOf(const Op& op);

// Hooks of the operations (each a no-op when m.rec is null).
void recordTmaLoad(Machine& m, const Warp& w, const Op& op, int lane, const TmaTileLoad& ld);
void recordTmaStore(Machine& m, const Warp& w, const Op& op, int lane, const TmaTileStore& st);
void recordMbarrier(Machine& m, const Warp& w, const Op& op, int lane, bool init, uint32_t cta, uint32_t off,
                    uint64_t value, bool arrive);

/// A try_wait / test_wait that observed the phase of parity `parity` of the warp's barrier at `off`: one
/// statement per warp instruction (its first lane that saw the phase), so the completion it observes has a
/// step of its own in the recording (docs/async-order.md "Kernel lanes").
void recordWait(Machine& m, const Warp& w, const Op& op, int lane, uint32_t off, uint32_t parity);
/// tcgen05.* before it executes (record_mma.cpp; `exec` the lanes whose guard holds) and wgmma.mma_async
/// (once per warpgroup, from its first warp).
void recordTcgen05(Machine& m, Warp& w, const Op& op, uint32_t exec);
void recordWgmma(Machine& m, Warp& w, const Op& op, uint32_t exec);

/// The whole scenario: header (target, cluster, tensor maps, buffers, barriers, lets) and body.
[[nodiscard]] std::string recordingText(const Machine& m, const Recorder& r, const std::string& title);

} // namespace layoutscope::exec
