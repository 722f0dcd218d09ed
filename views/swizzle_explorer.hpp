#pragma once
/// Swizzle explorer: pick a TMA swizzle mode and an element size; see which address bits are XORed,
/// the CuTe Swizzle<B,M,S> in byte and element form, the 16-B chunk permutation over one repeat
/// period, and a logical row-major tile (coloured by (row, col)) next to where it lands physically.
/// Scene logic: scene/swizzle_scene.hpp (tested without Qt).
#include "scene/bank_scene.hpp"
#include "scene/swizzle_scene.hpp"

#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;

namespace layoutscope::views {

class CellCanvas;

class SwizzleExplorer : public QWidget {
    Q_OBJECT
  public:
    explicit SwizzleExplorer(QWidget* parent = nullptr);
    void setMode(TensorSwizzle mode);
    void setElemBytes(uint32_t bytes);
    [[nodiscard]] TensorSwizzle mode() const;
    [[nodiscard]] uint32_t elemBytes() const;
    /// The CuTe line, e.g. "CuTe  Sw<3,4,3> on bytes  |  Sw<3,3,3> on 2-B elements".
    [[nodiscard]] QString cuteText() const;
    [[nodiscard]] QString bitText() const;
    /// Wavefronts of the chosen warp access pattern over a 64-row tile in this mode (banks.hpp).
    [[nodiscard]] QString bankText() const;
    [[nodiscard]] CellCanvas* canvas() const { return m_canvas; }
    /// Canvas cell of logical element (row, col) and of the physical slot it lands in.
    [[nodiscard]] std::optional<std::pair<QPoint, QPoint>> cellsOfElement(uint32_t row, uint32_t col) const;

  private:
    void rebuild();
    [[nodiscard]] std::string inspect(uint32_t x, uint32_t y) const;

    QComboBox* m_modeBox = nullptr;
    QComboBox* m_elemBox = nullptr;
    QLabel* m_cute = nullptr;
    QLabel* m_bits = nullptr;
    QLabel* m_chunks = nullptr;
    QComboBox* m_patternBox = nullptr;
    QLabel* m_bank = nullptr;
    CellCanvas* m_canvas = nullptr;
    SwizzleInfo m_info;
    std::optional<SwizzleTile> m_tile;
    uint32_t m_physX0 = 0; ///< first canvas column of the physical image
};

} // namespace layoutscope::views
