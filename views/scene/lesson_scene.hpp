#pragma once
/// Lessons in the views (issue 16 items 1-2): which lesson step the timeline is at, where the
/// learner pauses, the cells a step highlights in each view and the LessonPlace a click names.
/// Plain C++ + GLM (no Qt), so the mapping is testable without a window.
#include "layoutscope/lesson/lesson.hpp"
#include "scene/global_scene.hpp"
#include "scene/reg_scene.hpp"
#include "scene/smem_scene.hpp"
#include "scene/tmem_scene.hpp"

#include <optional>
#include <utility>
#include <vector>

namespace layoutscope::views {

/// Cell ranges [lo, hi) of a view grid (as CellCanvas::setSelection takes them).
using CellRanges = std::vector<std::pair<glm::uvec2, glm::uvec2>>;

/// Trace position (Replay::seek argument) of every lesson step, in order (lessonTraceStep).
[[nodiscard]] Result<std::vector<uint32_t>> lessonPositions(const Lesson& l, const Run& run);

/// The lesson step the captions show when the timeline is at trace step `t`: among the steps whose
/// position is <= t, those with the latest position; `current` when it is one of them (Back/Next between
/// steps at one position do not jump), else the first of them. Before every step: step 0.
[[nodiscard]] size_t lessonStepAt(const std::vector<uint32_t>& positions, uint32_t t, size_t current);

/// Playing from trace step `from` to `to` (from < to): the first step that pauses (`pause: yes`, or a
/// question) whose position lies in (from, to], if any.
[[nodiscard]] std::optional<size_t> pauseStepBetween(const Lesson& l, const std::vector<uint32_t>& positions,
                                                     uint32_t from, uint32_t to);

/// A caption as Markdown for display: a `*` between digits or parentheses (`3*128`, `(0 ^ 3)*16`) is a
/// multiplication, not emphasis, so it is escaped (outside code spans); everything else is kept.
[[nodiscard]] std::string captionForDisplay(const std::string& caption);

/// Cells (x, y) as ranges, runs along x merged, duplicates dropped.
[[nodiscard]] CellRanges mergeCellRuns(std::vector<glm::uvec2> cells);

/// Highlighted bytes of the shared-memory window shown (its CTA only).
[[nodiscard]] CellRanges smemHighlightCells(const SmemScene& s, const std::vector<LessonCells>& cells);
/// Global-view cells whose element has a highlighted byte (the shown tensor's addresses).
[[nodiscard]] CellRanges globalHighlightCells(const GlobalScene& g, const std::vector<LessonCells>& cells);
/// Highlighted Tensor Memory cells of the CTAs the TMEM view shows.
[[nodiscard]] CellRanges tmemHighlightCells(const TmemScene& t, const std::vector<LessonCells>& cells);

/// Highlighted registers of the Registers view (its CTA and warps; register j of thread t is cell
/// (j, 32 * row of t's warp + t % 32), as RegScene lays them out).
[[nodiscard]] CellRanges regHighlightCells(const RegScene& r, const std::vector<LessonCells>& cells);

/// The byte a click on shared-memory cell (x, y) names (nullopt outside the window).
[[nodiscard]] std::optional<LessonPlace> smemPlaceAt(const SmemScene& s, uint32_t x, uint32_t y);
/// The first byte (first bits, sub-byte types) of the element at global-view cell (x, y): its virtual
/// address from the tensor map (base + c0 * element size + sum c[d] * stride[d-1]); nullopt for gap cells
/// and elements outside the tensor.
[[nodiscard]] std::optional<LessonPlace> globalPlaceAt(const GlobalScene& g, uint32_t x, uint32_t y);
/// The 32-bit cell (lane, column) at TMEM-view grid cell (x, y) (nullopt in the gap between CTAs).
[[nodiscard]] std::optional<LessonPlace> tmemPlaceAt(const TmemScene& t, uint32_t x, uint32_t y);

/// The register at Registers-view cell (x, y): thread (warp of row y / 32) * 32 + y % 32, register x, in
/// LessonPlace's register form (thread << 16 | register * 4); nullopt outside the grid or with no scene.
[[nodiscard]] std::optional<LessonPlace> regPlaceAt(const RegScene& r, uint32_t x, uint32_t y);

} // namespace layoutscope::views
