#pragma once
/// TmemViews: the Tensor Memory, Registers and Decompression docks of the main window (each a
/// CellCanvas: one GL draw call for the cells + an ImGui overlay), with the multicast fans drawn over
/// the TMEM view and a linked selection register <-> TMEM cell.
///
/// MainWindow wiring: construct once with the window (the docks add themselves, hidden until a
/// document has Tensor Memory moves) and call onStep(doc, step, smemScene) from its onStep.
#include "cell_canvas.hpp"
#include "layoutscope/tcgen05/exec.hpp"
#include "scene/decomp_scene.hpp"
#include "scene/multicast_fans.hpp"
#include "scene/reg_scene.hpp"
#include "scene/replay_cache.hpp"
#include "scene/smem_scene.hpp"
#include "scene/tma_fans.hpp"
#include "scene/tmem_expected.hpp"
#include "scene/tmem_scene.hpp"
#include "scene/tmem_scene_cache.hpp"

#include <QObject>
#include <map>
#include <memory>

class QDockWidget;
class QMainWindow;
class QToolBar;

namespace layoutscope::views {

/// Pixels of cells the Tensor Memory view keeps at least (its minimum height less the margins): one per
/// lane, so the 128 lanes are an overview with each 32-lane quarter labelled (issue 24 item 7).
inline constexpr float kTmemMinGridHeight = 128.0f;

class TmemViews : public QObject {
    Q_OBJECT
  public:
    explicit TmemViews(QMainWindow* window);
    ~TmemViews() override;

    /// Show `doc` at `step`; `smem` (same step) gives cp-copied cells the colour of their source bytes.
    void onStep(const Document* doc, uint32_t step, const SmemScene& smem);

    [[nodiscard]] CellCanvas* tmemView() const { return m_tmem; }
    [[nodiscard]] CellCanvas* registerView() const { return m_regs; }
    [[nodiscard]] CellCanvas* decompView() const { return m_decomp; }
    [[nodiscard]] QDockWidget* tmemDock() const { return m_tmemDock; }
    [[nodiscard]] QDockWidget* decompDock() const { return m_decompDock; }
    [[nodiscard]] QDockWidget* tmaFanDock() const { return m_tmaFanDock; }
    [[nodiscard]] const TmaFan& tmaFan() const { return m_tmaFan; }
    [[nodiscard]] const TmemScene& tmemScene() const { return m_tmemScene; }
    [[nodiscard]] const RegScene& regScene() const { return m_regScene; }
    /// Grid cell of a TMEM cell in the TMEM view (nullopt when that CTA is not shown).
    [[nodiscard]] std::optional<glm::uvec2> tmemCellOf(uint32_t cta, uint32_t lane, uint32_t column) const {
        return m_tmemScene.gridOf({cta, lane, column});
    }

    /// True when the document shown moves data to or from Tensor Memory or registers.
    [[nodiscard]] bool hasTmem() const { return m_hasTmem; }
    /// Show exactly the docks the document needs (after MainWindow restores a saved layout).
    void applyVisibility();
    /// Tensor Memory toolbar toggle (default on): the TMEM view fits the allocated columns, not all 512.
    void setFitToAllocation(bool on);
    [[nodiscard]] bool fitToAllocation() const { return m_fitAlloc; }
    /// Tensor Memory toolbar toggle (default off): colour checked tcgen05.mma accumulators by D's value.
    void setDByValue(bool on);
    [[nodiscard]] bool dByValue() const { return m_dByValue; }

  signals:
    /// The TMEM cell under the cursor (cta -1 when none).
    void tmemCellHovered(int cta, int lane, int column);
    /// The register under the cursor (thread in CTA, register index; -1 when none).
    void registerHovered(int thread, int reg);

  public slots:
    /// Outline TMEM cell (cta, lane, column) and its register (linked selection); cta < 0 clears.
    void selectTmemCell(int cta, int lane, int column);
    /// Outline register cell (x = register, y = row) and its TMEM cell; x < 0 clears.
    void selectRegisterCell(int x, int y);

  private:
    void resetDocument(const Document* doc);
    void updateDecomp(uint32_t step);

    QMainWindow* m_window;
    CellCanvas* m_tmem = nullptr;
    CellCanvas* m_regs = nullptr;
    CellCanvas* m_decomp = nullptr;
    CellCanvas* m_tmaFanView = nullptr;
    QDockWidget* m_tmaFanDock = nullptr;
    TmaFan m_tmaFan;
    std::vector<BoxFrame> m_frames;
    bool m_hasTmaFan = false;
    QDockWidget* m_tmemDock = nullptr;
    QDockWidget* m_regDock = nullptr;
    QDockWidget* m_decompDock = nullptr;
    const Document* m_doc = nullptr;
    bool m_hasTmem = false;
    std::vector<uint32_t> m_regInstrs; ///< tcgen05.ld/st instructions of the document (registerInstrs)
    std::unique_ptr<ReplayCache<TmemReplay>> m_tmemReplay; ///< Tensor Memory at the step shown
    std::unique_ptr<Replay> m_smemReplay;                  ///< source chunks of the decompression view
    TmemScene m_tmemScene;
    RegScene m_regScene;
    std::map<uint32_t, FragmentExpectation> m_fragments; ///< `expect fragment` per tcgen05.ld (markFragment)
    TmemExpectations m_expected; ///< tcgen05.cp cells that hold another element than the tile
    MulticastFans m_fans;
    DecompScene m_decompScene;
    std::string m_decompTitle;
    bool m_hasDecomp = false;
    bool m_hasFans = false;
    std::unique_ptr<TmemSceneCache> m_cache; ///< incremental TMEM scene (checkpoints) for scrubbing
    uint32_t m_cacheCta = 0;
    uint32_t m_step = 0; ///< last onStep's step and CTA (what a right-click export shows)
    uint32_t m_cta = 0;
    bool m_hasRegs = false;
    bool m_hasWgmmaD = false;             ///< a wgmma.mma_async writes D into registers (Registers dock only)
    std::vector<MmaDCheck> m_wgmmaChecks; ///< their value checks (wgmmaDValues), for marks and the inspector
    std::vector<MmaDCheck> m_mmaChecks;   ///< tcgen05.mma value checks (mmaDValues): D cells marked, hover
    bool m_fitAlloc = true;
    bool m_dByValue = false;
    const SmemScene* m_lastSmem = nullptr; ///< the SMEM scene of the last onStep (MainWindow's; re-colouring)
    uint32_t m_allocEnd = 0;               ///< first column after every allocation of the document (0: none)
    QToolBar* m_toolBar = nullptr;         ///< "Fit to allocation", shown with the TMEM dock
    void updateFitRegion();
    /// Columns fitted to the allocations: their end rounded up to 32, in [32, 512].
    [[nodiscard]] uint32_t allocColumns() const;
    /// What the view shows of a pair's scene: each CTA's allocated columns only (Fit to allocation on),
    /// else the whole 2 x 512 columns.
    [[nodiscard]] TmemScene pairShown(const TmemScene& full) const;
    TmemScene m_tmemFull; ///< a pair's whole scene (ctaCount 2), narrowed into m_tmemScene; else empty
    /// What the docks were last raised and sized for: an edit of the same file (typing) must not
    /// raise the Registers tab over the scenario editor again (issue 15).
    std::string m_raisedPath;
    bool m_raisedTmem = false, m_raisedRegs = false;
};

} // namespace layoutscope::views
