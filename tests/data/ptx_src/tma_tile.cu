// targets: sm_90a sm_100a
// variants: sm_90a:-lineinfo
// TMA tile loads 1-5D, a 2D and a 3D store, mbarrier init / expect_tx / try_wait, written with the
// cuda::ptx wrappers (CCCL). scripts/gen-ptx compiles it for sm_90a and sm_100a; the .ptx files
// under tests/data/ptx/ are committed and checked by ctest (docs/ptx-modules.md).
#include <cuda.h>
#include <cuda/ptx>
#include <cstdint>

namespace ptx = cuda::ptx;

__device__ void waitPhase(uint64_t* bar, uint32_t parity) {
    while (!ptx::mbarrier_try_wait_parity(bar, parity)) {
    }
}

__global__ void tmaTileLoads(const __grid_constant__ CUtensorMap m1, const __grid_constant__ CUtensorMap m2,
                             const __grid_constant__ CUtensorMap m3, const __grid_constant__ CUtensorMap m4,
                             const __grid_constant__ CUtensorMap m5, int x, int y, float* out) {
    __shared__ alignas(1024) uint8_t tile[5][8192];
    __shared__ alignas(8) uint64_t bar;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, 5 * 8192);
        const int32_t c1[1] = {x};
        const int32_t c2[2] = {x, y};
        const int32_t c3[3] = {x, y, 0};
        const int32_t c4[4] = {x, y, 0, 1};
        const int32_t c5[5] = {x, y, 0, 1, 2};
        ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile[0], &m1, c1, &bar);
        ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile[1], &m2, c2, &bar);
        ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile[2], &m3, c3, &bar);
        ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile[3], &m4, c4, &bar);
        ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile[4], &m5, c5, &bar);
    }
    waitPhase(&bar, 0);
    out[threadIdx.x] = reinterpret_cast<float*>(tile[threadIdx.x % 5])[threadIdx.x];
}

__global__ void tmaTileStores(const __grid_constant__ CUtensorMap m2, const __grid_constant__ CUtensorMap m3,
                              int x, int y) {
    __shared__ alignas(1024) uint8_t tile[8192];
    reinterpret_cast<float*>(tile)[threadIdx.x] = static_cast<float>(threadIdx.x);
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (threadIdx.x == 0) {
        const int32_t c2[2] = {x, y};
        const int32_t c3[3] = {x, y, 1};
        ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &m2, c2, tile);
        ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &m3, c3, tile);
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
    }
}
