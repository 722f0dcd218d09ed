#pragma once
/// The Breakpoints dock (issue 16 item 4): a list of breakpoints (scene/breakpoints.hpp) that stop
/// Playback while it plays: when the selected cell is written, when a shared access's bank conflicts
/// exceed N, when a rule flagged unverified is used. The stop's reason goes to the status bar.
#include "scene/breakpoints.hpp"

#include <QWidget>
#include <functional>

class QListWidget;
class QSpinBox;

namespace layoutscope::views {

class MainWindow;
class Playback;

class BreakpointPanel : public QWidget {
    Q_OBJECT
  public:
    /// `doc`: the document shown now (may change; the bank model is re-run when it does).
    /// `selection`: the locations of the cell selected in a view (empty: none).
    BreakpointPanel(Playback* pb, std::function<const Document*()> doc,
                    std::function<std::vector<DataLoc>()> selection, QWidget* parent = nullptr);
    void addBreakpoint(Breakpoint b);
    void removeBreakpoint(size_t i);
    [[nodiscard]] const std::vector<Breakpoint>& breakpoints() const { return m_bps; }
    /// The first stop after `after` in the current document (what Playback asks while playing).
    [[nodiscard]] std::optional<BreakHit> nextStop(uint32_t after);

  signals:
    void message(const QString& text);

  private:
    void rebuildList();
    Playback* m_pb;
    std::function<const Document*()> m_doc;
    std::function<std::vector<DataLoc>()> m_selection;
    std::vector<Breakpoint> m_bps;
    const Document* m_excessDoc = nullptr; ///< the document m_excess was computed for
    std::string m_excessText;              ///< and its text (a new document may reuse the address)
    std::vector<uint32_t> m_excess;
    QListWidget* m_list;
    QSpinBox* m_n;
};

/// Add the Breakpoints dock to `w` (tabbed with the event list), wire it to w's playback and status bar.
BreakpointPanel* addBreakpointDock(MainWindow& w);
/// Shift+Left / Shift+Right and the timeline's instruction buttons: w's playback steps to the
/// previous / next instruction boundary of the document shown (scene/breakpoints.hpp).
void installInstructionStepping(MainWindow& w);

} // namespace layoutscope::views
