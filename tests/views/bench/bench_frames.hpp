#pragma once
// views_bench's frame measures (bench_frames.cpp): playing a trace one step per frame in the real window,
// the bundled tcgen05 examples with Tensor Memory shown, and the editor's longest stall while typing.
#include "bench_util.hpp"
#include "main_window.hpp"

#include <string>
#include <vector>

namespace layoutscope::views::bench {

struct FrameResult {
    Stats frame, seek;
    int smemCalls = 0, tmemCalls = 0, frames = 0, smemFrames = 0, tmemFrames = 0;
    double smemPaint = 0, tmemPaint = 0;
};

/// Play the window's trace from step 1, one step per frame, until `frames` frame intervals: a frame is a
/// step that the shared-memory canvas and (when visible) the Tensor Memory canvas have both painted; the
/// next step starts as soon as it is out.
FrameResult playFrames(MainWindow& w, int frames);

struct ExampleFrames {
    std::string name;
    bool tmemShown = false; ///< the window showed the Tensor Memory dock for it
    FrameResult play;
};
/// Every bundled example `tcgen05_*.scn` (and the other examples that use Tensor Memory) opened in `w` and
/// played `frames` frames (issue 25 item 11: frames with Tensor Memory shown).
std::vector<ExampleFrames> playTcgen05Examples(MainWindow& w, int frames);

/// Issue 25 item 11: open `file` in a fresh window, type a comment line by line (4 rounds of 7 keys, each
/// round's re-check landing) with a 2 ms probe timer on the event loop; the longest gap between its ticks
/// (ms) and how many re-checks landed.
struct Stall {
    double worstMs = 0;
    int rechecks = 0;
};
Stall editorStall(const QString& file);

} // namespace layoutscope::views::bench
