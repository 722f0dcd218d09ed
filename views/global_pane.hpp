#pragma once
/// GlobalPane: the "Global tensor" dock's widget. A small toolbar that picks the 2-D slice of an
/// N-D tensor (the dims across and down, a coordinate for every other dim, and optionally which
/// TMA copy to show) above the global CellCanvas. The owner builds the scene from slice().
#include "scene/document.hpp"
#include "scene/global_scene.hpp"

#include <QWidget>
#include <optional>
#include <vector>

class QComboBox;
class QHBoxLayout;
class QLabel;
class QSpinBox;

namespace layoutscope::views {

class CellCanvas;

class GlobalPane : public QWidget {
    Q_OBJECT
  public:
    /// Wraps `canvas` (re-parented into the pane, below the toolbar).
    explicit GlobalPane(CellCanvas* canvas, QWidget* parent = nullptr);

    /// A new document: the tile picker lists its TMA copies; the next showTile resets the slice.
    void setDocument(const Document* doc);
    /// The copy the view shows now. The pickers are rebuilt (and the slice reset to defaultSlice)
    /// only when its tensor differs from the last one's (kind, rank or shape), so a slice chosen by
    /// hand survives playback across copies of the same tensor. Emits nothing.
    void showTile(const InstrTile* tile);
    [[nodiscard]] const GlobalSlice& slice() const { return m_slice; }
    /// Set the slice as if picked by hand (tests, "go to"); emits sliceChanged when it changes.
    void setSlice(const GlobalSlice& s);
    /// The instruction chosen in the tile picker, or nullopt: follow the timeline.
    [[nodiscard]] std::optional<uint32_t> pinnedInstr() const;
    /// Choose copy `instr` in the tile picker (nullopt: "auto"), as the user would; emits nothing.
    void pinTile(std::optional<uint32_t> instr);

    [[nodiscard]] QComboBox* acrossBox() const { return m_across; }
    [[nodiscard]] QComboBox* downBox() const { return m_down; }
    /// The spin box of the coordinate of dim `d` (nullptr when d is across/down or not in the tensor).
    [[nodiscard]] QSpinBox* fixedSpin(int d) const;

  signals:
    void sliceChanged(const GlobalSlice& slice);
    /// The tile picker changed (another copy, or back to following the timeline).
    void tileChosen();

  private:
    void rebuildPickers();
    void onAxisChanged(bool across, int index);

    CellCanvas* m_canvas = nullptr;
    QWidget* m_bar = nullptr;
    QComboBox* m_across = nullptr;
    QComboBox* m_down = nullptr;
    QWidget* m_fixedBar = nullptr; ///< second toolbar row: the fixed dims' spin boxes
    QHBoxLayout* m_fixedRow = nullptr;
    std::vector<QWidget*> m_fixedWidgets; ///< labels and spin boxes of the current fixed dims
    std::vector<QSpinBox*> m_spins;       ///< per dim, nullptr where none
    QLabel* m_tileLabel = nullptr;
    QComboBox* m_tileBox = nullptr;
    GlobalSlice m_slice;
    InstrTile m_shape; ///< the tile whose tensor the pickers describe (kind, map, default slice)
    bool m_hasShape = false;
};

} // namespace layoutscope::views
