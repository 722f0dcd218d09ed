#pragma once
/// CellCanvas: shows a grid of cells, an overlay (axis labels, legend) and a hover inspector, and
/// handles pan (drag), zoom (wheel, around the cursor) and fit (double-click). What the cells mean
/// comes from callbacks set by the owner.
///
/// Drawing: with OpenGL (a GlSurface, a native GL window covering the canvas: CellRenderer, one draw
/// call for all cells, plus a Dear ImGui overlay) when the platform supports it; otherwise (Qt's
/// offscreen/minimal platforms, or LAYOUTSCOPE_NO_GL=1) a raster fallback that draws the cells as one scaled
/// image.
#include "scene/camera2d.hpp"
#include "scene/overlay.hpp"
#include "scene/path_primitives.hpp"
#include "scene/row_fold.hpp"

#include <QElapsedTimer>
#include <QImage>
#include <QWidget>
#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace layoutscope::views {

class GlSurface;

/// True when this process can draw the canvases with OpenGL (a GL 3.3 core context on a platform
/// with GL windows: not Qt's offscreen/minimal ones).
[[nodiscard]] bool glWidgetsSupported();

class CellCanvas : public QWidget {
    Q_OBJECT
  public:
    using OverlayFn = std::function<OverlayList(const Camera2D&, glm::vec2 viewport)>;
    using InspectFn = std::function<std::string(uint32_t x, uint32_t y)>;

    explicit CellCanvas(QWidget* parent = nullptr);
    ~CellCanvas() override;

    /// New cells (w x h texels, row-major). Keeps the camera unless the grid size changes.
    void setCells(uint32_t w, uint32_t h, std::vector<Rgba8> texels, ShadeParams params);
    /// Cells across and down of the grid as drawn (the camera's world): setCells' size, or the folded
    /// size when a row fold lays its rows out in bands (setRowFolding; rowFold() maps between the two).
    [[nodiscard]] glm::uvec2 cellCount() const { return {m_w, m_h}; }
    /// Cells across and down of the grid given to setCells.
    [[nodiscard]] glm::uvec2 gridCellCount() const { return {m_srcW, m_srcH}; }
    void setOverlay(OverlayFn fn) { m_overlayFn = std::move(fn); }
    void setInspector(InspectFn fn) { m_inspectFn = std::move(fn); }
    void setMargins(glm::vec4 marginsPx) { m_margins = marginsPx; }
    /// Margins that depend on the canvas size (e.g. a banner that wraps to more lines when narrow):
    /// asked again at each fit, so a resize keeps text off the cells. Overrides setMargins.
    void setMarginsFn(std::function<glm::vec4(glm::vec2 viewport)> fn) { m_marginsFn = std::move(fn); }
    /// A message shown in the middle of the canvas (e.g. scenario errors); empty text hides it.
    void setMessage(std::string title, std::string text);
    /// Fit the whole grid in the view (also on double-click), or the fit region when one is set.
    void fitView();
    /// What fitView shows: cells [lo, hi) (e.g. Tensor Memory's allocated columns), nullopt: the whole
    /// grid; `mode` Fill stretches the cells so the region fills the pane (x and y zoom apart; picking
    /// and hover follow). Refits unless the user moved the camera.
    void setFitRegion(std::optional<std::pair<glm::vec2, glm::vec2>> region,
                      Camera2D::FitMode mode = Camera2D::FitMode::Square);
    /// The whole-grid fit keeps square cells unless they would make the grid narrower than `px` (and the
    /// pane has that room): then the grid is stretched across the pane (x and y zoom apart, rows squeezed),
    /// so a tall buffer in a short pane is an overview, not a narrow column (issue 24 item 7). 0: off.
    void setMinGridWidth(float px) { m_minGridWidth = px; }
    /// The whole-grid fit may make rows up to `factor` times as tall as a cell is wide when square cells
    /// would leave the pane's height mostly empty (a 2 KiB buffer: 16 rows of 128 B in a 400-px pane were 3
    /// px each, under 60 px of a 400-px pane). 1: square cells only.
    void setMaxRowStretch(float factor) { m_maxRowStretch = std::max(1.0f, factor); }
    /// A tall grid whose square-cell fit would leave most of the pane's width empty is folded: its rows
    /// are laid out in bands side by side, `gapPx` apart (the next band's row labels go there), when that
    /// makes the cells at least 1.25x larger (chooseRowFold; issue 24 item 7). Chosen again at each whole-
    /// grid fit. Every cell given to or reported by the canvas (setMarker, setSelection, setHighlights,
    /// cellAt, cellCentre, hoveredCell, cellClicked, the inspector) is a grid cell; only the camera, the
    /// overlay's camera and cellCount() are in drawn cells (rowFold() maps). 0: off.
    void setRowFolding(float gapPx);
    [[nodiscard]] const RowFold& rowFold() const { return m_fold; }
    /// Outline cells [lo, hi) (e.g. the element or bytes linked to what the other view hovers).
    void setMarker(std::optional<std::pair<glm::uvec2, glm::uvec2>> cells);
    [[nodiscard]] const std::optional<std::pair<glm::uvec2, glm::uvec2>>& marker() const { return m_marker; }
    /// The linked selection: cell ranges [lo, hi) outlined in the selection colour (at most
    /// kMaxSelectionRects are drawn, so a frame never costs one call per selected cell).
    void setSelection(std::vector<std::pair<glm::uvec2, glm::uvec2>> ranges);
    [[nodiscard]] const std::vector<std::pair<glm::uvec2, glm::uvec2>>& selection() const {
        return m_selection;
    }
    static constexpr size_t kMaxSelectionRects = 256;
    /// A lesson step's highlighted cells (issue 16): ranges [lo, hi) outlined in kLessonHighlightColour,
    /// with a "lesson highlight" legend entry where the overlay has room (at most kMaxSelectionRects drawn).
    void setHighlights(std::vector<std::pair<glm::uvec2, glm::uvec2>> ranges);
    [[nodiscard]] const std::vector<std::pair<glm::uvec2, glm::uvec2>>& highlights() const {
        return m_highlights;
    }
    /// The part of the linked selection's path over this canvas (see path_primitives.hpp): pieces in
    /// window coordinates, `origin` = this canvas's top-left there. Repaints only on a change.
    void setPathPieces(std::vector<PathPiece> pieces, glm::vec2 origin, int phase);
    /// Overlay of this frame: the owner's overlay plus the hover and marker outlines.
    [[nodiscard]] OverlayList frameOverlay(glm::vec2 viewport) const;

    /// The inspector's current text (empty when nothing is hovered). For tests and accessibility.
    [[nodiscard]] QString inspectorText() const { return QString::fromStdString(m_inspectorText); }
    /// Where the pointer was last seen over the canvas (widget coordinates), and the cell there.
    [[nodiscard]] QPointF hoverPos() const { return m_hoverPos; }
    [[nodiscard]] const std::optional<glm::uvec2>& hovered() const { return m_hover; }
    /// The cell under a widget position, if any.
    [[nodiscard]] std::optional<glm::uvec2> cellAt(QPointF pos) const;
    /// Widget position of the centre of cell (x, y).
    [[nodiscard]] QPointF cellCentre(uint32_t x, uint32_t y) const;
    [[nodiscard]] const Camera2D& camera() const { return m_cam; }
    /// Show the world at `origin` with `zoom` (this canvas keeps its viewport), as a user pan/zoom
    /// would: kept on resize and new cells of the same size. Emits nothing (cameraChanged is for the
    /// user's own moves), so canvases can mirror each other without loops.
    void setView(glm::vec2 origin, float zoom);
    /// What the GL window shows, rendered afresh (null on the raster fallback). See window_grab.hpp.
    [[nodiscard]] QImage grabGl();
    /// True when drawing with OpenGL, false on the raster fallback.
    [[nodiscard]] bool usesGl() const { return m_useGl; }
    /// Mean paint time (CPU side) over recent frames, milliseconds.
    [[nodiscard]] double frameMs() const { return m_frameMs; }
    /// GL draw calls of the last frame: 1 for all the cells + the ImGui overlay's draw commands (0 on the
    /// raster fallback).
    [[nodiscard]] int drawCallsLastFrame() const { return m_drawCalls; }
    /// Re-run the inspector for the hovered cell (after the cells changed).
    void refreshInspector();
    /// Draw again (e.g. after View > Theme changed the canvas colours).
    void refreshView() { repaintView(); }

  signals:
    void hoveredCell(int x, int y); ///< -1, -1 when the cursor leaves the grid
    /// A left click (press and release within 4 px, no drag) on cell (x, y); -1, -1 outside the grid.
    void cellClicked(int x, int y);
    void framePainted(double ms);
    /// The user panned, zoomed or fitted the view (drag, wheel, double-click).
    void cameraChanged();

  protected:
    void paintEvent(QPaintEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void leaveEvent(QEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void showEvent(QShowEvent* e) override;

  private:
    friend class GlSurface;
    void updateHover(QPointF pos);
    void repaintView();
    void recordFrame(double ms);
    /// m_texels / m_w / m_h (what is drawn) from the grid's texels through m_fold.
    void applyFold(RowFold fold);
    /// Grid cells [lo, hi) as drawn rectangles (one per band they cross).
    [[nodiscard]] std::vector<std::pair<glm::vec2, glm::vec2>> drawnRects(glm::uvec2 lo,
                                                                          glm::uvec2 hi) const {
        return m_fold.drawnRects(glm::vec2(lo), glm::vec2(hi));
    }

    GlSurface* m_gl = nullptr; ///< made on the first show
    bool m_useGl = false;
    Camera2D m_cam;
    std::vector<Rgba8> m_texels;    ///< as drawn (folded when m_fold is)
    uint32_t m_w = 0, m_h = 0;      ///< as drawn
    std::vector<Rgba8> m_srcTexels; ///< as given to setCells, while folded (else m_texels holds them)
    uint32_t m_srcW = 0, m_srcH = 0;
    float m_foldGapPx = 0.0f; ///< setRowFolding
    RowFold m_fold;
    ShadeParams m_params;
    glm::vec4 m_margins{40, 40, 10, 10};
    std::optional<std::pair<glm::vec2, glm::vec2>> m_fitRegion;
    Camera2D::FitMode m_fitMode = Camera2D::FitMode::Square; ///< of m_fitRegion
    float m_minGridWidth = 0.0f;                             ///< setMinGridWidth
    float m_maxRowStretch = 1.0f;                            ///< setMaxRowStretch
    std::function<glm::vec4(glm::vec2)> m_marginsFn;
    bool m_dirty = false;      ///< texels changed since the last upload
    bool m_userCamera = false; ///< the user panned/zoomed: keep the camera on resize
    bool m_dragging = false;
    QPointF m_lastPos, m_hoverPos, m_pressPos;
    std::vector<std::pair<glm::uvec2, glm::uvec2>> m_selection;
    std::vector<std::pair<glm::uvec2, glm::uvec2>> m_highlights; ///< lesson highlight
    std::optional<glm::uvec2> m_hover;
    std::vector<PathPiece> m_path;
    glm::vec2 m_pathOrigin{0};
    int m_pathPhase = 0;
    std::optional<std::pair<glm::uvec2, glm::uvec2>> m_marker;
    std::string m_inspectorText, m_msgTitle, m_msgText;
    OverlayFn m_overlayFn;
    InspectFn m_inspectFn;
    double m_frameMs = 0.0;
    int m_drawCalls = 0;
};

} // namespace layoutscope::views
