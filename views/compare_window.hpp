#pragma once
/// CompareWindow (issue 14 item 5): two or more scenarios side by side, one column per scenario
/// (shared memory, and Tensor Memory under it when the scenario has one), driven together:
///   * one position slider: step i of each scenario (clamped), or the state after instruction i;
///   * a pan or zoom of one canvas is mirrored on the canvases of the same kind (shared camera);
///   * a click on a shared-memory cell selects, in every pane, the cells holding the same logical
///     element (scene/compare_scene.hpp: the tensor element, from the trace's byte moves);
///   * cells are classed against the first scenario by logical element (compare_scene.hpp): different
///     (kFlagDiffers, magenta) or reshuffled (kFlagReshuffled, muted), counts in badges and legends;
///   * the metrics table of `layoutscope-cli compare` in a dock, rows that differ highlighted, rows at 0
///     in every scenario left out.
/// File > Export comparison writes PNG + SVG of the panes and the Markdown table (compare_export.hpp).
#include "cell_canvas.hpp"
#include "compare_export.hpp"
#include "scene/compare_scene.hpp"

#include <QMainWindow>
#include <QStringList>
#include <functional>
#include <optional>

class QComboBox;
class QMenu;
class QLabel;
class QSlider;
class QSpinBox;
class QTableWidget;

namespace layoutscope::views {

class CompareWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit CompareWindow(const QStringList& files, QWidget* parent = nullptr);
    ~CompareWindow() override;

    [[nodiscard]] size_t paneCount() const { return m_smem.size(); }
    [[nodiscard]] CellCanvas* smemCanvas(size_t i) const { return m_smem[i]; }
    /// Null when scenario i has no Tensor Memory.
    [[nodiscard]] CellCanvas* tmemCanvas(size_t i) const { return m_tmem[i]; }
    [[nodiscard]] QTableWidget* metricsTable() const { return m_table; }
    /// Metric rows the table leaves out: 0 in every scenario (as `layoutscope-cli compare` does).
    [[nodiscard]] const QStringList& hiddenMetrics() const { return m_hiddenMetrics; }
    [[nodiscard]] const CompareSet& compareSet() const { return m_set; }
    [[nodiscard]] const std::vector<ComparePanes>& panes() const { return m_panes; }

    /// The timeline position (see CompareSync) and how it maps to each scenario's step.
    void setPosition(uint32_t pos);
    [[nodiscard]] uint32_t position() const { return m_pos; }
    void setSync(CompareSync sync);
    [[nodiscard]] uint32_t lastPosition() const;

    /// Select the element held by cell (x, y) of pane `pane`'s shared memory in every pane (an
    /// unwritten cell clears the selection), as a click does.
    void selectCell(size_t pane, uint32_t x, uint32_t y);
    [[nodiscard]] const std::optional<ElementKey>& selectedElement() const { return m_selected; }

    /// File > Export comparison: `<base>.png/.svg/.md` at the canvases' size.
    [[nodiscard]] ExportResult exportTo(const QString& path, QSize size) const;

  private:
    void buildUi(const QStringList& files);
    void buildMetricsDock();
    void refresh();
    void showSelection();
    void mirrorCamera(CellCanvas* from, bool tmem);
    void exportDialog();

    CompareSet m_set;
    std::vector<std::vector<BoxFrame>> m_frames;
    std::vector<ComparePanes> m_panes;
    std::vector<CellCanvas*> m_smem, m_tmem;
    CompareSync m_sync = CompareSync::Step;
    uint32_t m_pos = 0;
    std::optional<ElementKey> m_selected;
    bool m_marks = true;          ///< mark the differing cells (the export always marks them)
    bool m_reshuffleMarks = true; ///< tint the reshuffled cells (the export always tints them)
    QSlider* m_slider = nullptr;
    QSpinBox* m_spin = nullptr;
    QComboBox* m_syncBox = nullptr;
    QLabel* m_steps = nullptr;
    QTableWidget* m_table = nullptr;
    QStringList m_hiddenMetrics;
};

/// A CompareWindow of `files` on its own (deleted when closed), shown.
CompareWindow* openCompareWindow(const QStringList& files);
/// File > "Compare with...": pick scenarios to compare with `currentPath()` (the open file; empty:
/// pick two or more).
void addCompareAction(QMenu* file, QWidget* parent, std::function<QString()> currentPath);

/// `layoutscope --compare FILE... [--export OUT] [--step N]`: with `exportPath`, the headless export
/// (returns the exit status: 0, 1 when a scenario does not run or a file cannot be written); without,
/// opens a CompareWindow and returns -1 (the caller runs the event loop).
int runCompareCommand(const QStringList& files, const QString& exportPath, QSize size,
                      std::optional<uint32_t> pos);

} // namespace layoutscope::views
