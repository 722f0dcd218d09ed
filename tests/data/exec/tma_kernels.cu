// Hand-written kernels for the executor's struct / tensor-map parameters, mbarrier and TMA paths
// (docs/exec.md; tests/engine/exec_async_test.cpp; the H100 probe scripts/probes/exec_tma/ runs the same
// file). Regenerate the PTX with the command in README.md. Every TMA kernel copies the raw shared-memory
// bytes the copy wrote to `out`, so the executor's (and the GPU's) placement can be compared byte by byte.
#include <cstdint>
#include <cuda.h>

// A by-value struct as CuTe passes its tensors: a pointer, a 32-bit extent, a float.
struct Args {
    const float* a;     // offset 0
    int n;              // offset 8
    float scale;        // offset 12
    unsigned short tag; // offset 16
};

extern "C" __global__ void struct_arg(Args args, float* out) {
    const int i = threadIdx.x;
    if (i < args.n) out[i] = args.a[i] * args.scale + float(args.tag);
}

// The 128 bytes of a __grid_constant__ CUtensorMap parameter, as the kernel sees them.
extern "C" __global__ void tmap_copy(const __grid_constant__ CUtensorMap map, unsigned long long* out) {
    const int i = threadIdx.x;
    if (i < 16) out[i] = reinterpret_cast<const unsigned long long*>(&map)[i];
}

__device__ __forceinline__ uint32_t smemAddr(const void* p) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbarInit(uint64_t* bar, uint32_t count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smemAddr(bar)), "r"(count) : "memory");
}
__device__ __forceinline__ void fenceInit() {
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
__device__ __forceinline__ void arriveExpectTx(uint64_t* bar, uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smemAddr(bar)), "r"(bytes)
                 : "memory");
}
__device__ __forceinline__ void waitParity(uint64_t* bar, uint32_t parity) {
    asm volatile("{\n"
                 ".reg .pred p;\n"
                 "WAIT_%=:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
                 "@!p bra WAIT_%=;\n"
                 "}" ::"r"(smemAddr(bar)),
                 "r"(parity)
                 : "memory");
}
__device__ __forceinline__ void tmaLoad2d(void* dst, const CUtensorMap* map, int c0, int c1, uint64_t* bar) {
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];" ::"r"(smemAddr(dst)),
                 "l"(map), "r"(c0), "r"(c1), "r"(smemAddr(bar))
                 : "memory");
}
__device__ __forceinline__ void tmaLoad2dMulticast(void* dst, const CUtensorMap* map, int c0, int c1,
                                                   uint64_t* bar, uint16_t mask) {
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(smemAddr(dst)),
                 "l"(map), "r"(c0), "r"(c1), "r"(smemAddr(bar)), "h"(mask)
                 : "memory");
}
__device__ __forceinline__ void clusterSync() {
    asm volatile("barrier.cluster.arrive.release.aligned;\n"
                 "barrier.cluster.wait.acquire.aligned;" ::
                     : "memory");
}

constexpr int kTileBytes = 8192; // box [64, 64] of 2-byte elements

__device__ __forceinline__ void copyOut(const uint8_t* tile, uint8_t* out) {
    for (int i = threadIdx.x * 16; i < kTileBytes; i += blockDim.x * 16)
        *reinterpret_cast<uint4*>(out + i) = *reinterpret_cast<const uint4*>(tile + i);
}

// One 2-D tile through an mbarrier: arrive.expect_tx + try_wait.parity loop, then the raw smem bytes
// to out. The swizzle (NONE, 128B) is the map's.
extern "C" __global__ void tma_load_2d(const __grid_constant__ CUtensorMap map, uint8_t* out, int c0,
                                       int c1) {
    __shared__ alignas(1024) uint8_t tile[kTileBytes];
    __shared__ alignas(8) uint64_t bar;
    if (threadIdx.x == 0) {
        mbarInit(&bar, 1);
        fenceInit();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        arriveExpectTx(&bar, kTileBytes);
        tmaLoad2d(tile, &map, c0, c1, &bar);
    }
    waitParity(&bar, 0);
    copyOut(tile, out);
}

// A 2-CTA cluster: each CTA loads one half of the box rows ([64, 32] boxes) multicast to both CTAs, so
// each CTA's tile holds both halves; each writes its tile to out + rank * kTileBytes.
extern "C" __global__ void __cluster_dims__(2, 1, 1)
    tma_multicast_2d(const __grid_constant__ CUtensorMap halfMap, uint8_t* out, int c0, int c1) {
    __shared__ alignas(1024) uint8_t tile[kTileBytes];
    __shared__ alignas(8) uint64_t bar;
    uint32_t rank;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    if (threadIdx.x == 0) {
        mbarInit(&bar, 1);
        fenceInit();
    }
    clusterSync();
    if (threadIdx.x == 0) {
        arriveExpectTx(&bar, kTileBytes);
        tmaLoad2dMulticast(tile + rank * (kTileBytes / 2), &halfMap, c0, c1 + int(rank) * 32, &bar, 0x3);
    }
    waitParity(&bar, 0);
    copyOut(tile, out + rank * kTileBytes);
    clusterSync(); // no CTA exits while its peer may still write into it
}

// Planted bug: the consumer waits a second time with parity 1, for a phase nobody completes (hang).
extern "C" __global__ void bug_wrong_parity(const __grid_constant__ CUtensorMap map, uint8_t* out, int c0,
                                            int c1) {
    __shared__ alignas(1024) uint8_t tile[kTileBytes];
    __shared__ alignas(8) uint64_t bar;
    if (threadIdx.x == 0) {
        mbarInit(&bar, 1);
        fenceInit();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        arriveExpectTx(&bar, kTileBytes);
        tmaLoad2d(tile, &map, c0, c1, &bar);
    }
    waitParity(&bar, 0);
    waitParity(&bar, 1); // BUG: phase 1 never completes
    copyOut(tile, out);
}

// Planted bug: no wait before reading the tile (a read the TMA may not have written yet).
extern "C" __global__ void bug_no_wait(const __grid_constant__ CUtensorMap map, uint8_t* out, int c0,
                                       int c1) {
    __shared__ alignas(1024) uint8_t tile[kTileBytes];
    __shared__ alignas(8) uint64_t bar;
    if (threadIdx.x == 0) {
        mbarInit(&bar, 1);
        fenceInit();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        arriveExpectTx(&bar, kTileBytes);
        tmaLoad2d(tile, &map, c0, c1, &bar);
    }
    copyOut(tile, out); // BUG: no waitParity(&bar, 0) before reading
}

// Planted bug: expect_tx announces twice the bytes the copy delivers (the phase never completes).
extern "C" __global__ void bug_tx_count(const __grid_constant__ CUtensorMap map, uint8_t* out, int c0,
                                        int c1) {
    __shared__ alignas(1024) uint8_t tile[kTileBytes];
    __shared__ alignas(8) uint64_t bar;
    if (threadIdx.x == 0) {
        mbarInit(&bar, 1);
        fenceInit();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        arriveExpectTx(&bar, 2 * kTileBytes); // BUG: the box is kTileBytes
        tmaLoad2d(tile, &map, c0, c1, &bar);
    }
    waitParity(&bar, 0);
    copyOut(tile, out);
}

// Shared -> global: the threads write `in` (8192 bytes) into the tile, fence.proxy.async makes the
// generic-proxy writes visible to the TMA, then one thread stores the [64, 64] box at (c0, c1).
extern "C" __global__ void tma_store_2d(const __grid_constant__ CUtensorMap map, const uint8_t* in, int c0,
                                        int c1) {
    __shared__ alignas(1024) uint8_t tile[kTileBytes];
    for (int i = threadIdx.x * 16; i < kTileBytes; i += blockDim.x * 16)
        *reinterpret_cast<uint4*>(tile + i) = *reinterpret_cast<const uint4*>(in + i);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile(
            "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(&map),
            "r"(c0), "r"(c1), "r"(smemAddr(tile))
            : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
}

// Plain bulk copies: 4096 bytes global -> shared through an mbarrier, then shared -> global (bulk_group).
extern "C" __global__ void bulk_copy(const uint8_t* src, uint8_t* dst) {
    __shared__ alignas(128) uint8_t buf[4096];
    __shared__ alignas(8) uint64_t bar;
    if (threadIdx.x == 0) {
        mbarInit(&bar, 1);
        fenceInit();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        arriveExpectTx(&bar, 4096);
        asm volatile(
            "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 4096, [%2];" ::"r"(
                smemAddr(buf)),
            "l"(src), "r"(smemAddr(&bar))
            : "memory");
    }
    waitParity(&bar, 0);
    if (threadIdx.x == 0) {
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 4096;" ::"l"(dst),
                     "r"(smemAddr(buf))
                     : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
}
