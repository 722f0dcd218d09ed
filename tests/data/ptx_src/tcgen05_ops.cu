// targets: sm_100a
// variants: sm_100a:-G
// Tensor Memory on sm_100a: tcgen05.alloc / dealloc / relinquish_alloc_permit, cp, ld, st, shift,
// commit, wait and fence through the cuda::ptx wrappers, plus a TMA load with .cta_group::1 (inline
// asm). Compiled by scripts/gen-ptx for sm_100a only (docs/ptx-modules.md).
#include <cuda.h>
#include <cuda/ptx>
#include <cstdint>

namespace ptx = cuda::ptx;

__device__ __forceinline__ uint32_t smemAddr(const void* p) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__global__ void tcgen05Ops(const __grid_constant__ CUtensorMap a, uint64_t sdesc, uint32_t* out) {
    __shared__ alignas(1024) uint8_t tile[16384];
    __shared__ alignas(8) uint64_t bar;
    __shared__ uint32_t taddrSlot;
    const uint32_t warp = threadIdx.x / 32;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    if (warp == 0) {
        ptx::tcgen05_alloc(ptx::cta_group_1, &taddrSlot, 128);
        ptx::tcgen05_relinquish_alloc_permit(ptx::cta_group_1);
    }
    if (threadIdx.x == 0) {
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, 16384);
        asm volatile("cp.async.bulk.tensor.2d.cta_group::1.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3}], [%4];"
                     :
                     : "r"(smemAddr(tile)), "l"(&a), "r"(0), "r"(0), "r"(smemAddr(&bar))
                     : "memory");
    }
    while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
    }
    ptx::tcgen05_fence_before_thread_sync();
    __syncthreads();
    ptx::tcgen05_fence_after_thread_sync();
    const uint32_t taddr = taddrSlot;
    if (threadIdx.x == 0) {
        ptx::tcgen05_cp_128x256b(ptx::cta_group_1, taddr, sdesc);
        ptx::tcgen05_cp_32x128b_warpx4(ptx::cta_group_1, taddr + 8, sdesc + 2);
        ptx::tcgen05_shift_down(ptx::cta_group_1, taddr + 16);
        ptx::tcgen05_commit(ptx::cta_group_1, &bar);
    }
    while (!ptx::mbarrier_try_wait_parity(&bar, 1)) {
    }
    uint32_t v[4];
    ptx::tcgen05_ld_32x32b(v, taddr + ((warp * 32) << 16));
    ptx::tcgen05_wait_ld();
    v[0] += threadIdx.x;
    ptx::tcgen05_st_32x32b(taddr + ((warp * 32) << 16) + 32, v);
    uint32_t p[2];
    ptx::tcgen05_ld_16x64b_pack_16b(p, taddr + ((warp * 32) << 16) + 64);
    ptx::tcgen05_st_16x32bx2(taddr + ((warp * 32) << 16) + 96, ptx::n32_t<4>(), p);
    ptx::tcgen05_wait_st();
    ptx::tcgen05_wait_ld();
    out[threadIdx.x] = v[0] + v[1] + v[2] + v[3] + p[0] + p[1];
    ptx::tcgen05_fence_before_thread_sync();
    __syncthreads();
    if (warp == 0) ptx::tcgen05_dealloc(ptx::cta_group_1, taddr, 128);
}
