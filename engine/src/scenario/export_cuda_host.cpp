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
    h << "struct RegExpect {\n    uint32_t cta, warp;\n    const char* initial;\n    const char* final;\n"
      << "    uint32_t f32[4];\n};\n"
      << "constexpr double kWgmmaRelTolerance = 1.0 / 65536; // 2^-16 of the predicted value\n"
      << "static const RegExpect kRegs[] = {\n";
    for (const ScenarioWarp& w : run.warps) {
        const auto a = words(w.initial), b = words(w.final);
        uint32_t mask[4] = {0, 0, 0, 0};
        if (wg.groups.count({w.cta, w.warp / 4}))
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

    h << kHostHelpers;
    for (size_t k = 0; k < s.tensorMaps.size(); ++k) {
        Result<std::string> call = encodeCall(s.tensorMaps[k], k);
        if (!call) return call.diagnostics();
        h << call.value();
    }
    h << kHostMainRest;
    return h.str();
}

} // namespace layoutscope::cudaexport
