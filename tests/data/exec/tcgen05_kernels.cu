// tcgen05 kernels whose PTX (nvcc -arch=sm_100a -lineinfo -ptx, see README.md) the executor tests run
// (tests/engine/exec_tcgen05_test.cpp): Tensor Memory alloc / st / ld in every shape / dealloc, and
// tcgen05.mma of each dense kind against a CPU reference product. Written from the PTX ISA 9.2 text
// (§9.7.16); no Blackwell GPU has run them here.
#include <cstdint>

#define TC_FENCE_BEFORE() asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory")
#define TC_FENCE_AFTER() asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory")

__device__ __forceinline__ uint32_t smemAddr(const void* p) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void tmemAlloc(uint32_t* slot, uint32_t cols) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(smemAddr(slot)),
                 "r"(cols)
                 : "memory");
}
__device__ __forceinline__ void tmemFree(uint32_t taddr, uint32_t cols) {
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::: "memory");
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" ::"r"(taddr), "r"(cols) : "memory");
}

// 128 threads. Warp w stores a pattern into its lane quarter (lanes 32w..32w+31): the cell at absolute
// lane L, column c (relative to the allocation) holds L << 16 | c. Then it loads the pattern back in
// every shape and writes each thread's registers to out[(32w + t) * 20 + k], k in this order:
//   0-1   16x64b.x2        at column 0           2-5   16x128b.x2      at column 0
//   6-9   16x256b.x1       at column 0           10-11 16x32bx2.x2, 4  at column 0
//   12-13 32x32b.x2.pack::16b at column 0        14-17 32x32b.x4       at column 4
//   18-19 32x32b.x2 at column 16 after `tcgen05.st.16x64b.x1` of 0xA0000000 | t there (over zeros)
extern "C" __global__ void tmem_ldst(uint32_t* out) {
    __shared__ uint32_t slot;
    const uint32_t warp = threadIdx.x / 32, t = threadIdx.x % 32;
    if (warp == 0) tmemAlloc(&slot, 32);
    TC_FENCE_BEFORE();
    __syncthreads();
    TC_FENCE_AFTER();
    const uint32_t base = slot + ((32 * warp) << 16);
    uint32_t p[16];
    for (int j = 0; j < 16; ++j) p[j] = ((32 * warp + t) << 16) | j;
    asm volatile("tcgen05.st.sync.aligned.32x32b.x16.b32 [%0], {%1, %2, %3, %4, %5, %6, %7, %8, %9, %10, "
                 "%11, %12, %13, %14, %15, %16};" ::"r"(base),
                 "r"(p[0]), "r"(p[1]), "r"(p[2]), "r"(p[3]), "r"(p[4]), "r"(p[5]), "r"(p[6]), "r"(p[7]),
                 "r"(p[8]), "r"(p[9]), "r"(p[10]), "r"(p[11]), "r"(p[12]), "r"(p[13]), "r"(p[14]), "r"(p[15])
                 : "memory");
    asm volatile("tcgen05.st.sync.aligned.32x32b.x2.b32 [%0], {%1, %1};" ::"r"(base + 16), "r"(0u) : "memory");
    asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory");
    asm volatile("tcgen05.st.sync.aligned.16x64b.x1.b32 [%0], {%1};" ::"r"(base + 16), "r"(0xA0000000u | t)
                 : "memory");
    asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory");
    uint32_t r[20];
    asm volatile("tcgen05.ld.sync.aligned.16x64b.x2.b32 {%0, %1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(base));
    asm volatile("tcgen05.ld.sync.aligned.16x128b.x2.b32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5])
                 : "r"(base));
    asm volatile("tcgen05.ld.sync.aligned.16x256b.x1.b32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[6]), "=r"(r[7]), "=r"(r[8]), "=r"(r[9])
                 : "r"(base));
    asm volatile("tcgen05.ld.sync.aligned.16x32bx2.x2.b32 {%0, %1}, [%2], 4;"
                 : "=r"(r[10]), "=r"(r[11])
                 : "r"(base));
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x2.pack::16b.b32 {%0, %1}, [%2];"
                 : "=r"(r[12]), "=r"(r[13])
                 : "r"(base));
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x4.b32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[14]), "=r"(r[15]), "=r"(r[16]), "=r"(r[17])
                 : "r"(base + 4));
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x2.b32 {%0, %1}, [%2];"
                 : "=r"(r[18]), "=r"(r[19])
                 : "r"(base + 16));
    asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
    for (int k = 0; k < 20; ++k) out[threadIdx.x * 20 + k] = r[k];
    TC_FENCE_BEFORE();
    __syncthreads();
    if (warp == 0) tmemFree(slot, 32);
}

// --- tcgen05.mma: D[128][64] = A[128][K] x B[64][K]^T, K = two instructions of 32 bytes of K each -----------
// A and B arrive as bytes, row-major with 64 bytes of K a row; they are copied into shared memory in the
// K-major SWIZZLE_NONE canonical layout (PTX ISA 9.2 §9.7.16.3.3): 8-row x 16-byte core matrices, byte kb
// of row mn at (mn % 8) * 16 + (kb % 16) + (kb / 16) * LBO + (mn / 8) * SBO, LBO = 128, SBO = 512.
constexpr uint32_t kLbo = 128, kSbo = 512;

__device__ __forceinline__ uint32_t canon(uint32_t mn, uint32_t kb) {
    return (mn % 8) * 16 + (kb % 16) + (kb / 16) * kLbo + (mn / 8) * kSbo;
}

// Shared memory descriptor (PTX ISA 9.2 §9.7.16.4.1): start >> 4 bits [0,14), LBO >> 4 bits [16,30),
// SBO >> 4 bits [32,46), 0b001 bits [46,49), base offset 0, layout type 0 (SWIZZLE_NONE) bits [61,64).
__device__ __forceinline__ uint64_t smemDesc(uint32_t addr) {
    return uint64_t((addr & 0x3FFFF) >> 4) | uint64_t(kLbo >> 4) << 16 | uint64_t(kSbo >> 4) << 32 |
           uint64_t(1) << 46;
}

#define UMMA_ISSUE(KIND)                                                                                       \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %4, 0;\n"                                                  \
                 "tcgen05.mma.cta_group::1.kind::" KIND " [%0], %1, %2, %3, p;\n}" ::"r"(tmemD),               \
                 "l"(da), "l"(db), "r"(idesc), "r"(accumulate)                                                \
                 : "memory")

template <int Kind>
__device__ void ummaKernel(const uint8_t* A, const uint8_t* B, uint32_t* D, uint32_t idesc, uint32_t commit,
                           uint32_t sfWord = 0) {
    __shared__ alignas(128) uint8_t sA[128 * 64];
    __shared__ alignas(128) uint8_t sB[64 * 64];
    __shared__ uint32_t slot;
    __shared__ alignas(8) uint64_t mbar;
    const uint32_t warp = threadIdx.x / 32, t = threadIdx.x % 32;
    for (uint32_t i = threadIdx.x; i < 128 * 64; i += blockDim.x) sA[canon(i / 64, i % 64)] = A[i];
    for (uint32_t i = threadIdx.x; i < 64 * 64; i += blockDim.x) sB[canon(i / 64, i % 64)] = B[i];
    // The tensor core reads shared memory through the async proxy.
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    // Columns 0-63 D; 64-71 the scale factors of the block-scaled kind (SFA from 64, SFB from 68).
    if (warp == 0) tmemAlloc(&slot, 128);
    if (commit && threadIdx.x == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smemAddr(&mbar)) : "memory");
    TC_FENCE_BEFORE();
    __syncthreads();
    TC_FENCE_AFTER();
    const uint32_t tmemD = slot;
    if (Kind == 4) { // every scale-factor byte the same: no dependence on the scale-factor layout
        asm volatile("tcgen05.st.sync.aligned.32x32b.x8.b32 [%0], {%1, %1, %1, %1, %1, %1, %1, %1};" ::"r"(
                         tmemD + ((32 * warp) << 16) + 64),
                     "r"(sfWord)
                     : "memory");
        asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory");
        TC_FENCE_BEFORE();
        __syncthreads();
        TC_FENCE_AFTER();
    }
    if (threadIdx.x == 0) {
        for (uint32_t k = 0; k < 2; ++k) { // each instruction: 32 bytes of K = 2 core matrices = 2 * LBO
            const uint64_t da = smemDesc(smemAddr(sA) + 2 * kLbo * k), db = smemDesc(smemAddr(sB) + 2 * kLbo * k);
            const uint32_t accumulate = k;
            if (Kind == 0) UMMA_ISSUE("f16");
            if (Kind == 1) UMMA_ISSUE("tf32");
            if (Kind == 2) UMMA_ISSUE("f8f6f4");
            if (Kind == 3) UMMA_ISSUE("i8");
            if (Kind == 4)
                asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"
                             "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.block32 [%0], %1, %2, %3, [%4], "
                             "[%5], p;\n}" ::"r"(tmemD),
                             "l"(da), "l"(db), "r"(idesc), "r"(tmemD + 64), "r"(tmemD + 68), "r"(accumulate)
                             : "memory");
        }
        if (commit)
            asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" ::"r"(
                             smemAddr(&mbar))
                         : "memory");
    }
    if (!commit) __syncthreads(); // thread order only: the MMA itself is still asynchronous on hardware
    if (commit)
        asm volatile("{\n.reg .pred done;\nWAIT:\n"
                     "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n"
                     "@!done bra WAIT;\n}" ::"r"(smemAddr(&mbar))
                     : "memory");
    TC_FENCE_AFTER();
    // Layout D (M = 128, .cta_group::1): row m in lane m, column n; warp w reads lanes 32w..32w+31.
    for (uint32_t c = 0; c < 64; c += 8) {
        uint32_t v[8];
        asm volatile("tcgen05.ld.sync.aligned.32x32b.x8.b32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8];"
                     : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]), "=r"(v[4]), "=r"(v[5]), "=r"(v[6]),
                       "=r"(v[7])
                     : "r"(tmemD + ((32 * warp) << 16) + c));
        asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
        for (uint32_t j = 0; j < 8; ++j) D[(32 * warp + t) * 64 + c + j] = v[j];
    }
    TC_FENCE_BEFORE();
    __syncthreads();
    if (warp == 0) tmemFree(tmemD, 128);
}

// commit = 1: the correct kernel, the MMAs complete through tcgen05.commit on an mbarrier before D is read.
// commit = 0: NOT valid on hardware (D read after a __syncthreads, without waiting for the asynchronous MMA):
// the MMA data path alone, for an executor without mbarriers, where a tcgen05.mma completes when issued.
extern "C" __global__ void umma_f16(const uint8_t* A, const uint8_t* B, uint32_t* D, uint32_t idesc,
                                    uint32_t commit) {
    ummaKernel<0>(A, B, D, idesc, commit);
}
extern "C" __global__ void umma_tf32(const uint8_t* A, const uint8_t* B, uint32_t* D, uint32_t idesc,
                                     uint32_t commit) {
    ummaKernel<1>(A, B, D, idesc, commit);
}
extern "C" __global__ void umma_f8f6f4(const uint8_t* A, const uint8_t* B, uint32_t* D, uint32_t idesc,
                                       uint32_t commit) {
    ummaKernel<2>(A, B, D, idesc, commit);
}
extern "C" __global__ void umma_i8(const uint8_t* A, const uint8_t* B, uint32_t* D, uint32_t idesc,
                                   uint32_t commit) {
    ummaKernel<3>(A, B, D, idesc, commit);
}

// kind::mxf8f6f4.block_scale.block32 (e4m3 x e4m3, one UE8M0/UE4M3 scale factor per 32 elements of K): every
// scale-factor byte of A and B is the low byte of sfWord (the kernel stores sfWord into every cell).
extern "C" __global__ void umma_mxf8f6f4(const uint8_t* A, const uint8_t* B, uint32_t* D, uint32_t idesc,
                                         uint32_t commit, uint32_t sfWord) {
    ummaKernel<4>(A, B, D, idesc, commit, sfWord);
}

// --- tcgen05.cp.128x256b: 128 rows of 32 bytes from shared memory into lanes 0-127, columns 0-7 ------------
// src is 128 rows x 32 bytes, copied into the K-major SWIZZLE_NONE canonical layout (row r byte b at
// (r % 8) * 16 + (b % 16) + (b / 16) * 128 + (r / 8) * 256: LBO 128, SBO 256); out[(32w + t) * 8 + j] is
// column j of lane 32w + t after the copy. commit as for the MMA kernels.
extern "C" __global__ void tmem_cp(const uint8_t* src, uint32_t* out, uint32_t commit) {
    __shared__ alignas(128) uint8_t sS[128 * 32];
    __shared__ uint32_t slot;
    __shared__ alignas(8) uint64_t mbar;
    const uint32_t warp = threadIdx.x / 32, t = threadIdx.x % 32;
    for (uint32_t i = threadIdx.x; i < 128 * 32; i += blockDim.x) {
        const uint32_t r = i / 32, b = i % 32;
        sS[(r % 8) * 16 + (b % 16) + (b / 16) * 128 + (r / 8) * 256] = src[i];
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    if (warp == 0) tmemAlloc(&slot, 32);
    if (commit && threadIdx.x == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smemAddr(&mbar)) : "memory");
    TC_FENCE_BEFORE();
    __syncthreads();
    TC_FENCE_AFTER();
    const uint32_t taddr = slot;
    if (threadIdx.x == 0) {
        const uint64_t desc = uint64_t((smemAddr(sS) & 0x3FFFF) >> 4) | uint64_t(128 >> 4) << 16 |
                              uint64_t(256 >> 4) << 32 | uint64_t(1) << 46;
        asm volatile("tcgen05.cp.cta_group::1.128x256b [%0], %1;" ::"r"(taddr), "l"(desc) : "memory");
        if (commit)
            asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" ::"r"(
                             smemAddr(&mbar))
                         : "memory");
    }
    if (!commit) __syncthreads();
    if (commit)
        asm volatile("{\n.reg .pred done;\nWAIT:\n"
                     "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n"
                     "@!done bra WAIT;\n}" ::"r"(smemAddr(&mbar))
                     : "memory");
    TC_FENCE_AFTER();
    uint32_t v[8];
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x8.b32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8];"
                 : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]), "=r"(v[4]), "=r"(v[5]), "=r"(v[6]), "=r"(v[7])
                 : "r"(taddr + ((32 * warp) << 16)));
    asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
    for (uint32_t j = 0; j < 8; ++j) out[(32 * warp + t) * 8 + j] = v[j];
    TC_FENCE_BEFORE();
    __syncthreads();
    if (warp == 0) tmemFree(taddr, 32);
}
