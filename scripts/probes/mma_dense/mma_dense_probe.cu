// Probe (issue 22): dense mma.sync forms the executor did not run before session 15 - FP8 (e4m3/e5m2,
// m16n8k32 and m16n8k16, f32 and f16 accumulators), 4-bit integers (s4/u4 m16n8k32, m16n8k64, m8n8k32),
// 8-bit m8n8k16, and single-bit (.b1 .and/.xor .popc, m8n8k128, m16n8k128, m16n8k256) - on a Hopper GPU.
// PTX ISA 9.2 §9.7.14.5.14 (mma), fragments §9.7.14.5.8. Each kernel is one warp: lane l reads its registers
// from in[16 l + j] (j 0..3: A, 4..7: B, 8..11: C), runs one mma.sync, and writes its D registers to
// out[4 l + j]. Every register word is random in its element format (small integers for the float forms,
// so every product and sum is exact), so the record does not assume any fragment layout: the executor must
// get the same D words from the same input words. Build and run: run.sh (writes K_in.npy / K_out.npy per
// kernel K, mma_dense.jsonl and gpu.txt to $OUT).
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
// D/A/B/C register counts in the name: K_DABC
#define K_4424(NAME, INSTR)                                                                                 \
    extern "C" __global__ void NAME(const uint32_t* in, uint32_t* out) {                                     \
        LOAD_IN                                                                                             \
        asm volatile(INSTR " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"                     \
                     : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)                                               \
                     : "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]), "r"(r[4]), "r"(r[5]), "r"(r[8]),            \
                       "r"(r[9]), "r"(r[10]), "r"(r[11]));                                                  \
        STORE_OUT                                                                                           \
    }
#define K_2422(NAME, INSTR)                                                                                 \
    extern "C" __global__ void NAME(const uint32_t* in, uint32_t* out) {                                     \
        LOAD_IN                                                                                             \
        asm volatile(INSTR " {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};\n"                                     \
                     : "=r"(d0), "=r"(d1)                                                                   \
                     : "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]), "r"(r[4]), "r"(r[5]), "r"(r[8]),            \
                       "r"(r[9]));                                                                          \
        STORE_OUT                                                                                           \
    }
#define K_4214(NAME, INSTR)                                                                                 \
    extern "C" __global__ void NAME(const uint32_t* in, uint32_t* out) {                                     \
        LOAD_IN                                                                                             \
        asm volatile(INSTR " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};\n"                                 \
                     : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)                                               \
                     : "r"(r[0]), "r"(r[1]), "r"(r[4]), "r"(r[8]), "r"(r[9]), "r"(r[10]), "r"(r[11]));        \
        STORE_OUT                                                                                           \
    }
#define K_2112(NAME, INSTR)                                                                                 \
    extern "C" __global__ void NAME(const uint32_t* in, uint32_t* out) {                                     \
        LOAD_IN                                                                                             \
        asm volatile(INSTR " {%0,%1}, {%2}, {%3}, {%4,%5};\n"                                                 \
                     : "=r"(d0), "=r"(d1)                                                                   \
                     : "r"(r[0]), "r"(r[4]), "r"(r[8]), "r"(r[9]));                                          \
        STORE_OUT                                                                                           \
    }
#define MMA "mma.sync.aligned."
K_4424(fp8_e4m3_k32_f32, MMA "m16n8k32.row.col.f32.e4m3.e4m3.f32")
K_4424(fp8_e5m2e4m3_k32_f32, MMA "m16n8k32.row.col.f32.e5m2.e4m3.f32")
K_2422(fp8_e4m3e5m2_k32_f16, MMA "m16n8k32.row.col.f16.e4m3.e5m2.f16")
K_4214(fp8_e4m3_k16_f32, MMA "m16n8k16.row.col.f32.e4m3.e4m3.f32")
K_4214(s4_k32, MMA "m16n8k32.row.col.s32.s4.s4.s32")
K_4424(u4s4_k64, MMA "m16n8k64.row.col.s32.u4.s4.s32")
K_4424(s4_k64_satfinite, MMA "m16n8k64.row.col.satfinite.s32.s4.s4.s32")
K_2112(s4_m8n8k32, MMA "m8n8k32.row.col.s32.s4.s4.s32")
K_2112(s8_m8n8k16, MMA "m8n8k16.row.col.s32.s8.s8.s32")
K_4214(b1_xor_k128, MMA "m16n8k128.row.col.s32.b1.b1.s32.xor.popc")
K_4424(b1_and_k256, MMA "m16n8k256.row.col.s32.b1.b1.s32.and.popc")
K_2112(b1_and_m8n8k128, MMA "m8n8k128.row.col.s32.b1.b1.s32.and.popc")

namespace {

enum class Fmt { E4M3, E5M2, S4, U4, S8, B1, F32, F16, S32, S32Big };
struct Kernel {
    const char* name;
    void (*fn)(const uint32_t*, uint32_t*);
    Fmt a, b, c;
};
const Kernel kKernels[] = {
    {"fp8_e4m3_k32_f32", fp8_e4m3_k32_f32, Fmt::E4M3, Fmt::E4M3, Fmt::F32},
    {"fp8_e5m2e4m3_k32_f32", fp8_e5m2e4m3_k32_f32, Fmt::E5M2, Fmt::E4M3, Fmt::F32},
    {"fp8_e4m3e5m2_k32_f16", fp8_e4m3e5m2_k32_f16, Fmt::E4M3, Fmt::E5M2, Fmt::F16},
    {"fp8_e4m3_k16_f32", fp8_e4m3_k16_f32, Fmt::E4M3, Fmt::E4M3, Fmt::F32},
    {"s4_k32", s4_k32, Fmt::S4, Fmt::S4, Fmt::S32},
    {"u4s4_k64", u4s4_k64, Fmt::U4, Fmt::S4, Fmt::S32},
    {"s4_k64_satfinite", s4_k64_satfinite, Fmt::S4, Fmt::S4, Fmt::S32Big},
    {"s4_m8n8k32", s4_m8n8k32, Fmt::S4, Fmt::S4, Fmt::S32},
    {"s8_m8n8k16", s8_m8n8k16, Fmt::S8, Fmt::S8, Fmt::S32},
    {"b1_xor_k128", b1_xor_k128, Fmt::B1, Fmt::B1, Fmt::S32},
    {"b1_and_k256", b1_and_k256, Fmt::B1, Fmt::B1, Fmt::S32},
    {"b1_and_m8n8k128", b1_and_m8n8k128, Fmt::B1, Fmt::B1, Fmt::S32},
};

uint32_t g_seed = 2029;
uint32_t rnd() {
    g_seed = g_seed * 1664525u + 1013904223u;
    return g_seed >> 8;
}
int small(int lo, int hi) {
    return lo + int(rnd() % uint32_t(hi - lo + 1));
}
uint32_t f16Bits(int v) { // |v| <= 2048: exact
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
uint32_t e4m3Bits(int v) { // bias 7, 3 significand bits: |v| <= 8 exact
    if (v == 0) return 0;
    const uint32_t s = v < 0 ? 0x80u : 0, a = uint32_t(v < 0 ? -v : v);
    int e = 0;
    while ((1u << (e + 1)) <= a) ++e;
    return s | uint32_t(e + 7) << 3 | ((a << (3 - e)) & 0x7u);
}
uint32_t e5m2Bits(int v) { // bias 15, 2 significand bits: 0, 1, 2, 3, 4, 6, 8 exact
    static const int ok[] = {0, 1, 2, 3, 4, 6, 8};
    const int a = ok[(v < 0 ? -v : v) % 7];
    return (v < 0 ? 0x80u : 0) | (f16Bits(a) >> 8);
}
uint32_t word(Fmt f) {
    uint32_t w = 0;
    switch (f) {
    case Fmt::E4M3:
    case Fmt::E5M2:
        for (int i = 0; i < 4; ++i)
            w |= (f == Fmt::E4M3 ? e4m3Bits(small(-4, 4)) : e5m2Bits(small(-4, 4))) << (8 * i);
        return w;
    case Fmt::S4:
    case Fmt::U4:
        for (int i = 0; i < 8; ++i) w |= uint32_t(small(f == Fmt::S4 ? -8 : 0, f == Fmt::S4 ? 7 : 15) & 0xF) << (4 * i);
        return w;
    case Fmt::S8:
        for (int i = 0; i < 4; ++i) w |= uint32_t(small(-128, 127) & 0xFF) << (8 * i);
        return w;
    case Fmt::B1:
        return rnd() ^ (rnd() << 16);
    case Fmt::F32:
        return f32Bits(small(-64, 64));
    case Fmt::F16:
        return f16Bits(small(-64, 64)) | f16Bits(small(-64, 64)) << 16;
    case Fmt::S32:
        return uint32_t(small(-1000, 1000));
    case Fmt::S32Big: // near the s32 limits, so .satfinite clamps some sums
        return rnd() % 2 ? 0x7FFFFF00u + (rnd() % 200) : 0x80000000u + (rnd() % 200);
    }
    return 0;
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
    const std::string dir = argc > 1 ? argv[1] : ".";
    uint32_t *din = nullptr, *dout = nullptr;
    cudaMalloc(&din, 512 * 4);
    cudaMalloc(&dout, 128 * 4);
    int failed = 0;
    for (const Kernel& k : kKernels) {
        std::vector<uint32_t> in(512, 0), out(128, 0);
        for (uint32_t l = 0; l < 32; ++l) {
            for (int j = 0; j < 4; ++j) in[16 * l + j] = word(k.a);
            for (int j = 4; j < 8; ++j) in[16 * l + j] = word(k.b);
            for (int j = 8; j < 12; ++j) in[16 * l + j] = word(k.c);
        }
        cudaMemcpy(din, in.data(), 512 * 4, cudaMemcpyHostToDevice);
        cudaMemset(dout, 0, 128 * 4);
        k.fn<<<1, 32>>>(din, dout);
        const cudaError_t e = cudaDeviceSynchronize();
        cudaMemcpy(out.data(), dout, 128 * 4, cudaMemcpyDeviceToHost);
        if (e != cudaSuccess) ++failed;
        writeNpy(dir + "/" + k.name + "_in.npy", in);
        writeNpy(dir + "/" + k.name + "_out.npy", out);
        std::printf("{\"kernel\": \"%s\", \"status\": \"%s\", \"d_lane0\": [%u, %u, %u, %u]}\n", k.name,
                    cudaGetErrorString(e), out[0], out[1], out[2], out[3]);
    }
    std::printf("{\"kernels\": %zu, \"failed\": %d}\n", sizeof kKernels / sizeof kKernels[0], failed);
    return failed ? 1 : 0;
}
