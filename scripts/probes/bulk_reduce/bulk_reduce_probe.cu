// H100 probe for plain (non-tensor) cp.reduce.async.bulk (PTX ISA 9.2 §9.7.9.25.4.2; README.md here):
//   global   cp.reduce.async.bulk.global.shared::cta.bulk_group.OP.TYPE [dst], [src], 64
//   cluster  cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.OP.TYPE
//            [dst], [src], 64, [mbar]   (dst in the issuing CTA's own shared memory)
// over 64 random bytes (NaNs, infinities and subnormals included). One form per process (an illegal
// combination may kill the context; run.sh loops). Prints one JSON line:
//   {"case": "bulk_reduce", "form": "global.add.u32", "before": HEX, "src": HEX, "after": HEX} or {..., "error"}.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

constexpr int kBytes = 64;

__device__ uint32_t smemAddr(const void* p) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

#define GLOBAL_FORM(NAME, OPTYPE)                                                                                 \
    __global__ void NAME(uint8_t* dst, const uint8_t* init) {                                                     \
        __shared__ alignas(128) uint8_t buf[kBytes];                                                              \
        if (threadIdx.x == 0) {                                                                                   \
            for (int i = 0; i < kBytes; ++i) buf[i] = init[i];                                                    \
            asm volatile("fence.proxy.async.shared::cta;" ::: "memory");                                          \
            asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group." OPTYPE " [%0], [%1], %2;" ::"l"(dst), \
                         "r"(smemAddr(buf)), "r"(kBytes)                                                          \
                         : "memory");                                                                             \
            asm volatile("cp.async.bulk.commit_group;" ::: "memory");                                             \
            asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");                                             \
        }                                                                                                         \
    }

#define CLUSTER_FORM(NAME, OPTYPE)                                                                                \
    __global__ void NAME(uint8_t* dst, const uint8_t* init) {                                                     \
        __shared__ alignas(128) uint8_t src[kBytes];                                                              \
        __shared__ alignas(128) uint8_t out[kBytes];                                                              \
        __shared__ alignas(8) uint64_t bar;                                                                       \
        if (threadIdx.x == 0) {                                                                                   \
            for (int i = 0; i < kBytes; ++i) src[i] = init[i], out[i] = dst[i];                                   \
            asm volatile("fence.proxy.async.shared::cta;" ::: "memory");                                          \
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smemAddr(&bar)));                          \
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smemAddr(&bar)),           \
                         "r"(kBytes));                                                                            \
            asm volatile("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes." OPTYPE \
                         " [%0], [%1], %2, [%3];" ::"r"(smemAddr(out)),                                           \
                         "r"(smemAddr(src)), "r"(kBytes), "r"(smemAddr(&bar))                                     \
                         : "memory");                                                                             \
            asm volatile("{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n @!p bra W;\n}" \
                         ::"r"(smemAddr(&bar)) : "memory");                                                       \
            for (int i = 0; i < kBytes; ++i) dst[i] = out[i];                                                     \
        }                                                                                                         \
    }

#define FORMS(X)                                                                                                  \
    X(GLOBAL_FORM, g_add_u32, "add.u32") X(GLOBAL_FORM, g_add_s32, "add.s32") X(GLOBAL_FORM, g_add_u64, "add.u64") \
    X(GLOBAL_FORM, g_add_f32, "add.f32") X(GLOBAL_FORM, g_add_f64, "add.f64")                                     \
    X(GLOBAL_FORM, g_add_f16, "add.noftz.f16") X(GLOBAL_FORM, g_add_bf16, "add.noftz.bf16")                       \
    X(GLOBAL_FORM, g_min_u32, "min.u32") X(GLOBAL_FORM, g_min_s32, "min.s32") X(GLOBAL_FORM, g_min_u64, "min.u64") \
    X(GLOBAL_FORM, g_min_s64, "min.s64") X(GLOBAL_FORM, g_min_f16, "min.f16") X(GLOBAL_FORM, g_min_bf16, "min.bf16") \
    X(GLOBAL_FORM, g_max_u32, "max.u32") X(GLOBAL_FORM, g_max_s32, "max.s32") X(GLOBAL_FORM, g_max_u64, "max.u64") \
    X(GLOBAL_FORM, g_max_s64, "max.s64") X(GLOBAL_FORM, g_max_f16, "max.f16") X(GLOBAL_FORM, g_max_bf16, "max.bf16") \
    X(GLOBAL_FORM, g_inc_u32, "inc.u32") X(GLOBAL_FORM, g_dec_u32, "dec.u32") X(GLOBAL_FORM, g_and_b32, "and.b32") \
    X(GLOBAL_FORM, g_and_b64, "and.b64") X(GLOBAL_FORM, g_or_b32, "or.b32") X(GLOBAL_FORM, g_or_b64, "or.b64")     \
    X(GLOBAL_FORM, g_xor_b32, "xor.b32") X(GLOBAL_FORM, g_xor_b64, "xor.b64")                                     \
    X(CLUSTER_FORM, c_add_u32, "add.u32") X(CLUSTER_FORM, c_add_s32, "add.s32") X(CLUSTER_FORM, c_add_u64, "add.u64") \
    X(CLUSTER_FORM, c_min_u32, "min.u32") X(CLUSTER_FORM, c_min_s32, "min.s32") X(CLUSTER_FORM, c_max_u32, "max.u32") \
    X(CLUSTER_FORM, c_max_s32, "max.s32") X(CLUSTER_FORM, c_inc_u32, "inc.u32") X(CLUSTER_FORM, c_dec_u32, "dec.u32") \
    X(CLUSTER_FORM, c_and_b32, "and.b32") X(CLUSTER_FORM, c_or_b32, "or.b32") X(CLUSTER_FORM, c_xor_b32, "xor.b32")

#define DEFINE(KIND, NAME, OPTYPE) KIND(NAME, OPTYPE)
FORMS(DEFINE)

struct Form {
    const char* name; // "global.add.u32" / "cluster.add.u32"
    void (*kernel)(uint8_t*, const uint8_t*);
};
#define ENTRY(KIND, NAME, OPTYPE) {(#KIND[0] == 'G' ? "global." OPTYPE : "cluster." OPTYPE), NAME},
static const Form kForms[] = {FORMS(ENTRY)};

static std::string hex(const std::vector<uint8_t>& v) {
    std::string s;
    char b[3];
    for (uint8_t x : v) std::snprintf(b, sizeof b, "%02x", x), s += b;
    return s;
}

static std::vector<uint8_t> pattern(uint64_t seed) { // splitmix64 bytes
    std::vector<uint8_t> v(kBytes);
    for (int i = 0; i < kBytes; ++i) {
        uint64_t z = (seed += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        v[i] = uint8_t(z ^ (z >> 31));
    }
    return v;
}

int main(int argc, char** argv) {
    if (argc != 2) {
        for (const Form& f : kForms) std::printf("%s\n", f.name); // the list run.sh loops over
        return 0;
    }
    const Form* f = nullptr;
    for (const Form& x : kForms)
        if (std::strcmp(argv[1], x.name) == 0) f = &x;
    if (!f) return std::printf("{\"case\": \"bulk_reduce\", \"form\": \"%s\", \"error\": \"unknown\"}\n", argv[1]), 1;
    const auto before = pattern(7 + std::strlen(f->name)), src = pattern(1000 + std::strlen(f->name));
    uint8_t *dDst = nullptr, *dInit = nullptr;
    cudaMalloc(&dDst, kBytes);
    cudaMalloc(&dInit, kBytes);
    cudaMemcpy(dDst, before.data(), kBytes, cudaMemcpyHostToDevice);
    cudaMemcpy(dInit, src.data(), kBytes, cudaMemcpyHostToDevice);
    f->kernel<<<1, 32>>>(dDst, dInit);
    const cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess)
        return std::printf("{\"case\": \"bulk_reduce\", \"form\": \"%s\", \"error\": \"%s\"}\n", f->name,
                           cudaGetErrorString(e)),
               0;
    std::vector<uint8_t> after(kBytes);
    cudaMemcpy(after.data(), dDst, kBytes, cudaMemcpyDeviceToHost);
    std::printf("{\"case\": \"bulk_reduce\", \"form\": \"%s\", \"before\": \"%s\", \"src\": \"%s\", \"after\": \"%s\"}\n",
                f->name, hex(before).c_str(), hex(src).c_str(), hex(after).c_str());
    return 0;
}
