// `call` of a `.func` and its `ret` (PTX ISA 9.2 §9.7.12.4 call, §9.7.12.5 ret), recursion included.
//
// Each lane keeps its own call stack (Warp::stack). The arguments are copied from the caller's call-site
// `.param` variables into the callee's parameters at the call, the return values back at the `ret`.
// A function's registers, per-thread `.param` bytes and `.local` variables have fixed places, which is all
// a function needs while it has one activation. A recursive function (on a cycle of the call graph,
// Function::recursive) has one per call in progress (PTX ISA 9.2 §5.1.5: function-scope `.local`
// variables "are allocated on the stack" under the ABI; registers and `.param` are per activation):
//   - its `.local` variables live in a frame of Function::frameBytes pushed on the lane's frame stack
//     (Machine::localFrames, addresses from kLocalFrames up) at the call and popped at the return, so a
//     pointer to a caller's local array (a `cvta.local` address passed down) keeps naming the caller's
//     frame while the callee has its own;
//   - its registers and per-thread `.param` bytes are saved in the Frame at the call and restored at the
//     return, after the return values were read out.
// A call deeper than ExecOptions::maxCallDepth, or recursion holding more than ExecOptions::maxRecursionBytes
// over all threads, stops the run naming the call's line and the depth: a runaway recursion never hangs.
#include "exec/machine.hpp"

#include <algorithm>
#include <bit>

namespace layoutscope::exec {

namespace {

constexpr uint64_t kAllocationBytes = 16; ///< what the heap adds to each of a Frame's two vectors (about)

uint64_t threadIndex(const Machine& m, const Warp& w, int lane) {
    return uint64_t(w.cta) * m.threadsPerCta + w.firstThread + uint64_t(lane);
}

uint8_t* threadParam(Machine& m, const Warp& w, int lane, uint64_t offset) {
    return m.threadParams.data() + threadIndex(m, w, lane) * m.p.threadParamBytes + offset;
}

// The memory one recursive activation holds: its frame, the state saved for its caller, its Frame.
uint64_t savedBytes(const Frame& fr, const Function& f) {
    return fr.regs.size() * 8 + fr.params.size() + f.frameBytes + sizeof(Frame) + 2 * kAllocationBytes;
}

// A new activation of recursive `f` for `lane`: its frame, the registers and .param bytes it replaces.
bool pushActivation(Machine& m, Warp& w, const Op& op, const Function& f, int lane, Frame& fr) {
    std::vector<uint8_t>& frames = m.localFrames[threadIndex(m, w, lane)];
    fr.callerFrame = w.frameBase[lane];
    fr.stackTop = frames.size();
    fr.regs.reserve(f.regEnd - f.regBegin);
    for (uint32_t s = f.regBegin; s < f.regEnd; ++s) fr.regs.push_back(m.reg(w, s, lane));
    for (const auto& [from, to] : f.paramRanges)
        fr.params.insert(fr.params.end(), threadParam(m, w, lane, from), threadParam(m, w, lane, to));
    const uint64_t base = (frames.size() + f.frameAlign - 1) / f.frameAlign * f.frameAlign;
    const uint64_t need = savedBytes(fr, f) + (base - frames.size());
    if (m.recursionBytes + need > m.maxRecursionBytes)
        return m.fail(op, DiagCode::InvalidValue,
                      "call of `" + f.name + "` by " + m.who(w, lane) + " at call depth " +
                          std::to_string(w.stack[lane].size() + 1) +
                          ": the recursive calls in progress would hold more than " +
                          std::to_string(m.maxRecursionBytes) +
                          " bytes of frames and saved registers, the limit ExecOptions::maxRecursionBytes (a "
                          "runaway recursion?)");
    m.recursionBytes += need;
    frames.resize(base + f.frameBytes, 0); // unverified: a new frame's bytes start as zeros
    w.frameBase[lane] = base;
    return true;
}

} // namespace

bool execCall(Machine& m, Warp& w, const Op& op, int pc, uint32_t exec) {
    const Function& f = m.p.functions[size_t(op.target)];
    if (f.params.size() != op.callArgs.size() || f.returns.size() != op.callRets.size())
        return m.fail(op, DiagCode::InvalidValue,
                      "call of `" + f.name + "` with " + std::to_string(op.callArgs.size()) +
                          " arguments; it takes " + std::to_string(f.params.size()));
    for (uint32_t x = exec; x; x &= x - 1) {
        const int l = std::countr_zero(x);
        if (w.stack[l].size() >= m.maxCallDepth) {
            std::string chain; // the innermost calls in progress, callers first
            for (size_t i = w.stack[l].size() - std::min<size_t>(w.stack[l].size(), 3); i < w.stack[l].size();
                 ++i)
                chain +=
                    "`" + m.p.functions[size_t(m.p.ops[size_t(w.stack[l][i].callOp)].target)].name + "` -> ";
            return m.fail(op, DiagCode::InvalidValue,
                          "call of `" + f.name + "` by " + m.who(w, l) + " would be call depth " +
                              std::to_string(w.stack[l].size() + 1) + " (... " + chain + "`" + f.name +
                              "`); the limit is ExecOptions::maxCallDepth = " +
                              std::to_string(m.maxCallDepth) + " (a runaway recursion?)");
        }
        Frame fr{pc + 1, pc};
        if (f.recursive && !pushActivation(m, w, op, f, l, fr)) return false;
        for (size_t i = 0; i < f.params.size(); ++i) {
            const Symbol& from = m.p.symbols[size_t(op.callArgs[i])];
            const Symbol& to = m.p.symbols[size_t(f.params[i])];
            uint8_t* src = resolve(m, w, op, Space::Param, symbolAddress(m, from, w.cta), 0, l, false);
            uint8_t* dst = resolve(m, w, op, Space::Param, symbolAddress(m, to, w.cta), 0, l, true);
            if (!src || !dst) return false;
            std::copy_n(src, std::min(from.bytes, to.bytes), dst);
        }
        w.stack[l].push_back(std::move(fr));
        w.pc[l] = f.firstPc;
    }
    return true;
}

bool execReturn(Machine& m, Warp& w, const Op& op, int lane) {
    Frame fr = std::move(w.stack[lane].back());
    w.stack[lane].pop_back();
    const Op& call = m.p.ops[size_t(fr.callOp)];
    const Function& f = m.p.functions[size_t(call.target)];
    std::vector<uint8_t> values; // the return values, read before a recursive callee's state is restored
    for (const int r : f.returns) {
        const Symbol& from = m.p.symbols[size_t(r)];
        const uint8_t* src = resolve(m, w, op, Space::Param, symbolAddress(m, from, w.cta), 0, lane, false);
        if (!src) return false;
        values.insert(values.end(), src, src + from.bytes);
    }
    if (f.recursive) {
        std::vector<uint8_t>& frames = m.localFrames[threadIndex(m, w, lane)];
        m.recursionBytes -= savedBytes(fr, f) + (frames.size() - f.frameBytes - fr.stackTop);
        frames.resize(fr.stackTop);
        w.frameBase[lane] = fr.callerFrame;
        for (uint32_t s = f.regBegin; s < f.regEnd; ++s) m.reg(w, s, lane) = fr.regs[s - f.regBegin];
        size_t at = 0;
        for (const auto& [from, to] : f.paramRanges) {
            std::copy_n(fr.params.data() + at, to - from, threadParam(m, w, lane, from));
            at += to - from;
        }
    }
    size_t at = 0;
    for (size_t i = 0; i < f.returns.size(); ++i) {
        const uint64_t bytes = m.p.symbols[size_t(f.returns[i])].bytes;
        const Symbol& to = m.p.symbols[size_t(call.callRets[i])];
        uint8_t* dst = resolve(m, w, op, Space::Param, symbolAddress(m, to, w.cta), 0, lane, true);
        if (!dst) return false;
        std::copy_n(values.data() + at, std::min(bytes, to.bytes), dst);
        at += bytes;
    }
    w.pc[lane] = fr.retPc;
    return true;
}

} // namespace layoutscope::exec
