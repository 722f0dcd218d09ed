// Probe: how a TMA tile load rounds FP32 bit patterns to TF32 (TFLOAT32, TFLOAT32_FTZ; FLOAT32 as
// the unchanged control), including the cases the golden set does not isolate: exact ties, NaN,
// Inf, the largest finite values (carry into the exponent) and denormals.
// Build: nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a tf32_probe.cu -lcuda
// Output: one line per element: "<dtype> <input hex> <output hex>".
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

static constexpr uint32_t kN = 4096;    // elements (16 KiB)
static constexpr uint32_t kBox = 64;    // elements per copy (256 B)

__global__ void loadAll(const __grid_constant__ CUtensorMap map, uint32_t* out) {
    extern __shared__ __align__(1024) uint32_t sm[];
    __shared__ __align__(8) uint64_t bar;
    const uint32_t b = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
    const uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(sm));
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        asm volatile("{ .reg .b64 st; mbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1; }" ::"r"(b), "r"(kN * 4)
                     : "memory");
        for (int32_t c = 0; c < int32_t(kN); c += kBox)
            asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];"
                         ::"r"(dst + uint32_t(c) * 4), "l"(&map), "r"(c), "r"(b) : "memory");
        uint32_t done = 0;
        while (!done)
            asm volatile("{ .reg .pred q; mbarrier.try_wait.parity.shared::cta.b64 q, [%1], 0; selp.u32 %0, 1, 0, q; }"
                         : "=r"(done) : "r"(b) : "memory");
    }
    __syncthreads();
    for (uint32_t i = threadIdx.x; i < kN; i += blockDim.x) out[i] = sm[i];
}

static uint32_t mix(uint32_t x) {
    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
    return x;
}

int main() {
    std::vector<uint32_t> in;
    for (uint32_t sign : {0u, 1u})
        for (uint32_t exp : {0x00u, 0x01u, 0x7eu, 0xfeu, 0xffu})
            for (uint32_t hi : {0x000000u, 0x400000u, 0x7fc000u})
                for (uint32_t lsb : {0u, 0x2000u})
                    for (uint32_t low : {0x0u, 0x1u, 0xfffu, 0x1000u, 0x1001u, 0x1fffu})
                        in.push_back(sign << 31 | exp << 23 | hi | lsb | low);
    for (uint32_t i = 0; in.size() < kN; ++i) in.push_back(mix(i + 12345));
    cuInit(0);
    uint32_t *dIn = nullptr, *dOut = nullptr;
    cudaMalloc(&dIn, kN * 4);
    cudaMalloc(&dOut, kN * 4);
    cudaMemcpy(dIn, in.data(), kN * 4, cudaMemcpyHostToDevice);
    cudaFuncSetAttribute(loadAll, cudaFuncAttributeMaxDynamicSharedMemorySize, kN * 4 + 1024);
    const struct { CUtensorMapDataType t; const char* name; } types[] = {
        {CU_TENSOR_MAP_DATA_TYPE_TFLOAT32, "TFLOAT32"},
        {CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ, "TFLOAT32_FTZ"},
        {CU_TENSOR_MAP_DATA_TYPE_FLOAT32, "FLOAT32"},
        {CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ, "FLOAT32_FTZ"},
    };
    for (const auto& ty : types) {
        CUtensorMap map;
        cuuint64_t dim[1] = {kN}, stride[1] = {kN * 4}; // rank-1 strides: not read, but the driver wants a pointer
        cuuint32_t box[1] = {kBox}, es[1] = {1};
        CUresult r = cuTensorMapEncodeTiled(&map, ty.t, 1, dIn, dim, stride, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                            CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
        if (r != CUDA_SUCCESS) { printf("# encode %s failed %d\n", ty.name, int(r)); continue; }
        cudaMemset(dOut, 0xA5, kN * 4);
        loadAll<<<1, 128, kN * 4 + 1024>>>(map, dOut);
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) { printf("# %s: %s\n", ty.name, cudaGetErrorName(e)); return 1; }
        std::vector<uint32_t> out(kN);
        cudaMemcpy(out.data(), dOut, kN * 4, cudaMemcpyDeviceToHost);
        for (uint32_t i = 0; i < kN; ++i) printf("%s %08x %08x\n", ty.name, in[i], out[i]);
    }
    return 0;
}
