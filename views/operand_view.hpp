#pragma once
/// OperandView: the "Operand" dock (issue 12 item 5). One consumer operand of the document (wgmma A/B,
/// tcgen05.mma A/B, tcgen05.cp; picked in a combo box) as an m x k grid in a CellCanvas, each cell coloured
/// by the global element it reads (the shared-memory view's colour map), mismatched reads marked, with
/// the consumer check's diagnostic and the list of every mismatched cell (click: select the cell).
///
/// The grid comes from the engine's operandGrid (analysis/operand_grid.hpp), which shares its code with
/// the check that writes the diagnostic, so the dock's count is the diagnostic's.
/// MainWindow wiring: construct once (the dock adds itself, hidden), setDocument on every document,
/// applyVisibility after a saved layout is restored; cellHovered / cellSelected drive the linking.
#include "cell_canvas.hpp"
#include "layoutscope/analysis/operand_grid.hpp"
#include "scene/document.hpp"
#include "scene/operand_scene.hpp"
#include "scene/smem_scene.hpp"

#include <QObject>
#include <optional>
#include <vector>

class QComboBox;
class QDockWidget;
class QLabel;
class QListWidget;
class QMainWindow;

namespace layoutscope::views {

class OperandView : public QObject {
    Q_OBJECT
  public:
    explicit OperandView(QMainWindow* window);
    ~OperandView() override;

    /// A new document: lists its consumer operands and shows the first with mismatches (else the
    /// first). Without any, the dock hides. `doc` must outlive the next setDocument.
    void setDocument(const Document* doc);
    /// Show operand `index` of operands().
    void showOperand(int index);
    /// Outline cell (x = column, y = row), scroll the mismatch list to it, and emit cellSelected.
    void selectCell(uint32_t x, uint32_t y);
    /// Show the dock exactly when the document has a consumer operand.
    void applyVisibility();

    [[nodiscard]] bool hasConsumer() const { return !m_operands.empty(); }
    [[nodiscard]] const std::vector<ConsumerOperandRef>& operands() const { return m_operands; }
    [[nodiscard]] const std::optional<OperandGrid>& grid() const { return m_grid; }
    [[nodiscard]] const OperandScene& scene() const { return m_scene; }
    /// Mismatched cells the dock marks (and lists).
    [[nodiscard]] size_t mismatchCount() const { return m_scene.mismatched; }
    [[nodiscard]] QDockWidget* dock() const { return m_dock; }
    [[nodiscard]] CellCanvas* canvas() const { return m_canvas; }
    [[nodiscard]] QComboBox* picker() const { return m_picker; }
    [[nodiscard]] QListWidget* mismatchList() const { return m_list; }
    [[nodiscard]] QLabel* diagnosticLabel() const { return m_diag; }

  signals:
    /// The cell under the cursor (-1, -1: none).
    void cellHovered(int x, int y);
    /// A cell was clicked or picked in the mismatch list (-1, -1: cleared).
    void cellSelected(int x, int y);
    /// The user picked another operand (not emitted by setDocument: the window is mid-update then).
    void operandShown();

  private:
    void fillList();
    QMainWindow* m_window;
    QDockWidget* m_dock = nullptr;
    CellCanvas* m_canvas = nullptr;
    QComboBox* m_picker = nullptr;
    QLabel* m_diag = nullptr;
    QLabel* m_listTitle = nullptr;
    QListWidget* m_list = nullptr;
    const Document* m_doc = nullptr;
    const Scenario* m_scenario = nullptr; ///< the document's (Document::scenario), or nullptr
    std::vector<ConsumerOperandRef> m_operands;
    std::optional<OperandGrid> m_grid;
    OperandScene m_scene;
    std::optional<BoxFrame> m_frame; ///< the producing TMA load's box (colour map)
    std::string m_title;
    std::string m_shownPath; ///< the dock was raised for this file (an edit keeps the user's tab)
};

} // namespace layoutscope::views
