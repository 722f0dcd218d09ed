// Probe: one im2col-family cp.async.bulk.tensor on sm_90a: an .im2col load (kind "im2col") or an
// .im2col_no_offs store (kind "i2cstore"), with a map from cuTensorMapEncodeIm2col. Prints one JSON
// line: encode result, execution error, measured complete_tx (loads), the touched memory. Derived from
// ../interleave_probe.cu (same argument order and fill conventions); results in docs/im2col.md.
//
// Build: nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a im2col_probe.cu -lcuda
// Usage: probe <id> <im2col|i2cstore> <dtype> <rank> <interleave> <swizzle> <oob> <gd0..gd4>
//              <gs0..gs3> <cpp> <ppc> <0> <0> <0> <es0..es4> <c0..c4> <dstOff> <regionLen>
//              <lowerW lowerH lowerD upperW upperH upperD offW offH offD>
// Fill conventions (probe_word_v1):
//  * load:  every 32-bit word w of the global allocation holds w+1; smem [base, base+region) is 0xA5.
//  * store: smem word j (from base) holds 0x40000000 + j + 1; global is all 0xA5 before the store.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

static constexpr uint32_t kTxArm = 1u << 17;    // expect_tx upper bound
static constexpr uint32_t kSmemBytes = 200 * 1024;

struct Args {
    std::string id, kind;
    int dtype, rank, interleave, swizzle, oob;
    uint64_t gd[5], gs[4];
    uint32_t box[5], es[5];
    int32_t c[5];
    uint32_t dstOff, region;
    int lower[3], upper[3], off[3];   // im2col only (W, H, D)
};

__device__ uint32_t smemAddr(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

template <int R>
__device__ void issueLoad(uint32_t dst, const CUtensorMap* map, const int32_t* c, uint32_t bar);
template <>
__device__ void issueLoad<3>(uint32_t dst, const CUtensorMap* map, const int32_t* c, uint32_t bar) {
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"
                 :: "r"(dst), "l"(map), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(bar) : "memory");
}
template <>
__device__ void issueLoad<4>(uint32_t dst, const CUtensorMap* map, const int32_t* c, uint32_t bar) {
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];"
                 :: "r"(dst), "l"(map), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(bar) : "memory");
}
template <>
__device__ void issueLoad<5>(uint32_t dst, const CUtensorMap* map, const int32_t* c, uint32_t bar) {
    asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];"
                 :: "r"(dst), "l"(map), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(bar) : "memory");
}
// im2col: rank-2 16-bit offsets (W, H, D).
template <int R>
__device__ void issueIm2col(uint32_t dst, const CUtensorMap* map, const int32_t* c, uint32_t bar, const uint16_t* o);
template <>
__device__ void issueIm2col<3>(uint32_t dst, const CUtensorMap* map, const int32_t* c, uint32_t bar, const uint16_t* o) {
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5], {%6};"
                 :: "r"(dst), "l"(map), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(bar), "h"(o[0]) : "memory");
}
template <>
__device__ void issueIm2col<4>(uint32_t dst, const CUtensorMap* map, const int32_t* c, uint32_t bar, const uint16_t* o) {
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};"
                 :: "r"(dst), "l"(map), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(bar), "h"(o[0]), "h"(o[1]) : "memory");
}
template <>
__device__ void issueIm2col<5>(uint32_t dst, const CUtensorMap* map, const int32_t* c, uint32_t bar, const uint16_t* o) {
    asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7], {%8, %9, %10};"
                 :: "r"(dst), "l"(map), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(bar), "h"(o[0]), "h"(o[1]), "h"(o[2]) : "memory");
}
template <int R>
__device__ void issueStore(uint32_t src, const CUtensorMap* map, const int32_t* c);
template <>
__device__ void issueStore<3>(uint32_t src, const CUtensorMap* map, const int32_t* c) {
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3}], [%4];"
                 :: "l"(map), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(src) : "memory");
}
template <>
__device__ void issueStore<4>(uint32_t src, const CUtensorMap* map, const int32_t* c) {
    asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3, %4}], [%5];"
                 :: "l"(map), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(src) : "memory");
}
template <>
__device__ void issueStore<5>(uint32_t src, const CUtensorMap* map, const int32_t* c) {
    asm volatile("cp.async.bulk.tensor.5d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3, %4, %5}], [%6];"
                 :: "l"(map), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(src) : "memory");
}

template <int R>
__device__ void issueNoOffs(uint32_t src, const CUtensorMap* map, const int32_t* c);
template <>
__device__ void issueNoOffs<3>(uint32_t src, const CUtensorMap* map, const int32_t* c) {
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.im2col_no_offs.bulk_group [%0, {%1, %2, %3}], [%4];"
                 :: "l"(map), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(src) : "memory");
}
template <>
__device__ void issueNoOffs<4>(uint32_t src, const CUtensorMap* map, const int32_t* c) {
    asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.im2col_no_offs.bulk_group [%0, {%1, %2, %3, %4}], [%5];"
                 :: "l"(map), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(src) : "memory");
}
template <>
__device__ void issueNoOffs<5>(uint32_t src, const CUtensorMap* map, const int32_t* c) {
    asm volatile("cp.async.bulk.tensor.5d.global.shared::cta.im2col_no_offs.bulk_group [%0, {%1, %2, %3, %4, %5}], [%6];"
                 :: "l"(map), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(src) : "memory");
}

struct KParams {
    int32_t c[5];
    uint32_t dstOff, region;
    int rank, isStore, isIm2col;
    uint16_t off[3];
};

template <int R>
__global__ void probeKernel(const __grid_constant__ CUtensorMap map, KParams p, uint8_t* dump, uint32_t* txOut) {
    extern __shared__ __align__(1024) uint8_t dyn[];
    __shared__ __align__(8) uint64_t bar;
    uint8_t* base = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(dyn) + 1023) & ~uintptr_t(1023));
    uint32_t baseAddr = smemAddr(base);
    for (uint32_t i = threadIdx.x; i < p.region / 4; i += blockDim.x)
        reinterpret_cast<uint32_t*>(base)[i] = p.isStore ? 0x40000000u + i + 1 : 0xA5A5A5A5u;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        if (p.isStore) {
            if (p.isIm2col) issueNoOffs<R>(baseAddr + p.dstOff, &map, p.c);
            else issueStore<R>(baseAddr + p.dstOff, &map, p.c);
            asm volatile("cp.async.bulk.commit_group;" ::: "memory");
            asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
            txOut[0] = baseAddr;
        } else {
            uint32_t b = smemAddr(&bar);
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(b) : "memory");
            asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
            asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
            asm volatile("{ .reg .b64 st; mbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1; }" :: "r"(b), "r"(kTxArm) : "memory");
            if (p.isIm2col) issueIm2col<R>(baseAddr + p.dstOff, &map, p.c, b, p.off);
            else issueLoad<R>(baseAddr + p.dstOff, &map, p.c, b);
            uint64_t t0 = clock64();
            while (clock64() - t0 < 400000) { }   // ~200 us settle
            uint32_t r = 0, done = 0;
            for (; r <= kTxArm && !done; ++r) {
                asm volatile("{ .reg .pred q; mbarrier.test_wait.parity.shared::cta.b64 q, [%1], 0; selp.u32 %0, 1, 0, q; }"
                             : "=r"(done) : "r"(b) : "memory");
                if (done) break;
                asm volatile("mbarrier.complete_tx.shared::cta.b64 [%0], 1;" :: "r"(b) : "memory");
            }
            txOut[0] = baseAddr;
            txOut[1] = done ? kTxArm - r : 0xFFFFFFFFu;
        }
    }
    __syncthreads();
    for (uint32_t i = threadIdx.x; i < p.region; i += blockDim.x) dump[i] = base[i];
}

static void hexOut(const uint8_t* p, size_t n) {
    static const char* h = "0123456789abcdef";
    for (size_t i = 0; i < n; ++i) { putchar(h[p[i] >> 4]); putchar(h[p[i] & 15]); }
}

int main(int argc, char** argv) {
    const int base = 1 + 7 + 5 + 4 + 5 + 5 + 5 + 2;
    if (argc != base && argc != base + 6 && argc != base + 9) { fprintf(stderr, "bad args %d\n", argc); return 2; }
    Args a{};
    int k = 1;
    a.id = argv[k++]; a.kind = argv[k++];
    a.dtype = atoi(argv[k++]); a.rank = atoi(argv[k++]); a.interleave = atoi(argv[k++]);
    a.swizzle = atoi(argv[k++]); a.oob = atoi(argv[k++]);
    for (auto& v : a.gd) v = strtoull(argv[k++], nullptr, 0);
    for (auto& v : a.gs) v = strtoull(argv[k++], nullptr, 0);
    for (auto& v : a.box) v = strtoul(argv[k++], nullptr, 0);
    for (auto& v : a.es) v = strtoul(argv[k++], nullptr, 0);
    for (auto& v : a.c) v = static_cast<int32_t>(strtol(argv[k++], nullptr, 0));
    a.dstOff = strtoul(argv[k++], nullptr, 0); a.region = strtoul(argv[k++], nullptr, 0);
    bool isStore = a.kind == "store" || a.kind == "i2cstore";
    bool isIm2col = a.kind == "im2col" || a.kind == "i2cstore";
    if (argc == base + 6) {          // run 2 format: W, H only
        a.lower[0] = atoi(argv[k++]); a.lower[1] = atoi(argv[k++]);
        a.upper[0] = atoi(argv[k++]); a.upper[1] = atoi(argv[k++]);
        a.off[0] = atoi(argv[k++]); a.off[1] = atoi(argv[k++]);
    } else if (argc == base + 9) {   // W, H, D each
        for (int i = 0; i < 3; ++i) a.lower[i] = atoi(argv[k++]);
        for (int i = 0; i < 3; ++i) a.upper[i] = atoi(argv[k++]);
        for (int i = 0; i < 3; ++i) a.off[i] = atoi(argv[k++]);
    }

    cudaFree(nullptr);
    uint64_t extent = a.gs[a.rank - 2] * a.gd[a.rank - 1];
    uint64_t alloc = ((extent + 255) / 256) * 256 + 65536;   // slack so that over-reads stay in the allocation
    uint8_t* g = nullptr;
    cudaMalloc(&g, alloc + 65536);
    uint8_t* gAddr = g + 65536;                            // slack below too (negative over-reads)
    std::vector<uint8_t> host(alloc + 65536);
    for (size_t w = 0; w < host.size() / 4; ++w) {
        uint32_t v = isStore ? 0xA5A5A5A5u : static_cast<uint32_t>(w) - 65536 / 4 + 1;
        memcpy(&host[w * 4], &v, 4);
    }
    cudaMemcpy(g, host.data(), host.size(), cudaMemcpyHostToDevice);

    CUtensorMap map{};
    CUresult er = isIm2col
        ? cuTensorMapEncodeIm2col(&map, static_cast<CUtensorMapDataType>(a.dtype), a.rank, gAddr, a.gd, a.gs, a.lower, a.upper,
                                  a.box[0], a.box[1], a.es, static_cast<CUtensorMapInterleave>(a.interleave),
                                  static_cast<CUtensorMapSwizzle>(a.swizzle), CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                  static_cast<CUtensorMapFloatOOBfill>(a.oob))
        : cuTensorMapEncodeTiled(&map, static_cast<CUtensorMapDataType>(a.dtype), a.rank, gAddr, a.gd, a.gs, a.box,
                                         a.es, static_cast<CUtensorMapInterleave>(a.interleave),
                                         static_cast<CUtensorMapSwizzle>(a.swizzle), CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                         static_cast<CUtensorMapFloatOOBfill>(a.oob));
    printf("{\"id\":\"%s\",\"kind\":\"%s\",\"encode\":%d", a.id.c_str(), a.kind.c_str(), static_cast<int>(er));
    if (er != CUDA_SUCCESS) { printf("}\n"); return 0; }
    printf(",\"global_bytes\":%llu", static_cast<unsigned long long>(alloc));

    uint8_t* dump = nullptr; uint32_t* tx = nullptr;
    cudaMalloc(&dump, a.region); cudaMalloc(&tx, 8); cudaMemset(tx, 0, 8);
    KParams p{};
    for (int i = 0; i < 5; ++i) p.c[i] = a.c[i];
    p.dstOff = a.dstOff; p.region = a.region; p.rank = a.rank; p.isStore = isStore; p.isIm2col = isIm2col;
    for (int i = 0; i < 3; ++i) p.off[i] = static_cast<uint16_t>(a.off[i]);
    auto launch = [&](auto kern) {
        cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);
        kern<<<1, 128, kSmemBytes>>>(map, p, dump, tx);
    };
    if (a.rank == 3) launch(probeKernel<3>);
    else if (a.rank == 4) launch(probeKernel<4>);
    else launch(probeKernel<5>);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { printf(",\"exec_error\":\"%s\"}\n", cudaGetErrorName(e)); return 0; }
    uint32_t txh[2];
    cudaMemcpy(txh, tx, 8, cudaMemcpyDeviceToHost);
    printf(",\"smem_base\":%u", txh[0]);
    if (isStore) {
        cudaMemcpy(host.data(), g, host.size(), cudaMemcpyDeviceToHost);
        // global dump from gAddr - 65536 .. end; trimmed to the changed range
        size_t lo = host.size(), hi = 0;
        for (size_t i = 0; i < host.size(); ++i)
            if (host[i] != 0xA5) { if (i < lo) lo = i; hi = i + 1; }
        if (lo > hi) { lo = hi = 65536; }
        printf(",\"global_from\":%lld,\"global_hex\":\"", static_cast<long long>(lo) - 65536);
        hexOut(host.data() + lo, hi - lo);
        printf("\"}\n");
    } else {
        std::vector<uint8_t> s(a.region);
        cudaMemcpy(s.data(), dump, a.region, cudaMemcpyDeviceToHost);
        size_t hi = 0;
        for (size_t i = 0; i < s.size(); ++i) if (s[i] != 0xA5) hi = i + 1;
        printf(",\"tx\":%lld,\"region\":%u,\"smem_hex\":\"", txh[1] == 0xFFFFFFFFu ? -1LL : static_cast<long long>(txh[1]), a.region);
        hexOut(s.data(), hi);
        printf("\"}\n");
    }
    return 0;
}
