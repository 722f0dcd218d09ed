#pragma once
/// PreparedViews: what MainWindow::applyDocument would otherwise build on the event loop for a new
/// document, each a pass over every move: the box frames, a Replay at the last step, the shared-memory
/// scene cache at the last step of CTA 0 and the loaded tiles; and the async lanes' timeline. The editor's
/// re-check builds them on its worker thread (ScenarioChecker), so typing in a 10,000-instruction file does
/// not stall the window on them (issue 11 item 4). Plain C++ (no Qt).
#include "layoutscope/async/timeline.hpp"
#include "layoutscope/core/trace.hpp"
#include "scene/smem_scene.hpp"
#include "scene/smem_scene_cache.hpp"
#include "scene/smem_tiles.hpp"

#include <memory>
#include <vector>

namespace layoutscope::views {

struct PreparedViews {
    std::vector<BoxFrame> frames;   ///< boxFrames(doc)
    std::unique_ptr<Replay> replay; ///< over doc's trace, at its last step
    SmemSceneCache smem;            ///< at (last step, CTA 0, no fade trail), over `frames`
    std::vector<SmemTile> tiles;    ///< smemTiles(doc): the loaded tiles the links and bank heat use
    /// orderTimeline(doc's scenario, run): the timeline's async lanes. It feeds the whole run to the async
    /// model again (seconds for 10,000 tile loads: issue 25 item 11), so never on the event loop.
    async::Timeline order;
};

/// A Replay over `doc`'s trace at its last step. A document run from a scenario whose every instruction was
/// traced ends with the run's final shared and global memory (the trace records every byte they change), so
/// that state is taken as it is instead of applying every move (5.1 M for 10,000 tile loads, ~0.25 s: issue
/// 25 item 11); otherwise (a trace stopped at its budget, a hand-built document) the moves are replayed.
[[nodiscard]] std::unique_ptr<Replay> replayAtEnd(const Document& doc);

/// Builds them for `doc` (which must outlive the result and not move). Reads `doc` only: any thread may
/// call it. nullptr when the document has no trace.
/// `twoThreads`: the async lanes on a second thread beside the rest (a file's open, where the window waits
/// for the document; the editor's re-check keeps one, so the event loop keeps the other core while typing).
[[nodiscard]] std::unique_ptr<PreparedViews> prepareViews(const Document& doc, bool twoThreads = false);

} // namespace layoutscope::views
