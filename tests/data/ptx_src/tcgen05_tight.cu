// targets: sm_100a
// tcgen05.ld / tcgen05.st / tcgen05.mma written as CUTLASS writes its inline asm: no blank between
// the last qualifier and the operands, none after the commas, so nvcc emits
// `tcgen05.ld.sync.aligned.32x32b.x1.b32{%r1},[%r2];` (issue 21: such lines were not recognised and a
// module of them checked "ok" even with an invalid qualifier). tests/data/ptx/broken/tcgen05_tight_x3
// is a copy with `.x3`. Compiled by scripts/gen-ptx for sm_100a (docs/ptx-modules.md).
#include <cstdint>

__global__ void tightSpelling(uint32_t taddr, uint64_t adesc, uint64_t bdesc, uint32_t idesc, uint32_t* out) {
    uint32_t v0, v1, v2, v3;
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32{%0},[%1];" : "=r"(v0) : "r"(taddr));
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x2.b32{%0,%1},[%2];" : "=r"(v1), "=r"(v2) : "r"(taddr));
    asm volatile("tcgen05.ld.sync.aligned.16x32bx2.x1.b32{%0},[%1],4;" : "=r"(v3) : "r"(taddr));
    asm volatile("tcgen05.wait::ld.sync.aligned;");
    asm volatile("tcgen05.st.sync.aligned.32x32b.x1.b32[%0],{%1};" ::"r"(taddr), "r"(v0));
    asm volatile("tcgen05.wait::st.sync.aligned;");
    if (threadIdx.x == 0)
        asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p,%4,0;\n\t"
                     "tcgen05.mma.cta_group::1.kind::f16[%0],%1,%2,%3,p;\n\t}" ::"r"(taddr),
                     "l"(adesc), "l"(bdesc), "r"(idesc), "r"(v3));
    out[threadIdx.x] = v0 + v1 + v2 + v3;
}
