#pragma once
/// Inspector text of the Tensor Memory and Registers views (pure C++, testable without a GPU).
#include "layoutscope/tcgen05/exec.hpp"
#include "scene/reg_scene.hpp"
#include "scene/tmem_scene.hpp"

#include <string>

namespace layoutscope::views {

/// "open questions 3, 28" from a rule's reference text ("... open-questions.md 3, 28"); empty if none.
[[nodiscard]] std::string openQuestionsOf(const char* reference);

/// One 32-bit TMEM value decoded: "f32 1.5; f16x2 (lo, hi) 0, 1.875; e4m3x4 ..." and, for a move that
/// decompressed into the cell, the four containers as e2m1 (4-bit) or e2m3 / e3m2 (6-bit).
[[nodiscard]] std::string decodeTmemValue(uint32_t v, Transform t);

/// Text for grid cell (x, y) of the TMEM scene; `tmem` is the replayed state at the scene's step.
[[nodiscard]] std::string inspectTmemCell(const Document& doc, const TmemScene& s, const TmemState& tmem,
                                          uint32_t x, uint32_t y);

/// Text for register cell (x, y) of the register scene.
[[nodiscard]] std::string inspectRegisterCell(const Document& doc, const RegScene& r, const TmemScene& s,
                                              const TmemState& tmem, uint32_t x, uint32_t y);

} // namespace layoutscope::views
