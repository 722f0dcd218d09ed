#pragma once
/// Scene logic of the swizzle explorer (no Qt, no GL): for a TMA swizzle mode and an element size,
/// what the explorer shows. Everything is derived from the engine's swizzleAddress (tma.hpp), which
/// acts on ABSOLUTE shared byte addresses (tma.md §4.1-§4.2, PTX ISA 9.2 §5.5.7).
///
///   chunk grid   lines of 128 B (rows) x granules (16 B, or 8 B for the 8-B flip) over one repeat
///                period: cell (line, g) = granule index where logical granule g of that line lands
///   bit diagram  which address bits are XORed into which (e.g. 128B: bits [4,7) ^= bits [7,10))
///   CuTe         Swizzle<B,M,S> on byte addresses, and on element indices (M - log2(elemBytes))
///   tile         a logical row-major tile (row pitch = span, or the row bytes for NONE) and where
///                each element lands in the physical 128-B lines
#include "scene/cell_style.hpp"

#include "layoutscope/tma/tensor_map.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace layoutscope::views {

/// CuTe Swizzle<B, M, S>: bits [M, M+B) ^= bits [M+S, M+S+B).
struct CuteSwizzle {
    int b = 0, m = 0, s = 0;
    friend bool operator==(const CuteSwizzle&, const CuteSwizzle&) = default;
};

/// "Sw<3,4,3>".
[[nodiscard]] std::string cuteName(const CuteSwizzle& c);

struct SwizzleInfo {
    TensorSwizzle mode = TensorSwizzle::NONE;
    std::string name;           ///< cuda.h suffix, e.g. "128B_ATOM_32B"
    uint32_t spanBytes = 0;     ///< swizzled row width (32, 64, 128), 0 for NONE
    uint32_t periodBytes = 0;   ///< the pattern repeats every periodBytes of address (128 for NONE)
    uint32_t granuleBytes = 16; ///< smallest block the XOR moves (8 for the 8-B flip)
    /// (destination bit, source bit) pairs, ascending by destination: P bit d = A bit d ^ A bit s.
    std::vector<std::pair<int, int>> xors;
    std::optional<CuteSwizzle> cuteBytes; ///< none where no single Swizzle<B,M,S> matches
};

/// Probe swizzleAddress bit by bit to describe a mode.
[[nodiscard]] SwizzleInfo swizzleInfo(TensorSwizzle mode);

/// The element form of a byte swizzle: M reduced by log2(elemBytes); none when the XORed bits lie
/// inside one element (M < log2(elemBytes)) or elemBytes is not a power of two.
[[nodiscard]] std::optional<CuteSwizzle> cuteForElements(const CuteSwizzle& bytes, uint32_t elemBytes);

/// "bits [4,7) ^= bits [7,10)" (runs of consecutive pairs are merged), "identity" when none.
[[nodiscard]] std::string bitDiagramText(const SwizzleInfo& info);

/// Chunk grid over one repeat period starting at address 0: periodBytes/128 lines x 128/granule.
struct ChunkGrid {
    uint32_t lines = 0, granules = 0;
    std::vector<uint32_t> physGranule; ///< row-major, lines x granules
    [[nodiscard]] uint32_t at(uint32_t line, uint32_t g) const { return physGranule[line * granules + g]; }
};
[[nodiscard]] ChunkGrid chunkGrid(const SwizzleInfo& info);

/// A logical row-major tile of rows x cols elements at shared address `base`, and where it lands.
struct SwizzleTile {
    uint32_t rows = 0, cols = 0, elemBytes = 2, base = 0;
    uint32_t pitch = 0;               ///< bytes between logical rows (span, or cols*elemBytes for NONE)
    uint32_t physLines = 0;           ///< 128-B lines covered by the physical image
    std::vector<Rgba8> logical;       ///< rows x cols: hue = logical 16-B chunk, lightness = row
    std::vector<Rgba8> physical;      ///< physLines x (128 / elemBytes) element slots from base & ~127
    std::vector<int32_t> physElement; ///< per physical slot: row * cols + col, -1 unused
    /// Physical byte address of logical element (row, col).
    [[nodiscard]] uint32_t physAddr(TensorSwizzle mode, uint32_t row, uint32_t col) const;
};
/// Fails (nullopt) when a row does not fit the span (cols * elemBytes > span), as the driver rejects it.
[[nodiscard]] std::optional<SwizzleTile> swizzleTile(TensorSwizzle mode, uint32_t rows, uint32_t cols,
                                                     uint32_t elemBytes, uint32_t base = 0);

} // namespace layoutscope::views
