// H100 probe: which shared-memory b16 element every register half of ldmatrix.sync.aligned.m8n8
// .x1/.x2/.x4 (.trans) receives (PTX ISA 9.2 §9.7.14.5.15), for given per-thread row addresses.
// Shared memory holds its own element index (s[i] = i, 16 KiB), so each received half names the byte
// address it came from: 2 * value. One JSON line per case on stdout (README.md has the format).
// Build: nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a ldmatrix_probe.cu -o ldmatrix_probe
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

constexpr int kElems = 8192; // 16 KiB of b16

__global__ void probe(const uint32_t* rowOff, uint32_t* out, int num, int trans) {
    __shared__ __align__(1024) uint16_t s[kElems];
    for (int i = threadIdx.x; i < kElems; i += 32) s[i] = uint16_t(i);
    __syncthreads();
    const uint32_t a = uint32_t(__cvta_generic_to_shared(s)) + rowOff[threadIdx.x];
    uint32_t r0 = 0, r1 = 0, r2 = 0, r3 = 0;
    if (num == 1 && !trans)
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a));
    if (num == 1 && trans)
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a));
    if (num == 2 && !trans)
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a));
    if (num == 2 && trans)
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                     : "=r"(r0), "=r"(r1)
                     : "r"(a));
    if (num == 4 && !trans)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
                     : "r"(a));
    if (num == 4 && trans)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
                     : "r"(a));
    uint32_t* o = out + threadIdx.x * 4;
    o[0] = r0, o[1] = r1, o[2] = r2, o[3] = r3;
}

int main() {
    std::mt19937 rng(20261125);
    uint32_t *dRow = nullptr, *dOut = nullptr;
    cudaMalloc(&dRow, 32 * 4);
    cudaMalloc(&dOut, 32 * 4 * 4);
    int id = 0;
    for (int num : {1, 2, 4})
        for (int trans : {0, 1})
            for (int pattern = 0; pattern < 24; ++pattern) {
                std::vector<uint32_t> row(32);
                for (int t = 0; t < 32; ++t) {
                    switch (pattern) {
                    case 0: row[t] = 16 * t; break;                          // dense 16-B rows
                    case 1: row[t] = 128 * t; break;                         // 128-B pitch
                    case 2: row[t] = (128 * t) ^ ((t % 8) << 4); break;      // SWIZZLE_128B rows
                    case 3: row[t] = (64 * t) ^ (((t / 2) % 4) << 4); break; // SWIZZLE_64B rows
                    default: row[t] = 16 * (rng() % (kElems * 2 / 16)); break; // random 16-B aligned
                    }
                }
                cudaMemcpy(dRow, row.data(), 32 * 4, cudaMemcpyHostToDevice);
                probe<<<1, 32>>>(dRow, dOut, num, trans);
                std::vector<uint32_t> out(128);
                if (cudaMemcpy(out.data(), dOut, 128 * 4, cudaMemcpyDeviceToHost) != cudaSuccess) {
                    std::printf("{\"id\":\"ldmatrix_%04d\",\"error\":\"%s\"}\n", id++,
                                cudaGetErrorString(cudaGetLastError()));
                    continue;
                }
                std::printf("{\"id\":\"ldmatrix_%04d\",\"num\":%d,\"trans\":%s,\"row_offset\":[", id++, num,
                            trans ? "true" : "false");
                for (int t = 0; t < 32; ++t) std::printf("%s%u", t ? "," : "", row[t]);
                std::printf("],\"regs\":[");
                for (int t = 0; t < 32; ++t) {
                    std::printf("%s[", t ? "," : "");
                    for (int r = 0; r < num; ++r) std::printf("%s%u", r ? "," : "", out[t * 4 + r]);
                    std::printf("]");
                }
                std::printf("]}\n");
            }
    return 0;
}
