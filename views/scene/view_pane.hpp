#pragma once
/// One view of the window (shared memory, global tensor, Tensor Memory, registers, decompression,
/// TMA multicast) at a step, as a self-contained pane: the cells, the shader parameters, the margins
/// and the overlay function the window's canvas uses, for exporting any view on its own (PNG through
/// export_view.hpp, SVG through svg_writer.hpp). Pure C++ + GLM (no Qt): built with the same scene
/// and overlay builders as MainWindow and TmemViews.
#include "scene/camera2d.hpp"
#include "scene/decomp_scene.hpp"
#include "scene/overlay.hpp"
#include "scene/smem_colour.hpp"
#include "scene/tmem_scene.hpp"

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace layoutscope::views {

/// What to export. All = the composite of today's File > Export PNG (global tensor + shared memory).
enum class ExportView { All, Smem, Global, Tmem, Registers, Decompression, Multicast };

inline constexpr std::array<ExportView, 7> kExportViews = {
    ExportView::All,       ExportView::Smem,          ExportView::Global,   ExportView::Tmem,
    ExportView::Registers, ExportView::Decompression, ExportView::Multicast};

/// Command-line name: all, smem, global, tmem, registers, decompression, multicast.
[[nodiscard]] std::string_view exportViewName(ExportView v);
/// Window title of the view ("Tensor Memory", "Multicast (TMA)", ...).
[[nodiscard]] std::string_view exportViewTitle(ExportView v);
[[nodiscard]] std::optional<ExportView> exportViewFromName(std::string_view name);
/// "all|smem|global|tmem|registers|decompression|multicast".
[[nodiscard]] std::string exportViewNameList();

/// Settings of the window that change what a view shows.
struct ViewOptions {
    uint32_t cta = 0; ///< whose shared memory (and Tensor Memory) is shown, %cluster_ctarank
    SmemColourBy colourBy = SmemColourBy::Source;
    bool chunks = false; ///< shared memory at 16-B chunk granularity
    /// Colour reference of each instruction (boxFrames); null: the document's own. The compare mode
    /// passes frames shared by all its documents so one element has one colour in every pane.
    const std::vector<BoxFrame>* frames = nullptr;
};

struct ViewPane {
    ExportView view = ExportView::Smem;
    uint32_t w = 0, h = 0;
    std::vector<Rgba8> texels; ///< w * h
    ShadeParams shade;         ///< zoom is the camera's
    glm::vec4 margins{0.0f};   ///< as CellCanvas::setMargins
    std::function<OverlayList(const Camera2D&, glm::vec2 viewport)> overlay;
    /// Margins that depend on the pane's size (a legend that wraps to more lines when narrow), as
    /// CellCanvas::setMarginsFn; empty: `margins`.
    std::function<glm::vec4(glm::vec2 viewport)> marginsFn;
    [[nodiscard]] glm::vec4 marginsAt(glm::vec2 viewport) const {
        return marginsFn ? marginsFn(viewport) : margins;
    }
};

/// A pane, or why the scenario has no such view (e.g. "this scenario writes no Tensor Memory").
struct ViewPaneResult {
    std::optional<ViewPane> pane;
    std::string error;
};

/// The view `v` (not All) of `doc` at `step` (clamped to the trace).
[[nodiscard]] ViewPaneResult buildViewPane(const Document& doc, ExportView v, uint32_t step,
                                           const ViewOptions& opt = {});

/// The camera a canvas of `viewport` pixels shows the whole pane with (CellCanvas::fitView).
[[nodiscard]] Camera2D fitPaneCamera(const ViewPane& p, glm::vec2 viewport);

/// The SVG of a single view: `size` enlarged so that cells are at least `minCellPx` pixels (a
/// vector image: labels are thinned for that cell size, not for the window's).
struct ViewSvg {
    bool ok = false;
    std::string svg;   ///< the document
    std::string error; ///< why not
};
[[nodiscard]] ViewSvg viewSvg(const Document& doc, ExportView v, uint32_t step, glm::vec2 size,
                              const ViewOptions& opt = {}, float minCellPx = 8.0f);

// Shared with the window's docks (TmemViews) so the export shows exactly what they show.

/// TMEM cells copied from shared memory take the SMEM view's colour of their source byte when a copy
/// (TMA) wrote it into `smem`'s CTA; `doc` and `smem` must outlive the returned function.
[[nodiscard]] SmemColourFn smemSourceColours(const Document& doc, const SmemScene& smem);

/// The Decompression view at `step`: the 16-B chunk of the last decompressing tcgen05.cp move
/// (read from `smem`, a Replay of the document seeked here) and its title; nullopt when none.
struct DecompView {
    DecompScene scene;
    std::string title;
};
[[nodiscard]] std::optional<DecompView> decompViewAt(const Document& doc, uint32_t step, Replay& smem);

/// True when the trace moves anything to or from Tensor Memory (the TMEM views exist); register moves alone
/// (a wgmma's D, a recorded kernel's `poke` stores) do not count: Hopper has no Tensor Memory.
[[nodiscard]] bool hasTmemMoves(const Document& doc);

} // namespace layoutscope::views
