#pragma once
/// Internal to the executor: the decoded program (every function's statements decoded once into Op),
/// the machine state, and the per-group execution entry points (alu.cpp, fp.cpp, memory.cpp, run.cpp).
#include "exec/mma_form.hpp"
#include "layoutscope/exec/exec.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace layoutscope::exec {

constexpr const char* kExecRef = "PTX ISA 9.2 §9.7 (instructions)";

enum class Opc : uint8_t {
    Mov,
    Add,
    Sub,
    Mul,
    Mad,
    Mul24,
    Mad24,
    Div,
    Rem,
    Abs,
    Neg,
    Min,
    Max,
    And,
    Or,
    Xor,
    Not,
    Cnot,
    Shl,
    Shr,
    Bfe,
    Bfi,
    Prmt,
    Popc,
    Clz,
    Brev,
    Bfind,
    Setp,
    Selp,
    Slct,
    Cvt,
    Cvta,
    Fma,
    Sqrt,
    Rsqrt,
    Rcp,
    Ex2,
    Lg2,
    Sin,
    Cos,
    Copysign,
    Testp,
    Ld,
    St,
    Atom,
    Red,
    Shfl,
    Vote,
    Activemask,
    Bra,
    Call,
    Ret,
    Exit,
    Bar,
    BarArrive,
    BarWarp,
    Nop,
    AddCC,
    AddC,
    SubCC,
    SubC,
    Trap,
    // --- h/xasync (decode_async.cpp, mbarrier.cpp, cluster.cpp): Op::async holds the form
    Mbarrier,   ///< mbarrier.* (PTX ISA 9.2 §9.7.13.15); Op::mode: MbarOp
    Elect,      ///< elect.sync (§9.7.13.11)
    Mapa,       ///< mapa (§9.7.9.16)
    ClusterBar, ///< barrier.cluster.arrive / wait (§9.7.13.3); Op::mode: 0 arrive, 1 wait
    Fence,      ///< fence.* / membar (§9.7.13.4): no data effect; Op::mode: FenceForm
    AsyncCopy,  ///< cp.async.bulk*, cp.reduce.async.bulk* (tma.cpp); Op::mode: CopyForm
    Tcgen05,    ///< every tcgen05.* form; Op::mode says which (exec/tcgen05_state.hpp)
    // --- h/xmma: matrix and cp.async instructions (decode_mma.cpp; Op::form names their MmaForm)
    CpAsync,      ///< cp.async.ca/.cg.shared.global (cp_async.cpp)
    CpAsyncGroup, ///< cp.async.commit_group / wait_group / wait_all / mbarrier.arrive (cp_async.cpp)
    WgmmaOrder,   ///< wgmma.fence / commit_group / wait_group (wgmma.cpp: ordering only)
    Wgmma,        ///< wgmma.mma_async (wgmma.cpp)
    Ldmatrix,     ///< ldmatrix (ldmatrix.cpp)
    Stmatrix,     ///< stmatrix (ldmatrix.cpp)
    Movmatrix,    ///< movmatrix (ldmatrix.cpp)
    MmaSync,      ///< mma.sync (mma_sync.cpp)
    Match,        ///< match.any / match.all.sync (warp_ops.cpp); Op::mode 0 any, 1 all
    Redux,        ///< redux.sync (warp_ops.cpp); Op::atom the operation, Op::mode bit 0 .abs, bit 1 .NaN
};

/// Operand types: U/S/B integer, F float (f32/f64), Pred, and the 16-bit float kinds.
enum class TK : uint8_t { None, U, S, B, F, Pred, F16, BF16, F16x2, BF16x2 };
struct Ty {
    TK k = TK::None;
    uint8_t bits = 0;
    [[nodiscard]] bool isFloat() const { return k == TK::F || k == TK::F16 || k == TK::BF16; }
};

enum class Rnd : uint8_t { None, Rn, Rz, Rm, Rp, Rna, Rni, Rzi, Rmi, Rpi, Rs }; ///< Rs: cvt.rs (stochastic)
enum class Cmp : uint8_t {
    None,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Lo,
    Ls,
    Hi,
    Hs,
    Equ,
    Neu,
    Ltu,
    Leu,
    Gtu,
    Geu,
    Num,
    Nan
};
enum class Space : uint8_t { Generic, Global, Shared, SharedCluster, Local, Const, Param };
enum class AtomOp : uint8_t { None, Add, Min, Max, Exch, Cas, And, Or, Xor, Inc, Dec };

enum class OK : uint8_t { None, Reg, Imm, Sym, Mem, Vec, Special, Label, Sink };
enum class SReg : uint8_t {
    Tid,
    Ntid,
    Ctaid,
    Nctaid,
    Laneid,
    Warpid,
    Nwarpid,
    Clusterid,
    Nclusterid,
    ClusterCtaid,
    ClusterNctaid,
    ClusterCtarank,
    ClusterNctarank,
    IsExplicitCluster,
    LanemaskEq,
    LanemaskLt,
    LanemaskLe,
    LanemaskGt,
    LanemaskGe,
    Clock,
    Clock64,
    Globaltimer,
    DynSmem,
    TotalSmem,
    Smid,
    Nsmid,
    Gridid
};

struct Opnd {
    OK kind = OK::None;
    bool neg = false; ///< `!%p` (a predicate source) or a negative immediate written with '-'
    uint32_t reg = 0; ///< Reg; Mem: base register (when hasBase)
    bool hasBase = false;
    int64_t imm = 0; ///< Imm value / bit pattern; Mem and Sym: the byte offset
    int sym = -1;    ///< Sym / Mem: index into Program::symbols (-1: none)
    SReg sreg = SReg::Tid;
    uint8_t comp = 0;        ///< Special: 0 = .x, 1 = .y, 2 = .z
    std::vector<Opnd> elems; ///< Vec elements
};

struct Op {
    Opc opc = Opc::Nop;
    Ty t, t2; ///< t: the instruction type (cvt: destination); t2: cvt source, setp/slct compare type
    Rnd rnd = Rnd::None;
    Cmp cmp = Cmp::None;
    uint8_t boolOp = 0; ///< setp/.and/.or/.xor: 1/2/3
    uint8_t mode = 0;   ///< mul/mad: 0 lo, 1 hi, 2 wide; shfl: 0 up, 1 down, 2 bfly, 3 idx; vote: 0 all,
                        ///< 1 any, 2 uni, 3 ballot; bfe/shr signedness from t; prmt: 0 default, 1..6;
                        ///< cvt: the packed narrow formats, dst | src << 4 (cvt_packed.hpp PackFmt)
    Space space = Space::Generic;
    Space space2 = Space::Generic; ///< cvta: the other space
    bool toGeneric = true;         ///< cvta (false: cvta.to)
    uint8_t vec = 1;
    AtomOp atom = AtomOp::None;
    bool sat = false, ftz = false, approx = false, cc = false;
    bool relu = false, satfinite = false; ///< cvt .relu / .satfinite (cvt_packed.cpp)
    bool pairDest = false; ///< `setp p|q, ...` / `shfl d|p, ...`: o[1] is the second destination
    int guard = -1;        ///< predicate register slot, -1 = none
    bool guardNeg = false;
    std::vector<Opnd> o;
    int target = -1; ///< bra: the target pc; call: the callee's function index
    int form = -1;   ///< matrix / cp.async instructions: index into Program::mmaForms
    int line = 0, column = 0, locFile = 0, locLine = 0;
    std::string text;                    ///< the instruction as written (for diagnostics)
    std::vector<int> callArgs, callRets; ///< call: caller symbols (Program::symbols) of the args / returns
    uint32_t async = 0; ///< h/xasync: qualifier flags of the async forms (decode_async.hpp AsyncFlag)
};

struct Symbol {
    std::string name;
    Space space = Space::Global;
    uint64_t offset = 0; ///< address in its space (Param: offset in the kernel or per-thread param area)
    uint64_t bytes = 0;
    bool perThreadParam = false; ///< a .func parameter or a call-site .param (per-thread storage)
    bool frame = false; ///< a .local of a recursive function: `offset` is within each activation's frame
};

struct Function {
    std::string name;
    bool isEntry = false;
    int firstPc = 0, endPc = 0;
    std::vector<int> params, returns; ///< Program::symbols of its parameters / return parameters
    // Recursion (call.cpp): a function on a cycle of the call graph gets one activation per call:
    // its `.local` variables live in a frame per call (Symbol::frame), its registers and per-thread
    // `.param` bytes are saved at the call and restored at the return.
    bool recursive = false;
    uint32_t regBegin = 0, regEnd = 0;                      ///< its register slots [regBegin, regEnd)
    std::vector<std::pair<uint64_t, uint64_t>> paramRanges; ///< its per-thread .param bytes [from, to)
    uint64_t frameBytes = 0, frameAlign = 16;               ///< its .local frame (recursive functions)
};

struct Program {
    std::vector<Op> ops; ///< every function's instructions, concatenated
    std::vector<Function> functions;
    std::vector<Symbol> symbols;
    std::vector<MmaForm> mmaForms; ///< Op::form of the matrix and cp.async instructions
    uint32_t regSlots = 0;         ///< register slots (all functions; a function's names are its own)
    uint64_t staticSmem = 0;       ///< static .shared bytes
    uint64_t dynSmemOffset = 0;    ///< where `extern .shared` arrays start
    uint64_t localBytes = 0;       ///< .local bytes per thread (static; frames of recursive calls follow)
    uint64_t threadParamBytes = 0; ///< per-thread .param bytes (.func parameters, call sites)
    uint64_t kernelParamBytes = 0;
    std::vector<uint8_t> constMem;
    uint64_t moduleGlobalBytes = 0; ///< module-scope .global variables, at kModuleGlobalBase
    std::vector<std::string> regNames;
    std::vector<uint8_t> regBits; ///< per slot: its declared type's bits (1: .pred; 0: not known)
    std::vector<std::pair<int, std::string>> files; ///< `.file` directives (line info of Op::locFile)
};

/// Decode every function of the module (errors: an unknown opcode form, a bad operand, an unknown symbol
/// or label, each naming its line).
[[nodiscard]] Result<Program> decodeModule(const PtxModule& m);

// Address map (generic addresses): windows for shared and local, the rest is global.
constexpr uint64_t kSharedWindow = 0x0000500000000000ull; ///< generic address of shared::cta offset 0
constexpr uint64_t kLocalWindow = 0x0000400000000000ull;  ///< generic address of local offset 0
/// .local offset of a thread's first recursive-call frame (its static .local bytes lie below, at most 1 GiB;
/// the frames of the live activations follow one another upwards, call.cpp).
constexpr uint64_t kLocalFrames = uint64_t(1) << 31;
constexpr uint64_t kWindowBytes = uint64_t(1) << 32;
constexpr uint64_t kGlobalBase = 0x0000700000000000ull;       ///< the first tensor's address
constexpr uint64_t kThreadParamBase = uint64_t(1) << 40;      ///< .param address of per-thread params
constexpr uint64_t kModuleGlobalBase = 0x00006f0000000000ull; ///< module .global variables
constexpr uint64_t kConstBase = 0x0000300000000000ull;        ///< generic address of .const offset 0
/// The shared-memory address map (PTX ISA 9.2 §5.1.5 shared state space, §9.7.9.21 mapa): the CTA of
/// %cluster_ctarank r has its shared memory at r << 24 | offset, in .shared::cluster and in .shared::cta
/// alike (a CTA's shared::cta window lies inside the cluster's shared::cluster window, so its own
/// addresses carry its rank bits). CUTLASS relies on this: Sm100MmaPeerBitMask (0xFEFFFFFF) clears bit 24
/// of a shared::cta address to name the even (leader) CTA of a .cta_group::2 pair. Measured on Hopper (an
/// H200, tests/data/exec/h200/smem_rank.txt: rank r's own addresses are r << 24 | offset, mapa q gives
/// q << 24 | offset); unverified on Blackwell (assumed the same). A cluster of 1 is unaffected.
constexpr uint32_t kClusterRankShift = 24;
constexpr uint64_t kParamWindow =
    0x0000200000000000ull; ///< generic address of kernel .param offset 0 (cvta.param)

} // namespace layoutscope::exec
