#pragma once
/// How cells are coloured: one RGBA8 texel per cell, RGB = colour, A = flag bits. The same shading
/// runs in the GL fragment shader (assets/shaders/cells.frag) and in shadeCell() below, which the
/// CPU export fallback and the tests use.
///
///   texel  = [ R | G | B | flags ]      flags: bits [0,8)
///   bit 0  kFlagWritten   the byte has been written (SMEM) / the element has been read (global)
///   bit 1  kFlagFill      out-of-bounds fill byte (SMEM) / element outside the tensor (global)
///   bit 2  kFlagCurrent   moved by the step just played (highlighted)
///   bit 3  kFlagInBox     global: element belongs to the box
///   bit 4  kFlagSkipped   global: inside the box span but skipped by elementStrides
///   bit 5  kFlagRead      SMEM: read (a move's source) by the step just played: drawn as an outline,
///                         the byte keeps the colour of the move that wrote it
///   bit 6  kFlagDiffers   a mismatch (compare mode, operand and TMEM checks, observed dumps): below
///                         6 px per cell a strong tint (80%) towards kDiffColour, from 6 px a 40% tint
///                         and an inner outline diffOutlinePx(cell px) wide (mark_badge.hpp)
///   bit 7  kFlagReshuffled  compare mode: the element is in the reference pane, at another place
///                         (issue 24 item 8): a muted tint towards kReshuffleColour (55% below 6 px per
///                         cell, 35% from 6 px) and no outline, so the element's colour stays readable
#include <cstdint>

#include <glm/glm.hpp>

namespace layoutscope::views {

inline constexpr uint8_t kFlagWritten = 1u << 0;
inline constexpr uint8_t kFlagFill = 1u << 1;
inline constexpr uint8_t kFlagCurrent = 1u << 2;
inline constexpr uint8_t kFlagInBox = 1u << 3;
inline constexpr uint8_t kFlagSkipped = 1u << 4;
inline constexpr uint8_t kFlagRead = 1u << 5;
inline constexpr uint8_t kFlagDiffers = 1u << 6;
inline constexpr uint8_t kFlagReshuffled = 1u << 7;

struct Rgba8 {
    uint8_t r = 0, g = 0, b = 0, a = 255;
    friend bool operator==(const Rgba8&, const Rgba8&) = default;
};

/// Colour of the element at box-relative (row, col): hue from the row (0..300 degrees over the box
/// rows), lightness from the column (dark on the left, light on the right). `rows`/`cols` are the
/// box extents in elements (>= 1). Alpha is 255.
[[nodiscard]] Rgba8 colourForCoord(int row, int col, int rows, int cols);

/// HSL (h in degrees, s and l in [0,1]) to RGB8.
[[nodiscard]] Rgba8 hslToRgb(float h, float s, float l);

inline constexpr Rgba8 kUntouched{58, 60, 68, 255};         ///< SMEM byte nobody wrote
inline constexpr Rgba8 kReadOutline{64, 230, 255, 255};     ///< SMEM byte read this step (kFlagRead)
inline constexpr Rgba8 kDiffColour{255, 64, 160, 255};      ///< compare mode: differs (kFlagDiffers)
inline constexpr Rgba8 kReshuffleColour{96, 108, 140, 255}; ///< compare: elsewhere (kFlagReshuffled)
inline constexpr Rgba8 kOutsideBox{44, 46, 52, 255};        ///< global element not in the box
inline constexpr Rgba8 kOutOfBounds{96, 40, 44, 255};       ///< global element outside the tensor
inline constexpr Rgba8 kElided{34, 38, 56, 255};            ///< global: a gap cell for coordinates not shown
inline constexpr Rgba8 kBackground{24, 25, 29, 255};        ///< canvas clear colour
inline constexpr Rgba8 kSelectionColour{255, 196, 0, 255};  ///< linked selection outline (every view)
inline constexpr Rgba8 kLessonHighlightColour{255, 80, 220, 255}; ///< a lesson step's highlight (every view)

/// Parameters of the cell shader that do not depend on the texel.
struct ShadeParams {
    float zoom = 1.0f;  ///< pixels per cell (along x when zoomY is set)
    int groupX = 0;     ///< draw a stronger line every groupX cells in x (4 = SMEM banks), 0 = none
    int groupY = 0;     ///< same in y
    float zoomY = 0.0f; ///< pixels per cell along y when cells are not square (Camera2D Fill), 0 = zoom
};

/// Colour of the pixel at screen `px` (pixels), world `world` (cells) whose cell has `texel`.
/// Mirrors assets/shaders/cells.frag exactly.
[[nodiscard]] Rgba8 shadeCell(Rgba8 texel, glm::vec2 world, glm::vec2 px, const ShadeParams& p);

} // namespace layoutscope::views
