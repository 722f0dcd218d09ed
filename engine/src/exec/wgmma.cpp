// wgmma.mma_async (PTX ISA 9.2 §9.7.15.5.2): D = A * B (+ D when scale-d) for one warpgroup, the 4
// consecutive warps 4i..4i+3 of the CTA. The first warps to reach the instruction wait (like a barrier)
// until all 4 are there; then it runs once for the 128 threads. Warps of one warpgroup at different
// wgmma instructions, or a partial warpgroup, stop the run.
//
// Operands from shared memory: the sm_90 matrix descriptor (§9.7.15.5.1.2: bits [0,14) start >> 4,
// [16,30) LBO >> 4, [32,46) SBO >> 4, [49,52) base offset, [62,64) swizzle 0 none / 1 128B / 2 64B /
// 3 32B) read through the engine's descriptor model (elementAddress, tcgen05/smem_descriptor.hpp; proven
// by tests/data/wgmma's H100 records, base offset included). A is K-major unless imm-trans-a = 1, B is
// K-major (stored N x K) unless imm-trans-b = 1. A from registers and D: mma_math.cpp (wgmma fragments,
// §9.7.15.5.1.1). The data lands at issue: wgmma.fence / commit_group / wait_group order nothing here.
// Arithmetic: exact products and sum, one rounding (mma_sync.cpp's unverified note applies).
#include "exec/mma_exec.hpp"
#include "exec/order.hpp"
#include "exec/order_mma.hpp"
#include "exec/order_wgmma.hpp"
#include "layoutscope/tcgen05/smem_descriptor.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

namespace layoutscope::exec {

namespace {

SmemDescriptor sm90Descriptor(uint64_t v) {
    static constexpr uint32_t kSm100Type[4] = {0, 2, 4, 6}; // sm_90 none/128B/64B/32B as sm_100 types
    SmemDescriptor d;
    d.startAddress = uint32_t(v & 0x3fff) << 4; // bits [0,14)
    d.lbo = uint32_t((v >> 16) & 0x3fff) << 4;  // bits [16,30)
    d.sbo = uint32_t((v >> 32) & 0x3fff) << 4;  // bits [32,46)
    d.baseOffset = uint32_t((v >> 49) & 7);     // bits [49,52)
    d.layoutType = kSm100Type[(v >> 62) & 3];   // bits [62,64)
    return d;
}

struct Group {
    std::array<Warp*, 4> warps{};
};

bool runWarpgroup(Machine& m, const Op& op, const Group& grp) {
    const MmaForm& f = m.p.mmaForms[size_t(op.form)];
    const uint32_t M = 64, N = f.n, K = f.k;
    Warp& w0 = *grp.warps[0];
    // A descriptor (or registers), B descriptor: the same value in all 128 threads.
    auto uniform = [&](const Opnd& o, uint64_t& v) {
        v = readOperand(m, w0, o, 0, {TK::B, 64});
        for (Warp* w : grp.warps)
            for (int l = 0; l < 32; ++l)
                if (readOperand(m, *w, o, l, {TK::B, 64}) != v)
                    return m.fail(op, DiagCode::InvalidValue,
                                  "the matrix descriptor differs between threads of the warpgroup (" +
                                      m.who(*w, l) + "); it must be the same in all 128 threads");
        return true;
    };
    const uint32_t Ka = f.sparse ? K / 2 : K; // A's stored columns (.sp: the non-zero half, wgmma_sparse.cpp)
    std::vector<long double> A(size_t(M) * Ka), B(size_t(K) * N);
    std::vector<uint32_t> readAddrs; // shared bytes the operands read (for the order model, below)
    auto fromSmem = [&](const Opnd& o, bool isA, std::vector<long double>& to) {
        uint64_t v = 0;
        if (!uniform(o, v)) return false;
        const SmemDescriptor d = sm90Descriptor(v);
        const ME e = isA ? f.a : f.b;
        const uint32_t bits = meBits(e), rows = isA ? M : N, cols = isA ? Ka : K;
        const MatrixMajor major = (isA ? f.transA : f.transB) ? MatrixMajor::MN : MatrixMajor::K;
        for (uint32_t mn = 0; mn < rows; ++mn)
            for (uint32_t k = 0; k < cols; ++k) {
                const uint32_t addr = elementAddress(d, major, bits, mn, k);
                const uint8_t* p = resolve(m, w0, op, Space::Shared, addr, bits / 8, 0, false);
                if (!p) return false;
                readAddrs.push_back(addr);
                uint64_t raw = 0;
                std::memcpy(&raw, p, bits / 8);
                const long double x = meValue(raw, e) * (isA ? f.scaleA : f.scaleB);
                if (isA)
                    to[size_t(mn) * Ka + k] = x;
                else
                    to[size_t(k) * N + mn] = x;
            }
        return true;
    };
    if (f.aRegs) {
        MmaForm fa = f; // .sp: the stored A is a dense m64nNk(K/2) A fragment
        fa.k = uint16_t(Ka);
        const uint32_t n = fragCount(fa, 'A'), bits = meBits(f.a);
        for (uint32_t wi = 0; wi < 4; ++wi)
            for (uint32_t l = 0; l < 32; ++l)
                for (uint32_t i = 0; i < n; ++i) {
                    const FragElem fe = mmaFrag(fa, 'A', l, i);
                    const int r = vecReg(op.o[1], fe.reg);
                    const uint64_t reg = r >= 0 ? m.reg(*grp.warps[wi], uint32_t(r), int(l)) : 0;
                    A[size_t(fe.row + 16 * wi) * Ka + fe.col] =
                        meValue(maskBits(reg >> fe.shift, int(bits)), f.a) * f.scaleA;
                }
    } else if (!fromSmem(op.o[1], true, A)) {
        return false;
    }
    if (!fromSmem(op.o[2], false, B)) return false;
    if (f.sparse && !expandSparseA(m, op, grp.warps, f, A)) return false;
    const uint32_t nd = N / 2, dbits = meBits(f.d), dRegs = dbits == 16 ? N / 4 : N / 2;
    for (uint32_t wi = 0; wi < 4; ++wi) {
        Warp& w = *grp.warps[wi];
        for (uint32_t l = 0; l < 32; ++l) {
            const bool scaleD = readOperand(m, w, op.o[3], int(l), {TK::Pred, 1}) & 1;
            std::vector<uint64_t> regs(dRegs, 0);
            for (uint32_t i = 0; i < nd; ++i) {
                const FragElem fe = wgmmaD(f, wi, l, i);
                const int r = vecReg(op.o[0], fe.reg);
                long double acc = 0;
                if (scaleD && r >= 0)
                    acc = meValue(maskBits(m.reg(w, uint32_t(r), int(l)) >> fe.shift, int(dbits)), f.d);
                for (uint32_t k = 0; k < K; ++k) acc += A[size_t(fe.row) * K + k] * B[size_t(k) * N + fe.col];
                regs[fe.reg] |= maskBits(meStoreNoted(m, op, acc, f.d, f.satfinite), int(dbits)) << fe.shift;
            }
            for (uint32_t r = 0; r < dRegs; ++r)
                if (vecReg(op.o[0], r) >= 0) m.reg(w, uint32_t(vecReg(op.o[0], r)), int(l)) = regs[r];
        }
    }
    // h/order2: the operand reads go to the order model as one async operation of the warpgroup, complete at
    // wgmma.wait_group (order_mma.hpp; async-proxy reads: unverified, docs/exec.md "Time and order").
    orderWgmma(m, op, grp.warps, readAddrs, meBits(f.b) / 8);
    orderWgmmaRegisters(m, op, grp.warps); // D and register A pending until wgmma.wait_group
    return true;
}

} // namespace

void orderWgmmaGroup(Machine& m, Warp& w, const Op& op, uint32_t exec) {
    async::Model* mo = orderModel(m);
    const bool commit = op.text.find("commit_group") != std::string::npos;
    if (!mo || (!commit && op.text.find("wait_group") == std::string::npos)) return; // wgmma.fence: nothing
    const MmaForm& f = m.p.mmaForms[size_t(op.form)];
    if (exec) orderWgmmaGroupRegisters(m, w, commit, f.waitN);
    for (uint32_t x = exec; x; x &= x - 1) {
        const async::Site site = orderSite(m, w, op, std::countr_zero(x));
        if (commit)
            mo->commitGroup(site, async::Completion::WgmmaGroup);
        else
            mo->waitGroup(site, async::Completion::WgmmaGroup, uint32_t(std::max(f.waitN, 0)), false);
    }
}

bool execWgmma(Machine& m, size_t wi, const Op& op, int pc, uint32_t g, uint32_t exec) {
    Warp& w = m.warps[wi];
    const uint32_t live = w.valid & ~w.exited;
    if (w.valid != ~0u || w.exited || g != live || exec != g)
        return m.fail(op, DiagCode::FaultIllegalInstruction,
                      "wgmma.mma_async executed by part of a warp (lanes mask " + std::to_string(exec) +
                          "): every thread of the warpgroup's 4 warps must execute it (.sync.aligned)");
    for (uint32_t x = g; x; x &= x - 1) ++w.pc[std::countr_zero(x)];
    w.blocked |= g;
    w.blockedBarrier = kWarpgroupWait;
    w.wgmmaPc = pc;
    Group grp;
    const uint32_t first = w.firstThread / 128 * 128;
    int found = 0;
    for (Warp& o : m.warps)
        if (o.cta == w.cta && o.firstThread / 128 * 128 == first) grp.warps[size_t(found++)] = &o;
    if (found != 4)
        return m.fail(op, DiagCode::FaultIllegalInstruction,
                      "wgmma.mma_async by " + m.who(w, 0) + " whose warpgroup (threads " +
                          std::to_string(first) + ".." + std::to_string(first + 127) +
                          " of the CTA) has only " + std::to_string(found) +
                          " warps: a warpgroup is 4 warps (§9.7.15.1)");
    for (Warp* o : grp.warps) {
        if (o->wgmmaPc < 0) return true; // wait for the others
        if (o->wgmmaPc != pc)
            return m.fail(
                op, DiagCode::FaultIllegalInstruction,
                "the warps of one warpgroup wait at different wgmma.mma_async instructions (PTX lines " +
                    std::to_string(m.p.ops[size_t(o->wgmmaPc)].line) + " and " + std::to_string(op.line) +
                    "): all 4 warps must execute the same one");
    }
    if (!runWarpgroup(m, op, grp)) return false;
    for (Warp* o : grp.warps) o->blocked = 0, o->blockedBarrier = -1, o->wgmmaPc = -1;
    return true;
}

} // namespace layoutscope::exec
