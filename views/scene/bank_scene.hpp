#pragma once
/// Bank-conflict heat map scene (no Qt): a named warp access pattern over a logical tile that sits
/// in shared memory through a swizzle (logical (row, col) -> A = base + row*pitch + col*elemBytes ->
/// P = swizzleAddress(A), tma.md §4.1), its wavefront count (engine banks.hpp, rule
/// SmemBankWavefronts) and heat texels for the 128-B-per-row shared-memory grid.
#include "scene/cell_style.hpp"

#include "layoutscope/analysis/banks.hpp"
#include "layoutscope/tma/tensor_map.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace layoutscope::views {

enum class AccessPattern {
    ColumnRead,     ///< thread t reads element (row0 + t, col): a warp walks down a column
    RowRead,        ///< thread t reads element (row0, col + t) (wrapping to the next rows)
    VectorRow16,    ///< ld.shared.v4: thread t reads 16-B chunk t of the tile in row-major order
    ColumnChunks16, ///< thread t reads the 16-B chunk holding (row0 + t, col)
    Ldmatrix8x8x4,  ///< ldmatrix .x4: threads 8m..8m+7 give rows of 8x8 matrix m (m: rows +8*(m%2), cols
                    ///< +8*(m/2))
};

[[nodiscard]] const char* accessPatternName(AccessPattern p);

struct TileInSmem {
    TensorSwizzle swizzle = TensorSwizzle::NONE;
    uint32_t base = 0; ///< absolute shared address of element (0, 0)
    uint32_t rows = 64, cols = 64, elemBytes = 2;
    uint32_t pitch = 128; ///< bytes between rows (span when swizzled)
    [[nodiscard]] uint32_t addrOf(uint32_t row, uint32_t col) const; ///< physical byte address
};

struct BankHeat {
    WarpSmemAccess access;
    BankReport report;
    std::string summary; ///< "ColumnRead: 32 wavefronts (ideal 1, 31 excess), 32-way"
};

/// Thread addresses of a pattern starting at (row0, col), and its wavefronts. Fails on a bad width
/// or alignment (the engine's diagnostics).
[[nodiscard]] Result<BankHeat> bankHeat(const TileInSmem& tile, AccessPattern p, uint32_t row0 = 0,
                                        uint32_t col = 0);

/// Heat colour of a bank serving `words` distinct words when the worst bank serves `worst`:
/// green (1 word) through yellow to red (worst >= 8 or max), grey for 0.
[[nodiscard]] Rgba8 heatColour(uint32_t words, uint32_t worst);

/// Per byte of [windowBase, windowBase + 128*rows): the heat colour of the bank of each byte that a
/// thread of the access touches (kFlagWritten set), kUntouched elsewhere.
[[nodiscard]] std::vector<Rgba8> bankHeatTexels(const BankHeat& heat, uint32_t windowBase, uint32_t rows);

} // namespace layoutscope::views
