#pragma once
/// TMA `.multicast::cluster` fan (PTX ISA 9.2 §9.7.9.27 cp.async.bulk.tensor; tma.md §10): one box
/// row strip on the left, one strip per destination CTA on the right, and one bezier per (block of
/// box rows, CTA) — a bounded number of curves, never one per byte. Pure C++ (no Qt, no GL).
///
/// Cells: height = box rows (dim 1); x [0, 8) the source box (hue = row, lightness = column eighth),
/// x [16 + 12k, 24 + 12k) CTA ctas[k]: the row's colour once it has landed there by the step, else
/// untouched; kFlagCurrent for rows landing in the step just played.
#include "scene/multicast_fans.hpp"
#include "scene/smem_scene.hpp"

namespace layoutscope::views {

struct TmaFan {
    bool valid = false;
    uint32_t instr = 0;
    static constexpr uint32_t kMaxRows = 256;
    uint32_t rows = 0;              ///< box rows shown (dim 1 extent of the box frame, at most kMaxRows)
    std::vector<uint32_t> ctas;     ///< destination CTAs, ascending
    std::vector<uint32_t> smemAddr; ///< per CTA: lowest shared::cta address written
    std::vector<Rgba8> texels;      ///< width() x rows
    std::vector<FanEdge>
        edges; ///< rowLo/rowHi = box rows, cta, laneLo/laneHi = the same rows on the CTA strip
    [[nodiscard]] uint32_t width() const { return 16 + 12 * static_cast<uint32_t>(ctas.size()) - 4; }
    [[nodiscard]] static uint32_t ctaX(size_t k) { return 16 + 12 * static_cast<uint32_t>(k); }
};

/// The multicast TMA load shown at `step`: the last one whose first step is < step, else the first;
/// invalid when the trace has none.
[[nodiscard]] TmaFan tmaFanAt(const Document& doc, uint32_t step, const std::vector<BoxFrame>& frames);

} // namespace layoutscope::views
