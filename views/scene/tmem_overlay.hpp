#pragma once
/// Overlays (labels, legends, allocation outlines, multicast fans, bit fans) of the Tensor Memory,
/// Registers and Decompression views. Pure C++ + GLM; a bounded number of primitives per frame
/// (labels thinned to the viewport, fans one bezier per 32-row block and replica).
#include "scene/decomp_scene.hpp"
#include "scene/multicast_fans.hpp"
#include "scene/overlay.hpp"
#include "scene/reg_scene.hpp"
#include "scene/tma_fans.hpp"

#include "scene/tmem_scene.hpp"
#include <functional>
#include <optional>

namespace layoutscope::views {

inline constexpr glm::vec4 kTmemMargins{150.0f, 64.0f, 16.0f, 84.0f};
inline constexpr glm::vec4 kRegMargins{96.0f, 64.0f, 16.0f, 60.0f};
inline constexpr glm::vec4 kDecompMargins{16.0f, 70.0f, 16.0f, 70.0f};

/// Column/lane labels, lane quarters with their warps, allocations, CTA titles, legend; and the
/// fan of `fans` (when valid) from a source-row strip to each destination lane block. With
/// `cellValue` and cells >= 72 px, each visible cell shows its 32-bit value in hex (bounded by the
/// viewport, not by the number of cells).
using TmemValueFn = std::function<std::optional<uint32_t>(uint32_t x, uint32_t y)>;
[[nodiscard]] OverlayList buildTmemOverlay(const Camera2D& cam, glm::vec2 viewport, const TmemScene& s,
                                           const MulticastFans* fans, const TmemValueFn& cellValue = {});
[[nodiscard]] OverlayList buildRegOverlay(const Camera2D& cam, glm::vec2 viewport, const RegScene& r,
                                          const std::string& instrText);
/// `title`: e.g. the instruction and the chunk's source address.
[[nodiscard]] OverlayList buildDecompOverlay(const Camera2D& cam, glm::vec2 viewport, const DecompScene& d,
                                             const std::string& title);

inline constexpr glm::vec4 kTmaFanMargins{70.0f, 70.0f, 16.0f, 60.0f};
/// Box rows, one strip per destination CTA with its shared::cta address, one bezier per row block.
[[nodiscard]] OverlayList buildTmaFanOverlay(const Camera2D& cam, glm::vec2 viewport, const TmaFan& f,
                                             const std::string& instrText);

} // namespace layoutscope::views
