#pragma once
/// sceneAt for the views: from a trace and a step, what each cell shows. Pure C++ (no Qt, no GL).
///
/// SMEM scene: one cell per byte of a SmemWindow, 128 bytes per row (32 banks x 4 B):
///   cell (x, y) = byte address window.base + y*128 + x;  bank = (address / 4) mod 32.
/// Global scene (a 2-D slice of the tensor): scene/global_scene.hpp, included here.
#include "scene/cell_style.hpp"
#include "scene/document.hpp"
#include "scene/global_scene.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <optional>
#include <vector>

namespace layoutscope::views {

/// The box an instruction moves, in coordinates of dims 0 and 1: [lo, hi) (elements), as seen in
/// its moves (fill moves included). Colours are relative to this box.
/// int64: a box at INT32_MAX ends past it, and rows INT32_MIN and INT32_MAX are 2^32 apart.
struct BoxFrame {
    std::array<int64_t, 2> lo{0, 0};
    std::array<int64_t, 2> hi{1, 1};
    /// The rows are .tile::gather4/scatter4 rows (four separate boxDim[0] x 1 boxes): hue spans the
    /// tensor rows lo[1]..hi[1]-1, not the rows of one box (the legend says so).
    bool gathered = false;
    [[nodiscard]] int cols() const { return saturate(hi[0] - lo[0]); } ///< saturated at INT_MAX
    [[nodiscard]] int rows() const { return saturate(hi[1] - lo[1]); }
    /// colourForCoord of the element at (c0, c1) relative to the box.
    [[nodiscard]] Rgba8 colourAt(int64_t c0, int64_t c1) const {
        return colourForCoord(saturate(c1 - lo[1]), saturate(c0 - lo[0]), rows(), cols());
    }
    [[nodiscard]] static int saturate(int64_t v) {
        return static_cast<int>(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX));
    }
};

/// Box frames of every instruction of the document's trace (index = instruction).
[[nodiscard]] std::vector<BoxFrame> boxFrames(const Document& doc);

/// Tensor coordinate (all dims) of the element that byte `byteInMove` of move `m` belongs to.
[[nodiscard]] std::array<int32_t, 5> coordOfByte(const ByteMove& m, uint32_t byteInMove, uint32_t elemBytes);

struct SmemScene {
    SmemWindow window;
    uint32_t step = 0;
    std::vector<int32_t> moveOf; ///< per byte: index into trace.moves of the last move that wrote it, -1 none
    std::vector<Rgba8> texels;   ///< per byte, row-major, 128 per row
    size_t observedMarked = 0;   ///< bytes marked kFlagDiffers because they differ from an `observe`d dump
    [[nodiscard]] uint32_t width() const { return 128; }
    [[nodiscard]] uint32_t height() const { return window.rows(); }
    /// Cell of a byte address, or nullopt outside the window.
    [[nodiscard]] std::optional<uint32_t> indexOf(uint32_t addr) const;
};

/// State of shared memory after every move of steps < `step` (Replay::seek semantics).
/// Bytes of the last step get kFlagCurrent; with `fadeSteps` > 0, bytes moved in the steps before
/// it are mixed towards white, fading out over that many steps (a trail while playing).
[[nodiscard]] SmemScene smemSceneAt(const Document& doc, uint32_t step, const std::vector<BoxFrame>& frames,
                                    uint32_t cta = 0, uint32_t fadeSteps = 0);

/// Sets kFlagRead on the bytes of `w` that the moves of step `step - 1` read (their source): a read is
/// an outline over the producer's colour, never a recolouring (issue 12).
void markReads(const Trace& t, uint32_t step, const SmemWindow& w, std::vector<Rgba8>& texels);

/// Sets kFlagDiffers on the bytes at `addrs` (Document::observedDiffers: they differ from an `observe`d
/// dump).
void markObserved(const std::vector<uint32_t>& addrs, SmemScene& s);

/// `c` mixed towards white for a move `age` steps before the current one (age 0 = current step is
/// left to the shader's highlight): weight 0.45 * (1 - age / fadeSteps).
[[nodiscard]] Rgba8 fadeTowardsWhite(Rgba8 c, uint32_t age, uint32_t fadeSteps);

} // namespace layoutscope::views
