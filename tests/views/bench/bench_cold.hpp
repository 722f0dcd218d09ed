#pragma once
// views_bench's cold starts (bench_cold.cpp): each a child process of the same binary (--cold-child MODE
// [FILE]), timed from just before the parent starts it (LS_T0_NS, CLOCK_MONOTONIC) to its first frames.
#include <QString>
#include <cstdint>
#include <string>
#include <vector>

namespace layoutscope::views::bench {

/// `n` 64x64 fp16 SWIZZLE_128B TMA tile loads of distinct tiles (engine_bench's loads10k, each with its
/// expect-tx and wait: 3n + 1 instructions): 512 moves each.
[[nodiscard]] std::string loadsScenario(int n);

/// Child mode (argv[1] == "--cold-child"): `mode` synthetic | small | file | file-sync; `file` for the
/// file modes. Prints its times (ms) on stdout and returns 0 when it reached the frame it waits for.
int coldChild(const std::string& mode, const QString& file, int64_t tMain);

struct ColdStarts {
    /// Synthetic 10,000-step document (setDocument; both canvases' first frame), its build, exec -> main().
    std::vector<double> synth, synthDoc, synthMain;
    std::vector<double> small; ///< the small tcgen05.st document, both canvases' first frame
    /// The 10,000-load file opened as the app opens it (openFileInBackground): the window's first frame
    /// (the centre view saying "Loading"), the document's first frame, and the UI thread's time in the call.
    std::vector<double> fileFirst, fileDoc, fileCall;
    /// The same file opened synchronously (openFile: parse, run and the views' passes on the UI thread).
    std::vector<double> syncFirst, syncCall;
};

/// `rounds` of the four children, interleaved (the two file ones in the first two rounds only); `file` is
/// the 10,000-load scenario.
[[nodiscard]] ColdStarts runColdStarts(int rounds, const QString& file);

} // namespace layoutscope::views::bench
