// H100 probe for the executor's matrix instructions: runs the kernels of tests/data/exec/mma_kernels.cu
// with the inputs tests/engine/exec_mma_test.cpp gives them and prints one JSON line per output buffer
// ({"kernel":..., "buffer":..., "hex":...}), so the executor's bytes can be required equal to the H100's.
#include "../../../tests/data/exec/mma_kernels.cu"

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

namespace {

#define CHECK_CUDA(x)                                                                                   \
    do {                                                                                                \
        cudaError_t e_ = (x);                                                                           \
        if (e_ != cudaSuccess) {                                                                        \
            std::printf("{\"error\":\"%s at line %d\"}\n", cudaGetErrorString(e_), __LINE__);           \
            std::exit(1);                                                                               \
        }                                                                                               \
    } while (0)

// The test's inputs: smallInts (LCG, values -8..7) and the ldmatrix tile i - 128, as f16.
std::vector<__half> smallInts(size_t n, uint32_t seed) {
    std::vector<__half> v(n);
    for (size_t i = 0; i < n; ++i) {
        seed = seed * 1664525u + 1013904223u;
        v[i] = __float2half(float(int(seed >> 28) - 8));
    }
    return v;
}

template <class T> T* upload(const std::vector<T>& v) {
    T* d = nullptr;
    CHECK_CUDA(cudaMalloc(&d, v.size() * sizeof(T)));
    CHECK_CUDA(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

template <class T> void dump(const char* kernel, const char* buffer, const T* d, size_t n) {
    std::vector<uint8_t> h(n * sizeof(T));
    CHECK_CUDA(cudaMemcpy(h.data(), d, h.size(), cudaMemcpyDeviceToHost));
    std::printf("{\"kernel\":\"%s\",\"buffer\":\"%s\",\"hex\":\"", kernel, buffer);
    for (uint8_t b : h) std::printf("%02x", b);
    std::printf("\"}\n");
}

} // namespace

int main() {
    { // cp_async_copy: in[i] = i * 7 + 3, out prefilled with 0xee
        std::vector<uint8_t> in(1792);
        for (size_t i = 0; i < in.size(); ++i) in[i] = uint8_t(i * 7 + 3);
        uint8_t* dIn = upload(in);
        uint8_t* dOut = upload(std::vector<uint8_t>(1792, 0xee));
        cp_async_copy<<<1, 64>>>(dIn, dOut);
        CHECK_CUDA(cudaDeviceSynchronize());
        dump("cp_async_copy", "1", dOut, 1792);
    }
    { // ldmatrix_roundtrip: tile[i] = i - 128
        std::vector<__half> tile(256);
        for (int i = 0; i < 256; ++i) tile[i] = __float2half(float(i - 128));
        __half* dIn = upload(tile);
        uint32_t* dRegs = upload(std::vector<uint32_t>(256, 0));
        __half* dOut = upload(std::vector<__half>(512, __float2half(0.0f)));
        ldmatrix_roundtrip<<<1, 32>>>(dIn, dRegs, dOut);
        CHECK_CUDA(cudaDeviceSynchronize());
        dump("ldmatrix_roundtrip", "1", dRegs, 256);
        dump("ldmatrix_roundtrip", "2", dOut, 512);
    }
    { // mma_sync_gemm: A = smallInts(512, 1), Bt = smallInts(512, 2), C prefilled with -1
        __half* dA = upload(smallInts(512, 1));
        __half* dB = upload(smallInts(512, 2));
        float* dC = upload(std::vector<float>(256, -1.0f));
        mma_sync_gemm<<<1, 32>>>(dA, dB, dC);
        CHECK_CUDA(cudaDeviceSynchronize());
        dump("mma_sync_gemm", "2", dC, 256);
    }
    { // wgmma_gemm: A = smallInts(4096, 3), Bt = smallInts(4096, 4), C prefilled with -1
        __half* dA = upload(smallInts(4096, 3));
        __half* dB = upload(smallInts(4096, 4));
        float* dC = upload(std::vector<float>(4096, -1.0f));
        wgmma_gemm<<<1, 128>>>(dA, dB, dC);
        CHECK_CUDA(cudaDeviceSynchronize());
        dump("wgmma_gemm", "2", dC, 4096);
    }
    return 0;
}
