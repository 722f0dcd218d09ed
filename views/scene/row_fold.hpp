#pragma once
/// RowFold: a tall grid (`cols` x `rows` cells) shown as `bands` bands of `rowsPerBand` rows side by
/// side, `gap` empty columns between them (issue 24 item 7: the 193 rows of 128 B of a tcgen05 MMA's
/// shared memory beside the Tensor Memory dock at 1280x800 were a ~0.3-px-per-row strip; folded into 4
/// bands its rows are 4x taller and the pane's width is used). Pure GLM, no Qt.
///
/// Two coordinate systems: the grid's own cells (x = column, y = row, as the scene builds them) and the
/// folded, drawn cells: row y lies in band k = y / rowsPerBand, drawn at (x + k * (cols + gap),
/// y - k * rowsPerBand). Band 0 is the grid's first rows, at the left. One band is the identity.
#include "scene/cell_style.hpp"

#include <algorithm>
#include <glm/glm.hpp>
#include <optional>
#include <utility>
#include <vector>

namespace layoutscope::views {

struct RowFold {
    uint32_t cols = 0, rows = 0; ///< the grid's cells
    uint32_t bands = 1;          ///< 1: not folded
    uint32_t rowsPerBand = 0;    ///< ceil(rows / bands)
    uint32_t gap = 0;            ///< empty drawn columns between two bands
    [[nodiscard]] bool folded() const { return bands > 1 && rowsPerBand > 0; }
    /// Drawn grid size: bands x cols (+ gaps) by rowsPerBand; the grid's own size when not folded.
    [[nodiscard]] glm::uvec2 drawnSize() const;
    /// Drawn column of the first column of band k.
    [[nodiscard]] uint32_t bandX(uint32_t k) const { return k * (cols + gap); }
    /// Band of grid row `row` (0 when not folded).
    [[nodiscard]] uint32_t bandOf(uint32_t row) const {
        return folded() ? std::min(row / rowsPerBand, bands - 1) : 0;
    }
    /// Grid cell -> drawn cell.
    [[nodiscard]] glm::uvec2 toDrawn(glm::uvec2 cell) const;
    /// Drawn cell -> grid cell; nullopt in a gap or below the last row of the last band.
    [[nodiscard]] std::optional<glm::uvec2> toGrid(glm::uvec2 drawn) const;
    /// Grid cells [lo, hi) -> the drawn rectangles [lo, hi) that show them, one per band the rows cross
    /// (a range of whole rows spanning two bands is two rectangles).
    [[nodiscard]] std::vector<std::pair<glm::vec2, glm::vec2>> drawnRects(glm::vec2 lo, glm::vec2 hi) const;
    /// The grid's texels (cols x rows, row-major) laid out as drawn; gaps and the cells past the last
    /// row get `empty`.
    [[nodiscard]] std::vector<Rgba8> foldTexels(const std::vector<Rgba8>& texels, Rgba8 empty) const;
    friend bool operator==(const RowFold&, const RowFold&) = default;
};

/// The fold of a `cols` x `rows` grid for an area of `availPx` pixels (the pane less its margins) with
/// `gapPx` pixels between bands (the row labels of the band to its right go there): the number of bands,
/// at most `maxBands`, that gives the largest square cells; one band unless folding makes the cells at
/// least 1.25x larger (a grid that fits is never folded). The gap in columns is `gapPx` at that zoom,
/// rounded up to a multiple of 16 (the shared-memory view's lines fall every 4 drawn columns, banks, or every
/// 16, 16-B chunks).
[[nodiscard]] RowFold chooseRowFold(uint32_t cols, uint32_t rows, glm::vec2 availPx, float gapPx,
                                    uint32_t maxBands = 8);

} // namespace layoutscope::views
