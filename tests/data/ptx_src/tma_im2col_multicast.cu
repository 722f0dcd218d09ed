// targets: sm_90a sm_100a
// im2col loads (inline asm: cuda::ptx has no im2col wrapper) and a cluster multicast tile load
// (cuda::ptx), with mbarrier expect_tx / try_wait in a loop as CUTLASS writes it. Compiled by
// scripts/gen-ptx for sm_90a and sm_100a (docs/ptx-modules.md).
#include <cuda.h>
#include <cuda/ptx>
#include <cstdint>

namespace ptx = cuda::ptx;

__device__ __forceinline__ uint32_t smemAddr(const void* p) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__global__ void __cluster_dims__(2, 1, 1)
    tmaIm2colMulticast(const __grid_constant__ CUtensorMap conv, const __grid_constant__ CUtensorMap tiled,
                       int n, int h, int w, float* out) {
    __shared__ alignas(1024) uint8_t cols[4096];
    __shared__ alignas(1024) uint8_t tile[8192];
    __shared__ alignas(8) uint64_t bar;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    ptx::barrier_cluster_arrive();
    ptx::barrier_cluster_wait();
    if (threadIdx.x == 0) {
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, 4096 + 8192);
        // 4D tensor (C, W, H, N): two offsets (W, H)
        asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};"
                     :
                     : "r"(smemAddr(cols)), "l"(&conv), "r"(0), "r"(w), "r"(h), "r"(n), "r"(smemAddr(&bar)),
                       "h"(static_cast<uint16_t>(1)), "h"(static_cast<uint16_t>(2))
                     : "memory");
        const int32_t c2[2] = {w, h};
        ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile, &tiled, c2, &bar,
                                  static_cast<uint16_t>(0x3));
    }
    uint32_t done = 0;
    while (!done) {
        asm volatile("{\n\t.reg .pred P1;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 P1, [%1], %2;\n\t"
                     "selp.b32 %0, 1, 0, P1;\n\t}"
                     : "=r"(done)
                     : "r"(smemAddr(&bar)), "r"(0));
    }
    out[threadIdx.x] = reinterpret_cast<float*>(cols)[threadIdx.x] + reinterpret_cast<float*>(tile)[threadIdx.x];
}
