// Random TMA probe: runs ONE tile load or tile store case (cp.async.bulk.tensor, PTX ISA 9.7.9.25)
// on sm_90a and prints one JSON line in the golden format of /work/shared/golden/tma/README.md
// (tma_tile_load / tma_store records, index_pattern_v1 fill, tx measurement by complete_tx(1)).
// One process per case: an execution error poisons the CUDA context.
//
// Build: nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a tma_random_probe.cu -lcuda
// Usage: probe <case_id> <load|store> <dtype> <rank> <interleave> <swizzle> <oob>
//              <gd0..gd4> <gs0..gs3> <box0..box4> <es0..es4> <c0..c4> <dstOff> <regionLen>
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

static constexpr uint32_t kSmemBytes = 200 * 1024;

__device__ uint32_t smemAddr(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

template <int R> __device__ void issueLoad(uint32_t d, const CUtensorMap* m, const int32_t* c, uint32_t b);
template <> __device__ void issueLoad<1>(uint32_t d, const CUtensorMap* m, const int32_t* c, uint32_t b) {
    asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];"
                 :: "r"(d), "l"(m), "r"(c[0]), "r"(b) : "memory"); }
template <> __device__ void issueLoad<2>(uint32_t d, const CUtensorMap* m, const int32_t* c, uint32_t b) {
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 :: "r"(d), "l"(m), "r"(c[0]), "r"(c[1]), "r"(b) : "memory"); }
template <> __device__ void issueLoad<3>(uint32_t d, const CUtensorMap* m, const int32_t* c, uint32_t b) {
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"
                 :: "r"(d), "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(b) : "memory"); }
template <> __device__ void issueLoad<4>(uint32_t d, const CUtensorMap* m, const int32_t* c, uint32_t b) {
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];"
                 :: "r"(d), "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(b) : "memory"); }
template <> __device__ void issueLoad<5>(uint32_t d, const CUtensorMap* m, const int32_t* c, uint32_t b) {
    asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];"
                 :: "r"(d), "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(b) : "memory"); }
template <int R> __device__ void issueStore(uint32_t s, const CUtensorMap* m, const int32_t* c);
template <> __device__ void issueStore<1>(uint32_t s, const CUtensorMap* m, const int32_t* c) {
    asm volatile("cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [%0, {%1}], [%2];" :: "l"(m), "r"(c[0]), "r"(s) : "memory"); }
template <> __device__ void issueStore<2>(uint32_t s, const CUtensorMap* m, const int32_t* c) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];" :: "l"(m), "r"(c[0]), "r"(c[1]), "r"(s) : "memory"); }
template <> __device__ void issueStore<3>(uint32_t s, const CUtensorMap* m, const int32_t* c) {
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3}], [%4];" :: "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(s) : "memory"); }
template <> __device__ void issueStore<4>(uint32_t s, const CUtensorMap* m, const int32_t* c) {
    asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3, %4}], [%5];" :: "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(s) : "memory"); }
template <> __device__ void issueStore<5>(uint32_t s, const CUtensorMap* m, const int32_t* c) {
    asm volatile("cp.async.bulk.tensor.5d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3, %4, %5}], [%6];" :: "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(s) : "memory"); }

__host__ __device__ uint32_t mix32(uint32_t x) {
    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16; return x;
}
// index_pattern_v1: element k, elem_bytes e (little-endian)
__host__ __device__ void fillElem(uint8_t* p, uint64_t k, int e) {
    uint64_t v = e == 1 ? (mix32(uint32_t(k + 1)) & 0xff) : e == 2 ? (mix32(uint32_t(k + 1)) & 0xffff) : k + 1;
    for (int i = 0; i < e; ++i) p[i] = uint8_t(v >> (8 * i));
}

struct KParams { int32_t c[5]; uint32_t dstOff, region, txArm; int isStore, e; };

template <int R>
__global__ void probeKernel(const __grid_constant__ CUtensorMap map, KParams p, uint8_t* dump, uint32_t* out) {
    extern __shared__ __align__(1024) uint8_t dyn[];
    __shared__ __align__(8) uint64_t bar;
    uint8_t* base = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(dyn) + 1023) & ~uintptr_t(1023));
    uint32_t baseAddr = smemAddr(base);
    if (p.isStore) {
        for (uint32_t j = threadIdx.x; j < p.region / p.e; j += blockDim.x) fillElem(base + j * p.e, j, p.e);
    } else {
        for (uint32_t i = threadIdx.x; i < p.region; i += blockDim.x) base[i] = 0xA5;
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        out[0] = baseAddr; out[1] = smemAddr(dyn);
        if (p.isStore) {
            issueStore<R>(baseAddr + p.dstOff, &map, p.c);
            asm volatile("cp.async.bulk.commit_group;" ::: "memory");
            asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
        } else {
            uint32_t b = smemAddr(&bar);
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(b) : "memory");
            asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
            asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
            asm volatile("{ .reg .b64 st; mbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1; }" :: "r"(b), "r"(p.txArm) : "memory");
            issueLoad<R>(baseAddr + p.dstOff, &map, p.c, b);
            uint64_t t0 = clock64();
            while (clock64() - t0 < 200000) { }   // ~100 us settle
            uint32_t r = 0, done = 0;
            for (; r <= p.txArm; ++r) {
                asm volatile("{ .reg .pred q; mbarrier.test_wait.parity.shared::cta.b64 q, [%1], 0; selp.u32 %0, 1, 0, q; }"
                             : "=r"(done) : "r"(b) : "memory");
                if (done) break;
                asm volatile("mbarrier.complete_tx.shared::cta.b64 [%0], 1;" :: "r"(b) : "memory");
            }
            out[2] = done && r > 0 ? p.txArm - r : 0xFFFFFFFFu;   // done at once: >= U credited
        }
    }
    __syncthreads();
    for (uint32_t i = threadIdx.x; i < p.region; i += blockDim.x) dump[i] = base[i];
}

static const char* kDtype[] = {"UINT8", "UINT16", "UINT32", "INT32", "UINT64", "INT64", "FLOAT16", "FLOAT32",
                               "FLOAT64", "BFLOAT16", "FLOAT32_FTZ", "TFLOAT32", "TFLOAT32_FTZ"};
static const int kElem[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
static const char* kInter[] = {"NONE", "16B", "32B"};
static const char* kSwz[] = {"NONE", "32B", "64B", "128B"};
static const char* kOob[] = {"NONE", "NAN_REQUEST_ZERO_FMA"};

static void hexOut(const uint8_t* p, size_t n) {
    static const char* h = "0123456789abcdef";
    for (size_t i = 0; i < n; ++i) { putchar(h[p[i] >> 4]); putchar(h[p[i] & 15]); }
}
static void arr(const char* name, const uint64_t* v, int n) {
    printf("\"%s\":[", name);
    for (int i = 0; i < n; ++i) printf("%s%llu", i ? "," : "", (unsigned long long)v[i]);
    printf("]");
}
static bool hasSrcIndex(int dt) { return dt == 2 || dt == 3 || dt == 4 || dt == 5 || dt == 7 || dt == 8 || dt == 10; }
// src index list: one entry per e bytes; v-1 when v in [1, limit], else null
static void srcIndex(const char* name, const uint8_t* p, size_t n, int e, uint64_t limit) {
    printf(",\"%s\":[", name);
    for (size_t i = 0; i + e <= n; i += e) {
        uint64_t v = 0;
        for (int b = 0; b < e; ++b) v |= uint64_t(p[i + b]) << (8 * b);
        if (i) putchar(',');
        if (v >= 1 && v <= limit) printf("%llu", (unsigned long long)(v - 1)); else printf("null");
    }
    printf("]");
}

int main(int argc, char** argv) {
    if (argc != 1 + 7 + 5 + 4 + 5 + 5 + 5 + 2) { fprintf(stderr, "bad args %d\n", argc); return 2; }
    int k = 1;
    std::string id = argv[k++], kind = argv[k++];
    int dt = atoi(argv[k++]), rank = atoi(argv[k++]), il = atoi(argv[k++]), sw = atoi(argv[k++]), oob = atoi(argv[k++]);
    uint64_t gd[5], gs[4]; uint32_t box[5], es[5]; int32_t c[5];
    for (auto& v : gd) v = strtoull(argv[k++], nullptr, 0);
    for (auto& v : gs) v = strtoull(argv[k++], nullptr, 0);
    for (auto& v : box) v = strtoul(argv[k++], nullptr, 0);
    for (auto& v : es) v = strtoul(argv[k++], nullptr, 0);
    for (auto& v : c) v = int32_t(strtol(argv[k++], nullptr, 0));
    uint32_t dstOff = strtoul(argv[k++], nullptr, 0), region = strtoul(argv[k++], nullptr, 0);
    bool isStore = kind == "store";
    int e = kElem[dt];

    cudaFree(nullptr);
    uint64_t extent = rank == 1 ? gd[0] * e : gs[rank - 2] * gd[rank - 1];
    uint64_t alloc = (extent + 255) / 256 * 256;
    uint8_t* g = nullptr;
    cudaMalloc(&g, alloc);
    std::vector<uint8_t> host(alloc);
    if (isStore) memset(host.data(), 0xA5, alloc);
    else for (uint64_t i = 0; i < alloc / e; ++i) fillElem(&host[i * e], i, e);
    cudaMemcpy(g, host.data(), alloc, cudaMemcpyHostToDevice);

    CUtensorMap map{};
    CUresult er = cuTensorMapEncodeTiled(&map, CUtensorMapDataType(dt), rank, g, gd, gs, box, es, CUtensorMapInterleave(il),
                                         CUtensorMapSwizzle(sw), CU_TENSOR_MAP_L2_PROMOTION_NONE, CUtensorMapFloatOOBfill(oob));
    const char* erName = nullptr; cuGetErrorName(er, &erName);
    printf("{\"case_id\":\"%s\",\"category\":\"%s\",\"group\":\"random\",", id.c_str(), isStore ? "store" : "tile_load");
    printf("\"tensor_map\":{\"fn\":\"cuTensorMapEncodeTiled\",\"tensorDataType\":\"CU_TENSOR_MAP_DATA_TYPE_%s\",\"tensorDataTypeValue\":%d,\"tensorRank\":%d,",
           kDtype[dt], dt, rank);
    arr("globalDim", gd, rank); printf(",");
    arr("globalStrides", gs, rank - 1); printf(",");
    uint64_t b64[5], e64[5]; for (int i = 0; i < 5; ++i) { b64[i] = box[i]; e64[i] = es[i]; }
    arr("boxDim", b64, rank); printf(",");
    arr("elementStrides", e64, rank);
    printf(",\"interleave\":\"CU_TENSOR_MAP_INTERLEAVE_%s\",\"interleaveValue\":%d,\"swizzle\":\"CU_TENSOR_MAP_SWIZZLE_%s\",\"swizzleValue\":%d,"
           "\"l2Promotion\":\"CU_TENSOR_MAP_L2_PROMOTION_NONE\",\"l2PromotionValue\":0,\"oobFill\":\"CU_TENSOR_MAP_FLOAT_OOB_FILL_%s\",\"oobFillValue\":%d},",
           kInter[il], il, kSwz[sw], sw, kOob[oob], oob);
    printf("\"global_address\":\"0x%llx\",\"global_alloc_bytes\":%llu,\"elem_bytes\":%d,", (unsigned long long)(uintptr_t)g,
           (unsigned long long)alloc, e);
    printf(isStore ? "\"global_init\":\"all bytes 0xA5\"," : "\"global_fill\":\"index_pattern_v1\",");
    printf("\"encode_result\":\"%s\",\"encode_result_value\":%d", erName ? erName : "?", int(er));
    // box_bytes: dense box (README)
    uint64_t bb = il ? (box[0] + es[0] - 1) / es[0] : box[0];
    for (int i = 1; i < rank; ++i) bb *= (box[i] + es[i] - 1) / es[i];
    bb *= e;
    if (er != CUDA_SUCCESS) {
        if (isStore) printf(",\"instruction\":\"cp.async.bulk.tensor.%dd.global.shared::cta.tile.bulk_group\"", rank);
        printf(",\"box_bytes\":%llu,\"exec_error\":null}\n", (unsigned long long)bb);
        return 0;
    }
    printf(",\"tensormap_hex\":\""); hexOut(reinterpret_cast<const uint8_t*>(&map), 128); printf("\"");
    printf(isStore ? ",\"instruction\":\"cp.async.bulk.tensor.%dd.global.shared::cta.tile.bulk_group\",\"coords\":["
                   : ",\"cluster_size\":1,\"issues\":[{\"cta\":0,\"instruction\":\"cp.async.bulk.tensor.%dd.shared::cluster.global.tile.mbarrier::complete_tx::bytes\",\"coords\":[",
           rank);
    for (int i = 0; i < rank; ++i) printf("%s%d", i ? "," : "", c[i]);
    uint64_t arm = bb * 3 > region ? bb * 3 : region;   // above anything the dumped region can hold
    uint32_t txArm = uint32_t(arm < (1u << 20) - 1 ? arm : (1u << 20) - 1);
    if (isStore) printf("],\"src_offset\":%u,\"box_bytes\":%llu,\"region_len\":%u,\"smem_fill\":\"index_pattern_v1 over [smem_base, smem_base+region_len), element index counted from smem_base\"",
                        dstOff, (unsigned long long)bb, region);
    else printf("],\"multicast\":false,\"cta_mask\":null,\"dst_offset\":%u}],\"box_bytes\":%llu,\"region_len\":%u,\"tx_armed\":%u",
                dstOff, (unsigned long long)bb, region, txArm);

    uint8_t* dump = nullptr; uint32_t* out = nullptr;
    cudaMalloc(&dump, region); cudaMalloc(&out, 16); cudaMemset(out, 0, 16);
    KParams p{};
    for (int i = 0; i < 5; ++i) p.c[i] = c[i];
    p.dstOff = dstOff; p.region = region; p.txArm = txArm; p.isStore = isStore; p.e = e;
    auto launch = [&](auto kern) {
        cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);
        kern<<<1, 128, kSmemBytes>>>(map, p, dump, out);
    };
    switch (rank) { case 1: launch(probeKernel<1>); break; case 2: launch(probeKernel<2>); break;
                    case 3: launch(probeKernel<3>); break; case 4: launch(probeKernel<4>); break; default: launch(probeKernel<5>); }
    cudaError_t ce = cudaDeviceSynchronize();
    if (ce == cudaSuccess) ce = cudaGetLastError();
    if (ce != cudaSuccess) { printf(",\"exec_error\":\"%s\"}\n", cudaGetErrorName(ce)); fflush(stdout); return 0; }
    uint32_t o[4];
    cudaMemcpy(o, out, 16, cudaMemcpyDeviceToHost);
    printf(",\"smem_base_addr\":%u,\"dyn_smem_raw_addr\":%u", o[0], o[1]);
    if (isStore) {
        cudaMemcpy(host.data(), g, alloc, cudaMemcpyDeviceToHost);
        uint64_t changed = 0; for (auto v : host) changed += v != 0xA5;
        printf(",\"global_hex\":\""); hexOut(host.data(), alloc); printf("\"");
        if (hasSrcIndex(dt)) srcIndex("global_src_index", host.data(), alloc, e, region / e);
        printf(",\"bytes_changed\":%llu,\"exec_error\":null}\n", (unsigned long long)changed);
    } else {
        std::vector<uint8_t> s(region);
        cudaMemcpy(s.data(), dump, region, cudaMemcpyDeviceToHost);
        printf(",\"ctas\":[{\"cta\":0,\"formula_tx_bytes\":%llu,\"measured_tx_bytes\":", (unsigned long long)bb);
        if (o[2] == 0xFFFFFFFFu) printf("null"); else printf("%u", o[2]);
        printf(",\"post_check\":-1,\"smem_hex\":\""); hexOut(s.data(), region); printf("\"");
        if (hasSrcIndex(dt)) srcIndex("src_index", s.data(), region, e, alloc / e);
        printf("}],\"exec_error\":null}\n");
    }
    return 0;
}
