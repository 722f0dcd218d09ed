#pragma once
/// Internal to the executor: the machine state of one run (CTAs, warps, memory) and the per-group
/// instruction semantics split over alu.cpp (integer, bit, compare, select), fp.cpp (floating point,
/// conversions), memory.cpp (addresses, ld/st/atom) and run.cpp (control flow, warps, barriers).
#include "exec/program.hpp"
#include "layoutscope/async/async.hpp"
#include "layoutscope/tma/tensor_map.hpp"

#include <array>
#include <map>
#include <memory>
#include <optional>

namespace layoutscope::exec {

struct Frame {
    int retPc = 0;
    int callOp = 0; ///< the call instruction (its return symbols)
    // A call of a recursive function (Function::recursive): the caller's state the activation replaces.
    uint64_t callerFrame = 0;    ///< the caller's Warp::frameBase, restored at the return
    uint64_t stackTop = 0;       ///< the lane's frame stack size before this activation's frame
    std::vector<uint64_t> regs;  ///< the callee's register slots as they were at the call
    std::vector<uint8_t> params; ///< the callee's per-thread .param bytes as they were at the call
};

struct Warp {
    uint32_t cta = 0;
    uint32_t firstThread = 0; ///< linear thread index within the CTA of lane 0
    uint32_t valid = 0;       ///< lanes that exist (a partial last warp has fewer)
    uint32_t exited = 0;
    uint32_t blocked = 0; ///< lanes waiting at a barrier
    uint32_t carry = 0;   ///< CC.CF per lane (add.cc / addc)
    std::array<int, 32> pc{};
    std::array<std::vector<Frame>, 32> stack;
    std::array<uint64_t, 32> frameBase{}; ///< .local offset of the running activation's frame (recursion)
    std::vector<uint64_t> regs;           ///< slot * 32 + lane
    int blockedBarrier = -1; ///< 0..15 a bar.sync; kWarpgroupWait: at a wgmma.mma_async (wgmma.cpp)
    int wgmmaPc = -1;        ///< the wgmma.mma_async this warp waits at for its warpgroup (-1: none)
    // --- h/xasync: an mbarrier wait that failed (the warp spins on it; mbarrier.cpp), cluster barrier
    struct Spin {
        bool on = false;
        uint32_t cta = 0, addr = 0; ///< the barrier (CTA index, shared::cta offset)
        uint64_t waitFor = 0;       ///< the parity, or the phase of the state token
        bool parity = false;
        int pc = 0; ///< the wait instruction
    } spin{};
    bool yield = false;          ///< end this warp's quantum after the step (a failed wait)
    uint32_t clusterArrived = 0; ///< lanes arrived at the cluster barrier's current phase
    const Op* barRed = nullptr;  ///< a bar.red this warp waits at: its d is written at the release
    uint32_t barRedLanes = 0;
};

constexpr int kClusterBarrierId = 16; ///< Warp::blockedBarrier of a barrier.cluster.wait
constexpr int kWarpgroupWait = 17;    ///< Warp::blockedBarrier at a wgmma.mma_async (wgmma.cpp)

/// An mbarrier object (PTX ISA 9.2 §9.7.13.15.1): the 8 bytes in shared memory are kept here.
struct MbarState {
    uint32_t phase = 0;   ///< completed phases (the current phase's parity is phase & 1)
    int64_t pending = 0;  ///< arrivals still expected in the current phase
    int64_t expected = 0; ///< arrivals per phase (init count, less arrive_drop)
    int64_t tx = 0;       ///< tx-count of the current phase
    int initLine = 0;     ///< the PTX line of mbarrier.init
    int lastArriveLine = 0;
};

struct Cta {
    Dim3 id;        ///< %ctaid
    Dim3 inCluster; ///< %cluster_ctaid
    uint32_t rank = 0;
    std::vector<uint8_t> smem;
    std::array<uint32_t, 16> arrived{};             ///< threads arrived at each named barrier
    std::array<uint32_t, 16> redTrue{}, redFalse{}; ///< bar.red: arrivals whose predicate was true / false
    uint32_t liveThreads = 0;
};

struct TcgenState;      // exec/tcgen05_state.hpp
struct Recorder;        // exec/record.hpp
struct OrderMmaState;   // exec/order_mma.cpp
struct OrderWgmmaState; // exec/order_wgmma.cpp

struct Machine {
    const Program& p;
    const Launch& launch;
    std::vector<Cta> ctas;
    std::vector<Warp> warps;
    std::vector<ExecTensor> tensors;
    std::vector<uint8_t> kernelParams, local, threadParams, constMem, moduleGlobals;
    uint32_t threadsPerCta = 0;
    std::optional<Diagnostic> error;
    uint64_t threadInstructions = 0;
    std::vector<Diagnostic> notes;
    std::shared_ptr<TcgenState> tcgen;            ///< Tensor Memory, created at the first tcgen05 instruction
    std::vector<std::array<uint32_t, 2>> cpAsync; ///< per thread: cp.async {not committed, committed groups}
    // --- h/xasync: tensor maps read back from the bytes a TMA operand points at (args_struct.cpp)
    std::map<std::array<uint8_t, 128>, TensorMap> tensorMapCache{};
    std::map<uint64_t, MbarState> mbars{}; ///< key: CTA index << 32 | shared::cta address
    uint64_t clusterPhase = 0;             ///< barrier.cluster phases completed
    bool clusterArriveRelaxed = false;     ///< an arrive of the current cluster-barrier phase was .relaxed
    std::string sm{};                      ///< the module's .target (TMA restrictions per arch)
    int ptxVersion = 0;                    ///< the module's .version, major * 10 + minor (8.7: 87)
    std::unique_ptr<async::Model> order{}; ///< the time-and-order model (order.hpp); null when off
    Recorder* rec = nullptr;               ///< ExecOptions::record: the recorder (record.hpp); null when off
    std::shared_ptr<OrderMmaState>
        orderMma{}; ///< h/order2: tcgen05.ld not yet complete, per warp (order_mma.cpp)
    std::shared_ptr<OrderWgmmaState> orderWgmma{}; ///< wgmma registers not yet waited for (order_wgmma.cpp)
    /// Per thread: the .local frames of its live recursive activations, from kLocalFrames up (call.cpp).
    std::vector<std::vector<uint8_t>> localFrames;
    uint64_t recursionBytes = 0; ///< bytes held by all threads' recursive activations (frames, saved state)
    uint32_t maxCallDepth = 0;   ///< ExecOptions::maxCallDepth
    uint64_t maxRecursionBytes = 0; ///< ExecOptions::maxRecursionBytes

    uint64_t& reg(Warp& w, uint32_t slot, int lane) { return w.regs[size_t(slot) * 32 + lane]; }
    /// Stop the run with a diagnostic at `op` (first error wins).
    bool fail(const Op& op, DiagCode code, const std::string& msg);
    [[nodiscard]] std::string who(const Warp& w, int lane) const; ///< "thread (x,y,z) of CTA (x,y,z)"
};

__extension__ typedef __int128 Int128; // GCC/Clang: 64x64 -> 128-bit products
__extension__ typedef unsigned __int128 UInt128;

[[nodiscard]] inline uint64_t maskBits(uint64_t v, int bits) {
    return bits >= 64 ? v : v & ((uint64_t(1) << bits) - 1);
}
[[nodiscard]] inline int64_t signExtend(uint64_t v, int bits) {
    if (bits >= 64) return static_cast<int64_t>(v);
    if (bits <= 0) return 0;
    const uint64_t m = uint64_t(1) << (bits - 1);
    v = maskBits(v, bits);
    return static_cast<int64_t>((v ^ m) - m);
}

/// An operand's value for `lane` as `t` (registers are read as stored; immediates converted to a float
/// type when written as another float width or as a decimal). readOperand inlines the register case.
uint64_t readOperandSlow(Machine& m, Warp& w, const Opnd& o, int lane, Ty t);
inline uint64_t readOperand(Machine& m, Warp& w, const Opnd& o, int lane, Ty t) {
    if (o.kind == OK::Reg && !o.neg) return m.reg(w, o.reg, lane);
    return readOperandSlow(m, w, o, lane, t);
}
/// Write `v` to a register operand (or nothing for the sink `_`).
inline void writeOperand(Machine& m, Warp& w, const Opnd& o, int lane, uint64_t v) {
    if (o.kind == OK::Reg) m.reg(w, o.reg, lane) = v;
}

// Each returns false when the run must stop (m.error set).
bool execInteger(Machine& m, Warp& w, const Op& op, uint32_t mask); // alu.cpp
bool execFloat(Machine& m, Warp& w, const Op& op, uint32_t mask);   // fp.cpp
bool execConvert(Machine& m, Warp& w, const Op& op, uint32_t mask); // fp.cpp (cvt)
bool execMemory(Machine& m, Warp& w, const Op& op, uint32_t mask);  // memory.cpp (ld, st, atom, red, cvta)
/// call.cpp: `call` for the lanes in `exec` (at `pc`); the `ret` of `lane` from its innermost call.
bool execCall(Machine& m, Warp& w, const Op& op, int pc, uint32_t exec);
bool execReturn(Machine& m, Warp& w, const Op& op, int lane);
[[nodiscard]] bool isFloatOp(const Op& op); // fp.cpp: handled by execFloat
/// tcgen05.* (tcgen05_exec.cpp): `g` the lanes at the instruction, `exec` those whose guard holds.
bool execTcgen05(Machine& m, Warp& w, const Op& op, uint32_t g, uint32_t exec);
/// Kernel end: Tensor Memory still allocated stops the run (tcgen05_exec.cpp).
bool finishTcgen05(Machine& m);
// Matrix and async-copy instructions (cp_async.cpp, ldmatrix.cpp, mma_sync.cpp, wgmma.cpp); `g` the
// lanes at the instruction, `exec` those whose guard holds. execWgmma blocks the warp until its
// warpgroup's 4 warps arrive, then runs the instruction for all 128 threads.
bool execCpAsync(Machine& m, Warp& w, const Op& op, uint32_t exec);
bool execLdStMatrix(Machine& m, Warp& w, const Op& op, uint32_t g, uint32_t exec);
bool execMmaSync(Machine& m, Warp& w, const Op& op, uint32_t g, uint32_t exec);
bool execWgmma(Machine& m, size_t wi, const Op& op, int pc, uint32_t g, uint32_t exec);
void orderWgmmaGroup(Machine& m, Warp& w, const Op& op,
                     uint32_t exec); ///< wgmma.commit/wait_group -> order model
/// h/xasync (cluster.cpp): mbarrier, elect, mapa, barrier.cluster, fence, bulk copies; `g` the lanes at
/// the instruction, `exec` those whose guard holds. clusterBarrierCheck: release barrier.cluster waiters
/// once every live thread of the cluster arrived (after an arrive or an exit).
bool execAsync(Machine& m, Warp& w, const Op& op, uint32_t g, uint32_t exec);
void clusterBarrierCheck(Machine& m);
/// Bytes at `addr` of `space` for `lane` (nullptr + m.error when out of range).
uint8_t* resolve(Machine& m, Warp& w, const Op& op, Space space, uint64_t addr, uint64_t bytes, int lane,
                 bool write);
/// The symbol's address in its own space for CTA index `cta` (a .shared symbol: the CTA's rank bits above
/// its offset, program.hpp kClusterRankShift; param offset, global address, ...).
uint64_t symbolAddress(const Machine& m, const Symbol& s, uint32_t cta);
/// As above, for `lane` of `w`: a recursive function's .local (Symbol::frame) is in the lane's running
/// activation's frame.
inline uint64_t symbolAddress(const Machine& m, const Symbol& s, const Warp& w, int lane) {
    return s.frame ? kLocalFrames + w.frameBase[lane] + s.offset : symbolAddress(m, s, w.cta);
}
/// A .shared address (after the generic window is removed) -> (CTA index, offset in its shared memory).
/// `cluster`: a .shared::cluster address (any CTA of the cluster); otherwise .shared::cta (the executing
/// CTA `w`'s own). Returns an empty string, or why the address names no CTA it may reach.
std::string splitShared(const Machine& m, const Warp& w, bool cluster, uint64_t addr, uint32_t& cta,
                        uint64_t& offset);

// fp.cpp helpers shared with alu.cpp (setp on floats, cvt).
[[nodiscard]] double toDouble(uint64_t bits, Ty t);
[[nodiscard]] uint64_t fromLongDouble(long double v, Ty t, Rnd r, bool sat);
[[nodiscard]] bool compareFloat(Cmp c, double a, double b);

} // namespace layoutscope::exec
