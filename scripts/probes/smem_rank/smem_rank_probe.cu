// H100 probe (h/x2sm): the values of shared::cta addresses in a cluster. The executor models the CTA of
// %cluster_ctarank r as having its shared memory at r << 24 | offset in .shared::cta and .shared::cluster
// alike (engine/src/exec/program.hpp kClusterRankShift), which CUTLASS's Sm100MmaPeerBitMask (0xFEFFFFFF)
// relies on. For each CTA of a 4-CTA cluster this prints: rank, the shared::cta address of a static and
// a dynamic shared variable (cvta.to.shared of its generic address), mapa of the static one to ranks 0..3.
// Expected under the model: static = rank << 24 | off, mapa(q) = q << 24 | off.
#include <cstdio>
#include <cuda_runtime.h>

__shared__ __align__(16) unsigned char sbuf[64];

__global__ void __cluster_dims__(4, 1, 1) probe(unsigned* out) {
    extern __shared__ __align__(16) unsigned char dyn[];
    if (threadIdx.x != 0) return;
    unsigned rank, s, d, m[4];
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    s = static_cast<unsigned>(__cvta_generic_to_shared(sbuf));
    d = static_cast<unsigned>(__cvta_generic_to_shared(dyn));
    for (unsigned q = 0; q < 4; ++q)
        asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(m[q]) : "r"(s), "r"(q));
    unsigned* o = out + 8 * rank;
    o[0] = rank, o[1] = s, o[2] = d;
    for (int q = 0; q < 4; ++q) o[3 + q] = m[q];
    sbuf[0] = 1; // keep the variable
}

int main() {
    unsigned* dOut;
    cudaMalloc(&dOut, 32 * sizeof(unsigned));
    cudaMemset(dOut, 0, 32 * sizeof(unsigned));
    probe<<<4, 32, 256>>>(dOut);
    if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
        std::printf("error: %s\n", cudaGetErrorString(e));
        return 1;
    }
    unsigned h[32];
    cudaMemcpy(h, dOut, sizeof h, cudaMemcpyDeviceToHost);
    for (int r = 0; r < 4; ++r)
        std::printf(
            "rank %u: static 0x%08x dynamic 0x%08x mapa0 0x%08x mapa1 0x%08x mapa2 0x%08x mapa3 0x%08x\n",
            h[8 * r], h[8 * r + 1], h[8 * r + 2], h[8 * r + 3], h[8 * r + 4], h[8 * r + 5], h[8 * r + 6]);
    return 0;
}
