#pragma once
/// MainWindow: the shared-memory view in the centre; the global-tensor view, the scenario editor
/// with its diagnostics, the event list, the swizzle explorer, the Tensor Memory views and the
/// timeline in docks. Document -> Playback -> views (views pull). The layout, geometry, theme and
/// last file persist through AppSettings.
#include "app_settings.hpp"
#include "cell_canvas.hpp"
#include "layoutscope/ptx/module.hpp"
#include "path_overlay.hpp"
#include "playback.hpp"
#include "scene/document.hpp"
#include "scene/replay_cache.hpp"
#include "scene/selection.hpp"
#include "scene/smem_colour.hpp"
#include "scene/smem_scene.hpp"
#include "scene/smem_scene_cache.hpp"
#include "scene/smem_tile_overlay.hpp"
#include "timeline_widget.hpp"
#include "tmem_views.hpp"

#include <QMainWindow>
#include <memory>

class QComboBox;
class QDockWidget;
class QLabel;
class QPushButton;
class QListWidget;
class QMenu;
class QPlainTextEdit;

namespace layoutscope::views {

class EditorDock;
class ScenarioChecker;
class EventList;
class GlobalPane;
class OperandView;
class PathOverlay;
class SourcePane;

/// Pixels a window manager's title bar takes above a window (frame geometry minus geometry).
inline constexpr int kTitleBarAllowance = 40;
/// The main window's first size on a screen whose available area is `available`: 1600x980, or less
/// so the framed window fits (issue 24 item 7).
[[nodiscard]] QSize initialWindowSize(QSize available);

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Show a document (takes ownership). A document without a trace shows its diagnostics.
    /// `keepStep`: an edit of the same scenario (keep the step and CTA, do not touch the editor).
    /// Out of memory while building the views shows an error diagnostic instead (no abort).
    void setDocument(std::unique_ptr<Document> doc, bool keepStep = false);
    /// Open a scenario file. It becomes AppSettings' last file only once a frame of it is drawn
    /// (or the window closes normally); until then a sentinel says it is being opened.
    void openFile(const QString& path);
    /// openFile without blocking the window (issue 25 item 11): the file is read here, its parse + run and
    /// the views' passes over every move run on a worker while the centre view says "Loading"; the document
    /// arrives on the event loop and shows as openFile's would. A PTX module, a kernel scenario (its own
    /// progress dialog) or a file that cannot be read goes through openFile. openFile cancels a pending one.
    void openFileInBackground(const QString& path);
    /// Whether an openFileInBackground's document is still to come.
    [[nodiscard]] bool loading() const;
    /// A PTX module (`nvcc -ptx`): the scaffold of one of its kernels opens as an untitled scenario (the
    /// kernel picked from a list when there are several; docs/ptx-modules.md). False when `path` is not a
    /// module that reads cleanly (openFile then shows its diagnostics).
    bool openPtxScaffold(const QString& path);
    // --- Real kernels (issue 22 item 4; main_window_kernel.cpp) ---
    /// File > Open of a .ptx: the launch dialog (launch_dialog.hpp); its `kernel` scenario opens untitled,
    /// or the scaffold when chosen. False when `path` is not a module that reads (openFile shows why).
    bool openPtx(const QString& path);
    /// The Source dock: the PTX and CUDA lines of the current step's instruction (source_pane.hpp).
    [[nodiscard]] SourcePane* sourcePane() const { return m_sourcePane; }
    [[nodiscard]] QDockWidget* sourceDock() const { return m_sourceDock; }
    /// A .ptx that does not read or check: its text (if any) in the editor with its diagnostics.
    bool showPtxProblems(const QString& path, const std::string& text, std::vector<Diagnostic> ds);
    /// The module at `path`, read and checked (main_window_open.cpp); nullopt after its problems were shown,
    /// or with `handled` false when it defines no kernel.
    std::optional<PtxModule> readCheckedPtx(const QString& path, bool& handled);
    /// Read the open file again (it changed on disk); keeps the step when the scenario still has it.
    void reloadFile(const QString& path);
    /// Start-up without --scenario: open the newest file with a pending recovery (crash) and offer it;
    /// an untitled or deleted file's recovery is offered as text. False when there is none.
    bool openPendingRecovery();
    /// A message in the status bar (e.g. why the last file was not reopened).
    void showNote(const QString& text);

    [[nodiscard]] const Document* document() const { return m_doc.get(); }
    [[nodiscard]] CellCanvas* smemView() const { return m_smem; }
    /// The CTA whose shared memory the centre view shows (%cluster_ctarank).
    [[nodiscard]] uint32_t smemCta() const { return m_cta; }
    [[nodiscard]] CellCanvas* globalView() const { return m_global; }
    /// The scenes the centre and global views show now (e.g. to map a click to memory: lesson_dock.hpp).
    [[nodiscard]] const SmemScene& smemScene() const { return m_smemScene; }
    [[nodiscard]] const GlobalScene& globalScene() const { return m_globalScene; }
    /// The global dock's slice pickers (around globalView()).
    [[nodiscard]] GlobalPane* globalPane() const { return m_globalPane; }
    [[nodiscard]] Playback* playback() const { return m_playback; }
    [[nodiscard]] EditorDock* editorDock() const { return m_editor; }
    /// The status bar's diagnosis: red with the first error (amber for warnings only), hidden when the
    /// document has no diagnostics; a click goes to the line and the first wrong cell (issue 24 item 6).
    [[nodiscard]] QPushButton* diagnosisButton() const { return m_diagButton; }
    /// What a click on the diagnosis does: the editor at the first error's line, the first cell that
    /// differs from an observation selected in the views.
    void goToFirstError();
    [[nodiscard]] EventList* eventList() const { return m_events; }
    [[nodiscard]] QDockWidget* swizzleDock() const { return m_swizzleDock; }
    /// Shared-memory toolbar: colour mode and 16-B chunk granularity of the centre view.
    void setSmemColouring(SmemColourBy by, bool chunks);
    /// View > Theme: the widgets' palette and the editor's colours; remembered in AppSettings.
    void setTheme(Theme t);
    [[nodiscard]] TmemViews* tmemViews() const {
        return m_tmemViews;
    } ///< TMEM / registers / decompression docks
    /// Every diagnostic as shown in the Diagnostics list, one per line.
    [[nodiscard]] QString diagnosticsText() const;
    /// SMEM view cell of a shared::cta byte address (for tests and "go to address").
    [[nodiscard]] std::optional<glm::uvec2> smemCellOf(uint32_t addr) const;
    /// Global view cell of the element at (c0, c1) along the slice's across/down dims (the other
    /// dims at the slice's coordinates), if shown.
    [[nodiscard]] std::optional<glm::uvec2> globalCellOf(int32_t c0, int32_t c1) const;
    /// Global view cell of tensor coordinate `c` (dim 0 first), if it is in the shown slice.
    [[nodiscard]] std::optional<glm::uvec2> globalCellOf(const std::array<int32_t, 5>& c) const;

    // --- Linked selection, bank heat and swizzle atoms (main_window_links.cpp) ---
    /// Select the data at a cell, as a click on it does: every view outlines the same data and the
    /// path between the views is drawn. Selecting an empty cell clears the selection.
    void selectSmemCell(uint32_t x, uint32_t y);
    void selectGlobalCell(uint32_t x, uint32_t y);
    void selectTmemCell(uint32_t gridX, uint32_t gridY);
    void selectRegisterCell(uint32_t x, uint32_t y);
    void clearSelection();
    [[nodiscard]] const LinkedData& linkedData() const { return m_linked; }
    /// The locations of the cell last clicked (the start of linkedData()); Breakpoints dock.
    [[nodiscard]] const std::vector<DataLoc>& selectedLocs() const { return m_selectedLocs; }
    [[nodiscard]] PathOverlay* pathOverlay() const { return m_path; }
    /// Bank-conflict heat map in the centre view for a warp access pattern (nullopt: off). The
    /// pattern starts at the element of the last clicked byte of a tile (else element (0, 0)).
    void setBankHeat(std::optional<AccessPattern> p);
    [[nodiscard]] const std::optional<SmemHeat>& bankHeatShown() const { return m_heat; }
    void setShowSwizzleAtoms(bool on);
    /// The Operand dock (issue 12 item 5: a consumer operand as an m x k grid; operand_view.hpp).
    [[nodiscard]] OperandView* operandView() const { return m_operandView; }
    /// Hovering operand cell (x, y) outlines the shared-memory bytes it reads and the global element
    /// there (the global view shows the producing TMA load); x < 0 clears the outlines.
    void markOperandCell(int x, int y);
    /// Select the data operand cell (x, y) reads, as a click on those shared-memory bytes does.
    void selectOperandCell(int x, int y);
    [[nodiscard]] const std::vector<SwizzleAtom>& swizzleAtomsShown() const { return m_atoms; }

  protected:
    void keyPressEvent(QKeyEvent* e) override;
    void showEvent(QShowEvent* e) override;
    void closeEvent(QCloseEvent* e) override;

  private:
    using CellRange = std::pair<glm::uvec2, glm::uvec2>;
    std::optional<CellRange> globalMarkerOfSmemCell(uint32_t x, uint32_t y) const;
    std::optional<CellRange> smemMarkerOfGlobalCell(uint32_t x, uint32_t y) const;
    void buildUi();
    /// Examples menu, event list, swizzle explorer, export animation, theme (main_window_panels.cpp).
    void buildPanels(QMenu* file, QMenu* view);
    void buildDiagnosisButton(); ///< the status bar's red diagnosis (main_window_panels.cpp)
    void onStep(uint32_t step);  ///< drawStep; out of memory: an error message instead of an abort
    void drawStep(uint32_t step);
    void applyDocument(std::unique_ptr<Document> doc, bool keepStep); ///< setDocument, unguarded
    /// The memory at the step shown, starting at the last step (`atEnd`) and keeping the initial memory.
    [[nodiscard]] std::unique_ptr<ReplayCache<Replay>> keptReplay(std::unique_ptr<Replay> atEnd) const;
    void finishOpening(); ///< openFile's file drew a frame: record it as the last file
    /// openFile's last half: show `doc` (read from `abs`) in the editor and the views.
    void showOpened(const QString& abs, std::unique_ptr<Document> doc);
    ScenarioChecker* m_loader = nullptr; ///< openFileInBackground's worker (parse, run, prepareViews)
    struct Loading {
        QString path;   ///< absolute; empty: nothing loading
        QByteArray raw; ///< the file's bytes as read (EditorDock::adoptFile)
    } m_loading;
    struct Opening {
        QString path;          ///< absolute; empty: none pending
        bool remember = false; ///< it read and parsed (becomes the last file)
    } m_opening;
    void updateTitle();
    /// "tma", "tcgen05" or "mixed" for the document shown (empty: no trace). Layouts are kept per kind.
    [[nodiscard]] QString layoutKind() const;
    /// After a document of another kind: keep `before` as the old kind's layout, restore the new one's.
    void switchLayoutKind(const QByteArray& before);
    // Which panes a document uses, dock corners (main_window_fit.cpp; issue 24 item 7).
    [[nodiscard]] bool usesGlobalView() const; ///< a TMA tile copy to show (or no trace: the reason)
    void applyPaneVisibility(); ///< show exactly the docks the document uses (after a layout restore too)
    void applyDockCorners();    ///< left and right columns full height, bottom docks under the centre
    void sizeDockColumns(); ///< first show: the left and right columns' widths (the centre's minimum kept)
    /// The first show's sizes for a TMA example, the timeline at its own height (a window first shown with a
    /// tcgen05 example, switching to TMA: main_window_fit.cpp).
    void sizeTmaLayout();
    QString m_layoutKind;    ///< kind of the layout shown (saved under it when the kind changes)
    QByteArray m_firstState; ///< the layout at the first show: a kind without a saved layout starts from it
    QString m_firstKind; ///< the layout kind m_firstState was made for ("": the window showed no document)
    void exportPngDialog();
    void updateStatus();

    std::unique_ptr<Document> m_doc;
    std::unique_ptr<ReplayCache<Replay>> m_replay; ///< memory at the step shown (scene/replay_cache.hpp)
    std::vector<BoxFrame> m_frames;
    SmemScene m_smemScene;
    GlobalScene m_globalScene;
    Playback* m_playback = nullptr;
    CellCanvas* m_smem = nullptr;
    CellCanvas* m_global = nullptr;
    GlobalPane* m_globalPane = nullptr; ///< slice pickers around m_global (the "Global tensor" dock)
    TimelineWidget* m_timeline = nullptr;
    EditorDock* m_editor = nullptr;
    QLabel* m_status = nullptr;
    QString m_traceNote; ///< traceBudgetNote of the document's trace (empty: all of it recorded)
    QPushButton* m_diagButton = nullptr;
    void updateDiagnosis();
    QDockWidget* m_globalDock = nullptr;
    QDockWidget* m_srcDock = nullptr;
    QDockWidget* m_swizzleDock = nullptr;
    QDockWidget* m_eventDock = nullptr;
    EventList* m_events = nullptr;
    bool m_sized = false;
    QComboBox* m_ctaBox = nullptr;
    uint32_t m_cta = 0;                             ///< CTA whose shared memory the centre view shows
    SmemColourBy m_colourBy = SmemColourBy::Source; ///< View toolbar: what the SMEM cells' colour means
    bool m_chunks = false;                          ///< View toolbar: 16-B chunk granularity
    TmemViews* m_tmemViews = nullptr; ///< gui-tmem: Tensor Memory, Registers, Decompression docks
    SmemSceneCache m_smemCache;
    // Linked selection, bank heat and swizzle atoms (main_window_links.cpp).
    void buildLinks();
    /// Clears selections and links; the tiles are `prepared` when given (built on the re-check's worker),
    /// else computed here.
    void resetLinks(std::vector<SmemTile>* prepared = nullptr);
    void applySmemLayers(uint32_t step); ///< onStep: atoms and heat texels, before m_smem->setCells
    void showSelection(uint32_t step);   ///< onStep: outlines in every view and the path
    void selectLocs(std::vector<DataLoc> start);
    std::vector<PathPiece> pathSegments() const;
    std::vector<SmemTile> m_smemTiles;
    std::vector<SwizzleAtom> m_atoms;
    bool m_showAtoms = true;
    std::optional<AccessPattern> m_heatPattern;
    std::optional<uint32_t> m_heatAnchor; ///< shared::cta address the heat pattern starts at
    std::optional<SmemHeat> m_heat;
    LinkedData m_linked;
    std::vector<DataLoc> m_selectedLocs;  ///< selectLocs' start
    OperandView* m_operandView = nullptr; ///< the Operand dock (made in buildLinks)
    bool showOperandProducer();           ///< the global view shows the operand's TMA load (pins it)
    /// Shows what the Operand dock's operand reads from: the centre view moves to the CTA whose half of a
    /// pair operand it is, the global view to its TMA load; redraws what moved.
    void revealOperand();
    PathOverlay* m_path = nullptr; ///< gui-tmem: smemSceneAt without replaying from step 0 (scrubbing)
    // Real kernels (main_window_kernel.cpp).
    void buildSourcePane(QMenu* view);
    void showKernelSource(bool newDocument); ///< applyDocument: the Source dock follows the document
    void noteOrigin(uint32_t instr);         ///< a clicked byte: its instruction's PTX / CUDA line
    SourcePane* m_sourcePane = nullptr;
    QDockWidget* m_sourceDock = nullptr;
};

} // namespace layoutscope::views
