// Swizzle explorer scene logic (swizzle_scene.hpp). Derived from the engine's swizzleAddress.
#include "scene/swizzle_scene.hpp"

#include "layoutscope/tma/tma.hpp"

#include <algorithm>
#include <bit>

namespace layoutscope::views {

std::string cuteName(const CuteSwizzle& c) {
    return "Sw<" + std::to_string(c.b) + "," + std::to_string(c.m) + "," + std::to_string(c.s) + ">";
}

namespace {

uint32_t spanOf(TensorSwizzle m) {
    switch (m) {
    case TensorSwizzle::NONE:
        return 0;
    case TensorSwizzle::S32B:
        return 32;
    case TensorSwizzle::S64B:
        return 64;
    default:
        return 128; // 128B and the three 128B atom variants (tma.md §4.2 "Max inner bytes")
    }
}

// A single Swizzle<B,M,S> matches when the pairs are (M+i, M+S+i), i < B.
std::optional<CuteSwizzle> matchCute(const std::vector<std::pair<int, int>>& xors) {
    if (xors.empty()) return std::nullopt;
    const int m = xors.front().first, s = xors.front().second - m;
    for (size_t i = 0; i < xors.size(); ++i)
        if (xors[i].first != m + static_cast<int>(i) || xors[i].second != m + s + static_cast<int>(i))
            return std::nullopt;
    return CuteSwizzle{static_cast<int>(xors.size()), m, s};
}

} // namespace

SwizzleInfo swizzleInfo(TensorSwizzle mode) {
    SwizzleInfo info;
    info.mode = mode;
    info.name = cudaName(mode);
    if (const auto p = info.name.rfind("SWIZZLE_"); p != std::string::npos)
        info.name = info.name.substr(p + 8);
    info.spanBytes = spanOf(mode);
    // Probe: set one address bit and see which other bits of the result it flips (XOR is linear).
    int highest = 6;
    for (int src = 0; src < 20; ++src) {
        const uint32_t flipped = swizzleAddress(mode, 1u << src) ^ (1u << src);
        for (int dst = 0; dst < 20; ++dst) {
            if ((flipped >> dst) & 1u) {
                info.xors.emplace_back(dst, src);
                highest = std::max(highest, src);
            }
        }
    }
    std::sort(info.xors.begin(), info.xors.end());
    info.periodBytes = info.xors.empty() ? 128u : (2u << highest);
    int lowest = info.xors.empty() ? 4 : 31;
    for (const auto& x : info.xors) lowest = std::min(lowest, x.first);
    info.granuleBytes = 1u << lowest;
    if (mode == TensorSwizzle::NONE)
        info.cuteBytes = CuteSwizzle{0, 4, 3}; // tma.md §4.2: identity written Swizzle<0,4,3>
    else
        info.cuteBytes = matchCute(info.xors);
    return info;
}

std::optional<CuteSwizzle> cuteForElements(const CuteSwizzle& bytes, uint32_t elemBytes) {
    if (elemBytes == 0 || !std::has_single_bit(elemBytes)) return std::nullopt;
    const int shift = std::countr_zero(elemBytes);
    if (bytes.b > 0 && bytes.m < shift) return std::nullopt;
    return CuteSwizzle{bytes.b, std::max(0, bytes.m - shift), bytes.s};
}

std::string bitDiagramText(const SwizzleInfo& info) {
    if (info.xors.empty()) return "identity (no bits XORed)";
    std::string out;
    auto range = [](int lo, int n) {
        return n == 1 ? "bit " + std::to_string(lo)
                      : "bits [" + std::to_string(lo) + "," + std::to_string(lo + n) + ")";
    };
    for (size_t i = 0; i < info.xors.size();) {
        size_t j = i + 1;
        while (j < info.xors.size() && info.xors[j].first == info.xors[j - 1].first + 1 &&
               info.xors[j].second == info.xors[j - 1].second + 1)
            ++j;
        const int n = static_cast<int>(j - i);
        if (!out.empty()) out += "; then ";
        out += range(info.xors[i].first, n) + " ^= " + range(info.xors[i].second, n);
        i = j;
    }
    return out;
}

ChunkGrid chunkGrid(const SwizzleInfo& info) {
    ChunkGrid g;
    g.lines = info.periodBytes / 128u;
    g.granules = 128u / info.granuleBytes;
    g.physGranule.resize(static_cast<size_t>(g.lines) * g.granules);
    for (uint32_t l = 0; l < g.lines; ++l)
        for (uint32_t c = 0; c < g.granules; ++c)
            g.physGranule[l * g.granules + c] =
                (swizzleAddress(info.mode, l * 128u + c * info.granuleBytes) % 128u) / info.granuleBytes;
    return g;
}

uint32_t SwizzleTile::physAddr(TensorSwizzle mode, uint32_t row, uint32_t col) const {
    return swizzleAddress(mode, base + row * pitch + col * elemBytes);
}

std::optional<SwizzleTile> swizzleTile(TensorSwizzle mode, uint32_t rows, uint32_t cols, uint32_t elemBytes,
                                       uint32_t base) {
    const uint32_t span = spanOf(mode);
    if (rows == 0 || cols == 0 || elemBytes == 0 || 128u % elemBytes != 0) return std::nullopt;
    if (span != 0 && cols * elemBytes > span) return std::nullopt;
    SwizzleTile t;
    t.rows = rows;
    t.cols = cols;
    t.elemBytes = elemBytes;
    t.base = base;
    t.pitch = span != 0 ? span : cols * elemBytes;
    const uint32_t origin = base & ~127u;
    const uint32_t end = base + rows * t.pitch;
    t.physLines = (end - origin + 127u) / 128u;
    const uint32_t slotsPerLine = 128u / elemBytes;
    t.logical.resize(static_cast<size_t>(rows) * cols);
    t.physical.assign(static_cast<size_t>(t.physLines) * slotsPerLine, kUntouched);
    t.physElement.assign(t.physical.size(), -1);
    for (uint32_t r = 0; r < rows; ++r) {
        for (uint32_t c = 0; c < cols; ++c) {
            // Hue from the logical 16-B chunk of the row (8 hues), lightness from the row: a chunk keeps
            // its colour wherever the XOR puts it, so the physical image shows the permutation.
            const uint32_t chunk = (c * elemBytes / 16u) % 8u;
            const float light =
                0.32f + 0.3f * static_cast<float>(r) / static_cast<float>(std::max(1u, rows - 1));
            const Rgba8 colour = hslToRgb(45.0f * static_cast<float>(chunk), 0.7f, light);
            t.logical[r * cols + c] = colour;
            const uint32_t slot = (t.physAddr(mode, r, c) - origin) / elemBytes;
            if (slot < t.physical.size()) {
                t.physical[slot] = colour;
                t.physElement[slot] = static_cast<int32_t>(r * cols + c);
            }
        }
    }
    return t;
}

} // namespace layoutscope::views
