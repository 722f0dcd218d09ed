// Matrix kernels for the executor (tests/engine/exec_mma_test.cpp; README.md here): cp.async copies,
// an ldmatrix/stmatrix round trip, an mma.sync GEMM tile fed by ldmatrix, a wgmma m64n64k16 GEMM over
// K = 64 from SWIZZLE_128B K-major shared tiles. The same file, with a host main, is the H100 probe
// (scripts/probes/exec_mma). Inputs are integer-valued so every product is exact.
#include <cstdint>
#include <cuda_fp16.h>

__device__ __forceinline__ uint32_t smemAddr(const void* p) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// cp.async: each of 64 threads copies 16 bytes (.cg), then 8 bytes (.ca) with src-size 5 (3 bytes of
// zero fill), then 4 bytes with ignore-src set for odd threads (zeros). out: [64 * 16] [64 * 8] [64 * 4].
extern "C" __global__ void cp_async_copy(const uint8_t* in, uint8_t* out) {
    __shared__ __align__(16) uint8_t s16[64 * 16];
    __shared__ __align__(16) uint8_t s8[64 * 8];
    __shared__ __align__(16) uint8_t s4[64 * 4];
    const int t = threadIdx.x;
    asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16;\n" ::"r"(smemAddr(s16 + 16 * t)),
                 "l"(in + 16 * t));
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, 5;\n" ::"r"(smemAddr(s8 + 8 * t)),
                 "l"(in + 1024 + 8 * t));
    asm volatile("cp.async.commit_group;\n" ::);
    asm volatile("{\n .reg .pred p;\n setp.ne.u32 p, %2, 0;\n"
                 " cp.async.ca.shared.global [%0], [%1], 4, p;\n}\n" ::"r"(smemAddr(s4 + 4 * t)),
                 "l"(in + 1536 + 4 * t), "r"(t & 1));
    asm volatile("cp.async.commit_group;\n" ::);
    asm volatile("cp.async.wait_group 1;\n" ::);
    asm volatile("cp.async.wait_all;\n" ::);
    __syncthreads();
    for (int i = 0; i < 16; ++i) out[16 * t + i] = s16[16 * ((t + 1) % 64) + i];
    for (int i = 0; i < 8; ++i) out[1024 + 8 * t + i] = s8[8 * t + i];
    for (int i = 0; i < 4; ++i) out[1536 + 4 * t + i] = s4[4 * t + i];
}

// ldmatrix round trip: a 16x16 f16 tile (row-major, 32-byte rows) in shared memory; one warp loads it
// with ldmatrix.x4 and ldmatrix.x4.trans and writes each thread's 8 registers to regs[t * 8 + r]
// (r 0..3 plain, 4..7 trans); then stmatrix.x4 (plain) writes the plain registers to a second tile, and
// stmatrix.x4.trans the trans registers to a third; both tiles go to out.
extern "C" __global__ void ldmatrix_roundtrip(const __half* in, uint32_t* regs, __half* out) {
    __shared__ __align__(16) __half tile[16 * 16];
    __shared__ __align__(16) __half back[16 * 16];
    __shared__ __align__(16) __half backT[16 * 16];
    const int t = threadIdx.x;
    for (int i = t; i < 256; i += 32) tile[i] = in[i];
    __syncwarp();
    // Matrix q = t / 8 (0: rows 0-7 cols 0-7, 1: rows 8-15 cols 0-7, 2: rows 0-7 cols 8-15, 3: rows 8-15
    // cols 8-15); thread t gives row t % 8 of matrix q.
    const int q = t / 8, row = (q % 2) * 8 + t % 8, col = (q / 2) * 8;
    uint32_t r[4], rt[4];
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(smemAddr(tile + row * 16 + col)));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(rt[0]), "=r"(rt[1]), "=r"(rt[2]), "=r"(rt[3])
                 : "r"(smemAddr(tile + row * 16 + col)));
    for (int i = 0; i < 4; ++i) regs[t * 8 + i] = r[i], regs[t * 8 + 4 + i] = rt[i];
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(
                     smemAddr(back + row * 16 + col)),
                 "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]));
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(
                     smemAddr(backT + row * 16 + col)),
                 "r"(rt[0]), "r"(rt[1]), "r"(rt[2]), "r"(rt[3]));
    __syncwarp();
    for (int i = t; i < 256; i += 32) out[i] = back[i], out[256 + i] = backT[i];
}

// mma.sync GEMM tile: C[16,16] (f32, row-major) = A[16,32] (f16, row-major) * B[32,16] (f16, given as
// Bt[16,32] = B transposed, row-major, i.e. K contiguous per column n). One warp; A and B fragments
// loaded with ldmatrix from shared memory, two k16 steps and two n8 tiles of m16n8k16.
extern "C" __global__ void mma_sync_gemm(const __half* A, const __half* Bt, float* C) {
    __shared__ __align__(16) __half sA[16 * 32];
    __shared__ __align__(16) __half sB[16 * 32];
    const int t = threadIdx.x;
    for (int i = t; i < 512; i += 32) sA[i] = A[i], sB[i] = Bt[i];
    __syncwarp();
    float acc[2][4] = {};
    for (int k0 = 0; k0 < 32; k0 += 16) {
        uint32_t a[4];
        {   // A 16x16 block: matrices (rows 0-7, k 0-7), (rows 8-15, k 0-7), (rows 0-7, k 8-15), (8-15, 8-15)
            const int q = t / 8, row = (q % 2) * 8 + t % 8, col = k0 + (q / 2) * 8;
            asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                         : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
                         : "r"(smemAddr(sA + row * 32 + col)));
        }
        for (int nt = 0; nt < 2; ++nt) {
            uint32_t b[2];
            // B 16(k)x8(n) block as Bt rows n (8 of them), k 0-7 then 8-15: matrices from threads 0-15.
            const int q = (t / 8) % 2, n = nt * 8 + t % 8, col = k0 + q * 8;
            asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n"
                         : "=r"(b[0]), "=r"(b[1])
                         : "r"(smemAddr(sB + n * 32 + col)));
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
                         "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                         : "+f"(acc[nt][0]), "+f"(acc[nt][1]), "+f"(acc[nt][2]), "+f"(acc[nt][3])
                         : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
        }
    }
    // C fragment of m16n8: c_i at row t/4 + 8*(i/2), column 2*(t%4) + i%2 (PTX ISA mma.m16n8k16 figure).
    for (int nt = 0; nt < 2; ++nt)
        for (int i = 0; i < 4; ++i) C[(t / 4 + 8 * (i / 2)) * 16 + nt * 8 + 2 * (t % 4) + i % 2] = acc[nt][i];
}

// wgmma m64n64k16 f16 -> f32, K = 64 in 4 steps: A[64,64] and Bt[64,64] (B transposed: row n holds
// B[:, n]) row-major f16 in global memory; 128 threads copy them into SWIZZLE_128B K-major shared tiles
// (row r at r * 128 bytes, 16-byte chunk c stored at chunk c ^ (r % 8); the tiles 1024-B aligned), build
// the descriptors (start >> 4, LBO 1 (unused), SBO 1024 >> 4, layout type 1 = 128B in bits [62,64)),
// advance the start by 32 bytes per k16 step, and write D (64x64 f32, row-major) with the accumulator
// fragment: d_i of thread t at row 16*(t/32) + (t%32)/4 + 8*((i/2)%2), column 8*(i/4) + 2*(t%4) + i%2.
__device__ __forceinline__ uint64_t sw128Desc(uint32_t addr) {
    return uint64_t((addr & 0x3FFFF) >> 4) | (uint64_t(1) << 16) | (uint64_t(1024 >> 4) << 32) |
           (uint64_t(1) << 62);
}

extern "C" __global__ void wgmma_gemm(const __half* A, const __half* Bt, float* C) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL) // wgmma needs sm_90a (nvcc -arch=sm_90a also builds a compute_90 pass)
    __shared__ __align__(1024) __half sA[64 * 64];
    __shared__ __align__(1024) __half sB[64 * 64];
    const int t = threadIdx.x;
    for (int i = t; i < 64 * 8; i += 128) { // 16-byte chunk i: row i / 8, chunk i % 8
        const int r = i / 8, c = i % 8, sc = c ^ (r % 8);
        for (int e = 0; e < 8; ++e) {
            sA[r * 64 + sc * 8 + e] = A[r * 64 + c * 8 + e];
            sB[r * 64 + sc * 8 + e] = Bt[r * 64 + c * 8 + e];
        }
    }
    __syncthreads();
    float d[32];
    for (int i = 0; i < 32; ++i) d[i] = 0.0f;
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
    for (int k = 0; k < 4; ++k) {
        const uint64_t da = sw128Desc(smemAddr(sA) + 32 * k), db = sw128Desc(smemAddr(sB) + 32 * k);
        asm volatile(
            "{\n .reg .pred p;\n setp.ne.b32 p, %34, 0;\n"
            "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
            "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
            "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
            "%32, %33, p, 1, 1, 0, 0;\n}\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
              "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),
              "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),
              "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),
              "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
            : "l"(da), "l"(db), "r"(k > 0 ? 1 : 0));
    }
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    const int w = t / 32, l = t % 32;
    for (int i = 0; i < 32; ++i)
        C[(16 * w + l / 4 + 8 * ((i / 2) % 2)) * 64 + 8 * (i / 4) + 2 * (l % 4) + i % 2] = d[i];
#else
    __trap();
#endif
}
