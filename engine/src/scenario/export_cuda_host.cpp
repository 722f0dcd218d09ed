// The host half of the CUDA repro (export_cuda.hpp): tensors allocated and filled as the scenario says,
// tensor maps encoded by the driver with the scenario's parameters, the launch, and the comparison with
// the engine's prediction (final shared-memory buffers of every CTA, global bytes the run changed).
#include "scenario/export_cuda_detail.hpp"

#include <algorithm>
#include <set>
#include <sstream>

namespace layoutscope::cudaexport {
namespace {

constexpr uint64_t kMaxTensorBytes = uint64_t(512) << 20;

Diagnostic unsupported(const SourceSpan& span, const std::string& what) {
    return Diagnostic{Severity::Error,
                      DiagCode::Unsupported,
                      span,
                      "export-cuda cannot express this yet: " + what,
                      "docs/export-cuda.md: what a repro covers",
                      Provenance::PtxText};
}

template <class A>
std::string list(const A& a, uint32_t n, const char* suffix = "") {
    std::string out = "{";
    for (uint32_t i = 0; i < n; ++i) out += (i ? ", " : "") + std::to_string(a[i]) + suffix;
    return out + (n ? "}" : "0}");
}

int fillKind(ScenarioFill f) {
    switch (f) {
    case ScenarioFill::Index:
        return 0;
    case ScenarioFill::Zero:
        return 1;
    case ScenarioFill::Bytes:
        return 2;
    case ScenarioFill::Random:
        return 3;
    case ScenarioFill::Data: // a recorded kernel's bytes: export-cuda refuses kernel scenarios before this
        return 1;
    }
    return 1;
}

/// The driver call that encodes tensor map k of the scenario (into maps.m[k], over ptr[k]).
Result<std::string> encodeCall(const ScenarioTensorMap& t, size_t k) {
    const TensorMapTiledParams& p = t.map.p;
    const std::string names[] = {cudaName(p.dataType), cudaName(p.interleave), cudaName(p.swizzle),
                                 cudaName(p.l2Promotion), cudaName(p.oobFill)};
    for (const std::string& n : names)
        if (n.rfind("CU_TENSOR_MAP_", 0) != 0)
            return unsupported(t.span, "tensor map " + t.name + " uses " + n + ", which has no cuda.h value");
    const uint32_t r = p.tensorRank;
    std::ostringstream c;
    c << "    {\n        const cuuint64_t dims[] = " << list(p.globalDim, r, "ull") << ";\n"
      << "        const cuuint64_t strides[] = " << list(p.globalStrides, r - 1, "ull") << ";\n"
      << "        const cuuint32_t es[] = " << list(p.elementStrides, r) << ";\n";
    std::string call;
    switch (t.map.mode) {
    case TensorMap::Mode::Tiled:
        c << "        const cuuint32_t box[] = " << list(p.boxDim, r) << ";\n";
        call = "cuTensorMapEncodeTiled(&maps.m[" + std::to_string(k) + "], " + names[0] + ", " +
               std::to_string(r) + ", ptr[" + std::to_string(k) + "], dims, strides, box, es";
        break;
    case TensorMap::Mode::Im2col:
        c << "        const int lower[] = " << list(t.map.pixelBoxLowerCorner, r - 2) << ";\n"
          << "        const int upper[] = " << list(t.map.pixelBoxUpperCorner, r - 2) << ";\n";
        call = "cuTensorMapEncodeIm2col(&maps.m[" + std::to_string(k) + "], " + names[0] + ", " +
               std::to_string(r) + ", ptr[" + std::to_string(k) + "], dims, strides, lower, upper, " +
               std::to_string(t.map.channelsPerPixel) + ", " + std::to_string(t.map.pixelsPerColumn) + ", es";
        break;
    case TensorMap::Mode::Im2colWide:
        call = "cuTensorMapEncodeIm2colWide(&maps.m[" + std::to_string(k) + "], " + names[0] + ", " +
               std::to_string(r) + ", ptr[" + std::to_string(k) + "], dims, strides, " +
               std::to_string(t.map.pixelBoxLowerCorner[0]) + ", " +
               std::to_string(t.map.pixelBoxUpperCorner[0]) + ", " + std::to_string(t.map.channelsPerPixel) +
               ", " + std::to_string(t.map.pixelsPerColumn) + ", es, " + names[1] + ", " +
               (t.map.wideMode ? "CU_TENSOR_MAP_IM2COL_WIDE_MODE_W128" : "CU_TENSOR_MAP_IM2COL_WIDE_MODE_W") +
               ", " + names[2] + ", " + names[3] + ", " + names[4] + ")";
        break;
    }
    if (t.map.mode != TensorMap::Mode::Im2colWide)
        call += ", " + names[1] + ", " + names[2] + ", " + names[3] + ", " + names[4] + ")";
    c << "        const CUresult r = " << call << ";\n"
      << "        if (r != CUDA_SUCCESS) {\n"
      << "            std::printf(\"FAIL: the driver rejects tensor map " << t.name
      << " (CUresult %d); the engine accepted it\\n\", int(r));\n"
      << "            return 1;\n        }\n    }\n";
    return c.str();
}

} // namespace

std::vector<TmemDump> tmemDumps(const Scenario& s) {
    std::vector<TmemDump> out;
    for (const ScenarioInstr& in : s.instrs) {
        if (in.text.rfind("tcgen05.dealloc", 0) != 0) continue;
        if (std::any_of(out.begin(), out.end(), [&](const TmemDump& d) { return d.cta == in.cta; })) continue;
        out.push_back({in.cta, in.taddr & 0xFFFF, static_cast<uint32_t>(in.value), in.span.line});
    }
    return out;
}

uint32_t tmemDumpColumns(const std::vector<TmemDump>& d) {
    uint32_t n = 0;
    for (const TmemDump& x : d) n = std::max(n, x.count);
    return n;
}

Result<std::string> hostProgram(const Scenario& s, const Run& run, const std::vector<ObservedRead>& reads,
                                const std::vector<const ScenarioPoke*>& pokes) {
    std::ostringstream h;
    h << "struct Tensor {\n    const char* name;\n    uint64_t scenarioAddress, extent, elemBytes;\n    int "
         "fill;\n};\n"
      << "struct Patch { // global bytes the run changed: tensor, offset, bytes (hex)\n"
      << "    uint32_t tensor;\n    uint64_t offset, size;\n    const char* hex;\n};\n"
      << "struct SmemExpect { // a buffer's final bytes in one CTA (hex)\n"
      << "    uint32_t cta;\n    const char* buffer;\n    uint32_t scenarioAddress, size;\n    const char* "
         "hex;\n};\n";
    h << "static const Tensor kTensors[] = {\n";
    for (const ScenarioTensorMap& t : s.tensorMaps) {
        if (t.extent > kMaxTensorBytes)
            return unsupported(t.span, "tensor " + t.name + " spans " + std::to_string(t.extent) +
                                           " bytes (the repro allocates at most 512 MiB per tensor)");
        const uint32_t bits = elementBits(t.map.p.dataType);
        h << "    {\"" << t.name << "\", " << t.map.p.globalAddress << "ull, " << t.extent << "ull, "
          << (bits >= 8 ? bits / 8 : 1) << ", " << fillKind(t.fill) << "},\n";
    }
    h << "    {nullptr, 0, 0, 1, 1}};\n";

    // Leading `poke global` bytes: written into the tensors before the upload.
    h << "static const Patch kPokes[] = {\n";
    for (const ScenarioPoke* p : pokes)
        for (const ScenarioPoke::Range& r : p->ranges) {
            size_t k = 0;
            while (k < s.tensorMaps.size() &&
                   !(r.addr >= s.tensorMaps[k].map.p.globalAddress &&
                     r.addr + r.bytes.size() <= s.tensorMaps[k].map.p.globalAddress + s.tensorMaps[k].extent))
                ++k;
            if (k == s.tensorMaps.size())
                return Diagnostic{Severity::Error,
                                  DiagCode::Unsupported,
                                  {},
                                  "export-cuda: a `poke global` outside every tensor map's tensor",
                                  "docs/export-cuda.md: what a repro covers",
                                  Provenance::PtxText};
            h << "    {" << k << ", " << r.addr - s.tensorMaps[k].map.p.globalAddress << "ull, "
              << r.bytes.size() << ",\n"
              << hexLiteral(r.bytes.data(), r.bytes.size(), "     ") << "},\n";
        }
    h << "    {0, 0, 0, nullptr}};\n";
    // Global bytes that differ between the initial and the final state, as runs.
    h << "static const Patch kPatches[] = {\n";
    std::vector<uint8_t> a(1 << 20), b(1 << 20);
    for (size_t k = 0; k < s.tensorMaps.size(); ++k) {
        const ScenarioTensorMap& t = s.tensorMaps[k];
        for (uint64_t o = 0; o < t.extent; o += a.size()) {
            const size_t n = static_cast<size_t>(std::min<uint64_t>(a.size(), t.extent - o));
            run.initial.global.read(t.map.p.globalAddress + o, std::span(a.data(), n));
            run.final.global.read(t.map.p.globalAddress + o, std::span(b.data(), n));
            for (size_t i = 0; i < n;) {
                if (a[i] == b[i]) {
                    ++i;
                    continue;
                }
                size_t j = i;
                while (j < n && (a[j] != b[j] || (j + 16 < n && !std::equal(a.begin() + j, a.begin() + j + 16,
                                                                            b.begin() + j))))
                    ++j;
                h << "    {" << k << ", " << o + i << "ull, " << j - i << ",\n"
                  << hexLiteral(b.data() + i, j - i, "     ") << "},\n";
                i = j;
            }
        }
    }
    h << "    {0, 0, 0, nullptr}};\n";

    h << "static const SmemExpect kSmem[] = {\n";
    for (const ScenarioBuffer& buf : s.buffers) {
        const auto bytes = run.final.smem.at(buf.cta).bytes();
        h << "    {" << buf.cta << ", \"" << buf.name << "\", " << buf.addr << ", " << buf.size << ",\n"
          << hexLiteral(bytes.data() + buf.addr, buf.size, "     ") << "},\n";
    }
    h << "    {0, nullptr, 0, 0, nullptr}};\n";

    // Registers of the tcgen05 warps: before (uploaded) and after (compared), 32 lanes x 128 words each.
    auto words = [](const WarpRegisters& r) {
        std::vector<uint8_t> b(32 * 128 * 4, 0);
        for (uint32_t t = 0; t < 32; ++t)
            for (uint32_t j = 0; j < 128 && j < r[t].size(); ++j)
                for (uint32_t k = 0; k < 4; ++k)
                    b[(t * 128 + j) * 4 + k] = static_cast<uint8_t>(r[t][j] >> (8 * k));
        return b;
    };
    // f32: the wgmma f32 D registers of the warp (bit j of word j / 32), compared as floats within
    // kWgmmaRelTolerance: the engine's accumulation order is unverified (wgmma_values.cpp).
    const WgmmaRegisters wg = wgmmaRegisters(s);
    std::set<std::pair<uint32_t, uint32_t>> groups; // (CTA, warpgroup) of every wgmma
    for (const ScenarioInstr& in : s.instrs)
        if (in.wgmma) groups.insert({in.cta, in.warp / 4});
    h << "struct RegExpect {\n    uint32_t cta, warp;\n    const char* initial;\n    const char* final;\n"
      << "    uint32_t f32[4];\n};\n"
      << "constexpr double kWgmmaRelTolerance = 1.0 / 65536; // 2^-16 of the predicted value\n"
      << "static const RegExpect kRegs[] = {\n";
    for (const ScenarioWarp& w : run.warps) {
        const auto a = words(w.initial), b = words(w.final);
        uint32_t mask[4] = {0, 0, 0, 0};
        if (groups.count({w.cta, w.warp / 4}))
            for (uint32_t j : wg.f32) mask[j / 32] |= 1u << (j % 32);
        h << "    {" << w.cta << ", " << w.warp << ",\n"
          << hexLiteral(a.data(), a.size(), "     ") << ",\n"
          << hexLiteral(b.data(), b.size(), "     ") << ",\n     {" << mask[0] << "u, " << mask[1] << "u, "
          << mask[2] << "u, " << mask[3] << "u}},\n";
    }
    h << "    {0, 0, nullptr, nullptr, {0, 0, 0, 0}}};\n";
    // Tensor Memory read back before each CTA's first dealloc (the engine's final cells there).
    h << "struct TmemExpect {\n    uint32_t cta, column, count;\n    const char* cells;\n};\n"
      << "static const TmemExpect kTmem[] = {\n";
    for (const TmemDump& d : tmemDumps(s)) {
        std::vector<uint8_t> b(size_t(128) * d.count * 4);
        for (uint32_t lane = 0; lane < 128; ++lane)
            for (uint32_t c = 0; c < d.count; ++c) {
                const uint32_t v = run.tmemFinal.ctas.at(d.cta).cell(lane, d.column + c);
                for (uint32_t k = 0; k < 4; ++k)
                    b[(size_t(lane) * d.count + c) * 4 + k] = static_cast<uint8_t>(v >> (8 * k));
            }
        h << "    {" << d.cta << ", " << d.column << ", " << d.count << ",\n"
          << hexLiteral(b.data(), b.size(), "     ") << "},\n";
    }
    h << "    {0, 0, 0, nullptr}};\n";
    // Consumer ld.shared reads (export_cuda_reads.cpp): what each lane must see, 32 * width bytes each.
    uint32_t obsBytes = 0;
    h << "struct ReadExpect {\n    uint32_t line, cta, warp, mask, width, offset;\n    const char* "
         "bytes;\n};\n"
      << "static const ReadExpect kReads[] = {\n";
    for (const ObservedRead& r : reads) {
        h << "    {" << r.line << ", " << r.cta << ", " << r.warp << ", " << r.mask << "u, " << r.width
          << ", " << r.offset << ",\n"
          << hexLiteral(r.predicted.data(), r.predicted.size(), "     ") << "},\n";
        obsBytes = r.offset + 32 * r.width;
    }
    h << "    {0, 0, 0, 0, 0, 0, nullptr}};\n"
      << "constexpr uint32_t kObsBytes = " << obsBytes << ";\n\n";

    h << R"(static uint8_t fillByte(const Tensor& t, uint64_t o) { // the scenario's fill (scenario.hpp ScenarioFill)
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
    for (size_t k = 0; k < s.tensorMaps.size(); ++k) {
        Result<std::string> call = encodeCall(s.tensorMaps[k], k);
        if (!call) return call.diagnostics();
        h << call.value();
    }
    h << R"(    uint8_t* dump = nullptr;
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
    return h.str();
}

} // namespace layoutscope::cudaexport
