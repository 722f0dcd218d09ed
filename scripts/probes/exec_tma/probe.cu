// H100 probe for the executor's TMA path (docs/exec.md, tests/engine/exec_tma_test.cpp): runs the
// kernels of tests/data/exec/tma_kernels.cu with the inputs the tests use and writes each output's raw
// bytes to $OUT/<case>.bin, for tests/data/exec/h200/ (the test compares the executor's bytes with them).
//   nvcc -arch=sm_90a -O2 -std=c++17 probe.cu -o /tmp/exec_tma_probe -lcuda && /tmp/exec_tma_probe OUTDIR
#include "../../../tests/data/exec/tma_kernels.cu"

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CHECK_CUDA(x)                                                                                        \
    do {                                                                                                     \
        cudaError_t e_ = (x);                                                                                \
        if (e_ != cudaSuccess) {                                                                             \
            std::printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));                   \
            std::exit(1);                                                                                    \
        }                                                                                                    \
    } while (0)

static void writeFile(const std::string& path, const std::vector<uint8_t>& b) {
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f || std::fwrite(b.data(), 1, b.size(), f) != b.size()) {
        std::printf("cannot write %s\n", path.c_str());
        std::exit(1);
    }
    std::fclose(f);
    std::printf("wrote %s (%zu bytes)\n", path.c_str(), b.size());
}

// T: u16[128,128], element (y, x) = y * 128 + x (the executor's tensor:u16[128,128]:index).
static CUtensorMap encode(void* t, uint32_t boxRows, CUtensorMapSwizzle swz) {
    CUtensorMap map;
    const cuuint64_t dims[2] = {128, 128};
    const cuuint64_t strides[1] = {256};
    const cuuint32_t box[2] = {64, boxRows};
    const cuuint32_t estr[2] = {1, 1};
    CUresult r = cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, t, dims, strides, box, estr,
                                        CU_TENSOR_MAP_INTERLEAVE_NONE, swz, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        std::printf("cuTensorMapEncodeTiled failed: %d\n", int(r));
        std::exit(1);
    }
    return map;
}

int main(int argc, char** argv) {
    const std::string out = argc > 1 ? argv[1] : ".";
    cudaDeviceProp prop;
    CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    std::printf("device: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
    std::vector<uint16_t> host(128 * 128);
    for (size_t i = 0; i < host.size(); ++i) host[i] = uint16_t(i);
    uint16_t* t = nullptr;
    uint8_t* o = nullptr;
    CHECK_CUDA(cudaMalloc(&t, host.size() * 2));
    CHECK_CUDA(cudaMalloc(&o, 2 * 8192));
    auto reset = [&] {
        CHECK_CUDA(cudaMemcpy(t, host.data(), host.size() * 2, cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaMemset(o, 0xEE, 2 * 8192));
    };
    auto fetch = [&](size_t n) {
        std::vector<uint8_t> b(n);
        CHECK_CUDA(cudaDeviceSynchronize());
        CHECK_CUDA(cudaMemcpy(b.data(), o, n, cudaMemcpyDeviceToHost));
        return b;
    };
    const CUtensorMap sw128 = encode(t, 64, CU_TENSOR_MAP_SWIZZLE_128B);
    const CUtensorMap none = encode(t, 64, CU_TENSOR_MAP_SWIZZLE_NONE);
    const CUtensorMap half = encode(t, 32, CU_TENSOR_MAP_SWIZZLE_128B);
    reset();
    tma_load_2d<<<1, 128>>>(sw128, o, 64, 32);
    writeFile(out + "/tma_load_sw128_64_32.bin", fetch(8192));
    reset();
    tma_load_2d<<<1, 128>>>(none, o, 8, 5);
    writeFile(out + "/tma_load_none_8_5.bin", fetch(8192));
    reset();
    tma_load_2d<<<1, 128>>>(sw128, o, 64, 100);
    writeFile(out + "/tma_load_sw128_64_100.bin", fetch(8192));
    reset();
    tma_multicast_2d<<<2, 128>>>(half, o, 0, 16);
    writeFile(out + "/tma_multicast_0_16.bin", fetch(2 * 8192));
    // Store: in[i] = i % 256 into the tile, the box stored at (32, 48); the whole tensor is recorded.
    std::vector<uint8_t> in(8192);
    for (size_t i = 0; i < in.size(); ++i) in[i] = uint8_t(i);
    reset();
    CHECK_CUDA(cudaMemcpy(o, in.data(), in.size(), cudaMemcpyHostToDevice));
    tma_store_2d<<<1, 128>>>(sw128, o, 32, 48);
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<uint8_t> tb(host.size() * 2);
    CHECK_CUDA(cudaMemcpy(tb.data(), t, tb.size(), cudaMemcpyDeviceToHost));
    writeFile(out + "/tma_store_sw128_32_48.bin", tb);
    // Reduce-add: T32 u32[128,64] holding its index, in32[i] = 3i + 1 added into the [32, 64] box at (16, 8).
    {
        std::vector<uint32_t> t32h(128 * 64), in32(2048);
        for (size_t i = 0; i < t32h.size(); ++i) t32h[i] = uint32_t(i);
        for (size_t i = 0; i < in32.size(); ++i) in32[i] = uint32_t(i * 3 + 1);
        uint32_t* t32 = nullptr;
        CHECK_CUDA(cudaMalloc(&t32, t32h.size() * 4));
        CHECK_CUDA(cudaMemcpy(t32, t32h.data(), t32h.size() * 4, cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaMemcpy(o, in32.data(), in32.size() * 4, cudaMemcpyHostToDevice));
        CUtensorMap m32;
        const cuuint64_t dims[2] = {64, 128};
        const cuuint64_t strides[1] = {256};
        const cuuint32_t box[2] = {32, 64};
        const cuuint32_t estr[2] = {1, 1};
        if (cuTensorMapEncodeTiled(&m32, CU_TENSOR_MAP_DATA_TYPE_UINT32, 2, t32, dims, strides, box, estr,
                                   CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                   CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                   CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) {
            std::printf("encode (u32) failed\n");
            return 1;
        }
        tma_reduce_add_2d<<<1, 128>>>(m32, o, 16, 8);
        CHECK_CUDA(cudaDeviceSynchronize());
        std::vector<uint8_t> rb(t32h.size() * 4);
        CHECK_CUDA(cudaMemcpy(rb.data(), t32, rb.size(), cudaMemcpyDeviceToHost));
        writeFile(out + "/tma_reduce_add_u32_16_8.bin", rb);
    }
    std::printf("done\n");
    return 0;
}
