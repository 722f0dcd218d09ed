// Bank-conflict heat map scene (bank_scene.hpp).
#include "scene/bank_scene.hpp"

#include "layoutscope/tma/tma.hpp"

#include <algorithm>

namespace layoutscope::views {

const char* accessPatternName(AccessPattern p) {
    switch (p) {
    case AccessPattern::ColumnRead:
        return "warp reads a column";
    case AccessPattern::RowRead:
        return "warp reads a row";
    case AccessPattern::VectorRow16:
        return "ld.shared.v4 per thread (row-major chunks)";
    case AccessPattern::ColumnChunks16:
        return "warp reads a column of 16-B chunks";
    case AccessPattern::Ldmatrix8x8x4:
        return "ldmatrix .x4 (four 8x8 matrices)";
    }
    return "?";
}

uint32_t TileInSmem::addrOf(uint32_t row, uint32_t col) const {
    return swizzleAddress(swizzle, base + row * pitch + col * elemBytes);
}

Result<BankHeat> bankHeat(const TileInSmem& tile, AccessPattern p, uint32_t row0, uint32_t col) {
    BankHeat h;
    const uint32_t rows = std::max(1u, tile.rows), cols = std::max(1u, tile.cols);
    const uint32_t perChunk = std::max(1u, 16u / tile.elemBytes);
    h.access.widthBytes = tile.elemBytes;
    for (uint32_t t = 0; t < kWarpSize; ++t) {
        uint32_t r = 0, c = 0;
        switch (p) {
        case AccessPattern::ColumnRead:
            r = row0 + t;
            c = col;
            break;
        case AccessPattern::RowRead:
            r = row0 + (col + t) / cols;
            c = (col + t) % cols;
            break;
        case AccessPattern::VectorRow16: {
            const uint32_t chunksPerRow = std::max(1u, cols / perChunk);
            r = row0 + t / chunksPerRow;
            c = (t % chunksPerRow) * perChunk;
            h.access.widthBytes = 16;
            break;
        }
        case AccessPattern::ColumnChunks16:
            r = row0 + t;
            c = col - col % perChunk;
            h.access.widthBytes = 16;
            break;
        case AccessPattern::Ldmatrix8x8x4: {
            const uint32_t m = t / 8;
            r = row0 + t % 8 + 8 * (m % 2);
            c = col + (m / 2) * perChunk; // the second pair of matrices starts one 16-B chunk to the right
            h.access.widthBytes = 16;
            break;
        }
        }
        h.access.addr[t] = tile.addrOf(r % rows, c % cols);
    }
    auto rep = countBankWavefronts(h.access);
    if (!rep) return rep.diagnostics();
    h.report = *rep;
    uint32_t worst = 0;
    for (uint32_t w : h.report.wordsPerBank) worst = std::max(worst, w);
    h.summary = std::string(accessPatternName(p)) + ": " + std::to_string(h.report.wavefronts) +
                " wavefronts (ideal " + std::to_string(h.report.ideal) + ", " +
                std::to_string(h.report.excess) + " excess)";
    return h;
}

Rgba8 heatColour(uint32_t words, uint32_t worst) {
    if (words == 0) return kUntouched;
    const float t =
        worst <= 1 ? 0.0f : static_cast<float>(words - 1) / static_cast<float>(std::max(1u, worst - 1));
    return hslToRgb(120.0f * (1.0f - std::clamp(t, 0.0f, 1.0f)), 0.75f, 0.45f); // green -> red
}

std::vector<Rgba8> bankHeatTexels(const BankHeat& heat, uint32_t windowBase, uint32_t rows) {
    std::vector<Rgba8> tex(static_cast<size_t>(rows) * 128u, kUntouched);
    uint32_t worst = 0;
    for (uint32_t w : heat.report.wordsPerBank) worst = std::max(worst, w);
    for (uint32_t t = 0; t < kWarpSize; ++t) {
        if (!((heat.access.activeMask >> t) & 1u)) continue;
        for (uint32_t b = 0; b < heat.access.widthBytes; ++b) {
            const uint32_t a = heat.access.addr[t] + b;
            if (a < windowBase || a - windowBase >= tex.size()) continue;
            Rgba8 c = heatColour(heat.report.wordsPerBank[smemBank(a)], worst);
            c.a = kFlagWritten;
            tex[a - windowBase] = c;
        }
    }
    return tex;
}

} // namespace layoutscope::views
