// H100 probe for the bulk-copy semantics of issue 21 item 4 (scripts/probes/bulk/README.md):
//   copy   plain cp.async.bulk: global -> shared::cluster (mbarrier), shared::cta -> global
//          (bulk_group), a cluster of 2 with .multicast::cluster (ctaMask 0b11) and
//          shared::cta -> shared::cluster (CTA 0 writes into CTA 1), prefetch.L2 (no data)
//   reduce cp.reduce.async.bulk.tensor.1d.global.shared::cta.OP.tile.bulk_group over a 64-element
//          tensor of one data type, for one (OP, TYPE) given on the command line
// Each run prints JSON lines: {"case", "op", "dtype", "before", "src", "after"} with the bytes as hex
// (global before, the shared source, global after), or {"case", ..., "error"} when the GPU refuses.
// One (OP, TYPE) per process: an illegal combination may kill the context (run.sh loops).
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#define CK(x)                                                                                                   \
    do {                                                                                                        \
        cudaError_t e_ = (x);                                                                                   \
        if (e_ != cudaSuccess) {                                                                                \
            std::printf("{\"case\": \"%s\", \"error\": \"%s at line %d\"}\n", g_case, cudaGetErrorString(e_),   \
                        __LINE__);                                                                              \
            return 1;                                                                                           \
        }                                                                                                       \
    } while (0)

static const char* g_case = "setup";
constexpr int kBytes = 256;

__device__ uint32_t smemAddr(const void* p) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ void mbarInit(uint64_t* bar, uint32_t tx) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smemAddr(bar)));
    asm volatile("fence.mbarrier_init.release.cluster;");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smemAddr(bar)), "r"(tx));
}

__device__ void mbarWait(uint64_t* bar) {
    asm volatile("{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n @!p bra W;\n}" ::"r"(
        smemAddr(bar)));
}

// global -> shared::cluster (own CTA), then shared::cta -> global; prefetch leaves no data.
__global__ void copyKernel(const uint8_t* src, uint8_t* g2sOut, uint8_t* s2gOut, const uint8_t* pfSrc) {
    __shared__ alignas(128) uint8_t buf[kBytes];
    __shared__ alignas(8) uint64_t bar;
    if (threadIdx.x == 0) {
        mbarInit(&bar, kBytes);
        asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(pfSrc), "r"(kBytes));
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                         smemAddr(buf)),
                     "l"(src), "r"(kBytes), "r"(smemAddr(&bar))
                     : "memory");
        mbarWait(&bar);
        for (int i = 0; i < kBytes; ++i) g2sOut[i] = buf[i];
        for (int i = 0; i < kBytes; ++i) buf[i] = static_cast<uint8_t>(0xA0 ^ i);
        asm volatile("fence.proxy.async.shared::cta;");
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(s2gOut), "r"(smemAddr(buf)),
                     "r"(kBytes)
                     : "memory");
        asm volatile("cp.async.bulk.commit_group;");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
}

// A cluster of 2: CTA 0 multicasts src to both CTAs (ctaMask 0b11), then copies its own buffer
// (shared::cta) into CTA 1's second buffer (shared::cluster) completing on CTA 1's second barrier.
__global__ void __cluster_dims__(2, 1, 1) clusterKernel(const uint8_t* src, uint8_t* mcOut, uint8_t* c2cOut) {
    __shared__ alignas(128) uint8_t buf[kBytes];
    __shared__ alignas(128) uint8_t buf2[kBytes];
    __shared__ alignas(8) uint64_t bar, bar2;
    uint32_t rank;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    if (threadIdx.x == 0) {
        mbarInit(&bar, kBytes);
        mbarInit(&bar2, rank == 1 ? kBytes : 0);
    }
    asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;");
    if (threadIdx.x == 0 && rank == 0)
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1], "
                     "%2, [%3], %4;" ::"r"(smemAddr(buf)),
                     "l"(src), "r"(kBytes), "r"(smemAddr(&bar)), "h"(static_cast<uint16_t>(3))
                     : "memory");
    if (threadIdx.x == 0) mbarWait(&bar);
    if (threadIdx.x == 0) {
        for (int i = 0; i < kBytes; ++i) mcOut[rank * kBytes + i] = buf[i];
        if (rank == 0) {
            for (int i = 0; i < kBytes; ++i) buf[i] = static_cast<uint8_t>(0x5C ^ i);
            asm volatile("fence.proxy.async.shared::cta;");
            uint32_t remoteBuf, remoteBar;
            asm volatile("mapa.shared::cluster.u32 %0, %1, 1;" : "=r"(remoteBuf) : "r"(smemAddr(buf2)));
            asm volatile("mapa.shared::cluster.u32 %0, %1, 1;" : "=r"(remoteBar) : "r"(smemAddr(&bar2)));
            asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                             remoteBuf),
                         "r"(smemAddr(buf)), "r"(kBytes), "r"(remoteBar)
                         : "memory");
        } else {
            mbarWait(&bar2);
            for (int i = 0; i < kBytes; ++i) c2cOut[i] = buf2[i];
        }
    }
    asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;");
}

#define REDUCE_KERNEL(OP)                                                                                         \
    __global__ void reduce_##OP(const __grid_constant__ CUtensorMap map, const uint8_t* init) {                    \
        __shared__ alignas(128) uint8_t buf[kBytes];                                                              \
        if (threadIdx.x == 0) {                                                                                   \
            for (int i = 0; i < kBytes; ++i) buf[i] = init[i];                                                    \
            asm volatile("fence.proxy.async.shared::cta;");                                                       \
            asm volatile("cp.reduce.async.bulk.tensor.1d.global.shared::cta." #OP ".tile.bulk_group [%0, {%1}], [%2];" ::"l"( \
                             &map),                                                                               \
                         "r"(0), "r"(smemAddr(buf))                                                               \
                         : "memory");                                                                             \
            asm volatile("cp.async.bulk.commit_group;");                                                          \
            asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");                                             \
        }                                                                                                         \
    }
REDUCE_KERNEL(add)
REDUCE_KERNEL(min)
REDUCE_KERNEL(max)
REDUCE_KERNEL(inc)
REDUCE_KERNEL(dec)
REDUCE_KERNEL(and)
REDUCE_KERNEL(or)
REDUCE_KERNEL(xor)

static std::string hex(const std::vector<uint8_t>& v) {
    std::string s;
    char b[3];
    for (uint8_t x : v) std::snprintf(b, sizeof b, "%02x", x), s += b;
    return s;
}

struct DType {
    const char* name;
    CUtensorMapDataType type;
    int bytes;
};
static const DType kTypes[] = {
    {"UINT8", CU_TENSOR_MAP_DATA_TYPE_UINT8, 1},     {"UINT16", CU_TENSOR_MAP_DATA_TYPE_UINT16, 2},
    {"UINT32", CU_TENSOR_MAP_DATA_TYPE_UINT32, 4},   {"INT32", CU_TENSOR_MAP_DATA_TYPE_INT32, 4},
    {"UINT64", CU_TENSOR_MAP_DATA_TYPE_UINT64, 8},   {"INT64", CU_TENSOR_MAP_DATA_TYPE_INT64, 8},
    {"FLOAT16", CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2}, {"BFLOAT16", CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2},
    {"FLOAT32", CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4}, {"FLOAT64", CU_TENSOR_MAP_DATA_TYPE_FLOAT64, 8},
};

// Deterministic bytes: global "before" and shared "src" differ so every op changes something visible.
static std::vector<uint8_t> pattern(uint32_t seed) {
    std::vector<uint8_t> v(kBytes);
    uint32_t x = seed;
    for (auto& b : v) x = x * 1664525u + 1013904223u, b = static_cast<uint8_t>(x >> 24);
    return v;
}

static int runCopy() {
    g_case = "copy";
    const auto src = pattern(1);
    uint8_t *dSrc, *dG2s, *dS2g, *dPf, *dMc, *dC2c;
    CK(cudaMalloc(&dSrc, kBytes));
    CK(cudaMalloc(&dG2s, kBytes));
    CK(cudaMalloc(&dS2g, kBytes));
    CK(cudaMalloc(&dPf, kBytes));
    CK(cudaMalloc(&dMc, 2 * kBytes));
    CK(cudaMalloc(&dC2c, kBytes));
    CK(cudaMemcpy(dSrc, src.data(), kBytes, cudaMemcpyHostToDevice));
    CK(cudaMemset(dPf, 0x33, kBytes));
    copyKernel<<<1, 32>>>(dSrc, dG2s, dS2g, dPf);
    CK(cudaDeviceSynchronize());
    clusterKernel<<<2, 32>>>(dSrc, dMc, dC2c);
    CK(cudaDeviceSynchronize());
    std::vector<uint8_t> g2s(kBytes), s2g(kBytes), pf(kBytes), mc(2 * kBytes), c2c(kBytes);
    CK(cudaMemcpy(g2s.data(), dG2s, kBytes, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(s2g.data(), dS2g, kBytes, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(pf.data(), dPf, kBytes, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(mc.data(), dMc, 2 * kBytes, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(c2c.data(), dC2c, kBytes, cudaMemcpyDeviceToHost));
    std::printf("{\"case\": \"copy.g2s\", \"src\": \"%s\", \"after\": \"%s\"}\n", hex(src).c_str(), hex(g2s).c_str());
    std::printf("{\"case\": \"copy.s2g\", \"after\": \"%s\"}\n", hex(s2g).c_str());
    std::printf("{\"case\": \"copy.prefetch\", \"before\": \"%s\", \"after\": \"%s\"}\n",
                hex(std::vector<uint8_t>(kBytes, 0x33)).c_str(), hex(pf).c_str());
    std::printf("{\"case\": \"copy.multicast\", \"cta0\": \"%s\", \"cta1\": \"%s\"}\n",
                hex(std::vector<uint8_t>(mc.begin(), mc.begin() + kBytes)).c_str(),
                hex(std::vector<uint8_t>(mc.begin() + kBytes, mc.end())).c_str());
    std::printf("{\"case\": \"copy.cta_to_cluster\", \"after\": \"%s\"}\n", hex(c2c).c_str());
    return 0;
}

static int runReduce(const std::string& op, const std::string& dtype) {
    g_case = "reduce";
    const DType* t = nullptr;
    for (const auto& d : kTypes)
        if (dtype == d.name) t = &d;
    if (!t) return std::printf("{\"case\": \"reduce\", \"error\": \"unknown dtype %s\"}\n", dtype.c_str()), 1;
    const auto before = pattern(7), src = pattern(11);
    uint8_t *dGlobal, *dInit;
    CK(cudaMalloc(&dGlobal, kBytes));
    CK(cudaMalloc(&dInit, kBytes));
    CK(cudaMemcpy(dGlobal, before.data(), kBytes, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dInit, src.data(), kBytes, cudaMemcpyHostToDevice));
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult q;
    CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q));
    auto encode = reinterpret_cast<decltype(&cuTensorMapEncodeTiled)>(fn);
    CUtensorMap map;
    const cuuint64_t dim[1] = {static_cast<cuuint64_t>(kBytes / t->bytes)};
    const cuuint64_t stride[1] = {kBytes};
    const cuuint32_t box[1] = {static_cast<cuuint32_t>(kBytes / t->bytes)}, estride[1] = {1};
    const CUresult r = encode(&map, t->type, 1, dGlobal, dim, stride, box, estride, CU_TENSOR_MAP_INTERLEAVE_NONE,
                              CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                              CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS)
        return std::printf("{\"case\": \"reduce\", \"op\": \"%s\", \"dtype\": \"%s\", \"error\": \"encode %d\"}\n",
                           op.c_str(), dtype.c_str(), static_cast<int>(r)),
               1;
    if (op == "add") reduce_add<<<1, 32>>>(map, dInit);
    else if (op == "min") reduce_min<<<1, 32>>>(map, dInit);
    else if (op == "max") reduce_max<<<1, 32>>>(map, dInit);
    else if (op == "inc") reduce_inc<<<1, 32>>>(map, dInit);
    else if (op == "dec") reduce_dec<<<1, 32>>>(map, dInit);
    else if (op == "and") reduce_and<<<1, 32>>>(map, dInit);
    else if (op == "or") reduce_or<<<1, 32>>>(map, dInit);
    else if (op == "xor") reduce_xor<<<1, 32>>>(map, dInit);
    const cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess)
        return std::printf("{\"case\": \"reduce\", \"op\": \"%s\", \"dtype\": \"%s\", \"error\": \"%s\"}\n", op.c_str(),
                           dtype.c_str(), cudaGetErrorString(e)),
               0;
    std::vector<uint8_t> after(kBytes);
    CK(cudaMemcpy(after.data(), dGlobal, kBytes, cudaMemcpyDeviceToHost));
    std::printf("{\"case\": \"reduce\", \"op\": \"%s\", \"dtype\": \"%s\", \"before\": \"%s\", \"src\": \"%s\", "
                "\"after\": \"%s\"}\n",
                op.c_str(), dtype.c_str(), hex(before).c_str(), hex(src).c_str(), hex(after).c_str());
    return 0;
}

int main(int argc, char** argv) {
    if (argc == 2 && std::strcmp(argv[1], "copy") == 0) return runCopy();
    if (argc == 4 && std::strcmp(argv[1], "reduce") == 0) return runReduce(argv[2], argv[3]);
    std::fprintf(stderr, "usage: bulk_probe copy | bulk_probe reduce OP DTYPE\n");
    return 2;
}
