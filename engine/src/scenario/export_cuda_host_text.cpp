// The fixed text of the CUDA repro's host half (export_cuda_host.cpp writes the tables around it): the fill
// and hex helpers, the `--stress` memory hog, and main() - allocation, encodes (inserted between the two
// parts), launch, dumps and the comparison with the engine's prediction.
#include "scenario/export_cuda_detail.hpp"

namespace layoutscope::cudaexport {

const char* const kHostHelpers =
    R"(static uint8_t fillByte(const Tensor& t, uint64_t o) { // the scenario's fill (scenario.hpp ScenarioFill)
    switch (t.fill) {
    case 0: return uint8_t((o / t.elemBytes) >> (8 * (o % t.elemBytes)));  // index
    case 2: return uint8_t(o & 0xFF);                                      // bytes
    case 3: {                                                              // random: splitmix64
        uint64_t z = o + 0x9E3779B97F4A7C15ULL;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return uint8_t(z ^ (z >> 31));
    }
    default: return 0;                                                     // zero
    }
}
static uint8_t hexByte(const char* h, size_t i) {
    auto v = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
    return uint8_t(v(h[2 * i]) << 4 | v(h[2 * i + 1]));
}
static uint32_t hexWord(const char* h, size_t i) { // little-endian word i
    return uint32_t(hexByte(h, 4 * i)) | uint32_t(hexByte(h, 4 * i + 1)) << 8 | uint32_t(hexByte(h, 4 * i + 2)) << 16 |
           uint32_t(hexByte(h, 4 * i + 3)) << 24;
}
#define CHECK_CUDA(x)                                                                             \
    do {                                                                                          \
        cudaError_t e_ = (x);                                                                     \
        if (e_ != cudaSuccess) {                                                                  \
            std::printf("FAIL: %s: %s (%s)\n", #x, cudaGetErrorName(e_), cudaGetErrorString(e_)); \
            return 1;                                                                             \
        }                                                                                         \
    } while (0)

// `--stress`: while the repro runs, three quarters of the SMs stream a 1 GiB buffer for 20 ms (reads and
// writes), so the repro's TMA and bulk copies meet a loaded memory system and take longer to land: a read that
// races one (a missing wait, a wait with the wrong parity) is more likely to see stale bytes.
__global__ void memoryHog(uint4* p, size_t n, uint64_t ns) {
    uint64_t t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
        for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
            uint4 v = p[i];
            v.x += 1;
            p[i] = v;
        }
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (t - t0 < ns);
}

int main(int argc, char** argv) {
    const bool stress = argc > 1 && std::strcmp(argv[1], "--stress") == 0;
    if (cuInit(0) != CUDA_SUCCESS) { std::printf("FAIL: cuInit\n"); return 1; }
    CHECK_CUDA(cudaFree(0));
    cudaDeviceProp prop;
    CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    std::printf("device: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
    std::vector<uint8_t*> raw(kMaps + 1), ptr(kMaps + 1);
    std::vector<std::vector<uint8_t>> expected(kMaps + 1);
    for (uint32_t k = 0; k < kMaps; ++k) {
        const Tensor& t = kTensors[k];
        CHECK_CUDA(cudaMalloc(&raw[k], t.extent + 256));
        ptr[k] = raw[k] + t.scenarioAddress % 256; // the scenario address's alignment, mod 256
        std::vector<uint8_t>& e = expected[k];
        e.resize(t.extent);
        for (uint64_t o = 0; o < t.extent; ++o) e[o] = fillByte(t, o);
        for (const Patch* p = kPokes; p->hex; ++p)
            if (p->tensor == k)
                for (uint64_t i = 0; i < p->size; ++i) e[p->offset + i] = hexByte(p->hex, i);
        CHECK_CUDA(cudaMemcpy(ptr[k], e.data(), t.extent, cudaMemcpyHostToDevice));
    }
    for (const Patch* p = kPatches; p->hex; ++p)
        for (uint64_t i = 0; i < p->size; ++i) expected[p->tensor][p->offset + i] = hexByte(p->hex, i);
    Maps maps;
    std::memset(&maps, 0, sizeof maps);
)";

const char* const kHostMainRest = R"(    uint8_t* dump = nullptr;
    uint32_t* status = nullptr;
    CHECK_CUDA(cudaMalloc(&dump, size_t(kCluster) * kRegion + 1));
    CHECK_CUDA(cudaMalloc(&status, kCluster * sizeof(uint32_t)));
    CHECK_CUDA(cudaMemset(status, 0, kCluster * sizeof(uint32_t)));
    const size_t regWords = size_t(kRegWarps > 0 ? kRegWarps : 1) * 32 * 128;
    std::vector<uint32_t> regHost(regWords, 0);
    for (uint32_t w = 0; w < kRegWarps; ++w)
        for (size_t i = 0; i < 32 * 128; ++i) regHost[w * 32 * 128 + i] = hexWord(kRegs[w].initial, i);
    uint32_t *regInit = nullptr, *regDump = nullptr, *tmemDump = nullptr;
    const size_t tmemWords = size_t(kCluster) * 128 * (kTmemColumns > 0 ? kTmemColumns : 1);
    CHECK_CUDA(cudaMalloc(&regInit, regWords * 4));
    CHECK_CUDA(cudaMalloc(&regDump, regWords * 4));
    CHECK_CUDA(cudaMalloc(&tmemDump, tmemWords * 4));
    CHECK_CUDA(cudaMemcpy(regInit, regHost.data(), regWords * 4, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(tmemDump, 0, tmemWords * 4));
    uint8_t* obs = nullptr;
    CHECK_CUDA(cudaMalloc(&obs, kObsBytes + 1));
    CHECK_CUDA(cudaMemset(obs, 0, kObsBytes + 1));
    const size_t smemBytes = kRegion + 1024;
    CHECK_CUDA(cudaFuncSetAttribute(layoutscopeRepro, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smemBytes)));
    if (kCluster > 8) CHECK_CUDA(cudaFuncSetAttribute(layoutscopeRepro, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(kCluster);
    cfg.blockDim = dim3(kThreads);
    cfg.dynamicSmemBytes = smemBytes;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = kCluster;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    cudaStream_t hogStream = nullptr, reproStream = nullptr;
    uint4* hog = nullptr;
    if (stress) {
        const size_t hogBytes = size_t(1) << 30;
        CHECK_CUDA(cudaMalloc(&hog, hogBytes));
        CHECK_CUDA(cudaMemset(hog, 0, hogBytes));
        CHECK_CUDA(cudaStreamCreateWithFlags(&hogStream, cudaStreamNonBlocking));
        CHECK_CUDA(cudaStreamCreateWithFlags(&reproStream, cudaStreamNonBlocking));
        memoryHog<<<prop.multiProcessorCount * 3 / 4, 1024, 0, hogStream>>>(hog, hogBytes / 16, 20000000ull);
        CHECK_CUDA(cudaGetLastError());
        cfg.stream = reproStream;
    }
    CHECK_CUDA(cudaLaunchKernelEx(&cfg, layoutscopeRepro, maps, dump, status, (const uint32_t*)regInit, regDump, tmemDump, obs));
    if (stress) std::printf("stress: the repro ran beside a 20 ms memory hog on %d SMs\n", prop.multiProcessorCount * 3 / 4);
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<uint32_t> st(kCluster);
    std::vector<uint8_t> got(size_t(kCluster) * kRegion + 1);
    CHECK_CUDA(cudaMemcpy(st.data(), status, kCluster * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(got.data(), dump, size_t(kCluster) * kRegion, cudaMemcpyDeviceToHost));
    int failed = 0;
    for (uint32_t c = 0; c < kCluster; ++c)
        if (st[c]) std::printf("FAIL: CTA %u: the mbarrier wait of scenario line %u timed out\n", c, st[c]), ++failed;
    uint64_t smemBytesChecked = 0, globalBytesChecked = 0;
    for (const SmemExpect* b = kSmem; b->buffer; ++b) {
        uint64_t diff = 0, first = 0;
        for (uint32_t i = 0; i < b->size; ++i) {
            const uint8_t g = got[size_t(b->cta) * kRegion + (b->scenarioAddress - kSmemBase) + i];
            if (g != hexByte(b->hex, i) && diff++ == 0) first = i;
        }
        smemBytesChecked += b->size;
        if (diff) {
            const uint8_t g = got[size_t(b->cta) * kRegion + (b->scenarioAddress - kSmemBase) + first];
            std::printf("FAIL: CTA %u buffer %s byte +%llu (shared::cta 0x%llx): got 0x%02x, engine predicted 0x%02x "
                        "(%llu bytes differ)\n", b->cta, b->buffer, (unsigned long long)first,
                        (unsigned long long)(b->scenarioAddress + first), g, hexByte(b->hex, first),
                        (unsigned long long)diff);
            ++failed;
        }
    }
    uint64_t readBytesChecked = 0;
    std::vector<uint8_t> obsGot(kObsBytes + 1);
    CHECK_CUDA(cudaMemcpy(obsGot.data(), obs, kObsBytes, cudaMemcpyDeviceToHost));
    for (const ReadExpect* r = kReads; r->bytes; ++r) {
        uint32_t diff = 0, firstLane = 0, firstByte = 0;
        for (uint32_t l = 0; l < 32; ++l)
            for (uint32_t b = 0; (r->mask >> l & 1) && b < r->width; ++b, ++readBytesChecked)
                if (obsGot[r->offset + l * r->width + b] != hexByte(r->bytes, l * r->width + b) && diff++ == 0)
                    firstLane = l, firstByte = b;
        if (diff) {
            const size_t i = size_t(firstLane) * r->width + firstByte;
            std::printf("FAIL: the ld.shared of scenario line %u (CTA %u warp %u lane %u, byte %u) read 0x%02x, engine "
                        "predicted 0x%02x (%u bytes differ: the read saw memory the write had not reached)\n", r->line,
                        r->cta, r->warp, firstLane, firstByte, obsGot[r->offset + i], hexByte(r->bytes, i), diff);
            ++failed;
        }
    }
    uint64_t regsChecked = 0, cellsChecked = 0;
    std::vector<uint32_t> regGot(regWords), tmemGot(tmemWords);
    CHECK_CUDA(cudaMemcpy(regGot.data(), regDump, regWords * 4, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(tmemGot.data(), tmemDump, tmemWords * 4, cudaMemcpyDeviceToHost));
    double worstRel = 0; // wgmma f32 D: the largest relative difference seen
    uint64_t f32Checked = 0;
    for (uint32_t w = 0; w < kRegWarps; ++w)
        for (size_t i = 0; i < 32 * 128; ++i, ++regsChecked) {
            const uint32_t got = regGot[w * 32 * 128 + i], want = hexWord(kRegs[w].final, i);
            const size_t r = i % 128;
            if (kRegs[w].f32[r / 32] >> (r % 32) & 1) { // a wgmma f32 accumulator
                float g, x;
                memcpy(&g, &got, 4);
                memcpy(&x, &want, 4);
                const double rel = std::isnan(g) && std::isnan(x) ? 0.0
                                   : x == 0                     ? std::fabs(double(g))
                                                                : std::fabs(double(g) - x) / std::fabs(double(x));
                ++f32Checked;
                worstRel = std::max(worstRel, std::isnan(rel) ? 1e300 : rel);
                if (!(rel <= kWgmmaRelTolerance)) {
                    std::printf("FAIL: CTA %u warp %u lane %zu r%zu (wgmma D): got %.9g, engine predicted %.9g "
                                "(relative difference %.3g, tolerance 2^-16)\n", kRegs[w].cta, kRegs[w].warp, i / 128,
                                r, g, x, rel);
                    ++failed;
                    break;
                }
                continue;
            }
            if (got != want) {
                std::printf("FAIL: CTA %u warp %u lane %zu r%zu: got 0x%08x, engine predicted 0x%08x\n", kRegs[w].cta,
                            kRegs[w].warp, i / 128, i % 128, got, want);
                ++failed;
                break;
            }
        }
    for (const TmemExpect* e = kTmem; e->cells; ++e)
        for (uint32_t lane = 0, bad = 0; lane < 128 && !bad; ++lane)
            for (uint32_t c = 0; c < e->count; ++c, ++cellsChecked) {
                const uint32_t g = tmemGot[(size_t(e->cta) * 128 + lane) * kTmemColumns + c];
                const uint32_t x = hexWord(e->cells, size_t(lane) * e->count + c);
                if (g != x) {
                    std::printf("FAIL: CTA %u TMEM lane %u column %u: got 0x%08x, engine predicted 0x%08x\n", e->cta,
                                lane, e->column + c, g, x);
                    ++failed;
                    bad = 1;
                    break;
                }
            }
    for (uint32_t k = 0; k < kMaps; ++k) {
        const Tensor& t = kTensors[k];
        std::vector<uint8_t> g(t.extent);
        CHECK_CUDA(cudaMemcpy(g.data(), ptr[k], t.extent, cudaMemcpyDeviceToHost));
        globalBytesChecked += t.extent;
        for (uint64_t o = 0; o < t.extent; ++o)
            if (g[o] != expected[k][o]) {
                std::printf("FAIL: tensor %s byte offset %llu: got 0x%02x, engine predicted 0x%02x\n", t.name,
                            (unsigned long long)o, g[o], expected[k][o]);
                ++failed;
                break;
            }
        cudaFree(raw[k]);
    }
    if (failed) return 1;
    if (f32Checked)
        std::printf("wgmma D: %llu f32 registers within 2^-16 of the engine's (largest relative difference %.3g)\n",
                    (unsigned long long)f32Checked, worstRel);
    std::printf("PASS: %llu shared-memory bytes, %llu global bytes, %llu registers, %llu TMEM cells and %llu bytes "
                "read by ld.shared match the engine's prediction\n", (unsigned long long)smemBytesChecked,
                (unsigned long long)globalBytesChecked, (unsigned long long)regsChecked,
                (unsigned long long)cellsChecked, (unsigned long long)readBytesChecked);
    return 0;
}
)";

} // namespace layoutscope::cudaexport
