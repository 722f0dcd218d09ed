#pragma once
/// Registers scene: the registers of the warp(s) executing the tcgen05.st / tcgen05.ld shown at a
/// step (PTX ISA 9.2 §9.7.16.8.3-4), or of the warpgroup a wgmma.mma_async writes D into (§9.7.15.5.1.1).
/// Pure C++ (no Qt, no GL).
///
/// Cells: x = register index j (0 .. regCount-1), y = 32 * (warp row) + %laneid. Each register is
/// linked to the TMEM cell its moves touch (the first one for .pack::16b / .unpack::16b, which
/// touch two cells). Colour = the TMEM cell's provenance colour (registerColour for a store; the
/// TMEM scene's colour of the source cell for a load); registers the instruction has not reached
/// yet are dimmed.
#include "scene/tmem_scene.hpp"

#include "layoutscope/analysis/mma_values.hpp"
#include "layoutscope/scenario/scenario.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace layoutscope::views {

struct RegLink {
    uint32_t x = 0, y = 0; ///< register cell
    TmemCellRef tmem;      ///< the TMEM cell it maps to
    int32_t move = -1;     ///< index into trace.moves
    bool computed = false; ///< wgmma D: the instruction computed the register (no TMEM cell; `tmem` unused)
};

struct RegScene {
    bool valid = false;
    uint32_t instr = 0;
    bool store = true; ///< tcgen05.st (registers -> TMEM) or tcgen05.ld
    uint32_t cta = 0;
    std::vector<uint32_t> warps; ///< warp id in CTA of each row block of 32 threads
    uint32_t regCount = 0;
    std::vector<Rgba8> texels;    ///< regCount x 32*warps.size()
    std::vector<RegLink> links;   ///< sorted by (y, x); one per register cell that has a move
    uint64_t fragmentDiffers = 0; ///< registers marked kFlagDiffers by markFragment
    uint64_t fragmentRegs = 0;    ///< registers the load wrote (threads x its vector), when marked
    std::string fragmentShape;    ///< the shape of the epilogue's fragment (`expect fragment`), if stated
    /// wgmma.mma_async (sm_90a): the registers hold D, computed (PTX ISA 9.2 §9.7.15.5.1.1); each cell is
    /// coloured by D's (row, column), as the TMEM view colours a tcgen05.mma accumulator.
    bool wgmma = false;
    uint64_t dDiffers = 0; ///< D registers marked kFlagDiffers by markWgmmaD (a value check's wrong elements)
    uint64_t dRegs = 0;    ///< D registers the value check compared, when marked
    [[nodiscard]] uint32_t width() const { return regCount; }
    [[nodiscard]] uint32_t height() const { return 32 * static_cast<uint32_t>(warps.size()); }
    [[nodiscard]] const RegLink* linkAt(uint32_t x, uint32_t y) const;
    /// The register cell linked to a TMEM cell (first match), if any.
    [[nodiscard]] std::optional<glm::uvec2> registerOf(TmemCellRef c) const;
};

/// The tcgen05.st/ld instruction the view shows at `step`: the last one whose first step is < step,
/// else the first one; nullopt when the trace has none.
[[nodiscard]] std::optional<uint32_t> regInstrAt(const Document& doc, uint32_t step);
/// The same from the document's register instructions listed once (registerInstrs): a binary search
/// per step instead of a pass over every instruction (10,000 of them in the views benchmark).
[[nodiscard]] std::vector<uint32_t> registerInstrs(const Document& doc);
[[nodiscard]] std::optional<uint32_t> regInstrAt(const Trace& t, const std::vector<uint32_t>& regInstrs,
                                                 uint32_t step);

/// The `expect fragment` in force at each tcgen05.ld of the document (by instruction index; the
/// document's text parsed once): what the epilogue assumes those registers hold.
[[nodiscard]] std::map<uint32_t, FragmentExpectation> fragmentExpectations(const Document& doc);
/// Marks (kFlagDiffers) the registers of a tcgen05.ld scene that hold another TMEM cell than the
/// fragment its epilogue assumes (analysis/fragment.hpp, the run check's own comparison).
void markFragment(const Document& doc, const std::map<uint32_t, FragmentExpectation>& expect, RegScene& r);

/// Marks (kFlagDiffers) the D registers of a wgmma scene holding an element that differs from the product of
/// the tiles: the run's value check (`checks` = analysis/mma_values.hpp wgmmaDValues of the document).
void markWgmmaD(const std::vector<MmaDCheck>& checks, RegScene& r);
/// Inspector lines of a wgmma D register (x, y): which D elements it holds and their values at the scene's
/// step, and the value check's expectation with its error and tolerance when `checks` has this wgmma.
[[nodiscard]] std::string wgmmaRegisterText(const Document& doc, const RegScene& r,
                                            const std::vector<MmaDCheck>& checks, uint32_t x, uint32_t y);

/// Registers of instruction `instr` at `step`; `tmem` (same step) supplies the colours of loaded cells.
[[nodiscard]] RegScene regSceneAt(const Document& doc, uint32_t instr, uint32_t step, const TmemScene& tmem);

} // namespace layoutscope::views
