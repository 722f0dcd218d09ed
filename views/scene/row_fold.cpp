// A tall grid folded into bands side by side (row_fold.hpp).
#include "scene/row_fold.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace layoutscope::views {

glm::uvec2 RowFold::drawnSize() const {
    if (!folded()) return {cols, rows};
    return {bands * cols + (bands - 1) * gap, rowsPerBand};
}

glm::uvec2 RowFold::toDrawn(glm::uvec2 cell) const {
    if (!folded()) return cell;
    const uint32_t k = bandOf(cell.y);
    return {cell.x + bandX(k), cell.y - k * rowsPerBand};
}

std::optional<glm::uvec2> RowFold::toGrid(glm::uvec2 drawn) const {
    if (!folded()) return drawn;
    const uint32_t k = drawn.x / (cols + gap), x = drawn.x % (cols + gap);
    if (k >= bands || x >= cols || drawn.y >= rowsPerBand) return std::nullopt;
    const uint32_t y = k * rowsPerBand + drawn.y;
    if (y >= rows) return std::nullopt;
    return glm::uvec2(x, y);
}

std::vector<std::pair<glm::vec2, glm::vec2>> RowFold::drawnRects(glm::vec2 lo, glm::vec2 hi) const {
    if (!folded()) return {{lo, hi}};
    std::vector<std::pair<glm::vec2, glm::vec2>> out;
    const float r = float(rowsPerBand);
    for (uint32_t k = 0; k < bands; ++k) {
        const float top = float(k) * r, bottom = top + r; // band k holds grid rows [top, bottom)
        const float y0 = std::max(lo.y, top), y1 = std::min(hi.y, bottom);
        if (y1 <= y0) continue;
        const glm::vec2 shift{float(bandX(k)), -top};
        out.push_back({glm::vec2(lo.x, y0) + shift, glm::vec2(hi.x, y1) + shift});
    }
    return out;
}

std::vector<Rgba8> RowFold::foldTexels(const std::vector<Rgba8>& texels, Rgba8 empty) const {
    if (!folded()) return texels;
    const glm::uvec2 d = drawnSize();
    std::vector<Rgba8> out(size_t(d.x) * d.y, empty);
    for (uint32_t y = 0; y < rows; ++y) {
        const glm::uvec2 at = toDrawn({0, y});
        const size_t src = size_t(y) * cols;
        if (src + cols > texels.size()) break;
        std::copy_n(texels.begin() + std::ptrdiff_t(src), cols,
                    out.begin() + std::ptrdiff_t(size_t(at.y) * d.x + at.x));
    }
    return out;
}

RowFold chooseRowFold(uint32_t cols, uint32_t rows, glm::vec2 availPx, float gapPx, uint32_t maxBands) {
    RowFold best{cols, rows, 1, rows, 0};
    if (cols == 0 || rows < 2 || availPx.x <= 0 || availPx.y <= 0) return best;
    // Square cells of k bands: the width holds k * cols cells and (k - 1) gaps, the height ceil(rows / k).
    auto zoomOf = [&](uint32_t k) {
        const float zx = (availPx.x - float(k - 1) * gapPx) / float(k * cols);
        const float zy = availPx.y / float((rows + k - 1) / k);
        return std::min(zx, zy);
    };
    const float one = zoomOf(1);
    float bestZoom = one;
    uint32_t bestK = 1;
    for (uint32_t k = 2; k <= std::min(maxBands, rows); ++k)
        if (const float z = zoomOf(k); z > bestZoom) {
            bestZoom = z;
            bestK = k;
        }
    if (bestK == 1 || bestZoom < 1.25f * one) return best;
    best.bands = bestK;
    best.rowsPerBand = (rows + bestK - 1) / bestK;
    best.bands = (rows + best.rowsPerBand - 1) / best.rowsPerBand; // no empty band (e.g. 9 rows in 4)
    // A multiple of 16 columns, so the shader's lines (every 4 drawn columns: banks; every 16: 16-B chunks)
    // fall on each band's banks and chunks as on the first band's.
    best.gap = (uint32_t(std::ceil(gapPx / bestZoom)) + 15u) / 16u * 16u;
    return best;
}

} // namespace layoutscope::views
