// Small CUDA kernels whose PTX (nvcc -arch=sm_90a -O3 -ptx, see README.md) the executor tests run
// against CPU references (tests/engine/exec_nvcc_test.cpp).
#include <cstdint>
#include <cuda_fp16.h>

extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" __global__ void saxpy(int n, float a, const float* x, float* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

// 32x32 tiles through shared memory, padded against bank conflicts; block (32, 8).
extern "C" __global__ void transpose(const float* in, float* out, int rows, int cols) {
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Each warp sums its 32 values with shfl.down; lane 0 adds the warp's sum to out[0] atomically, and
// writes it to warp_sums[warp].
extern "C" __global__ void warp_reduce(const int* in, int* warp_sums, int* out) {
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0) {
        warp_sums[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = v;
        atomicAdd(out, v);
    }
}

// Divergent branches: odd lanes take a loop of data-dependent length, even lanes a different formula;
// then a ballot of the result's low bit after reconvergence.
extern "C" __global__ void divergent(const int* in, int* out, unsigned* ballots) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    int r;
    if (i & 1) {
        r = 0;
        for (int k = 0; k < (v & 15); ++k) r += k * v;
    } else {
        r = v * v - 3;
    }
    out[i] = r;
    unsigned b = __ballot_sync(0xffffffffu, r & 1);
    if ((threadIdx.x & 31) == 0) ballots[i / 32] = b;
}

__device__ __noinline__ float poly(float x, int n) {
    float r = 1.0f;
    for (int k = 0; k < n; ++k) r = r * x + 0.5f;
    return r;
}

// A loop calling a non-inlined .func.
extern "C" __global__ void loop_call(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int k = 0; k < n; ++k) s += poly(in[i] + k, k & 3);
    out[i] = s;
}

// Integer and conversion mix: 64-bit multiply-high, bit reversal, popcount, clz, f32 <-> f16 / int.
extern "C" __global__ void intmix(const unsigned* in, unsigned long long* out64, float* outf, __half_raw* outh) {
    int i = threadIdx.x;
    unsigned v = in[i];
    unsigned long long w = (unsigned long long)v * 0x9E3779B97F4A7C15ull;
    out64[i] = __umul64hi(w, 0xD6E8FEB86659FD93ull) ^ __brev(v) ^ ((unsigned long long)__popc(v) << 40) ^
               ((unsigned long long)__clz(v | 1) << 48);
    float f = (float)(int)v * 0.001f - 3.5f;
    outf[i] = f;
    __half_raw h;
    h.x = __half_as_ushort(__float2half_rn(f));
    outh[i] = h;
}

// C[M,N] = A[M,K] B[K,N], row-major, one thread per element of C (the CLI's --expect C=gemm(A,B) test).
extern "C" __global__ void gemm_naive(const float* A, const float* B, float* C, int M, int N, int K) {
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M || col >= N) return;
    float s = 0.0f;
    for (int k = 0; k < K; ++k) s += A[row * K + k] * B[k * N + col];
    C[row * N + col] = s;
}
