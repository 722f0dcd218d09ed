// mma.sync.aligned (PTX ISA 9.2 §9.7.14.5.14): D = A * B + C for one warp (.b1: D = C + popc(A row .and/.xor
// B column) over K bits), the fragments of §9.7.14.5.8 (mma_math.cpp); mma.sp{::ordered_metadata}
// (§9.7.14.6.3) the same after its A is expanded (mma_sparse.cpp).
// Products and sums are exact (long double; every f16/bf16/tf32/8-bit product is exact there), then rounded
// once to the accumulator format: exact for integer-valued inputs whose sums fit the format. unverified: the
// hardware's accumulation order and internal precision for other inputs (the result may differ in the last
// bits).
#include "exec/mma_exec.hpp"

#include <bit>
#include <vector>

namespace layoutscope::exec {

bool execMmaSync(Machine& m, Warp& w, const Op& op, uint32_t g, uint32_t exec) {
    const uint32_t live = w.valid & ~w.exited;
    if (g != live || exec != g || w.valid != ~0u || w.exited)
        return m.fail(op, DiagCode::FaultIllegalInstruction,
                      "mma.sync.aligned executed by part of a warp (mask " + std::to_string(exec) +
                          "): all 32 threads must execute it together");
    const MmaForm& f = m.p.mmaForms[size_t(op.form)];
    const uint32_t M = f.m, N = f.n, K = f.k;
    // mma.sp: A's registers hold the stored M x K/2 matrix in the fragment of the dense K/2 form
    // (§9.7.14.6.2: the sparse A figures are the dense m16n8k(K/2) ones), expanded by the metadata below.
    MmaForm fa = f;
    if (f.sparse) fa.k = uint16_t(K / 2);
    std::vector<long double> A(size_t(M) * fa.k), B(size_t(K) * N), C(size_t(M) * N);
    auto gather = [&](char which, const Opnd& o, std::vector<long double>& to, uint32_t cols) {
        const ME e = which == 'A' ? f.a : which == 'B' ? f.b : f.c;
        const MmaForm& ff = which == 'A' ? fa : f;
        const uint32_t n = fragCount(ff, which), bits = meBits(e);
        for (uint32_t l = 0; l < 32; ++l)
            for (uint32_t i = 0; i < n; ++i) {
                const FragElem fe = mmaFrag(ff, which, l, i);
                const int r = vecReg(o, fe.reg);
                const uint64_t reg = r >= 0 ? m.reg(w, uint32_t(r), int(l)) : 0;
                to[size_t(fe.row) * cols + fe.col] = meValue(maskBits(reg >> fe.shift, int(bits)), e);
            }
    };
    gather('A', op.o[1], A, fa.k);
    if (f.sparse && !expandMmaSpA(m, w, op, f, A)) return false;
    gather('B', op.o[2], B, N);
    gather('C', op.o[3], C, N);
    const uint32_t nd = fragCount(f, 'D'), dbits = meBits(f.d);
    std::vector<std::vector<uint64_t>> regs(32, std::vector<uint64_t>(4, 0));
    for (uint32_t l = 0; l < 32; ++l)
        for (uint32_t i = 0; i < nd; ++i) {
            const FragElem fe = mmaFrag(f, 'D', l, i);
            long double acc = C[size_t(fe.row) * N + fe.col];
            for (uint32_t k = 0; k < K; ++k) {
                const long double a = A[size_t(fe.row) * K + k], b = B[size_t(k) * N + fe.col];
                acc += f.bitOp == 2 ? (long double)(a != b) : a * b; // .b1: popc of AND (0/1 product) or XOR
            }
            regs[l][fe.reg] |= maskBits(meStoreNoted(m, op, acc, f.d, f.satfinite), int(dbits)) << fe.shift;
        }
    for (uint32_t l = 0; l < 32; ++l)
        for (uint32_t r = 0; r < (dbits >= 32 ? nd : nd * dbits / 32); ++r)
            if (vecReg(op.o[0], r) >= 0) m.reg(w, uint32_t(vecReg(op.o[0], r)), int(l)) = regs[l][r];
    return true;
}

} // namespace layoutscope::exec
