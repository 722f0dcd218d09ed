// H100 probe (h/ldst15): what `atom.shared.add` writes for f16 / bf16 / f16x2 / bf16x2 (`.noftz`) and f32 at
// the cases the executor's model has not seen on hardware (PTX ISA 9.2 §9.7.13.5 atom): ties, subnormals
// (`.noftz` for the halves; does a shared-memory f32 add flush them?), overflow, signed zeros, NaN payloads.
// The executor's model (engine/src/exec/memory_ops.cpp): each 16-bit half rounded once to nearest even,
// subnormals kept, NaN -> 0x7fff; f32 rounded to nearest even through a double, subnormals kept. One line of
// JSON per case: {"type", "init", "b", "old", "new"} (hex bit patterns); the ctest
// (tests/engine/exec_atom_shared_h100_test.cpp) runs each case through the executor and compares.
#include <cstdio>
#include <cuda_runtime.h>

struct Case {
    int type; // 0 f16, 1 bf16, 2 f16x2, 3 bf16x2, 4 f32
    unsigned init, b;
};
static const char* kNames[] = {"f16", "bf16", "f16x2", "bf16x2", "f32"};

static const Case kCases[] = {
    // f16: 2048 + 1 (tie -> 2048), 2050 + 1 (tie -> 2052), subnormals, overflow, zeros, NaN, Inf - Inf
    {0, 0x6800, 0x3C00},
    {0, 0x6801, 0x3C00},
    {0, 0x0001, 0x0001},
    {0, 0x0001, 0x8002},
    {0, 0x03FF, 0x0001},
    {0, 0x7BFF, 0x7BFF},
    {0, 0x7BFF, 0x5000},
    {0, 0x8000, 0x0000},
    {0, 0x8000, 0x8000},
    {0, 0x7E00, 0x3C00},
    {0, 0x7E01, 0x3C00},
    {0, 0x7C01, 0x3C00},
    {0, 0xFE00, 0x3C00},
    {0, 0x7C00, 0xFC00},
    {0, 0x3C00, 0x1400},
    {0, 0x3C00, 0x1000},
    {0, 0xBC00, 0x3C00},
    // bf16: 1 + 2^-8 (tie -> 1), 1 + 3 * 2^-8 (tie -> 1 + 2^-6), subnormals, overflow, NaN payloads
    {1, 0x3F80, 0x3B80},
    {1, 0x3F80, 0x3C40},
    {1, 0x0001, 0x0001},
    {1, 0x007F, 0x0001},
    {1, 0x7F7F, 0x7F7F},
    {1, 0x8000, 0x8000},
    {1, 0x7FC1, 0x3F80},
    {1, 0x7F81, 0x3F80},
    {1, 0x7F80, 0xFF80},
    // x2: the halves alone (a NaN in one half, a tie in the other)
    {2, 0x68003C00, 0x3C003800},
    {2, 0x7E010001, 0x3C000001},
    {2, 0x80007BFF, 0x80007BFF},
    {3, 0x3F803F80, 0x3B803C40},
    {3, 0x7FC10001, 0x3F800001},
    // f32: subnormals (flushed?), tie, NaN payload, overflow
    {4, 0x00000001, 0x00000001},
    {4, 0x00800000, 0x80000001},
    {4, 0x007FFFFF, 0x00000001},
    {4, 0x4B800000, 0x3F800000},
    {4, 0x7FC00001, 0x3F800000},
    {4, 0x7F800001, 0x3F800000},
    {4, 0x7F7FFFFF, 0x7F7FFFFF},
    {4, 0x80000000, 0x00000000},
};
constexpr int kN = sizeof(kCases) / sizeof(kCases[0]);

__global__ void probe(const Case* cases, unsigned* out, int n) {
    __shared__ __align__(16) unsigned slot[64];
    const int t = threadIdx.x;
    if (t >= n) return;
    const Case c = cases[t];
    unsigned* p = &slot[t];
    const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(p));
    unsigned old = 0;
    if (c.type == 0 || c.type == 1) {
        *reinterpret_cast<unsigned short*>(p) = static_cast<unsigned short>(c.init);
        unsigned short b = static_cast<unsigned short>(c.b), o;
        if (c.type == 0)
            asm volatile("atom.shared.add.noftz.f16 %0, [%1], %2;" : "=h"(o) : "r"(a), "h"(b) : "memory");
        else
            asm volatile("atom.shared.add.noftz.bf16 %0, [%1], %2;" : "=h"(o) : "r"(a), "h"(b) : "memory");
        old = o;
        out[2 * t + 1] = *reinterpret_cast<volatile unsigned short*>(p);
    } else {
        *p = c.init;
        if (c.type == 2)
            asm volatile("atom.shared.add.noftz.f16x2 %0, [%1], %2;"
                         : "=r"(old)
                         : "r"(a), "r"(c.b)
                         : "memory");
        else if (c.type == 3)
            asm volatile("atom.shared.add.noftz.bf16x2 %0, [%1], %2;"
                         : "=r"(old)
                         : "r"(a), "r"(c.b)
                         : "memory");
        else
            asm volatile("atom.shared.add.f32 %0, [%1], %2;" : "=r"(old) : "r"(a), "r"(c.b) : "memory");
        out[2 * t + 1] = *reinterpret_cast<volatile unsigned*>(p);
    }
    out[2 * t] = old;
}

int main() {
    Case* dCases;
    unsigned* dOut;
    cudaMalloc(&dCases, sizeof kCases);
    cudaMalloc(&dOut, 2 * kN * sizeof(unsigned));
    cudaMemcpy(dCases, kCases, sizeof kCases, cudaMemcpyHostToDevice);
    cudaMemset(dOut, 0, 2 * kN * sizeof(unsigned));
    probe<<<1, 64>>>(dCases, dOut, kN);
    if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
        std::fprintf(stderr, "error: %s\n", cudaGetErrorString(e));
        return 1;
    }
    unsigned h[2 * kN];
    cudaMemcpy(h, dOut, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < kN; ++i)
        std::printf(
            "{\"type\": \"%s\", \"init\": \"0x%x\", \"b\": \"0x%x\", \"old\": \"0x%x\", \"new\": \"0x%x\"}\n",
            kNames[kCases[i].type], kCases[i].init, kCases[i].b, h[2 * i], h[2 * i + 1]);
    return 0;
}
