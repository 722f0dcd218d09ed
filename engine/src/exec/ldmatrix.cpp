// ldmatrix / stmatrix / movmatrix .m8n8 .b16 (PTX ISA 9.2 §9.7.14.5.15-17). Which shared byte each
// register half holds is the engine's ldmatrix model (analysis/consumer.hpp ldmatrixSource, the one
// tests/data/ldmatrix's H100 records prove): threads 8r..8r+7 give the row addresses of matrix r; without
// .trans thread t holds row t/4, elements 2(t%4), 2(t%4)+1 of each matrix; with .trans the transpose.
// stmatrix is the same map written the other way. The warp must be converged (.sync.aligned).
#include "exec/mma_exec.hpp"
#include "exec/order.hpp"
#include "layoutscope/analysis/consumer.hpp"

#include <bit>
#include <cstring>

namespace layoutscope::exec {

namespace {

bool converged(Machine& m, Warp& w, const Op& op, uint32_t g, uint32_t exec) {
    const uint32_t live = w.valid & ~w.exited;
    if (g == live && exec == g) return true;
    return m.fail(op, DiagCode::FaultIllegalInstruction,
                  "a .sync.aligned matrix instruction executed by lanes (mask " + std::to_string(exec) +
                      ") that are not all of the warp's live lanes (mask " + std::to_string(live) +
                      "): every thread of the warp must execute it together");
}

// movmatrix.sync.aligned.m8n8.trans.b16 d, a: d of thread t, half h = the transposed matrix's element
// (row t/4, col 2(t%4)+h) = a's (row 2(t%4)+h, col t/4), held by thread 4(2(t%4)+h) + (t/4)/2, half (t/4)%2.
bool movmatrix(Machine& m, Warp& w, const Op& op) {
    std::array<uint32_t, 32> a{};
    for (int l = 0; l < 32; ++l) a[l] = uint32_t(readOperand(m, w, op.o[1], l, {TK::B, 32}));
    for (uint32_t t = 0; t < 32; ++t) {
        uint32_t v = 0;
        for (uint32_t h = 0; h < 2; ++h) {
            const uint32_t row = 2 * (t % 4) + h, col = t / 4;
            const uint32_t src = a[4 * row + col / 2] >> (16 * (col % 2)) & 0xffff;
            v |= src << (16 * h);
        }
        writeOperand(m, w, op.o[0], int(t), v);
    }
    return true;
}

} // namespace

// Each 16-byte row as a synchronous shared-memory access of the thread that gave its address (the order
// model's view of ld/st.shared, orderMemory).
void orderRows(Machine& m, Warp& w, const Op& op, const std::array<uint64_t, 32>& rowAddr, uint32_t n,
               bool st) {
    async::Model* mo = orderModel(m);
    if (!mo) return;
    for (uint32_t r = 0; r < n; ++r) {
        uint64_t off = rowAddr[r];
        uint32_t cta = w.cta;
        const bool shared = op.space == Space::Shared || off - kSharedWindow < kWindowBytes;
        if (!shared) continue;
        if (op.space == Space::Generic) off -= kSharedWindow;
        if (!splitShared(m, w, false, off, cta, off).empty()) continue;
        std::vector<async::Range> rg{orderSmem(cta, off, off + 16, st ? "stmatrix row" : "ldmatrix row")};
        mo->access(st ? orderSiteBefore(m, w, op, int(r)) : orderSite(m, w, op, int(r)),
                   st ? std::vector<async::Range>{} : rg, st ? rg : std::vector<async::Range>{});
    }
}

bool execLdStMatrixB8(Machine& m, Warp& w, const Op& op); // ldmatrix_b8.cpp

bool execLdStMatrix(Machine& m, Warp& w, const Op& op, uint32_t g, uint32_t exec) {
    if (!converged(m, w, op, g, exec)) return false;
    if (w.valid != ~0u || w.exited)
        return m.fail(
            op, DiagCode::FaultIllegalInstruction,
            "a .sync.aligned matrix instruction in a warp with fewer than 32 live threads (a partial "
            "last warp, or threads that exited): all 32 must execute it");
    if (op.opc == Opc::Movmatrix) return movmatrix(m, w, op);
    const MmaForm& f = m.p.mmaForms[size_t(op.form)];
    if (f.shape != 0) return execLdStMatrixB8(m, w, op);
    const bool st = op.opc == Opc::Stmatrix;
    const Opnd& mem = st ? op.o[0] : op.o[1];
    const Opnd& regs = st ? op.o[1] : op.o[0];
    const Space space = op.space == Space::Generic ? Space::Generic : Space::Shared;
    // Row addresses of threads 0..8*num-1; the engine's map works on tags (row index << 16 | byte offset).
    std::array<uint64_t, 32> rowAddr{};
    std::array<uint32_t, 32> tag{};
    for (uint32_t r = 0; r < 8u * f.num; ++r) {
        rowAddr[r] = memAddress(m, w, mem, int(r));
        if (rowAddr[r] % 16 != 0)
            return m.fail(op, DiagCode::FaultMisalignedAddress,
                          "row address of " + m.who(w, int(r)) +
                              " is not 16-byte aligned (each row is 8 .b16 elements, §9.7.14.5.15)");
        tag[r] = r << 16;
    }
    orderRows(m, w, op, rowAddr, 8u * f.num, st);
    const LdmatrixForm lf{f.num, f.trans};
    std::array<std::array<uint32_t, 4>, 32> vals{};
    if (st)
        for (uint32_t t = 0; t < 32; ++t)
            for (uint32_t r = 0; r < f.num; ++r)
                vals[t][r] = uint32_t(m.reg(w, uint32_t(vecReg(regs, r)), int(t)));
    for (uint32_t t = 0; t < 32; ++t)
        for (uint32_t r = 0; r < f.num; ++r)
            for (uint32_t h = 0; h < 2; ++h) {
                const uint32_t s = ldmatrixSource(lf, tag, t, r, h);
                const uint32_t row = s >> 16;
                const uint64_t addr = rowAddr[row] + (s & 0xffff);
                uint8_t* p = resolve(m, w, op, space, addr, 2, int(row), st);
                if (!p) return false;
                uint16_t half;
                if (st) {
                    half = uint16_t(vals[t][r] >> (16 * h));
                    std::memcpy(p, &half, 2);
                } else {
                    std::memcpy(&half, p, 2);
                    vals[t][r] |= uint32_t(half) << (16 * h);
                }
            }
    if (!st)
        for (uint32_t t = 0; t < 32; ++t)
            for (uint32_t r = 0; r < f.num; ++r)
                if (vecReg(regs, r) >= 0) m.reg(w, uint32_t(vecReg(regs, r)), int(t)) = vals[t][r];
    return true;
}

} // namespace layoutscope::exec
