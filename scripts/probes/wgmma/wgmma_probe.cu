// H100 probe: which shared-memory element every operand element of wgmma.mma_async (sm_90a) reads
// through its matrix descriptor, for every layout type x major-ness x LBO/SBO (PTX ISA 9.2 §9.7.15.5.1).
// One operand (X) is under test; the other is a one-hot identity in the no-swizzle K-major layout, so
// D = X exactly (f16 integers are exact in the f32 accumulator). X's region holds, at f16 index p,
// the value (p % 1024) + 1 in pass 0 and (p / 1024) + 1 in pass 1: the pair names p.
//   X = A (64x16, m64n64k16, B = I16 padded): D[m][n] = A[m][k=n] for n < 16
//   X = B (16x64):                     (A = I16 in rows 0..15): D[m][n] = B[k=m][n] for m < 16
// Output: one JSON line per configuration (README.md). `wgmma_probe base` runs only the base-offset set:
// swizzled layouts x starts off the 1024-B atom x descriptor base offset (bits [49,52)) 0..7 (issue 24).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cuda_fp16.h>
#include <vector>

constexpr uint32_t kXBytes = 64 * 1024, kIdBytes = 4096;

// The host puts a start offset (>> 4) in bits [0,14); the device adds the region's shared address.
__device__ uint64_t withStart(uint64_t desc, uint32_t addr) {
    return (desc & ~uint64_t(0x3FFF)) | (((desc & 0x3FFF) + (addr >> 4)) & 0x3FFF);
}

template <int TA, int TB>
__device__ void mma(float (&d)[32], uint64_t da, uint64_t db) {
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 0, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
                 "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
                 "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, %32, %33, p, 1, 1, %34, %35;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                   "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),
                   "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),
                   "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),
                   "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                 : "l"(da), "l"(db), "n"(TA), "n"(TB));
}

__global__ void probe(const uint8_t* aImg, uint32_t aBytes, const uint8_t* bImg, uint32_t bBytes, uint64_t descA,
                      uint64_t descB, int tA, int tB, float* out) {
    extern __shared__ __align__(1024) uint8_t smem[];
    uint8_t* a = smem;                // A region at 0 (1024-aligned)
    uint8_t* b = smem + kXBytes;      // B region after it (1024-aligned)
    for (uint32_t i = threadIdx.x; i < kXBytes; i += blockDim.x) a[i] = i < aBytes ? aImg[i] : 0;
    for (uint32_t i = threadIdx.x; i < kXBytes; i += blockDim.x) b[i] = i < bBytes ? bImg[i] : 0;
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncthreads();
    const uint32_t base = uint32_t(__cvta_generic_to_shared(smem));
    const uint64_t da = withStart(descA, base), db = withStart(descB, base + kXBytes);
    float d[32];
    for (float& x : d) x = 0.f;
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
    if (tA == 0 && tB == 0) mma<0, 0>(d, da, db);
    if (tA == 1 && tB == 0) mma<1, 0>(d, da, db);
    if (tA == 0 && tB == 1) mma<0, 1>(d, da, db);
    if (tA == 1 && tB == 1) mma<1, 1>(d, da, db);
    asm volatile("wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    // D fragment of m64nNk16 (PTX ISA figure "WGMMA .m64nNk16 register fragment layout for D").
    const uint32_t w = threadIdx.x / 32, l = threadIdx.x % 32;
    for (int i = 0; i < 32; ++i) {
        const uint32_t row = 16 * w + l / 4 + 8 * ((i / 2) % 2), col = 8 * (i / 4) + 2 * (l % 4) + (i % 2);
        out[row * 64 + col] = d[i];
    }
}

// sm_90 descriptor: start [0,14) (added on the device), LBO>>4 [16,30), SBO>>4 [32,46), base offset [49,52),
// type [62,64).
uint64_t desc(uint32_t lbo, uint32_t sbo, uint32_t type, uint32_t baseOffset = 0) {
    return (uint64_t((lbo >> 4) & 0x3FFF) << 16) | (uint64_t((sbo >> 4) & 0x3FFF) << 32) |
           (uint64_t(baseOffset & 7) << 49) | (uint64_t(type) << 62);
}

// One-hot identity I16 (element (mn, k) = 1 when mn == k < 16) in the no-swizzle K-major layout, LBO 128
// (between the two 16-B core-matrix columns along K), SBO 256 (between 8-row groups).
std::vector<uint8_t> identity() {
    std::vector<uint8_t> img(kIdBytes, 0);
    for (uint32_t i = 0; i < 16; ++i) {
        const uint32_t kb = 2 * i, off = (i % 8) * 16 + (i / 8) * 256 + kb % 16 + (kb / 16) * 128;
        const __half one = __float2half(1.0f);
        std::memcpy(&img[off], &one, 2);
    }
    return img;
}

std::vector<uint8_t> numbered(int pass) {
    std::vector<uint8_t> img(kXBytes);
    for (uint32_t p = 0; p < kXBytes / 2; ++p) {
        const __half v = __float2half(float(pass == 0 ? p % 1024 + 1 : p / 1024 + 1));
        std::memcpy(&img[2 * p], &v, 2);
    }
    return img;
}

int main(int argc, char** argv) {
    const bool baseSet = argc > 1 && std::strcmp(argv[1], "base") == 0;
    cudaFuncSetAttribute(probe, cudaFuncAttributeMaxDynamicSharedMemorySize, int(2 * kXBytes));
    uint8_t *dA, *dB;
    float* dOut;
    cudaMalloc(&dA, kXBytes);
    cudaMalloc(&dB, kXBytes);
    cudaMalloc(&dOut, 64 * 64 * 4);
    const std::vector<uint8_t> id = identity();
    const uint64_t idDesc = desc(128, 256, 0);
    struct Strides { uint32_t lbo, sbo; };
    const Strides strides[] = {{128, 256}, {256, 128}, {1024, 2048}, {2048, 1024}, {512, 4096}, {16, 1024}};
    struct Config {
        int operand, trans;
        uint32_t type, lbo, sbo, start, baseOffset;
    };
    std::vector<Config> configs;
    if (baseSet) {
        // Base offset x start: the model (smem_descriptor.cpp descriptorSwizzle) says the XOR phase is
        // ((addr >> 7) - base) mod 2^B; alternatives this separates: base ignored, added, XORed.
        for (int operand = 0; operand < 2; ++operand)
            for (uint32_t type = 1; type < 4; ++type)
                for (int trans = 0; trans < 2; ++trans)
                    for (uint32_t start : {0u, 128u, 384u})
                        for (uint32_t bo = 0; bo < 8; ++bo)
                            configs.push_back({operand, trans, type, 1024, 2048, start, bo});
    }
    for (int operand = 0; operand < 2 && !baseSet; ++operand)
        for (uint32_t type = 0; type < 4; ++type)
            for (int trans = 0; trans < 2; ++trans)
                for (const Strides& s : strides) configs.push_back({operand, trans, type, s.lbo, s.sbo, 0, 0});
    // Start addresses off the 1024-B atom (the swizzle XOR uses address bits: open question 22).
    for (int operand = 0; operand < 2 && !baseSet; ++operand)
        for (uint32_t type = 1; type < 4; ++type)
            for (int trans = 0; trans < 2; ++trans)
                for (uint32_t start : {128u, 256u, 512u, 32u})
                    configs.push_back({operand, trans, type, 1024, 2048, start, 0});
    // A random sweep (fixed seed): any type, major, LBO/SBO multiples of 16 up to 2 KiB, 128-B starts.
    uint32_t seed = 20261125;
    auto rnd = [&seed](uint32_t n) { seed = seed * 1664525u + 1013904223u; return (seed >> 8) % n; };
    for (int i = 0; i < 64 && !baseSet; ++i)
        configs.push_back(
            {int(rnd(2)), int(rnd(2)), rnd(4), 16 * (1 + rnd(128)), 16 * (1 + rnd(128)), 128 * rnd(8), 0});
    int n = 0;
    for (const Config& c : configs) {
                    const int operand = c.operand, trans = c.trans;
                    const uint32_t type = c.type;
                    const Strides s{c.lbo, c.sbo};
                    std::vector<float> res[2];
                    bool ok = true;
                    for (int pass = 0; pass < 2 && ok; ++pass) {
                        const std::vector<uint8_t> x = numbered(pass);
                        const std::vector<uint8_t>& aImg = operand == 0 ? x : id;
                        const std::vector<uint8_t>& bImg = operand == 0 ? id : x;
                        cudaMemcpy(dA, aImg.data(), aImg.size(), cudaMemcpyHostToDevice);
                        cudaMemcpy(dB, bImg.data(), bImg.size(), cudaMemcpyHostToDevice);
                        const uint64_t xd = desc(s.lbo, s.sbo, type, c.baseOffset) | (c.start >> 4);
                        probe<<<1, 128, 2 * kXBytes>>>(dA, uint32_t(aImg.size()), dB, uint32_t(bImg.size()),
                                                       operand == 0 ? xd : idDesc, operand == 0 ? idDesc : xd,
                                                       operand == 0 ? trans : 0, operand == 1 ? trans : 0, dOut);
                        res[pass].resize(64 * 64);
                        ok = cudaMemcpy(res[pass].data(), dOut, 64 * 64 * 4, cudaMemcpyDeviceToHost) == cudaSuccess;
                    }
                    std::printf("{\"id\":\"wgmma_%04d\",\"operand\":\"%s\",\"major\":\"%s\",\"layout_type\":%u,"
                                "\"lbo\":%u,\"sbo\":%u,\"start\":%u,\"base_offset\":%u",
                                n++, operand == 0 ? "A" : "B", trans ? "MN" : "K", type, s.lbo, s.sbo, c.start,
                                c.baseOffset);
                    if (!ok) {
                        std::printf(",\"error\":\"%s\"}\n", cudaGetErrorString(cudaGetLastError()));
                        return 1;
                    }
                    // element (mn, k): A: mn = m < 64, k < 16 -> D[m][k]; B: mn = n < 64, k < 16 -> D[k][n].
                    std::printf(",\"byte_offset\":[");
                    for (uint32_t mn = 0; mn < 64; ++mn)
                        for (uint32_t k = 0; k < 16; ++k) {
                            const uint32_t at = operand == 0 ? mn * 64 + k : k * 64 + mn;
                            const float lo = res[0][at], hi = res[1][at];
                            const long p = (lo >= 1 && hi >= 1 && lo == float(int(lo)) && hi == float(int(hi)))
                                               ? long(hi - 1) * 1024 + long(lo - 1)
                                               : -1;
                            std::printf("%s%ld", mn + k ? "," : "", p < 0 ? -1 : 2 * p);
                        }
                    std::printf("]}\n");
                }
    return 0;
}
