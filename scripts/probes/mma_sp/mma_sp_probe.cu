// h/mmasp15 probe: mma.sp / mma.sp::ordered_metadata (PTX ISA 9.2 §9.7.14.6) on a Hopper GPU, for every
// form the executor runs (engine/src/exec/mma_sparse.cpp). Each kernel is one warp: lane l reads its
// registers from in[16 l + j] (j 0..3: A, 4..7: B, 8..11: C, 12: the metadata e), runs one mma.sp with the
// selector written in the kernel, and writes its D registers to out[4 l + j].
//
// The inputs are register words, not matrices: every A / B / C slot holds a small integer in its element
// format, and EVERY lane's metadata word is a valid one (random 2:4 index pairs; increasing ones for
// ::ordered_metadata; 0b0100 / 0b1110 for tf32). So the record does not depend on which lanes and bits
// the hardware reads the metadata from: the executor must get the same D from the same words, and a
// wrong lane/bit map, A or B fragment gives other sums. Integer-valued products and sums are exact in
// every accumulator used, so the comparison is bit-exact.
//
// Host: writes, for each kernel K, K_in.npy (u32[512]) and K_out.npy (u32[128]) to the output directory,
// and prints one line per kernel. Build and run: run.sh.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#define LOAD_IN                                                                                             \
    const uint32_t l = threadIdx.x;                                                                         \
    const uint32_t* r = in + 16 * l;                                                                        \
    uint32_t d0 = 0, d1 = 0, d2 = 0, d3 = 0;
#define STORE_OUT out[4 * l + 0] = d0, out[4 * l + 1] = d1, out[4 * l + 2] = d2, out[4 * l + 3] = d3;

// d 4, a 2, b 2, c 4 registers (f16/bf16 m16n8k16 f32, tf32 m16n8k8, s8/u8 m16n8k32)
#define K_4224(NAME, INSTR, SEL)                                                                            \
    extern "C" __global__ void NAME(const uint32_t* in, uint32_t* out) {                                     \
        LOAD_IN                                                                                             \
        asm volatile(INSTR " {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11}, %12, " SEL ";\n"              \
                     : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)                                               \
                     : "r"(r[0]), "r"(r[1]), "r"(r[4]), "r"(r[5]), "r"(r[8]), "r"(r[9]), "r"(r[10]),           \
                       "r"(r[11]), "r"(r[12]));                                                            \
        STORE_OUT                                                                                           \
    }
// d 4, a 4, b 4, c 4 (f16/bf16 m16n8k32, tf32 m16n8k16, s8/u8 and e4m3/e5m2 m16n8k64)
#define K_4444(NAME, INSTR, SEL)                                                                            \
    extern "C" __global__ void NAME(const uint32_t* in, uint32_t* out) {                                     \
        LOAD_IN                                                                                             \
        asm volatile(INSTR " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, " SEL    \
                           ";\n"                                                                            \
                     : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)                                               \
                     : "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]), "r"(r[4]), "r"(r[5]), "r"(r[6]),            \
                       "r"(r[7]), "r"(r[8]), "r"(r[9]), "r"(r[10]), "r"(r[11]), "r"(r[12]));               \
        STORE_OUT                                                                                           \
    }
// d 2, a 2, b 2, c 2 (f16 m16n8k16 with f16 accumulators)
#define K_2222(NAME, INSTR, SEL)                                                                            \
    extern "C" __global__ void NAME(const uint32_t* in, uint32_t* out) {                                     \
        LOAD_IN                                                                                             \
        asm volatile(INSTR " {%0,%1}, {%2,%3}, {%4,%5}, {%6,%7}, %8, " SEL ";\n"                            \
                     : "=r"(d0), "=r"(d1)                                                                   \
                     : "r"(r[0]), "r"(r[1]), "r"(r[4]), "r"(r[5]), "r"(r[8]), "r"(r[9]), "r"(r[12]));        \
        STORE_OUT                                                                                           \
    }

#define SP "mma.sp.sync.aligned."
#define SPO "mma.sp::ordered_metadata.sync.aligned."
K_4224(sp_f16_k16_s0, SP "m16n8k16.row.col.f32.f16.f16.f32", "0")
K_4224(sp_f16_k16_s1, SP "m16n8k16.row.col.f32.f16.f16.f32", "1")
K_4224(sp_f16_k16_s2, SP "m16n8k16.row.col.f32.f16.f16.f32", "2")
K_4224(sp_f16_k16_s3, SP "m16n8k16.row.col.f32.f16.f16.f32", "3")
K_2222(spo_f16_k16_f16_s1, SPO "m16n8k16.row.col.f16.f16.f16.f16", "1")
K_4224(spo_bf16_k16_s2, SPO "m16n8k16.row.col.f32.bf16.bf16.f32", "2")
K_4444(sp_f16_k32_s0, SP "m16n8k32.row.col.f32.f16.f16.f32", "0")
K_4444(sp_f16_k32_s1, SP "m16n8k32.row.col.f32.f16.f16.f32", "1")
K_4444(spo_bf16_k32_s1, SPO "m16n8k32.row.col.f32.bf16.bf16.f32", "1")
K_4224(sp_tf32_k8_s0, SP "m16n8k8.row.col.f32.tf32.tf32.f32", "0")
K_4224(spo_tf32_k8_s3, SPO "m16n8k8.row.col.f32.tf32.tf32.f32", "3")
K_4444(sp_tf32_k16_s0, SP "m16n8k16.row.col.f32.tf32.tf32.f32", "0")
K_4444(spo_tf32_k16_s1, SPO "m16n8k16.row.col.f32.tf32.tf32.f32", "1")
K_4224(sp_s8_k32_s0, SP "m16n8k32.row.col.s32.s8.s8.s32", "0")
K_4224(spo_u8s8_k32_s1, SPO "m16n8k32.row.col.satfinite.s32.u8.s8.s32", "1")
K_4444(sp_s8_k64_s0, SP "m16n8k64.row.col.s32.s8.s8.s32", "0")
K_4444(spo_s8u8_k64_s0, SPO "m16n8k64.row.col.s32.s8.u8.s32", "0")
K_4444(sp_e4m3_k64_s0, SP "m16n8k64.row.col.f32.e4m3.e4m3.f32", "0")
K_4444(spo_e5m2e4m3_k64_s0, SPO "m16n8k64.row.col.f32.e5m2.e4m3.f32", "0")

namespace {

enum class Fmt { F16, BF16, TF32, S8, U8, E4M3, E5M2 };
struct Kernel {
    const char* name;
    void (*fn)(const uint32_t*, uint32_t*);
    Fmt a, b;
    bool accF16;  ///< C/D in f16x2 registers (else f32 / s32)
    bool ordered; ///< ::ordered_metadata: increasing index pairs only
};
const Kernel kKernels[] = {
    {"sp_f16_k16_s0", sp_f16_k16_s0, Fmt::F16, Fmt::F16, false, false},
    {"sp_f16_k16_s1", sp_f16_k16_s1, Fmt::F16, Fmt::F16, false, false},
    {"sp_f16_k16_s2", sp_f16_k16_s2, Fmt::F16, Fmt::F16, false, false},
    {"sp_f16_k16_s3", sp_f16_k16_s3, Fmt::F16, Fmt::F16, false, false},
    {"spo_f16_k16_f16_s1", spo_f16_k16_f16_s1, Fmt::F16, Fmt::F16, true, true},
    {"spo_bf16_k16_s2", spo_bf16_k16_s2, Fmt::BF16, Fmt::BF16, false, true},
    {"sp_f16_k32_s0", sp_f16_k32_s0, Fmt::F16, Fmt::F16, false, false},
    {"sp_f16_k32_s1", sp_f16_k32_s1, Fmt::F16, Fmt::F16, false, false},
    {"spo_bf16_k32_s1", spo_bf16_k32_s1, Fmt::BF16, Fmt::BF16, false, true},
    {"sp_tf32_k8_s0", sp_tf32_k8_s0, Fmt::TF32, Fmt::TF32, false, false},
    {"spo_tf32_k8_s3", spo_tf32_k8_s3, Fmt::TF32, Fmt::TF32, false, true},
    {"sp_tf32_k16_s0", sp_tf32_k16_s0, Fmt::TF32, Fmt::TF32, false, false},
    {"spo_tf32_k16_s1", spo_tf32_k16_s1, Fmt::TF32, Fmt::TF32, false, true},
    {"sp_s8_k32_s0", sp_s8_k32_s0, Fmt::S8, Fmt::S8, false, false},
    {"spo_u8s8_k32_s1", spo_u8s8_k32_s1, Fmt::U8, Fmt::S8, false, true},
    {"sp_s8_k64_s0", sp_s8_k64_s0, Fmt::S8, Fmt::S8, false, false},
    {"spo_s8u8_k64_s0", spo_s8u8_k64_s0, Fmt::S8, Fmt::U8, false, true},
    {"sp_e4m3_k64_s0", sp_e4m3_k64_s0, Fmt::E4M3, Fmt::E4M3, false, false},
    {"spo_e5m2e4m3_k64_s0", spo_e5m2e4m3_k64_s0, Fmt::E5M2, Fmt::E4M3, false, true},
};

uint32_t g_seed = 2026;
uint32_t rnd() {
    g_seed = g_seed * 1664525u + 1013904223u;
    return g_seed >> 8;
}
int small(int lo, int hi) {
    return lo + int(rnd() % uint32_t(hi - lo + 1));
}
// Bits of the integer v (|v| <= 8) in each format.
uint32_t f16Bits(int v) {
    if (v == 0) return 0;
    const uint32_t s = v < 0 ? 0x8000u : 0, a = uint32_t(v < 0 ? -v : v);
    int e = 0;
    while ((1u << (e + 1)) <= a) ++e;
    return s | uint32_t(e + 15) << 10 | ((a << (10 - e)) & 0x3FFu);
}
uint32_t f32Bits(int v) {
    float f = float(v);
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}
uint32_t bf16Bits(int v) {
    return f32Bits(v) >> 16;
}
uint32_t e4m3Bits(int v) { // bias 7, 3 significand bits: |v| <= 8 exact
    if (v == 0) return 0;
    const uint32_t s = v < 0 ? 0x80u : 0, a = uint32_t(v < 0 ? -v : v);
    int e = 0;
    while ((1u << (e + 1)) <= a) ++e;
    return s | uint32_t(e + 7) << 3 | ((a << (3 - e)) & 0x7u);
}
uint32_t e5m2Bits(int v) { // bias 15, 2 significand bits: |v| in {0..8} minus 5, 7 (use 1,2,3,4,6,8)
    static const int ok[] = {0, 1, 2, 3, 4, 6, 8};
    const int a = ok[(v < 0 ? -v : v) % 7];
    return (v < 0 ? 0x80u : 0) | (f16Bits(a) >> 8);
}
// One register word of `fmt` elements (small integers).
uint32_t word(Fmt f) {
    switch (f) {
    case Fmt::F16:
        return f16Bits(small(-4, 4)) | f16Bits(small(-4, 4)) << 16;
    case Fmt::BF16:
        return bf16Bits(small(-4, 4)) | bf16Bits(small(-4, 4)) << 16;
    case Fmt::TF32:
        return f32Bits(small(-4, 4));
    case Fmt::S8:
    case Fmt::U8: {
        uint32_t w = 0;
        for (int i = 0; i < 4; ++i) w |= uint32_t(small(f == Fmt::S8 ? -8 : 0, 8) & 0xFF) << (8 * i);
        return w;
    }
    case Fmt::E4M3:
    case Fmt::E5M2: {
        uint32_t w = 0;
        for (int i = 0; i < 4; ++i) w |= (f == Fmt::E4M3 ? e4m3Bits(small(-8, 8)) : e5m2Bits(small(-8, 8))) << (8 * i);
        return w;
    }
    }
    return 0;
}
// A metadata word whose eight 4-bit chunks are all valid.
uint32_t meta(Fmt a, bool ordered) {
    static const uint32_t kOrdered[] = {0x4, 0x8, 0x9, 0xC, 0xD, 0xE};
    static const uint32_t kAny[] = {0x4, 0x8, 0x9, 0xC, 0xD, 0xE, 0x1, 0x2, 0x6, 0x3, 0x7, 0xB};
    uint32_t w = 0;
    for (int c = 0; c < 8; ++c) {
        const uint32_t n = a == Fmt::TF32 ? (rnd() % 2 ? 0xE : 0x4) : ordered ? kOrdered[rnd() % 6] : kAny[rnd() % 12];
        w |= n << (4 * c);
    }
    return w;
}

void writeNpy(const std::string& path, const std::vector<uint32_t>& v) {
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return;
    std::string h = "{'descr': '<u4', 'fortran_order': False, 'shape': (" + std::to_string(v.size()) + ",), }";
    while ((10 + h.size() + 1) % 64) h += ' ';
    h += '\n';
    const unsigned char magic[] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
    std::fwrite(magic, 1, 8, f);
    const uint16_t n = uint16_t(h.size());
    std::fwrite(&n, 2, 1, f);
    std::fwrite(h.data(), 1, h.size(), f);
    std::fwrite(v.data(), 4, v.size(), f);
    std::fclose(f);
}

} // namespace

int main(int argc, char** argv) {
    const std::string dir = argc > 1 ? argv[1] : "/tmp";
    uint32_t *dIn = nullptr, *dOut = nullptr;
    cudaMalloc(&dIn, 512 * 4);
    cudaMalloc(&dOut, 128 * 4);
    int failed = 0;
    for (const Kernel& k : kKernels) {
        std::vector<uint32_t> in(512, 0), out(128, 0);
        const Fmt c = k.accF16 ? Fmt::F16 : (k.a == Fmt::S8 || k.a == Fmt::U8) ? Fmt::S8 : Fmt::TF32;
        for (int l = 0; l < 32; ++l) {
            for (int j = 0; j < 4; ++j) in[16 * l + j] = word(k.a);
            for (int j = 4; j < 8; ++j) in[16 * l + j] = word(k.b);
            for (int j = 8; j < 12; ++j)
                in[16 * l + j] = c == Fmt::S8 ? uint32_t(small(-100, 100)) : word(c); // s32 / f32 / f16x2
            in[16 * l + 12] = meta(k.a, k.ordered);
        }
        cudaMemcpy(dIn, in.data(), 512 * 4, cudaMemcpyHostToDevice);
        cudaMemset(dOut, 0, 128 * 4);
        k.fn<<<1, 32>>>(dIn, dOut);
        const cudaError_t e = cudaDeviceSynchronize();
        cudaMemcpy(out.data(), dOut, 128 * 4, cudaMemcpyDeviceToHost);
        writeNpy(dir + "/" + k.name + "_in.npy", in);
        writeNpy(dir + "/" + k.name + "_out.npy", out);
        std::printf("{\"kernel\": \"%s\", \"status\": \"%s\", \"d_lane0\": [%u, %u, %u, %u], \"d_lane31\": [%u, %u, "
                    "%u, %u]}\n",
                    k.name, cudaGetErrorString(e), out[0], out[1], out[2], out[3], out[124], out[125], out[126],
                    out[127]);
        failed += e != cudaSuccess;
    }
    std::printf("{\"kernels\": %zu, \"failed\": %d}\n", sizeof kKernels / sizeof kKernels[0], failed);
    return failed ? 1 : 0;
}
