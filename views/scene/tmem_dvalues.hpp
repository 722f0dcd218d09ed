#pragma once
/// The tcgen05.mma value check in the Tensor Memory view (issue 24 item 4: "a wrong D looks exactly like a
/// right one"): the accumulator cells whose value differs from the product of the global tiles beyond the
/// check's tolerance (analysis/mma_values.hpp mmaDValues) are marked like every other mismatch, once the
/// MMA that the check is about has written them, and the inspector names the element, the value, the
/// expected value, the error and the tolerance.
#include "layoutscope/analysis/mma_values.hpp"
#include "scene/document.hpp"
#include "scene/tmem_scene.hpp"

#include <string>
#include <vector>

namespace layoutscope::views {

/// Sets kFlagDiffers on the shown cells whose last writer is a checked tcgen05.mma and whose value the check
/// finds wrong; counts them in TmemScene::dValueMarked.
void markMmaDValues(const Document& doc, const std::vector<MmaDCheck>& checks, TmemScene& s);

/// Colours each checked accumulator cell its MMA has written by D's value (a ramp from blue, the smallest
/// value of the accumulators shown, to yellow, the largest), keeping the cell's flags: a wrong D that
/// "looks exactly like a right one" by element shows as another value. Sets dByValue, dMin, dMax.
void colourMmaDByValue(const Document& doc, const std::vector<MmaDCheck>& checks, TmemScene& s);

/// The check's line for grid cell (x, y) when a checked MMA wrote it there: "D[m=.][n=.]: holds V, the
/// product of the tiles gives E (error, tolerance)"; empty otherwise.
[[nodiscard]] std::string mmaDValueText(const Document& doc, const std::vector<MmaDCheck>& checks,
                                        const TmemScene& s, uint32_t x, uint32_t y);

} // namespace layoutscope::views
