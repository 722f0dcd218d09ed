// inferTileLoad (infer.hpp): candidate tile loads run through the engine's own TMA executor and compared
// with the observed tile byte for byte.
#include "layoutscope/analysis/infer.hpp"

#include <algorithm>

namespace layoutscope {
namespace {

Diagnostic bad(std::string message) {
    return Diagnostic{Severity::Error,    DiagCode::InvalidValue,     {},
                      std::move(message), "docs/observed.md (infer)", Provenance::Assumption};
}

TensorDataType typeOfSize(uint32_t es, TensorDataType own, uint32_t ownEs) {
    if (es == ownEs) return own;
    return es == 1   ? TensorDataType::UINT8
           : es == 2 ? TensorDataType::UINT16
           : es == 4 ? TensorDataType::UINT32
                     : TensorDataType::UINT64;
}

struct Search {
    const ScenarioTensorMap& t;
    std::span<const uint8_t> observed;
    TmaArch arch;
    MachineState state{1, 0};
    InferResult result;
    bool haveClosest = false;
    std::string lastError;

    void tryOne(const TensorMapTiledParams& p, const std::array<int32_t, kMaxTensorRank>& coords,
                uint32_t addr) {
        auto map = encodeTiled(p, arch);
        if (!map) return;
        const uint32_t mbar = 16; // below every buffer: a barrier for the load's complete_tx
        auto smem = state.smem[0].bytes();
        std::fill(smem.begin() + addr, smem.begin() + addr + observed.size(), uint8_t(0));
        TmaTileLoad op;
        op.map = *map;
        op.coords = coords;
        op.dstAddr = addr;
        op.mbarAddr = mbar;
        op.arch = arch;
        Trace trace;
        trace.budgetBytes = 0;
        TraceBuilder tb(trace);
        tb.beginInstr("infer");
        const Status st = executeTmaLoad(op, state, tb);
        tb.endInstr();
        ++result.tried;
        if (!st) {
            lastError = st.error().message;
            return;
        }
        uint64_t diff = 0;
        for (size_t i = 0; i < observed.size(); ++i) diff += smem[addr + i] != observed[i];
        InferCandidate c{*map, coords, addr, diff};
        if (diff == 0) result.exact.push_back(c);
        if (!haveClosest || diff < result.closest.differing) result.closest = c, haveClosest = true;
    }
};

} // namespace

Result<InferResult> inferTileLoad(const ScenarioTensorMap& t, std::span<const uint8_t> observed,
                                  uint32_t bufferAddr, TmaArch arch) {
    const TensorMapTiledParams& own = t.map.p;
    const uint32_t bits = elementBits(own.dataType);
    if (t.fill != ScenarioFill::Index)
        return bad("infer needs tensor " + t.name +
                   " filled with pattern=index (each element holds its own index)");
    if (bits < 8 || t.map.mode != TensorMap::Mode::Tiled)
        return bad("infer searches tiled maps of byte-sized elements; " + t.name + " is not one");
    if (observed.empty() || observed.size() > kSmemBytesPerCta - 1024)
        return bad("the observed tile must hold 1 to " + std::to_string(kSmemBytesPerCta - 1024) + " bytes");
    const uint32_t es0 = bits / 8;
    uint64_t elems = 1;
    for (uint32_t d = 0; d < own.tensorRank; ++d) elems *= own.globalDim[d];
    if (es0 < 8 && elems > (uint64_t(1) << (8 * es0)))
        return bad("tensor " + t.name + " has " + std::to_string(elems) + " elements, more than a " +
                   std::to_string(8 * es0) + "-bit index can name: the tile cannot tell where it came from");
    // The origin: the smallest element index in the tile (the box's first element for an in-bounds box).
    uint64_t minIndex = UINT64_MAX;
    for (size_t i = 0; i + es0 <= observed.size(); i += es0) {
        uint64_t v = 0;
        for (uint32_t b = 0; b < es0; ++b) v |= uint64_t(observed[i + b]) << (8 * b);
        minIndex = std::min(minIndex, v);
    }
    const uint64_t origin = minIndex * es0; // byte offset in the tensor

    Search s{t, observed, arch};
    s.state.global.addRegion(own.globalAddress, t.extent, scenarioFillGenerator(t),
                             scenarioFillBulkGenerator(t));
    s.state.mbarriers[{0, 16}] = MbarrierState{};
    std::vector<TensorSwizzle> swizzles = {TensorSwizzle::NONE, TensorSwizzle::S32B, TensorSwizzle::S64B,
                                           TensorSwizzle::S128B};
    if (arch != TmaArch::Sm90)
        swizzles.insert(swizzles.end(), {TensorSwizzle::S128B_ATOM_32B, TensorSwizzle::S128B_ATOM_32B_FLIP_8B,
                                         TensorSwizzle::S128B_ATOM_64B});
    const uint64_t size = observed.size();
    auto searchAt = [&](uint32_t addr) {
        if (addr + size > kSmemBytesPerCta) return;
        for (uint32_t es : {1u, 2u, 4u, 8u}) {
            if ((own.globalDim[0] * es0) % es || origin % es) continue;
            TensorMapTiledParams p = own;
            p.dataType = typeOfSize(es, own.dataType, es0);
            p.globalDim[0] = own.globalDim[0] * es0 / es;
            p.interleave = TensorInterleave::NONE;
            p.elementStrides = {1, 1, 1, 1, 1};
            // Origin coordinates from the map's byte strides, outermost first.
            std::array<int32_t, kMaxTensorRank> coords{};
            uint64_t off = origin;
            for (int d = static_cast<int>(p.tensorRank) - 1; d >= 1; --d) {
                coords[d] = static_cast<int32_t>(off / p.globalStrides[d - 1]);
                off %= p.globalStrides[d - 1];
            }
            coords[0] = static_cast<int32_t>(off / es);
            for (uint64_t rowBytes = 16; rowBytes <= std::min<uint64_t>(size, 256 * es); rowBytes += 16) {
                if (size % rowBytes) continue;
                const uint64_t rows = size / rowBytes;
                std::vector<std::array<uint32_t, 2>> splits; // box[1], box[2]
                if (p.tensorRank == 1) {
                    if (rows == 1) splits.push_back({1, 1});
                } else if (p.tensorRank == 2) {
                    if (rows <= 256) splits.push_back({uint32_t(rows), 1});
                } else {
                    for (uint64_t b1 = 1; b1 <= std::min<uint64_t>(rows, 256); ++b1)
                        if (rows % b1 == 0 && rows / b1 <= 256)
                            splits.push_back({uint32_t(b1), uint32_t(rows / b1)});
                }
                for (const auto& [b1, b2] : splits)
                    for (TensorSwizzle sw : swizzles) {
                        if (sw != TensorSwizzle::NONE && rowBytes > swizzleSpan(sw)) continue;
                        p.swizzle = sw;
                        p.boxDim = {uint32_t(rowBytes / es), b1, b2, 1, 1};
                        s.tryOne(p, coords, addr);
                    }
            }
        }
    };
    searchAt(bufferAddr);
    if (s.result.exact.empty())
        for (uint32_t phase = 0; phase < 8; ++phase) {
            const uint32_t addr = std::max<uint32_t>(1024, bufferAddr & ~1023u) + phase * 128;
            if (addr != bufferAddr) searchAt(addr);
        }
    // The tensor's own element type first: the parameters a kernel engineer compares with their own.
    std::stable_sort(s.result.exact.begin(), s.result.exact.end(),
                     [&](const InferCandidate& a, const InferCandidate& b) {
                         return (a.map.p.dataType == own.dataType) > (b.map.p.dataType == own.dataType);
                     });
    if (s.result.tried > 0 && !s.haveClosest)
        return bad("no candidate load of " + t.name + " could run (the tile's smallest element index, " +
                   std::to_string(minIndex) + ", gives the origin); the last one failed: " + s.lastError);
    if (s.result.tried == 0)
        return bad("no tile load of " + t.name + " has the observed size of " + std::to_string(size) +
                   " bytes (box rows of 16-B multiples, at most 256 "
                   "elements per dimension)");
    return s.result;
}

} // namespace layoutscope
